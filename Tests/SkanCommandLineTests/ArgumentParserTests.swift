import Foundation
import SkanCommandLine
import Testing

@Suite struct ArgumentParserTests {
    static let output = CommandOption.text("-o", "--output", placeholder: "FILE", help: "Write to FILE.")
    static let format = CommandOption.choice(
        "--format", placeholder: "FORMAT", values: ["csv", "json"], defaultValue: "csv", help: "csv or json.")
    static let quiet = CommandOption.flag("--quiet", help: "Say less.")
    static let key = CommandOption.text("--key", placeholder: "KEY", repeatable: true, help: "A key.")
    static let signature = CommandSignature(
        name: "demo", summary: "A demonstration.", operands: "INPUT...", options: [output, format, quiet, key],
        discussion: "Does nothing.", exitStatus: "0 always.")

    @Test func everySpellingOfAnOptionIsOneOption() throws {
        for spelled in [["-o", "a"], ["--output", "a"], ["--output=a"], ["-o=a"]] {
            let parsed = try Self.signature.parse(spelled + ["in"])
            #expect(parsed[Self.output] == "a")
            #expect(parsed.positionals == ["in"])
        }
        let twice = #expect(throws: UsageError.self) { try Self.signature.parse(["-o", "a", "--output", "b"]) }
        #expect(twice?.message == "--output given twice ('a' and 'b'); give it once (-o and --output are one option)")
        #expect(twice?.command == "demo")
    }

    /// Two options spelled alike would leave one unreachable: a command may not declare them (its signature
    /// stops the program at start), and the check names the spellings.
    @Test func noTwoOptionsShareASpelling() {
        #expect(CommandSignature.spelledTwice([Self.output, Self.format, Self.quiet, Self.key]).isEmpty)
        let out = CommandOption.flag("--out", "-o", help: "Another -o.")
        let help = CommandOption.flag("--help", help: "A second --help.")
        #expect(
            CommandSignature.spelledTwice([Self.output, out, Self.quiet, help, Self.quiet]) == [
                "-o", "--quiet", "--help",
            ])
    }

    enum Shade: String, CaseIterable, Sendable { case light, dark }

    /// Typed options: a choice read back as its enumeration's case (the values and default from the cases), a
    /// number checked against its range when the line is read, with one wording for every command.
    @Test func typedOptionsAreCheckedWhenReadAndReadBackTyped() throws {
        let shade = ChoiceOption<Shade>("--shade", placeholder: "SHADE", default: .light, help: "light or dark.")
        let count = IntegerOption("--count", placeholder: "N", range: 1...64, help: "How many.")
        let at = IntegerOption("--at", placeholder: "N", range: 0...Int.max, default: 7, help: "Where.")
        let signature = CommandSignature(
            name: "demo", summary: "A demonstration.", operands: "", options: [shade, count, at], discussion: "",
            exitStatus: "0 always.")
        let none = try signature.parse([])
        #expect(none.value(shade) == .light && none[count] == nil && none[at] == 7 && !none.has(count))
        let given = try signature.parse(["--shade", "dark", "--count=64", "--at", "0"])
        #expect(given.value(shade) == .dark && given[count] == 64 && given[at] == 0 && given.has(shade))
        for (value, bounds) in [
            ("0", "from 1 to 64"), ("65", "from 1 to 64"), ("x", "from 1 to 64"), ("+5", "from 1 to 64"),
            ("2.5", "from 1 to 64"),
        ] {
            let error = #expect(throws: UsageError.self) { try signature.parse(["--count", value]) }
            #expect(error?.message == "--count takes a whole number \(bounds), not '\(value)'")
        }
        let negative = #expect(throws: UsageError.self) { try signature.parse(["--at=-1"]) }
        #expect(negative?.message == "--at takes a whole number of at least 0, not '-1'")
        let wrong = #expect(throws: UsageError.self) { try signature.parse(["--shade", "grey"]) }
        #expect(wrong?.message == "--shade takes light, dark, not 'grey'")
        #expect(
            signature.help(program: "p").contains("--count N") && signature.help(program: "p").contains("(default: 7)"))
    }

    /// A list option: items separated by commas, each read by the option's reader and read back typed; a bad,
    /// empty or repeated item is one usage error naming it, with the reader's reason when it gives one.
    @Test func listItemsAreReadBackTypedAndABadOneIsNamed() throws {
        let weights = ListOption<(name: String, weight: Int)>(
            "--weights", placeholder: "NAME:N", default: "a:1", items: "NAME:N pairs, like a:1,b:2", unique: true,
            help: "Weights."
        ) { item in
            let pair = item.split(separator: ":", omittingEmptySubsequences: false)
            guard pair.count == 2, !pair[0].isEmpty else { return .failure(ListItemRefusal()) }
            guard let weight = Int(pair[1]), weight > 0 else { return .failure(ListItemRefusal("a weight is above 0")) }
            return .success((String(pair[0]), weight))
        }
        let signature = CommandSignature(
            name: "demo", summary: "A demonstration.", operands: "", options: [weights], discussion: "",
            exitStatus: "0 always.")
        let none = try signature.parse([])
        #expect(try none.items(weights)?.map(\.name) == ["a"] && !none.has(weights))
        let given = try signature.parse(["--weights", "x:3,y:1"])
        #expect(try given.items(weights)?.map(\.name) == ["x", "y"])
        #expect(try given.items(weights)?.map(\.weight) == [3, 1])
        for (value, message) in [
            ("x:3,y", "--weights takes NAME:N pairs, like a:1,b:2 separated by commas, not 'y'"),
            ("x:0", "--weights takes NAME:N pairs, like a:1,b:2 separated by commas, not 'x:0': a weight is above 0"),
            ("x:1,", "--weights takes NAME:N pairs, like a:1,b:2 separated by commas, not an empty item"),
            ("x:1,x:1", "--weights names 'x:1' twice; name each once"),
        ] {
            let parsed = try signature.parse(["--weights", value])
            let error = #expect(throws: UsageError.self) { try parsed.items(weights) }
            #expect(error?.message == message, "\(value)")
        }
        #expect(signature.help(program: "p").contains("--weights NAME:N"))
    }

    @Test func defaultsAnswerWhenAnOptionIsNotGiven() throws {
        let parsed = try Self.signature.parse([])
        #expect(parsed[Self.format] == "csv")
        #expect(!parsed.has(Self.format))
        #expect(parsed[Self.output] == nil)
        #expect(try Self.signature.parse(["--format", "json"])[Self.format] == "json")
    }

    /// A value a choice knows and refuses gets its reason, not only the list of what is taken.
    @Test func aRefusedChoiceSaysWhy() throws {
        let format = CommandOption.choice(
            "--format", placeholder: "FORMAT", values: ["csv"], refusing: ["xls": "write csv; spreadsheets read it"],
            help: "csv.")
        let signature = CommandSignature(
            name: "demo", summary: "A demonstration.", operands: "", options: [format], discussion: "",
            exitStatus: "0 always.")
        let refused = #expect(throws: UsageError.self) { try signature.parse(["--format", "xls"]) }
        #expect(refused?.message == "--format xls is not taken: write csv; spreadsheets read it")
        let unknown = #expect(throws: UsageError.self) { try signature.parse(["--format=xml"]) }
        #expect(unknown?.message == "--format takes csv, not 'xml'")
    }

    @Test func choicesFlagsAndRepeatsAreChecked() throws {
        let wrong = #expect(throws: UsageError.self) { try Self.signature.parse(["--format", "xml"]) }
        #expect(wrong?.message == "--format takes csv, json, not 'xml'")
        let valued = #expect(throws: UsageError.self) { try Self.signature.parse(["--quiet=yes"]) }
        #expect(valued?.message == "--quiet takes no value")
        let missing = #expect(throws: UsageError.self) { try Self.signature.parse(["--output"]) }
        #expect(missing?.message == "--output needs a value")
        let unknown = #expect(throws: UsageError.self) { try Self.signature.parse(["--frobnicate"]) }
        #expect(unknown?.message == "unknown option '--frobnicate' for 'demo'")
        let flagTwice = #expect(throws: UsageError.self) { try Self.signature.parse(["--quiet", "--quiet"]) }
        #expect(flagTwice?.message == "--quiet given twice; give it once")
        #expect(try Self.signature.parse(["--key", "a", "--key=b"]).values(Self.key) == ["a", "b"])
    }

    @Test func operandsThatLookLikeOptions() throws {
        let parsed = try Self.signature.parse(["-", "-12", "--", "--quiet", "-o"])
        #expect(parsed.positionals == ["-", "-12", "--quiet", "-o"])
        #expect(!parsed.has(Self.quiet))
        #expect(try Self.signature.parse(["-h"]).has(.help))
    }

    @Test func helpListsExactlyWhatTheParserAccepts() throws {
        let help = Self.signature.help(program: "tool")
        #expect(help.hasPrefix("USAGE: tool demo INPUT... [-o FILE] [--format csv|json] [--quiet] [--key KEY]\n"))
        #expect(help.contains("  --format FORMAT    csv or json. (default: csv)\n"))
        #expect(help.hasSuffix("  -h, --help         Show this help.\n\nEXIT STATUS: 0 always."))
        let labels = OptionListReader.labels(inHelp: help)
        #expect(labels == Self.signature.acceptedOptions.map { $0.names.joined(separator: ", ") })
        for option in Self.signature.acceptedOptions {
            let value = option.takesValue ? ["csv"] : []
            for spelled in option.names {
                #expect(throws: Never.self) { try Self.signature.parse([spelled] + value) }
            }
        }
    }

    @Test func longLabelsAndLongHelpAreWrapped() {
        let long = CommandOption.text(
            "--public-key", placeholder: "KIND=BASE64[,KIND=BASE64...]",
            help: String(repeating: "word ", count: 60).trimmingSuffix())
        let help = CommandSignature(
            name: "x", summary: "", operands: "", options: [long], discussion: "", exitStatus: "0."
        ).help(program: "p")
        let lines = help.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= HelpLayout.width })
        #expect(lines.contains("  --public-key KIND=BASE64[,KIND=BASE64...]"))
    }
}

/// Reads the labels of an OPTIONS section back, as a user reads them: lines that start with two spaces and a dash.
enum OptionListReader {
    static func labels(inHelp help: String) -> [String] {
        guard let options = help.range(of: "\nOPTIONS:\n") else { return [] }
        return help[options.upperBound...].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  -") else { return nil }
            let label = line.dropFirst(2).split(separator: "  ", maxSplits: 1).first ?? ""
            // Drop the placeholder: `-o, --output FILE` → `-o, --output`.
            return label.split(separator: ",").map { part in
                String(part.trimmingPrefix(" ").split(separator: " ").first ?? "")
            }.joined(separator: ", ")
        }
    }
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
