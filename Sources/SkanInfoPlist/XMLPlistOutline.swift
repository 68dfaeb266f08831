/// Where things are in an XML property list, from one pass over its bytes: the line of each top-level key
/// (repeated keys included) and of each `<string>` value, by its text. Lines end at LF, CR LF or a lone CR;
/// comments, CDATA sections and processing instructions are skipped, so a `<string>` inside a comment is not
/// taken for a value. Linear in the size of the file, whatever the number of findings that ask.
struct XMLPlistOutline {
    /// The lines of each top-level key, in order (more than one when the key is repeated).
    private(set) var keyLines: [String: [Int]] = [:]
    /// The top-level keys in the order they appear.
    private(set) var keyOrder: [String] = []
    /// The lines of the `<string>` elements with each text, in order.
    private(set) var stringLines: [String: [Int]] = [:]

    init(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        var line = 1
        var depth = 0  // nesting of <dict> and <array>
        var dictDepths: [Int] = []
        var pendingElement: (name: String, line: Int, start: Int)? = nil

        func advanceLines(_ range: Range<Int>) {
            var position = range.lowerBound
            while position < range.upperBound {
                if bytes[position] == 10 {
                    line += 1
                } else if bytes[position] == 13 {
                    line += 1
                    if position + 1 < range.upperBound, bytes[position + 1] == 10 { position += 1 }
                }
                position += 1
            }
        }
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard needle.count <= bytes.count else { return nil }
            var position = start
            while position + needle.count <= bytes.count {
                if bytes[position] == needle[0], bytes[position..<position + needle.count].elementsEqual(needle) {
                    return position
                }
                position += 1
            }
            return nil
        }

        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                // Text up to the next markup, its line breaks counted as one span (CR LF is one break).
                let next = find([UInt8(ascii: "<")], from: index) ?? bytes.count
                advanceLines(index..<next)
                index = next
                continue
            }
            // Skipped constructs: their text (and its line breaks) is not markup.
            var skipped = false
            for (open, close) in Self.skippedConstructs {
                if index + open.count <= bytes.count, bytes[index..<index + open.count].elementsEqual(open) {
                    let end = find(close, from: index + open.count).map { $0 + close.count } ?? bytes.count
                    advanceLines(index..<end)
                    index = end
                    skipped = true
                    break
                }
            }
            if skipped { continue }
            let tagEnd = find([UInt8(ascii: ">")], from: index) ?? bytes.count
            let tag = String(decoding: bytes[(index + 1)..<tagEnd], as: UTF8.self)
            let tagLine = line
            advanceLines(index..<min(tagEnd + 1, bytes.count))
            index = min(tagEnd + 1, bytes.count)
            let selfClosing = tag.hasSuffix("/")
            let name = String(tag.split(separator: " ").first ?? "").trimmingSuffix("/")
            switch name {
            case "dict":
                if !selfClosing {
                    depth += 1
                    dictDepths.append(depth)
                }
            case "array":
                if !selfClosing { depth += 1 }
            case "/dict":
                dictDepths.removeLast(dictDepths.isEmpty ? 0 : 1)
                depth -= 1
            case "/array":
                depth -= 1
            case "key", "string":
                if selfClosing {
                    if name == "string" { stringLines["", default: []].append(tagLine) }
                } else {
                    pendingElement = (name, tagLine, index)
                }
            case "/key", "/string":
                guard let element = pendingElement, "/" + element.name == name else { break }
                let raw = String(
                    decoding: bytes[element.start..<max(element.start, index - name.utf8.count - 2)], as: UTF8.self)
                let value = Self.unescaped(raw)
                if element.name == "string" {
                    stringLines[value, default: []].append(element.line)
                } else if depth == 1, dictDepths.first == 1 {
                    if keyLines[value] == nil { keyOrder.append(value) }
                    keyLines[value, default: []].append(element.line)
                }
                pendingElement = nil
            default:
                break
            }
        }
    }

    /// Comments, CDATA, processing instructions and declarations, as their opening and closing bytes.
    private static let skippedConstructs: [([UInt8], [UInt8])] = [
        ("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">"),
    ].map { (Array($0.utf8), Array($1.utf8)) }

    /// The line of the `occurrence`th (1-based) `<string>` holding `value`.
    func line(ofString value: String, occurrence: Int) -> Int? {
        guard let lines = stringLines[value], occurrence >= 1, occurrence <= lines.count else { return nil }
        return lines[occurrence - 1]
    }

    /// The line of the first top-level `<key>` named `name`.
    func line(ofKey name: String) -> Int? { keyLines[name]?.first }

    /// XML's five entities and numeric character references.
    static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "&" + entity + ";"
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
