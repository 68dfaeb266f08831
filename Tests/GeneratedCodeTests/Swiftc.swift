import Foundation
import SkanTestSupport

/// Runs the toolchain's `swiftc` (on PATH) and returns its exit status and everything it printed.
enum Swiftc {
    /// `swiftc -typecheck -swift-version 6 -warnings-as-errors -parse-as-library` plus `arguments`.
    static func typecheck(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ChildProcess.run(
            try ChildProcess.onPath("swiftc"),
            ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library"] + arguments)
        return (result.status, result.stderr + result.stdout)
    }
}
