import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The counter runs below the loop and the writer: when a burst takes every core, acknowledging postbacks goes
/// first and counting catches up after (`skanc_postbacks_uncounted` says how far behind it is).
enum CountingPriority {
    /// The quality of service of the counter's queue (Apple's systems lower the thread by it).
    static let queueService = DispatchQoS.utility

    /// Lowers the calling thread where the queue's quality of service does not: on Linux the nice value is a
    /// thread's own (`setpriority` on the caller, "who" 0, changes the calling thread only, per setpriority(2)).
    static func lowerCurrentThread() {
        #if os(Linux) && canImport(Glibc)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }
}
