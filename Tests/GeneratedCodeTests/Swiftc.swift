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

    /// Compiles `arguments` through SIL (`-emit-sil`, output discarded), which also runs the diagnostics that
    /// type-checking alone does not (code that will never be executed, a variable never mutated).
    static func emitSIL(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ChildProcess.run(
            try ChildProcess.onPath("swiftc"),
            [
                "-emit-sil", "-whole-module-optimization", "-o", "/dev/null", "-swift-version", "6",
                "-warnings-as-errors", "-parse-as-library",
            ]
                + arguments)
        return (result.status, result.stderr + result.stdout)
    }
}
