import SkanCompiler
import SkanCore

/// Where each declaration stands: from its keyword to the end of its last token (a block to its `}`, comments
/// after it left out), so an outline selects whole declarations and folds them.
struct DeclarationExtents {
    /// A declaration's extent, by the byte offset of its keyword.
    struct Extent {
        var start: SourceLocation
        /// The line and the column just past the last token, 1-based.
        var endLine: Int
        var endColumn: Int
    }

    private(set) var byKeyword: [Int: Extent] = [:]

    init(_ syntax: SchemaSyntax, tokens: [Token], bytes: [UInt8]) {
        let keywords = syntax.declarations.map(Self.keyword).sorted { $0.offset < $1.offset }
        let tokens = tokens.filter { $0.kind != .endOfFile }
        var next = 0
        for (position, keyword) in keywords.enumerated() {
            let limit = position + 1 < keywords.count ? keywords[position + 1].offset : Int.max
            // The last token before the next declaration's keyword.
            while next < tokens.count, tokens[next].location.offset < limit { next += 1 }
            guard next > 0, tokens[next - 1].location.offset >= keyword.offset else { continue }
            let last = tokens[next - 1]
            byKeyword[keyword.offset] = Extent(
                start: keyword, endLine: last.location.line,
                endColumn: last.location.column + Self.writtenLength(last, in: bytes))
        }
    }

    /// How many bytes `token` takes as written: a string's text is its decoded value, so its quotes and escapes
    /// are counted from the bytes.
    static func writtenLength(_ token: Token, in bytes: [UInt8]) -> Int {
        guard token.kind == .string else { return token.text.utf8.count }
        var index = token.location.offset + 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != 0x0A {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return min(index + 1, bytes.count) - token.location.offset
    }

    /// Where a declaration's keyword stands.
    static func keyword(_ declaration: DeclarationSyntax) -> SourceLocation {
        switch declaration {
        case .event(let event): event.keyword
        case .flag(let flag): flag.keyword
        case .field(let field): field.keyword
        case .reserved(let reserved): reserved.keyword
        case .coarse(let block): block.keyword
        case .lock(let lock): lock.keyword
        }
    }
}
