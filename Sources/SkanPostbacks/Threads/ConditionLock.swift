#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutex with one condition, on the C library's threads: the decoding pipeline's workers and the receiver's
/// writer and counter threads wait on it. Sendable because every use holds the mutex.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func acquire() { pthread_mutex_lock(mutex) }
    package func release() { pthread_mutex_unlock(mutex) }
    /// Releases the lock until another thread calls `wakeAll`, then holds it again.
    package func wait() { pthread_cond_wait(condition, mutex) }
    package func wakeAll() { pthread_cond_broadcast(condition) }

    /// As `wait()`, but for at most `seconds` (on the wall clock, which every platform's condition variable
    /// accepts: a clock step only shortens or lengthens this one wait).
    package func wait(seconds: Double) {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + Int((max(0, seconds) * 1e9).rounded())
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = .init(nanoseconds % 1_000_000_000)
        _ = pthread_cond_timedwait(condition, mutex, &deadline)
    }
}

extension ConditionLock {
    /// Runs `body` with the lock held.
    package func holding<Result>(_ body: () throws -> Result) rethrows -> Result {
        acquire()
        defer { release() }
        return try body()
    }
}
