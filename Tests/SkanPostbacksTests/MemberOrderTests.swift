import Foundation
import SkanCompiler
import SkanCore
import SkanTestSupport
import Testing

@testable import SkanPostbacks

/// The decoder guesses each member's name from the order of earlier lines (`PostbackFields`); a guess
/// may only ever save work. Lines whose members come in a new order every time, some with spaces and
/// some with an unknown member, decode in one long run exactly as each does alone.
@Suite struct MemberOrderTests {
    /// A line's members in `order`, written compactly or with spaces around the colons.
    static func line(_ members: [(String, String)], spaced: Bool) -> String {
        "{" + members.map { "\"\($0.0)\"" + (spaced ? " : " : ":") + $0.1 }.joined(separator: ",") + "}"
    }

    @Test func membersInAnyOrderDecodeAsAlone() throws {
        let schema = try shippedSchema("Shop")
        var generator = SplitMix64(seed: 0x5EED_0F0E)
        var lines: [String] = []
        for index in 0..<300 {
            let id = String(format: "%08x-0000-4000-8000-%012x", index, index)
            var members: [(String, String)] = [
                ("version", "\"4.0\""), ("ad-network-id", "\"example123.skadnetwork\""),
                ("source-identifier", "\"5239\""), ("app-id", "525463029"), ("transaction-id", "\"\(id)\""),
                ("redownload", "false"), ("fidelity-type", "1"), ("did-win", "true"),
                ("postback-sequence-index", "0"), ("conversion-value", "\(index % 64)"),
                ("source-app-id", "1234567891"),
            ]
            if generator.next() % 3 == 0 { members.append(("unknown-member", "[1,{\"a\":null}]")) }
            if generator.next() % 4 == 0 { members.remove(at: Int(generator.next() % UInt64(members.count))) }
            // A few orders that repeat, and now and then a new one.
            var order = SplitMix64(seed: generator.next() % 4 == 0 ? generator.next() : generator.next() % 3)
            for position in members.indices.reversed() {
                members.swapAt(position, Int(order.next() % UInt64(position + 1)))
            }
            lines.append(Self.line(members, spaced: generator.next() % 5 == 0))
        }
        let together = readPostbacks(Array(lines.joined(separator: "\n").utf8), schema: schema, threads: 1).rows
        #expect(together.count == lines.count + 1)
        for (index, line) in lines.enumerated() {
            let alone = readPostbacks(Array(line.utf8), schema: schema, threads: 1, duplicateCapacity: 16).rows
            // The line number is the first column; everything after it must be the same.
            let expected = alone[1].drop { $0 != "," }
            #expect(together[index + 1].drop { $0 != "," } == expected, "\(line)")
            #expect(together[index + 1].hasPrefix("\(index + 1),"))
        }
        #expect(together.dropFirst().contains { $0.contains(",ok,") })
    }
}
