import Foundation
import SkanCore
import Testing

/// `JSONValue` renders into bytes; its text must be what Foundation's JSON reader reads back, and its
/// numbers what `String(_:)` writes.
@Suite struct JSONValueTests {
    @Test func decimalsAreWrittenAsStringDoes() {
        for value in [0, 1, 9, 10, 99, 100, -1, -10, 123_456_789, Int.max, Int.min, Int.min + 1] {
            var bytes: [UInt8] = Array("x".utf8)
            bytes.appendDecimal(value)
            #expect(String(decoding: bytes, as: UTF8.self) == "x" + String(value))
        }
    }

    @Test func renderedTextReadsBack() throws {
        let value: JSONValue = .object([
            ("name", .string("a \"quoted\" \\ line\n\u{1}🙂")), ("count", .integer(-42)), ("share", .number(0.25)),
            ("whole", .number(20)), ("amount", .decimal("12.50")), ("yes", .bool(true)), ("none", .null),
            ("list", .array([.integer(1), .integer(2)])), ("empty", .array([])), ("nested", .object([])),
            ("rows", .array([.object([("a", .integer(1))])])),
        ])
        let text = value.rendered()
        #expect(text.contains("\"list\": [1, 2]"), "arrays of scalars stay on one line")
        #expect(text.contains("\n    {\n      \"a\": 1\n    }"), "two spaces a level")
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(read["name"] as? String == "a \"quoted\" \\ line\n\u{1}🙂")
        #expect(read["count"] as? Int == -42)
        #expect(read["share"] as? Double == 0.25)
        #expect(read["amount"] as? Double == 12.5)
        #expect(read["none"] is NSNull)
        var bytes: [UInt8] = []
        value.render(into: &bytes, indent: 0)
        #expect(bytes == Array(text.utf8))
    }
}

/// Objects with repeated keys: the last wins, in the place it was last given; every member stays when asked.
@Suite struct JSONRepeatedKeyTests {
    static func members(_ text: String, keepsRepeatedKeys: Bool = false) throws -> [(String, JSONDocument)] {
        var reader = JSONReader(
            bytes: Array(text.utf8), maximumDepth: 4, tooDeep: "deep", keepsRepeatedKeys: keepsRepeatedKeys)
        guard case .object(let members) = try reader.document() else { return [] }
        return members
    }

    @Test func theLastOfARepeatedKeyWinsAndManyKeysRead() throws {
        let members = try Self.members(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(members.map(\.0) == ["b", "a"])
        if case .number(let last)? = members.last?.1 { #expect(last == 3) } else { Issue.record("\(members)") }
        #expect(try Self.members(#"{"a": 1, "a": 3}"#, keepsRepeatedKeys: true).map(\.0) == ["a", "a"])
        // 50,000 keys, each given twice: read (the earlier reader removed each repeat by scanning every member).
        let keys = (0..<50_000).map { "\"k\($0)\": 0" }
        #expect(try Self.members("{" + (keys + keys).joined(separator: ",") + "}").count == 50_000)
    }
}

/// Numbers as JSON writes them: a long one is a number (a 52-digit integer reads), and each refusal says why.
@Suite struct JSONNumberReadingTests {
    static func read(_ text: String) -> Result<Double, JSONReader.Malformed> {
        var reader = JSONReader(bytes: Array(text.utf8), maximumDepth: 1, tooDeep: "deep")
        do throws(JSONReader.Malformed) {
            guard case .number(let value) = try reader.document() else { return .success(.nan) }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    @Test func longNumbersReadAndRefusalsSayWhy() {
        let digits = String(repeating: "9", count: 52)
        #expect((try? Self.read(digits).get()) == Double(digits))
        func message(_ text: String) -> String {
            if case .failure(let error) = Self.read(text) { return error.message }
            return ""
        }
        #expect(message("01").contains("is not a JSON number"))
        #expect(message("1e400").contains("beyond the range of a double"))
        #expect(message(String(repeating: "1", count: 401)).contains("a number of 401 characters"))
    }
}

/// Characters beyond the BMP written as JSON escapes (RFC 8259: a surrogate pair, as pygls and JavaScript's
/// `JSON.stringify` of a lone half write them): the pair is the character; half a pair is an error, never U+FFFD.
@Suite struct JSONSurrogateEscapeTests {
    static func string(_ text: String) -> Result<String, JSONReader.Malformed> {
        var reader = JSONReader(bytes: Array(text.utf8), maximumDepth: 1, tooDeep: "deep")
        do throws(JSONReader.Malformed) {
            guard case .string(let value) = try reader.document() else { return .success("not a string") }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    @Test func anEscapedPairIsItsCharacter() throws {
        #expect(try Self.string(#""Pay\u00e9 \ud83c\udf89 \uD83D\uDE00!""#).get() == "Payé 🎉 😀!")
        #expect(try Self.string(#""\u4e2d\u6587""#).get() == "中文")
        #expect(try Self.string(#""🎉""#).get() == "🎉")
    }

    @Test(arguments: [#""\ud83c""#, #""\ud83cx""#, #""\udf89\ud83c""#, #""\ud83c\u0041""#, #""\ud83c\n""#])
    func halfAPairIsRefused(_ text: String) {
        guard case .failure(let error) = Self.string(text) else {
            Issue.record("\(text) read")
            return
        }
        #expect(error.message.contains("surrogate pair"), "\(error.message)")
    }

    /// A document's text as an editor sends it: 1 MB with an escaped line feed every 100 bytes, and every kind of
    /// escape, read whole into one string (escapes are written into one buffer, so this reads in linear time:
    /// Benchmarks/hostile.py times a 10 MB one).
    @Test func aLongStringWithManyEscapesReadsWhole() throws {
        let line = "# " + String(repeating: "x", count: 97)
        let text = "\"" + String(repeating: line + "\\n", count: 10_000) + "\\t\\\"\\\\\\/\\b\\f\\r\\u00e9\""
        let read = try Self.string(text).get()
        #expect(read.utf8.count == 10_000 * 100 + 9)
        #expect(read.hasPrefix(line + "\n" + line + "\n") && read.hasSuffix("\t\"\\/\u{8}\u{C}\ré"))
    }

    @Test func aUEscapeTakesFourHexDigitsAndNoSign() {
        for text in [#""\u+041""#, #""\u04""#, #""\u00g1""#] {
            guard case .failure(let error) = Self.string(text) else {
                Issue.record("\(text) read")
                continue
            }
            #expect(error.message.contains("four hex digits"), "\(text): \(error.message)")
        }
    }
}
