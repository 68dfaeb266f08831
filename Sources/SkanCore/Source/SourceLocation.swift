/// A position in a schema's text.
///
/// Lines and columns are 1-based. Columns count UTF-8 bytes from the start of the line, the way the Swift
/// compiler and clang count them, so that Xcode and SwiftPM place their markers on the right character.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in UTF-8 bytes as swiftc does; 0 when only the line is known.
    public var column: Int
    /// Byte offset from the start of the text; used to slice the source line for caret rendering.
    public var offset: Int

    /// A location from its line, column and byte offset.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// A whole line, for inputs that report lines but no columns (an XML property list); no caret is drawn.
    public static func line(_ line: Int) -> SourceLocation {
        SourceLocation(line: line, column: 0, offset: -1)
    }

    /// Source order.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column, lhs.offset) < (rhs.line, rhs.column, rhs.offset)
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
