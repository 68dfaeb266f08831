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

    /// The file: canonical JSON (sorted keys, no white space, no floating-point number) and a line feed.
    public let bytes: [UInt8]
    /// The artifact's name where it is published: the SHA-256 of `bytes`, lowercase hex (`schemas/<name>.json`).
    /// Kept, not computed at each use: every new conversion of an app names the artifact it starts with.
    public let fileName: String
    /// The schema compiled for evaluation, once per artifact: every conversion of an app evaluates it after each
    /// event it logs.
    public let program: ActivityProgram

    /// The artifact of `schema`, for the app `appID`.
    public init(schema: Schema, appID: String? = nil) {
        self.schema = schema
        self.appID = appID
        program = ActivityProgram(schema: schema)
        let encoded = Self.encode(schema)
        let document = CanonicalJSON.object([
            "format": .integer(Self.format), "app_id": .optional(appID), "name": .string(schema.name),
            "version": .integer(schema.version), "schema": encoded,
            "schema_sha256": .string(SHA256.hexDigest(encoded.bytes)),
        ])
        bytes = document.bytes + [0x0A]
        fileName = SHA256.hexDigest(bytes)
    }

    /// The SHA-256 of the `schema` member's canonical bytes, in lowercase hex.
    public var schemaSHA256: String { SHA256.hexDigest(Self.encode(schema).bytes) }

    /// Two artifacts are equal when their files are.
    public static func == (left: SchemaArtifact, right: SchemaArtifact) -> Bool { left.bytes == right.bytes }
}
