import SkanCompiler
import SkanCore

/// The comments between a schema's tokens, attached to the token they belong to: a comment after code on
/// the same line trails that token; any other belongs to the token after it (the end of the file for the
/// last ones). The lexer skips comments, so they are found again in the gaps between tokens, which hold
/// nothing but white space and comments.
struct SourceComments {
    /// A comment on a line of its own.
    struct Leading {
        /// `# …` as written, trailing white space removed.
        var text: String
        /// Whether a blank line stands before it in the source.
        var blankBefore: Bool
    }

    /// By token index: the comment lines before the token.
    private(set) var leading: [Int: [Leading]] = [:]
    /// By token index: whether a blank line separates the token from the comments before it.
    private(set) var blankAfterLeading: Set<Int> = []
    /// By token index: the comment after the token on its line.
    private(set) var trailing: [Int: String] = [:]
    /// By token index: how many line breaks stand between the token and the one before it.
    private(set) var lineBreaksBefore: [Int] = []

    init(tokens: [Token], bytes: [UInt8]) {
        var previousEnd = 0
        for (index, token) in tokens.enumerated() {
            var position = previousEnd
            var breaks = 0
            var breaksSinceItem = 0
            while position < token.location.offset {
                switch bytes[position] {
                case _ where LineBreak.isBreak(bytes, at: position):
                    breaks += 1
                    breaksSinceItem += 1
                    position += 1
                case UInt8(ascii: "#"):
                    var end = position
                    while end < bytes.count, !LineBreak.isLineEnd(bytes[end]) { end += 1 }
                    var trimmed = end
                    while trimmed > position, [0x20, 0x09, 0x0D].contains(bytes[trimmed - 1]) { trimmed -= 1 }
                    let text = String(decoding: bytes[position..<trimmed], as: UTF8.self)
                    if index > 0, breaks == 0 {
                        trailing[index - 1] = text
                    } else {
                        leading[index, default: []].append(Leading(text: text, blankBefore: breaksSinceItem >= 2))
                    }
                    breaksSinceItem = 0
                    position = end
                default:
                    position += 1
                }
            }
            if leading[index] != nil, breaksSinceItem >= 2 { blankAfterLeading.insert(index) }
            lineBreaksBefore.append(breaks)
            previousEnd = Self.end(of: token, in: bytes)
        }
    }

    /// Where a token's text ends: strings hold their decoded value, so their end is found by scanning.
    static func end(of token: Token, in bytes: [UInt8]) -> Int {
        let start = token.location.offset
        guard token.kind == .string else { return start + token.text.utf8.count }
        var position = start + 1
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
            position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
        }
        return min(position + 1, bytes.count)
    }
}
