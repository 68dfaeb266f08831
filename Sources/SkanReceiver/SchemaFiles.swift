import SkanCore
import SkanCrypto
import SkanFiles
import SkanHTTP

/// The folder `skanc publish` writes, served read-only at `GET /schemas/` followed by a path under it (`skanc
/// serve --schemas DIR`): `APP_ID/manifest.jws` and `APP_ID/schemas/<sha256>.json`, nothing else (each path is
/// matched against those two shapes, so no request names another file). Answers carry a strong ETag (the SHA-256
/// of the bytes), `If-None-Match` gets 304, and `Cache-Control` lets caches keep an artifact forever (its name is
/// its hash) and a manifest five minutes. Files are read on each request (a manifest is a few hundred bytes, an
/// artifact a few KiB, at most `maximumBytes`), so a new publish is served at once.
struct SchemaFiles {
    /// The route's prefix.
    static let prefix = "/schemas/"
    /// The most bytes a served file may have: the artifact reader's own bound.
    static let maximumBytes = 1 << 20

    let root: String

    /// The file a request path names under the folder, or nil when it is none of the two shapes.
    static func relativePath(_ path: Substring) -> (path: String, isManifest: Bool)? {
        guard path.hasPrefix(prefix) else { return nil }
        let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        func digits(_ part: Substring) -> Bool {
            (1...19).contains(part.utf8.count) && part.utf8.allSatisfy { (0x30...0x39).contains($0) }
        }
        if parts.count == 2, digits(parts[0]), parts[1] == "manifest.jws" {
            return ("\(parts[0])/manifest.jws", true)
        }
        if parts.count == 3, digits(parts[0]), parts[1] == "schemas", parts[2].hasSuffix(".json") {
            let name = parts[2].dropLast(5)
            guard name.utf8.count == 64,
                name.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else { return nil }
            return ("\(parts[0])/schemas/\(parts[2])", false)
        }
        return nil
    }

    /// The answer to a `GET` or `HEAD` of `path` (with the request's `If-None-Match`).
    func answer(_ path: Substring, ifNoneMatch: String?) -> HTTPResponse {
        guard let (relative, isManifest) = Self.relativePath(path), let bytes = read(root + "/" + relative) else {
            return HTTPResponse(.notFound, body: "Not Found\n")
        }
        let tag = "\"" + String(SHA256.hexDigest(bytes).prefix(32)) + "\""
        var response =
            ifNoneMatch.map { Self.matches($0, tag) } == true
            ? HTTPResponse(.notModified, contentType: "", bytes: [])
            : HTTPResponse(
                .ok, contentType: isManifest ? "application/jose" : "application/json", bytes: bytes)
        response.extraHeaders = [
            ("ETag", tag),
            ("Cache-Control", isManifest ? "public, max-age=300" : "public, max-age=31536000, immutable"),
        ]
        return response
    }

    /// Whether an `If-None-Match` value (a list of entity tags, or `*`) names `tag` (weak comparison, RFC 9110).
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
                .reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
            let value = String(trimmed)
            return value == "*" || value == tag || value == "W/" + tag
        }
    }

    /// A regular file's bytes, at most `maximumBytes`; nil when it is missing, not a regular file or too large.
    /// Opened as every input is (`InputFile`: non-blocking, so a FIFO planted at the path never stalls the loop).
    private func read(_ path: String) -> [UInt8]? {
        // A path joined to the folder's is never `-`: standard input is never read.
        guard let file = try? InputFile(path, expecting: "a published file", regularOnly: true, standardInput: -1),
            let bytes = try? file.contents(limit: Self.maximumBytes + 1), bytes.count <= Self.maximumBytes
        else { return nil }
        return bytes
    }
}
