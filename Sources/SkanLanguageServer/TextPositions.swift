public import SkanCore

/// A position as the protocol counts it: a 0-based line, and a character offset in UTF-16 code units (the
/// protocol's default encoding, and the only one every client speaks).
public struct TextPosition: Hashable, Sendable {
    /// 0-based line.
    public var line: Int
    /// UTF-16 code units from the start of the line.
    public var character: Int

    /// A position from its parts.
    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }
}

/// A document's lines, for converting the compiler's locations (1-based lines, 1-based columns in UTF-8 bytes)
/// into the protocol's positions exactly, whatever the names and descriptions are written in.
public struct LineTable: Sendable {
    private let bytes: [UInt8]
    /// The byte offset each line starts at.
    private let starts: [Int]
    /// The bytes of a UTF-8 byte order mark the text starts with (3), which the compiler's columns of line 1 do
    /// not count (its lexer skips the mark) but the document's positions do (U+FEFF is a character to the client).
    private let mark: Int

    /// The table of `text`. Lines end as the protocol says (`LineBreak`): at LF, CR LF or CR; a CR before a LF
    /// belongs to no character.
    public init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        for index in bytes.indices where LineBreak.isBreak(bytes, at: index) { starts.append(index + 1) }
        self.starts = starts
        mark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Bytes of line `index` (0-based) before the compiler's column 1.
    private func skipped(_ index: Int) -> Int { index == 0 ? mark : 0 }

    /// The number of lines (one more than the line breaks).
    public var lineCount: Int { starts.count }

    /// The protocol position of byte `column` (1-based, UTF-8) of `line` (1-based); a column past the end of the
    /// line is its end.
    public func position(line: Int, column: Int) -> TextPosition {
        let index = min(max(line - 1, 0), starts.count - 1)
        let lineBytes = self.lineBytes(index)
        let prefix = lineBytes.prefix(skipped(index) + max(column - 1, 0))
        return TextPosition(line: index, character: String(decoding: prefix, as: UTF8.self).utf16.count)
    }

    /// The protocol range a diagnostic at `location` covers: the word (name, number or keyword) that starts
    /// there, at least one character; the whole line when only the line is known.
    public func range(at location: SourceLocation) -> (start: TextPosition, end: TextPosition) {
        let index = min(max(location.line - 1, 0), starts.count - 1)
        let lineBytes = self.lineBytes(index)
        let skip = skipped(index)
        guard location.column > 0 else {
            return (
                TextPosition(line: index, character: 0), position(line: index + 1, column: lineBytes.count - skip + 1)
            )
        }
        // Byte indices in the line as the document has it (after the mark on line 1 for the compiler's columns).
        var end = min(skip + location.column - 1, lineBytes.count)
        let wordStart = end
        while end < lineBytes.count, Self.isWordByte(lineBytes[lineBytes.startIndex + end]) { end += 1 }
        if end == wordStart, end < lineBytes.count {
            // One character, whole: its lead byte and continuation bytes.
            end += 1
            while end < lineBytes.count, lineBytes[lineBytes.startIndex + end] & 0xC0 == 0x80 { end += 1 }
        }
        return (
            position(line: index + 1, column: wordStart - skip + 1), position(line: index + 1, column: end - skip + 1)
        )
    }

    /// The byte offset of a protocol position (clamped to its line), for edits that come as ranges.
    public func offset(of position: TextPosition) -> Int {
        let index = min(max(position.line, 0), starts.count - 1)
        let lineBytes = self.lineBytes(index)
        var units = 0
        var offset = 0
        for scalar in String(decoding: lineBytes, as: UTF8.self).unicodeScalars {
            if units >= position.character { break }
            units += scalar.utf16.count
            offset += scalar.utf8.count
        }
        return starts[index] + offset
    }

    /// The bytes of line `index` (0-based), without its line break.
    private func lineBytes(_ index: Int) -> ArraySlice<UInt8> {
        var end = index + 1 < starts.count ? starts[index + 1] - 1 : bytes.count
        if end > starts[index], bytes[end - 1] == 13 { end -= 1 }
        return bytes[starts[index]..<max(end, starts[index])]
    }

    /// Letters, digits, `_`, `.` and any non-ASCII byte: what names, numbers and `purchase.sum` are made of.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
