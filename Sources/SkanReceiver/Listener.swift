import SkanFiles

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A listening TCP socket, non-blocking, bound to `HOST:PORT` (IPv4, `[IPv6]` or `localhost`; port 0 picks a
/// free one, read back in `address`).
package struct Listener {
    package let descriptor: Int32
    /// `HOST:PORT` as bound, with the port chosen.
    package let address: String

    /// Why an address cannot be listened on.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// `HOST:PORT` split; nil when it is not one.
    package static func split(_ text: String) -> (host: String, port: UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        return (host == "localhost" ? "127.0.0.1" : host, port)
    }

    /// Whether `text` is an IPv4 or IPv6 address.
    package static func isAddress(_ text: String) -> Bool { canonicalAddress(text) != nil }

    /// An IP address in the one form `accept` gives peers: IPv6 compressed (`0:0::1` is `::1`), an IPv4-mapped
    /// IPv6 address as its IPv4 address (a dual-stack listener sees `127.0.0.1` as `::ffff:127.0.0.1`); nil when
    /// `text` is no IP address. Addresses compare equal exactly when the hosts are the same.
    package static func canonicalAddress(_ text: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return Socket.text(v4) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        return Socket.text(v6)
    }

    package init(_ text: String) throws(Failure) {
        guard let (host, port) = Self.split(text) else {
            throw Failure(description: "'\(text)' is not HOST:PORT (127.0.0.1:8080, [::1]:8080, 0.0.0.0:0)")
        }
        guard var (storage, length, family) = Socket.address(host: host, port: port) else {
            throw Failure(description: "'\(host)' is not an IP address; give one (or localhost)")
        }
        #if canImport(Darwin)
        let descriptor = socket(family, SOCK_STREAM, 0)
        #else
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "cannot open a socket (\(systemReason()))") }
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 1024) == 0 else {
            let failure = systemReason()
            close(descriptor)
            throw Failure(description: "cannot listen on \(text) (\(failure))")
        }
        Socket.setNonBlocking(descriptor)
        var chosen = sockaddr_storage()
        length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &chosen) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let chosenPort =
            family == AF_INET
            ? withUnsafeBytes(of: chosen) { UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port) }
            : withUnsafeBytes(of: chosen) { UInt16(bigEndian: $0.load(as: sockaddr_in6.self).sin6_port) }
        self.descriptor = descriptor
        self.address = (family == AF_INET6 ? "[\(host)]" : host) + ":\(chosenPort)"
    }
}

/// Socket calls shared by the listener and the connections.
enum Socket {
    /// The socket address of an IPv4 or IPv6 address and a port, its length and family; nil when `host` is not
    /// an IP address.
    static func address(host: String, port: UInt16) -> (sockaddr_storage, socklen_t, Int32)? {
        var storage = sockaddr_storage()
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = v4
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
            return (storage, socklen_t(MemoryLayout<sockaddr_in>.size), AF_INET)
        }
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return nil }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        address.sin6_addr = v6
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
        return (storage, socklen_t(MemoryLayout<sockaddr_in6>.size), AF_INET6)
    }

    static func setNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    /// Turns Nagle's algorithm off: each answer is one whole write, and holding it back for an ACK (which the
    /// client may itself delay) only adds latency.
    static func sendWithoutDelay(_ descriptor: Int32) {
        var one: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes what the socket takes now; the count written, or nil when the peer is gone. (SIGPIPE is
    /// ignored by the receiver, so a closed peer is an error here, not a signal.)
    static func write(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Int? {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + written, $0.count - written, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return written }
                return nil
            }
            written += count
        }
        return written
    }
}

extension Socket {
    /// Accepts one connection: its descriptor and the peer's address as text (`203.0.113.7`, `2001:db8::1`), or
    /// nil with `errno` set.
    static func accept(on listener: Int32) -> (descriptor: Int32, peer: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let descriptor = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemAccept(listener, $0, &length) }
        }
        guard descriptor >= 0 else { return nil }
        let family = Int32(storage.ss_family)
        let peer = withUnsafeBytes(of: storage) { raw in
            if family == AF_INET { return text(raw.load(as: sockaddr_in.self).sin_addr) }
            if family == AF_INET6 { return text(raw.load(as: sockaddr_in6.self).sin6_addr) }
            return ""
        }
        return (descriptor, peer)
    }

    static func text(_ address: in_addr) -> String {
        var address = address
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        _ = inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An IPv6 address as text; an IPv4-mapped one (`::ffff:a.b.c.d`) as its IPv4 address.
    static func text(_ address: in6_addr) -> String {
        var address = address
        let bytes = withUnsafeBytes(of: &address) { Array($0) }
        if bytes[..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            var v4 = in_addr()
            withUnsafeMutableBytes(of: &v4) { $0.copyBytes(from: bytes[12...]) }
            return text(v4)
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        _ = inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The C library's `accept`, named apart from `Socket.accept`.
private func systemAccept(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t)
    -> Int32
{
    accept(socket, address, &length)
}
