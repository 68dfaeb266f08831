import Foundation
import SkanCommandLine
import SkanCore
import SkanFiles
import SkanLanguageServer

/// `skanc lsp`: the language server over standard input and output, for editors.
enum LSPCommand {
    static let command = Command(
        name: "lsp",
        summary: "Serve the Language Server Protocol over standard input and output, for editors.",
        operands: "",
        options: [],
        discussion: """
            Speaks LSP 3.17 (JSON-RPC with Content-Length framing) on standard input and output, for editors to
            start: on .skan documents, the diagnostics of 'check' and 'lint' (same codes, severities and notes)
            on open and on every change, quick fixes for "did you mean", formatting as 'fmt' does, completion, a
            code lens per coarse block, and on flags, fields, cases and events hover, go to definition,
            references, document symbols and rename (refused when the renamed schema would not check). Positions
            are in UTF-16 code units, as the protocol counts them. Each diagnostic links its code to the
            language reference (codeDescription): docs/LanguageReference.md in a folder above the executable, or
            the file a client names in initializationOptions.languageReference. Standard error carries a line
            for input that cannot be framed. It exits when the client sends 'exit' or its input closes.
            README.md ("Editor support") shows the setup per editor.
            """,
        exitStatus: """
            0 the input closed, or 'exit' came after 'shutdown'; 1 'exit' came without 'shutdown', or the input \
            could not be framed; 64 bad usage.
            """,
        run: run
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(UsageError) -> ExitStatus {
        guard arguments.positionals.isEmpty else {
            throw UsageError(
                message: "lsp takes no operands: an editor starts it and talks on its input")
        }
        var server = LanguageServer(
            version: Skanc.version,
            languageReference: ReferenceLinks.locate(
                executable: Bundle.main.executablePath ?? CommandLine.arguments[0]),
            baselines: baseline(documentURI:against:))
        var framer = MessageFramer()
        var input = FileDescriptorInput(descriptor: context.standardInput)
        while true {
            guard let data = input.next() else {
                context.error("skanc lsp: error: cannot read the input (\(String(cString: strerror(errno))))")
                return .failure
            }
            if data.isEmpty { return .success }
            framer.append(data)
            do {
                while let body = try framer.nextMessage() {
                    for message in server.handle(body) { context.standardOutput.write(MessageFramer.frame(message)) }
                    if let status = server.exitStatus { return status == 0 ? .success : .failure }
                }
            } catch {
                context.error("skanc lsp: the input cannot be framed: \(error.message)")
                return .failure
            }
            // The client is gone when its end of the pipe is (Skanc.run says why).
            if context.standardOutput.failure != nil { return .failure }
        }
    }
}
