import SkanPostbacks
import Testing

@Suite struct JSONObjectCheckTests {
    @Test(arguments: [
        (#"{}"#, true), (#" {"a":[1,{"b":null}]} "#, true), ("\n{\"a\":\"\\u00e9\"}\r\n", true),
        (#"[]"#, false), (#"{"a":1} {"b":2}"#, false), (#"{"a":1}x"#, false), (#"{"a":}"#, false),
        (#"{"a":1,}"#, false), (#"{"a":"raw"# + "\u{1}" + #""}"#, false), ("\0\0\0\0", false), ("", false),
        (#""{}""#, false), (#"{"a":01}"#, false), (String(repeating: "[", count: 100_000), false),
    ])
    func holdsOneObjectOnlyForOneObject(_ text: String, _ expected: Bool) {
        #expect(JSONObjectCheck.holdsOneObject(Array(text.utf8)) == expected, "\(text.prefix(40))")
    }

    /// Deep nesting inside an object is skipped without recursion: a clear answer, no stack overflow.
    @Test func deepNestingIsCheckedWithoutRecursion() {
        let deep = "{\"a\":" + String(repeating: "[", count: 60_000) + String(repeating: "]", count: 60_000) + "}"
        #expect(JSONObjectCheck.holdsOneObject(Array(deep.utf8)))
    }
}
