/// The formats `skanc postbacks` writes rows in: CSV (RFC 4180, spreadsheet-safe) and JSON lines.
public enum PostbackFormat: String, Sendable, CaseIterable {
    case csv, jsonl
}
