import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One keep-alive HTTP/1.1 connection to the receiver on 127.0.0.1, on blocking sockets: requests out, the
/// status and body of each answer back.
final class LoopbackClient {
    private let descriptor: Int32
    private var received: [UInt8] = []

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, connected == 0 else { throw Failure() }
    }

    deinit {
        close(descriptor)
    }

    struct Failure: Error {}

    /// Sends one request and reads its whole answer: the status code and the body.
    func exchange(_ method: String, _ path: String, body: [UInt8] = []) throws -> (status: Int, body: String) {
        let head = "\(method) \(path) HTTP/1.1\r\nHost: test\r\nContent-Length: \(body.count)\r\n\r\n"
        let request = Array(head.utf8) + body
        var sent = 0
        while sent < request.count {
            let count = request.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, $0.count - sent, 0) }
            guard count > 0 else { throw Failure() }
            sent += count
        }
        while true {
            if let end = headerEnd(), let length = contentLength(in: received[..<end]),
                received.count >= end + 4 + length
            {
                let status = Int(String(decoding: received[9..<12], as: UTF8.self)) ?? 0
                let text = String(decoding: received[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                received.removeFirst(end + 4 + length)
                return (status, text)
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure() }
            received += chunk[..<count]
        }
    }

    private func headerEnd() -> Int? {
        guard received.count >= 4 else { return nil }
        return (0...(received.count - 4)).first {
            received[$0] == 13 && received[$0 + 1] == 10 && received[$0 + 2] == 13 && received[$0 + 3] == 10
        }
    }

    private func contentLength(in header: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: header, as: UTF8.self).lowercased()
        guard let range = text.range(of: "content-length: ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}
