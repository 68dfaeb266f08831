import Foundation

/// The rules that keep the package compiling on macOS, iOS and Linux alike, over one file's text.
enum PlatformModuleCheck {
    /// Modules that exist on some platforms only: importing one needs a `#if canImport` of it around it,
    /// and naming one as a qualifier (`Glibc.write`) breaks every other platform.
    static let platformModules: Set<String> = [
        "Glibc", "Darwin", "Musl", "Android", "Bionic", "WinSDK", "ucrt", "CRT",
        "StoreKit", "AdAttributionKit", "AdServices", "AppTrackingTransparency", "UIKit", "AppKit",
        "XcodeProjectPlugin",
    ]
    static let libcModules: Set<String> = ["Glibc", "Darwin", "Musl", "Android", "Bionic", "WinSDK", "ucrt", "CRT"]

    /// What is wrong in `source`, one line each, prefixed with `name:line:`.
    static func problems(in source: SwiftSourceText, name: String) -> [String] {
        var problems: [String] = []
        let lines = source.text.split(separator: "\n", omittingEmptySubsequences: false)
        // The condition of the branch each open `#if` is in; `#else` branches assume nothing.
        var branches: [String] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let number = index + 1
            if trimmed.hasPrefix("#if ") {
                branches.append(String(trimmed.dropFirst(4)))
            } else if trimmed.hasPrefix("#elseif "), !branches.isEmpty {
                branches[branches.count - 1] = String(trimmed.dropFirst(8))
            } else if trimmed.hasPrefix("#else"), !branches.isEmpty {
                branches[branches.count - 1] = ""
            } else if trimmed.hasPrefix("#endif"), !branches.isEmpty {
                branches.removeLast()
            }
            for module in libcModules {
                if trimmed.range(of: "\\b\(module)\\.[A-Za-z_]", options: .regularExpression) != nil {
                    problems.append(
                        "\(name):\(number): '\(module).' names a platform module at a call site; \(module) does not exist on the other platforms"
                    )
                }
            }
            if let match = trimmed.range(
                of: "^(@[A-Za-z_]+ +)*import +(class |struct |enum |func |var |let )?[A-Za-z_]+",
                options: .regularExpression)
            {
                let module = String(trimmed[match].split(separator: " ").last!)
                let guarded = branches.contains { condition in
                    condition.range(of: "(^|[^!])canImport\\(\(module)\\)", options: .regularExpression) != nil
                }
                if platformModules.contains(module), !guarded {
                    problems.append("\(name):\(number): 'import \(module)' outside '#if canImport(\(module))'")
                }
            }
            // A stored function type with a typed error needs the Swift 6 runtime (macOS 15, iOS 18).
            if trimmed.range(
                of: "^(.* )?(var|let|typealias) +[A-Za-z_][A-Za-z0-9_]* *[:=][^=]*\\) *(async +)?throws\\(",
                options: .regularExpression) != nil
            {
                problems.append(
                    "\(name):\(number): a stored function type with a typed 'throws(…)' needs macOS 15 / iOS 18 at run time; store an untyped 'throws'"
                )
            }
        }
        return problems
    }
}
