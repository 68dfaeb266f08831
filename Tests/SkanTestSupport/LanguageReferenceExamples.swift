import Foundation

/// The examples of docs/LanguageReference.md: a schema block followed by the block of what the compiler prints.
public enum LanguageReferenceExamples {
    /// (schema, expected output, line of the schema block) for each example.
    public static func all() throws -> [(schema: String, output: String, line: Int)] {
        let text = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("docs/LanguageReference.md"), encoding: .utf8)
        var blocks: [(text: String, line: Int)] = []
        var current: [String]? = nil
        var start = 0
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append((lines.joined(separator: "\n"), start))
                    current = nil
                } else {
                    current = []
                    start = index + 1
                }
            } else {
                current?.append(line)
            }
        }
        return zip(blocks, blocks.dropFirst()).compactMap { schema, output in
            guard schema.text.hasPrefix("schema "), output.text.hasPrefix("example.skan:") else { return nil }
            return (schema.text + "\n", output.text, schema.line)
        }
    }
}
