import SkanCompiler

/// What one postback line came to: `ok` or the first problem found, in this order of precedence.
/// The codes are stable and documented in docs/Postbacks.md.
public enum PostbackStatus: String, Sendable, CaseIterable {
    case ok
    /// Longer than `PostbackReader.maximumLineBytes`.
    case lineTooLong = "line-too-long"
    /// Not valid JSON (including invalid UTF-8 is not checked here: it is repaired on output).
    case notJSON = "not-json"
    /// Valid JSON, but not an object.
    case notObject = "not-object"
    /// A known field has the wrong JSON type: `"conversion-value": "12"`.
    case wrongType = "wrong-type"
    /// A number outside its range: conversion-value 64 or -1 or 1e400, postback-sequence-index 3.
    case outOfRange = "out-of-range"
    /// Both `conversion-value` and `coarse-conversion-value`: Apple sends one or the other.
    case fineAndCoarse = "fine-and-coarse"
    /// A fine value in postback 2 or 3: only the first postback carries one.
    case fineNotFirst = "fine-not-first"
    /// A coarse value other than low, medium, high.
    case unknownCoarse = "unknown-coarse"
    /// A fine value that is not a state of this schema version (reserved bit, unused bit, undefined code).
    case invalidFine = "invalid-fine"
    /// An AdAttributionKit stanza whose JWS payload is not base64url JSON: no identifiers can be read.
    case jwsUnreadable = "jws-unreadable"
    /// A transaction-id or postback-identifier seen on an earlier line.
    case duplicate

    /// The position in `allCases`, for counting in an array.
    var index: Int {
        switch self {
        case .ok: 0
        case .lineTooLong: 1
        case .notJSON: 2
        case .notObject: 3
        case .wrongType: 4
        case .outOfRange: 5
        case .fineAndCoarse: 6
        case .fineNotFirst: 7
        case .unknownCoarse: 8
        case .invalidFine: 9
        case .jwsUnreadable: 10
        case .duplicate: 11
        }
    }

    /// The code as UTF-8, without building a String for every row.
    var bytes: StaticString {
        switch self {
        case .ok: "ok"
        case .lineTooLong: "line-too-long"
        case .notJSON: "not-json"
        case .notObject: "not-object"
        case .wrongType: "wrong-type"
        case .outOfRange: "out-of-range"
        case .fineAndCoarse: "fine-and-coarse"
        case .fineNotFirst: "fine-not-first"
        case .unknownCoarse: "unknown-coarse"
        case .invalidFine: "invalid-fine"
        case .jwsUnreadable: "jws-unreadable"
        case .duplicate: "duplicate"
        }
    }
}
