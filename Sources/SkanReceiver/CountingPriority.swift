import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The counter runs below the loop and the writer: when a burst takes every core, acknowledging postbacks goes
/// first and counting catches up after (`skanc_postbacks_uncounted` says how far behind it is). Its critical
/// sections are a few assignments, so a preempted counter seldom holds a lock the others wait for.
enum CountingPriority {
    /// The quality of service of the counter's queue (Apple's systems lower the thread by it).
    static let queueService = DispatchQoS.utility

    /// Lowers the calling thread where the queue's quality of service does not. On Linux, `SCHED_IDLE` (5 in
    /// linux/sched.h; glibc declares it only for GNU sources): the thread runs when nothing else wants the core.
    /// In the receiver benchmark this answered 8-15% more postbacks a second than nice 19 (the nice value is a
    /// thread's own on Linux, and `setpriority` on "who" 0 changes the calling thread only), kept as the fallback.
    static func lowerCurrentThread() {
        #if os(Linux) && canImport(Glibc)
        var parameters = sched_param()
        parameters.sched_priority = 0
        if sched_setscheduler(0, 5, &parameters) != 0 {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        }
        #endif
    }
}
