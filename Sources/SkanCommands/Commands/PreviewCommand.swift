import SkanCommandLine
import SkanCore
import SkanSchemaTools

/// `skanc preview SCHEMA [--format text|markdown|html|json]`: what each postback shows, window by tier.
enum PreviewCommand {
    /// What `--format` takes: a switch over it says what each writes.
    enum Format: String, CaseIterable {
        case text, markdown, html, json
    }

    static let format = ChoiceOption<Format>(
        "--format", placeholder: "FORMAT", default: .text,
        help: "text, markdown, html (a self-contained page) or json.")

    static let command = Command(
        name: "preview",
        summary: "Show what each postback window and privacy tier lets you read of a schema's fields.",
        operands: "SCHEMA",
        options: [format],
        discussion: """
            For each conversion window (1, 2, 3) and postback data tier (0-3, Apple's crowd anonymity), what the
            postback carries and how each field reads back from it. Tier 0: only the first postback, a two-digit
            source identifier and no value; tier 1: a coarse value in every postback; tiers 2 and 3: the fine
            value in the first postback (two to four digits), a coarse value in the others; tier 3 adds the
            publisher and the country to the first. A field reads "fine" from a fine value, "coarse" when each
            coarse value the window gives leaves one case of it, else "none"; with a coarse value, how many
            states each coarse value lumps together.
            With --format json, the interface for scripts:
              {"schema": NAME, "cells": [{"window": 1|2|3, "tier": 0|1|2|3, "postback": BOOL, "carries": [...],
               "source_identifier_digits": [MIN, MAX] | null, "fields": {FIELD: "fine"|"coarse"|"none"},
               "coarse_states": {"low": N, "medium": N, "high": N} | null}]}
            """,
        exitStatus: "0 shown, 1 the schema has errors or cannot be read, 64 bad usage.",
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError(
                message: arguments.positionals.isEmpty ? "name the schema to preview" : "preview takes one schema")
        }
        guard let schema = SchemaInput.compileAndReport(path, context).schema else { return .failure }
        let preview = PrivacyPreview(schema: schema)
        switch arguments.value(format) {
        case .json: context.standard(preview.json, terminator: "")
        case .markdown: context.standard(preview.markdown, terminator: "")
        case .html: context.standard(preview.html, terminator: "")
        case .text: context.standard(preview.text, terminator: "")
        }
        return .success
    }
}
