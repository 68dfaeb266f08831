import SkanFiles
import SkanHTTP

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One keep-alive HTTP/1.1 connection to a destination, on a blocking socket with a deadline for every step:
/// a request out, its answer's status back. A connection that fails in any way is closed, and the next request
/// opens a new one.
final class ForwardClient {
    let destination: ForwardDestination
    /// Seconds to connect, and to send a request and read its answer.
    let timeout: Double
    private var descriptor: Int32 = -1

    init(_ destination: ForwardDestination, timeout: Double = 10) {
        self.destination = destination
        self.timeout = timeout
    }

    deinit {
        disconnect()
    }

    /// What became of one send: the answer's status, or why there was none.
    enum Outcome: Equatable {
        case answered(Int)
        case failed(String)
    }

    /// POSTs `body` to `path` (after the destination's prefix) as `application/json`.
    func post(_ body: ArraySlice<UInt8>, path: String) -> Outcome {
        if descriptor < 0, let failure = connect() { return .failed(failure) }
        let head =
            "POST \(destination.pathPrefix)\(path) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nUser-Agent: skanc-forward\r\n\r\n"
        guard send(Array(head.utf8) + body) else {
            let failure = "cannot send (\(systemReason()))"
            disconnect()
            return .failed(failure)
        }
        var parser = HTTPResponseParser()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            do {
                if let answer = try parser.answer() {
                    if !answer.keepsAlive { disconnect() }
                    return .answered(answer.status)
                }
            } catch {
                disconnect()
                return .failed(error.reason)
            }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                let failure =
                    errno == EAGAIN || errno == EWOULDBLOCK
                    ? "no answer within \(Int(timeout)) s" : "cannot read the answer (\(systemReason()))"
                disconnect()
                return .failed(failure)
            }
            if count == 0 { parser.closed() } else { parser.feed(chunk[..<count]) }
        }
    }

    private var hostHeader: String {
        let host = destination.host.contains(":") ? "[\(destination.host)]" : destination.host
        return "\(host):\(destination.port)"
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                systemSend(descriptor, $0.baseAddress! + sent, $0.count - sent)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Opens the connection within `timeout`; the reason when it cannot.
    private func connect() -> String? {
        guard
            case (var storage, let length, let family)? = Socket.address(host: destination.host, port: destination.port)
        else {
            return "\(destination.host) is not an IP address"
        }
        #if canImport(Darwin)
        let socketDescriptor = socket(family, SOCK_STREAM, 0)
        #else
        let socketDescriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard socketDescriptor >= 0 else { return "cannot open a socket (\(systemReason()))" }
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(socketDescriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        Socket.setNonBlocking(socketDescriptor)
        let started = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(socketDescriptor, $0, length) }
        }
        if started != 0, errno != EINPROGRESS {
            let failure = "cannot connect to \(hostHeader) (\(systemReason()))"
            close(socketDescriptor)
            return failure
        }
        var descriptors = [pollfd(fd: socketDescriptor, events: Int16(POLLOUT), revents: 0)]
        let ready = poll(&descriptors, 1, Int32(timeout * 1000))
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(socketDescriptor, SOL_SOCKET, SO_ERROR, &error, &size)
        guard ready == 1, error == 0 else {
            close(socketDescriptor)
            return ready == 1
                ? "cannot connect to \(hostHeader) (\(systemReason(error)))"
                : "cannot connect to \(hostHeader) within \(Int(timeout)) s"
        }
        // Blocking from here on, every read and write bounded by the timeout.
        let flags = fcntl(socketDescriptor, F_GETFL, 0)
        _ = fcntl(socketDescriptor, F_SETFL, flags & ~O_NONBLOCK)
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        _ = setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(socketDescriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        Socket.sendWithoutDelay(socketDescriptor)
        descriptor = socketDescriptor
        return nil
    }

    func disconnect() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}

/// The C library's `connect` and `send`, named apart from the methods here.
private func systemConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(socket, address, length)
}

private func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    send(socket, bytes, count, 0)
    #else
    send(socket, bytes, count, Int32(MSG_NOSIGNAL))
    #endif
}
