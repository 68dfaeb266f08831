import SkanCore
import SkanCrypto
public import SkanSchema

/// A compiled schema as one file of canonical JSON (docs/RemoteSchemas.md; its JSON Schema is
/// docs/schema-artifact.schema.json): what `skanc compile` writes, `skanc publish` publishes and an app reads
/// instead of generated code. Reading it back gives the same model the compiler made (less where each
/// declaration was written); `schema_sha256` is the SHA-256 of the `schema` member's canonical bytes, checked on
/// reading.
public struct SchemaArtifact: Sendable, Equatable {
    /// The version of this file format; a reader refuses a format it does not know.
    public static let format = 1
    /// The most bytes an artifact may have (a schema of 64 fine values is a few KiB; a reader on a device reads
    /// no more).
    public static let maximumBytes = 1 << 20
    /// The deepest an artifact's JSON may nest (conditions nest; the compiler bounds them far below this).
    static let maximumDepth = 256

    /// The compiled schema.
    public let schema: Schema
    /// The App Store ID of the app it is for, when known (`skanc compile --app`, always under `skanc publish`).
    public let appID: String?

    /// The artifact of `schema`, for the app `appID`.
    public init(schema: Schema, appID: String? = nil) {
        self.schema = schema
        self.appID = appID
    }

    /// The SHA-256 of the `schema` member's canonical bytes, in lowercase hex.
    public var schemaSHA256: String { SHA256.hexDigest(Self.encode(schema).bytes) }

    /// The file: canonical JSON (sorted keys, no white space, no floating-point number) and a line feed.
    public var bytes: [UInt8] {
        let document = CanonicalJSON.object([
            "format": .integer(Self.format), "app_id": .optional(appID), "name": .string(schema.name),
            "version": .integer(schema.version), "schema": Self.encode(schema),
            "schema_sha256": .string(schemaSHA256),
        ])
        return document.bytes + [0x0A]
    }

    /// The artifact's name where it is published: the SHA-256 of `bytes`, lowercase hex (`schemas/<name>.json`).
    public var fileName: String { SHA256.hexDigest(bytes) }
}
