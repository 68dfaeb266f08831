/// Swift source with comments and string literals blanked out (replaced by spaces, newlines kept), so that
/// the checks below see code only, at the same line numbers. Covers `//`, nested `/* */`, `"…"` with
/// escapes and `"""…"""`; enough for this package's sources, which the checks are written for.
struct SwiftSourceText {
    let raw: String
    let code: [Character]

    init(_ raw: String) {
        self.raw = raw
        let characters = Array(raw)
        var code = characters
        var index = 0
        func blank(_ range: Range<Int>) {
            for position in range where code[position] != "\n" { code[position] = " " }
        }
        // Compared in place, character by character: the checks read every source file several times.
        func starts(_ text: String, at position: Int) -> Bool {
            var offset = position
            for character in text {
                guard offset < characters.count, characters[offset] == character else { return false }
                offset += 1
            }
            return true
        }
        while index < characters.count {
            guard characters[index] == "/" || characters[index] == "\"" else {
                index += 1
                continue
            }
            if starts("//", at: index) {
                var end = index
                while end < characters.count, characters[end] != "\n" { end += 1 }
                blank(index..<end)
                index = end
            } else if starts("/*", at: index) {
                var depth = 0
                var end = index
                repeat {
                    if starts("/*", at: end) {
                        depth += 1
                        end += 2
                    } else if starts("*/", at: end) {
                        depth -= 1
                        end += 2
                    } else {
                        end += 1
                    }
                } while depth > 0 && end < characters.count
                blank(index..<end)
                index = end
            } else if starts("\"\"\"", at: index) {
                var end = index + 3
                while end < characters.count, !starts("\"\"\"", at: end) { end += characters[end] == "\\" ? 2 : 1 }
                blank(index + 1..<min(end, characters.count))
                index = end + 3
            } else if characters[index] == "\"" {
                var end = index + 1
                while end < characters.count, characters[end] != "\"", characters[end] != "\n" {
                    end += characters[end] == "\\" ? 2 : 1
                }
                blank(index + 1..<min(end, characters.count))
                index = end + 1
            } else {
                index += 1
            }
        }
        self.code = code
    }

    /// The code, comments and strings blanked.
    var text: String { String(code) }

    /// The 1-based line of a character offset into `code`.
    func line(at offset: Int) -> Int {
        code[..<offset].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }
}
