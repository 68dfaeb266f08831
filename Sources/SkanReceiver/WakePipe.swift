import SkanFiles

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pipe the poll loop watches so that another thread can wake it: the writer when a batch is durable, the
/// counter when it has counted. Both ends are non-blocking; a full pipe already holds a wake-up, so a write
/// that would block is dropped. The stop signals are written to one too (`StopSignal`).
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(ReceiverFailure) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw ReceiverFailure(.limits, "cannot open a pipe (\(systemReason()))")
        }
        for end in ends { Socket.setNonBlocking(end) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func wake() {
        var byte: UInt8 = 1
        _ = systemWrite(writeEnd, &byte, 1)
    }

    /// Empties the pipe; the loop then looks at whatever it was woken for.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while bytes.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
