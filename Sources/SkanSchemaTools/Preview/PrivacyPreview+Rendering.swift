import SkanCompiler
import SkanCore
import SkanSchema

extension PrivacyPreview {
    /// The interface for scripts: `{"schema": NAME, "cells": [{"window", "tier", "postback", "carries",
    /// "source_identifier_digits", "fields", "coarse_states"}]}`, one cell per window and tier.
    public var json: String {
        let cells = cells.map { cell -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("window", .integer(cell.window.number)), ("tier", .integer(cell.tier.rawValue)),
                ("postback", .bool(cell.postback)), ("carries", .array(cell.carries.map { .string($0.rawValue) })),
                (
                    "source_identifier_digits",
                    cell.sourceIdentifierDigits.map { .array([.integer($0.lowerBound), .integer($0.upperBound)]) }
                        ?? .null
                ),
                ("fields", .object(cell.fields.map { ($0.name, .string($0.reading.rawValue)) })),
            ]
            members.append(
                (
                    "coarse_states",
                    cell.coarseStates.map { .object($0.map { ($0.value.rawValue, .integer($0.states)) }) } ?? .null
                ))
            // Only where a `nothing` rule can hold, so other schemas' documents keep their shape.
            if cell.statesSendingNothing > 0 {
                members.append(("states_sending_nothing", .integer(cell.statesSendingNothing)))
            }
            return .object(members)
        }
        return JSONValue.object([("schema", .string(schema.name)), ("cells", .array(cells))]).rendered() + "\n"
    }

    /// One line per window and tier: the postback, what it carries, and each field's reading.
    public var text: String {
        var lines = ["\(schema.name) version \(schema.version): what each postback shows", ""]
        for cell in cells {
            let head = "window \(cell.window.number), tier \(cell.tier.rawValue): "
            guard cell.postback else {
                let never = cell.tier.sendsPostback(in: cell.window)
                lines.append(head + "no postback" + (never ? " (no state sends an update in the window)" : ""))
                continue
            }
            let digits = cell.sourceIdentifierDigits.map(Self.digits) ?? ""
            let fields = cell.fields.map { "\($0.name) \($0.reading.rawValue)" }.joined(separator: ", ")
            lines.append(
                head + cell.carries.map(\.rawValue).joined(separator: ", ") + " (\(digits) digits); "
                    + (fields.isEmpty ? "no fields" : fields) + Self.lumps(cell) + Self.silence(cell))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table per window: a row per tier, a column per field.
    public var markdown: String {
        var lines = ["# \(schema.name) version \(schema.version): what each postback shows", ""]
        for window in ConversionWindow.allCases {
            lines.append("## Window \(window.number)")
            lines.append("")
            let names = schema.fields.map { MarkdownRenderer.escape($0.name) }
            lines.append("| tier | postback | carries | digits | " + names.joined(separator: " | ") + " |")
            lines.append("|" + Array(repeating: " --- |", count: 4 + names.count).joined())
            for cell in cells where cell.window == window {
                let row =
                    [
                        String(cell.tier.rawValue), cell.postback ? "yes" : "no",
                        cell.carries.map(\.rawValue).joined(separator: ", "),
                        cell.sourceIdentifierDigits.map(Self.digits) ?? "",
                    ] + cell.fields.map { $0.reading.rawValue }
                lines.append("| " + row.joined(separator: " | ") + " |")
            }
            if let lumps = cells.first(where: { $0.window == window && $0.coarseStates != nil })?.coarseStates {
                lines.append("")
                lines.append(
                    "Coarse values lump states together: "
                        + lumps.map { "\($0.value.rawValue) \($0.states)" }.joined(separator: ", ") + ".")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    static func digits(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)"
    }

    /// The states that send nothing, and what that leaves of the postback.
    static func silence(_ cell: Cell) -> String {
        guard cell.statesSendingNothing > 0 else { return "" }
        let what = cell.window == .first ? "the postback carries no value for them" : "no postback for them"
        return "; \(cell.statesSendingNothing) states send nothing (\(what))"
    }

    static func lumps(_ cell: Cell) -> String {
        guard let states = cell.coarseStates, !cell.carries.contains(.fineValue) else { return "" }
        return "; coarse values lump "
            + states.map { "\($0.states) states as \($0.value.rawValue)" }.joined(separator: ", ")
    }
}
