import Foundation
import Testing

/// Output written as JSON lines (`postbacks --format jsonl`, `simulate --truth`, exports), read back as objects.
public enum JSONLines {
    /// Each non-empty line of `text` as a JSON object; a line that is not one fails the test.
    public static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }
}
