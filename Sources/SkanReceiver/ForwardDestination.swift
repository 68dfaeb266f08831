import SkanCore

/// A partner every stored postback is sent on to (`--forward NAME=URL`), and which of them it takes
/// (`--forward-filter NAME=ad-network-id:ID,...`). The URL is `http://HOST:PORT[/PREFIX]`: the postback goes to
/// the path Apple posted it to, after the prefix. TLS is left to a proxy on the loopback interface (nginx's
/// `proxy_pass https://...`), as it is for receiving.
package struct ForwardDestination: Sendable, Equatable {
    package var name: String
    package var host: String
    package var port: UInt16
    /// Put before the postback's path, without a trailing slash (empty for none).
    package var pathPrefix: String
    /// The ad networks whose postbacks it takes (`ad-network-id`, or the JWS payload's `ad-network-identifier`);
    /// nil: all.
    package var adNetworks: Set<String>?

    /// Why a `--forward` or `--forward-filter` cannot be used.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// Reads `NAME=URL`.
    package init(argument: String) throws(Failure) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw Failure(description: "--forward takes NAME=URL (mmp=http://127.0.0.1:9000), not '\(argument)'")
        }
        let name = String(argument[..<equals])
        guard !name.isEmpty, name.utf8.count <= 64,
            name.utf8.allSatisfy({ $0.isDigit || $0.isASCIILetter || $0 == 95 || $0 == 45 })
        else {
            throw Failure(description: "a --forward name takes letters, digits, '_' and '-' (at most 64): '\(name)'")
        }
        let url = argument[argument.index(after: equals)...]
        guard url.hasPrefix("http://") else {
            throw Failure(
                description: "--forward \(name): the URL must be http://HOST:PORT[/PREFIX]; for https, forward to a "
                    + "TLS proxy on the loopback interface (docs/Receiver.md)")
        }
        let rest = url.dropFirst(7)
        let authority = rest.prefix { $0 != "/" }
        var prefix = String(rest.dropFirst(authority.count))
        while prefix.hasSuffix("/") { prefix.removeLast() }
        guard let (host, port) = Listener.split(String(authority)), port > 0,
            prefix.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") })
        else {
            throw Failure(
                description: "--forward \(name): '\(url)' is not http://HOST:PORT[/PREFIX] with an IP address "
                    + "(127.0.0.1, [::1]) and a port")
        }
        self.name = name
        self.host = host
        self.port = port
        self.pathPrefix = prefix
    }

    /// Reads `NAME=ad-network-id:ID,...` into the destination named NAME.
    package static func applyFilter(_ argument: String, to destinations: inout [ForwardDestination]) throws(Failure) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw Failure(description: "--forward-filter takes NAME=ad-network-id:ID,..., not '\(argument)'")
        }
        let name = String(argument[..<equals])
        guard let index = destinations.firstIndex(where: { $0.name == name }) else {
            throw Failure(description: "--forward-filter \(name): no --forward is named \(name)")
        }
        var networks = destinations[index].adNetworks ?? []
        for item in argument[argument.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false) {
            guard item.hasPrefix("ad-network-id:"), item.count > 14 else {
                throw Failure(description: "--forward-filter \(name): '\(item)' is not ad-network-id:ID")
            }
            networks.insert(String(item.dropFirst(14)))
        }
        destinations[index].adNetworks = networks
    }

    /// Whether a postback of `adNetwork` goes to this destination.
    func takes(adNetwork: String) -> Bool { adNetworks?.contains(adNetwork) ?? true }
}
