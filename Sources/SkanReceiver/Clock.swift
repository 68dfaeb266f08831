#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The receiver's two clocks: a monotonic one for deadlines and latencies, the wall clock for receipt times.
enum Clock {
    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Unix seconds, UTC.
    static func epochSeconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int(time.tv_sec)
    }
}

/// Standard error, for the receiver's log lines.
enum StandardError {
    static func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { systemWrite(2, $0.baseAddress, $0.count) }
    }
}

/// SIGTERM and SIGINT turned into a byte on a pipe that the poll loop watches (the self-pipe trick: a signal
/// handler may only write).
enum StopSignal {
    /// The pipe, made once and never closed (a signal may come at any time); set before the handlers are
    /// installed, and read-only after.
    nonisolated(unsafe) private static var pipe: WakePipe?
    /// Its write end, for the handler (which can capture nothing).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs the handlers; the pipe to watch.
    static func install() throws(ReceiverFailure) -> WakePipe {
        let made: WakePipe
        if let pipe {
            made = pipe
        } else {
            made = try WakePipe()
        }
        pipe = made
        writeEnd = made.writeEnd
        let handler: @convention(c) (Int32) -> Void = { _ in
            var byte: UInt8 = 1
            _ = systemWrite(StopSignal.writeEnd, &byte, 1)
        }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
        // A parent may start the receiver with these signals blocked (a blocked mask is inherited through
        // exec): unblocked here, or SIGTERM would never stop it.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGTERM)
        sigaddset(&unblocked, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        return made
    }
}

/// The C library's `write`, named apart from the methods called `write` here.
@inline(__always)
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
