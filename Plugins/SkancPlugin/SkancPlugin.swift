import Foundation
import PackagePlugin

/// Generates Swift from every `*.skan` file of a target when the target builds: one build command per
/// schema, rerun only when the schema (or the tool) changes. The tool, `skanc-generate`, links the compiler
/// only. A schema error fails the build with the
/// schema's `path:line:column: error:` diagnostics, which SwiftPM and Xcode show on the schema's line.
@main
struct SkancPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let schemas = target.sourceFiles(withSuffix: "skan").map(\.url)
        return try Self.commands(
            for: schemas, in: target.directoryURL, tool: context.tool(named: "skanc-generate").url,
            workDirectory: context.pluginWorkDirectoryURL)
    }

    /// One `.buildCommand` per schema. Output names come from each schema's path below `base`
    /// (`GeneratedFileName`), so two schemas never write the same file.
    static func commands(for schemas: [URL], in base: URL, tool: URL, workDirectory: URL) -> [Command] {
        schemas.sorted { $0.path < $1.path }.map { schema in
            let relative = relativePath(of: schema, below: base)
            let output = workDirectory.appendingPathComponent(GeneratedFileName.forSchema(atRelativePath: relative))
            return .buildCommand(
                displayName: "Generating Swift from \(relative)",
                executable: tool,
                arguments: [schema.path, output.path, relative],
                inputFiles: [schema],
                outputFiles: [output]
            )
        }
    }

    static func relativePath(of file: URL, below base: URL) -> String {
        let filePath = file.standardizedFileURL.path
        let basePath = base.standardizedFileURL.path
        guard filePath.hasPrefix(basePath + "/") else { return file.lastPathComponent }
        return String(filePath.dropFirst(basePath.count + 1))
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension SkancPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let schemas = target.inputFiles.map(\.url).filter { $0.pathExtension == "skan" }
        return try Self.commands(
            for: schemas, in: context.xcodeProject.directoryURL,
            tool: context.tool(named: "skanc-generate").url, workDirectory: context.pluginWorkDirectoryURL)
    }
}
#endif
