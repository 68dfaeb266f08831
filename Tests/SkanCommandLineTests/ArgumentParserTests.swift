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
