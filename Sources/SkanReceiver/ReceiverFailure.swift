#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why the receiver cannot start or go on.
package struct ReceiverFailure: Error, CustomStringConvertible {
    /// What failed: the store, an address to listen on, the process's limits, or the event loop.
    package enum Kind: Sendable {
        case store, address, limits, loop
    }

    package var kind: Kind
    package var description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

extension Receiver {
    /// Descriptors the receiver needs besides its connections: listeners, pipes, the segment and its times, the
    /// counter's reads, the store's folder, standard streams, with room to spare.
    static let descriptorsBesideConnections = 64

    /// Every connection must have its descriptor: a receiver out of descriptors could not open a segment and
    /// would answer 503 to every postback. The soft limit is raised to the hard one when that is short, else
    /// the receiver refuses to start and says what to change.
    static func checkDescriptorLimit(_ configuration: ReceiverConfiguration) throws(ReceiverFailure) {
        let needed = configuration.maxConnections + configuration.maxAdminConnections + descriptorsBesideConnections
        #if canImport(Glibc)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        guard limit.rlim_cur < rlim_t(needed) else { return }
        // An unlimited hard limit is the largest value, so this covers it too.
        if limit.rlim_max >= rlim_t(needed) {
            limit.rlim_cur = rlim_t(needed)
            if setrlimit(resource, &limit) == 0 { return }
        }
        throw ReceiverFailure(
            .limits,
            "--max-connections \(configuration.maxConnections) needs \(needed) file descriptors, and this process may "
                + "open \(limit.rlim_max) (RLIMIT_NOFILE): raise the limit (LimitNOFILE= in the systemd unit, ulimit -n) "
                + "or lower --max-connections")
    }
}
