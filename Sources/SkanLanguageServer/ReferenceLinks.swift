import Foundation
package import SkanCore

/// Where the language reference explains each diagnostic code, for a diagnostic's `codeDescription`: read from
/// the reference itself (docs/LanguageReference.md), so a link cannot point at a section that is not there. A
/// code named in a heading (`### \`bit-range\` (error)`) links to that heading; one that starts a list item
/// (`- \`code\`: ...`, the lints) to the heading above the list. Anchors are the ones GitHub and most Markdown
/// viewers give headings.
package struct ReferenceLinks: Sendable {
    /// The reference's address, without a fragment.
    let document: String
    /// Each code's anchor.
    let anchors: [String: String]

    /// The links into `markdown`, the reference found at the address `document`.
    init(markdown: String, document: String) {
        self.document = document
        var anchors: [String: String] = [:]
        var listed: [String: String] = [:]
        var heading: String? = nil
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") || line.hasPrefix("### ") {
                let title = String(line.drop { $0 == "#" }.dropFirst())
                heading = Self.anchor(ofHeading: title)
                for code in Self.quotedWords(title) where anchors[code] == nil { anchors[code] = heading }
            } else if line.hasPrefix("- `"), let heading, let code = Self.quotedWords(line).first, listed[code] == nil {
                listed[code] = heading
            }
        }
        // A heading that names a code is its section, wherever a list mentions it.
        self.anchors = anchors.merging(listed) { heading, _ in heading }
    }

    /// The links into the reference at `path`; nil when it cannot be read.
    package init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { return nil }
        self.init(markdown: text, document: URL(fileURLWithPath: path).absoluteString)
    }

    /// The reference beside an installed or built `skanc` (`docs/LanguageReference.md` in a folder above the
    /// executable: a checkout's `.build/debug/skanc` finds the checkout's), if there is one.
    package static func locate(executable: String) -> String? {
        var folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = folder.appendingPathComponent("docs/LanguageReference.md").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Where `code` is explained; nil for a code the reference does not name.
    package func href(for code: DiagnosticCode) -> String? {
        anchors[code.rawValue].map { document + "#" + $0 }
    }

    /// A heading's anchor as GitHub makes it: lowercased, everything but letters, digits, spaces, hyphens and
    /// underscores dropped, spaces turned into hyphens.
    package static func anchor(ofHeading title: String) -> String {
        String(
            title.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                if scalar == " " { return "-" }
                if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) {
                    return Character(scalar)
                }
                return nil
            })
    }

    /// The words written in backquotes in `text`, in order.
    private static func quotedWords(_ text: String) -> [String] {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }
    }
}
