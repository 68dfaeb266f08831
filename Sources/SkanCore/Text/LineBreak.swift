/// Where lines end, as the language reads them and as editors send documents (the Language Server Protocol's
/// `\n`, `\r\n` and `\r`): at a line feed, or at a carriage return that no line feed follows (in `\r\n` the line
/// feed ends the line). One rule for the lexer, the formatter's comments and the editor's positions, so that a
/// file saved with classic Mac line endings has the same lines everywhere.
public enum LineBreak {
    /// Whether the byte at `index` of `bytes` ends a line.
    public static func isBreak(_ bytes: [UInt8], at index: Int) -> Bool {
        switch bytes[index] {
        case 0x0A: true
        case 0x0D: index + 1 == bytes.count || bytes[index + 1] != 0x0A
        default: false
        }
    }

    /// Whether `byte` is a line feed or a carriage return: where a comment or a string stops.
    public static func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
}
