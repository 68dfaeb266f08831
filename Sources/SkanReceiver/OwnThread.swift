#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread of the C library's, started for one long-running job and ended with it. The receiver's writer and
/// counters run on these rather than on Dispatch's pool: a thread whose priority the counter lowers must not go
/// back to a pool that would run other work on it at that priority.
enum OwnThread {
    /// Starts a detached thread running `body`.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Job(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t?
        let result = pthread_create(&thread, &attributes, { Self.run($0) }, box)
        #else
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { Self.run($0) }, box)
        #endif
        precondition(result == 0, "cannot start a thread (error \(result))")
    }

    private final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private static func run(_ box: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let box else { return nil }
        Unmanaged<Job>.fromOpaque(box).takeRetainedValue().body()
        return nil
    }
}
