import Foundation
import SkanCommandLine
import SkanCore
import SkanFiles
import SkanPostbacks

/// The files commands read and write by the paths users give: `-` for the context's standard input, and the
/// result to `-o FILE` or the context's standard output.
extension CommandContext {
    /// `path` opened for reading, `-` being this run's standard input (what `InputFile` says of `regularOnly`).
    func open(_ path: String, expecting what: String, regularOnly: Bool = false) throws(InputFileError) -> InputFile {
        try InputFile(path, expecting: what, regularOnly: regularOnly, standardInput: standardInput)
    }

    /// The bytes at `path` (`-`: this run's standard input), at most `limit`.
    func contents(of path: String, expecting what: String, limit: Int = Int.max) throws(InputFileError) -> [UInt8] {
        try self.open(path, expecting: what).contents(limit: limit)
    }

    /// The bytes at `path`, or of standard input for `-`; nil, after printing the `file-unreadable` diagnostic,
    /// when the file cannot be read or holds more than `limit`. `what` names what the command expected there
    /// ("the journey").
    func read(_ path: String, what: String, limit: InputLimit) -> [UInt8]? {
        do throws(InputFileError) {
            let bytes = try contents(of: path, expecting: what, limit: limit.bytes + 1)
            guard bytes.count <= limit.bytes else {
                throw InputFileError(
                    path: path,
                    reason: "holds more than \(limit.text), the most \(what) may; is it the right file? (an endless "
                        + "stream such as /dev/zero never ends)")
            }
            return bytes
        } catch {
            diagnostics([error.diagnostic], path: error.displayName)
            return nil
        }
    }

    /// Refuses as bad usage an `output` that is one of the files the command reads (the same file by device and
    /// inode, whatever the name or link): writing it would destroy what was read, and raw postbacks cannot be
    /// fetched again. `inputs` pairs each path with how the message names it ("the schema itself"); `what` names
    /// what the output holds ("the report").
    func refuseOutput(
        _ output: String?, over inputs: [(path: String, role: String)], what: String
    ) throws(UsageError) {
        guard let output,
            let input = inputs.first(where: {
                FileOutput.replaces(output, input: $0.path, standardInput: standardInput)
            })
        else { return }
        throw UsageError(message: "'\(output)' is \(input.role); write \(what) to another file")
    }

    /// `text` written to `output` (only when its content changes), or to standard output when no file is given.
    func write(_ text: String, to output: String?) -> ExitStatus {
        guard let output else {
            standard(text, terminator: "")
            return .success
        }
        return write(data: Data(text.utf8), toFile: output)
    }

    /// `bytes` written as `write(_:to:)` writes text.
    func write(bytes: [UInt8], to output: String?) -> ExitStatus {
        guard let output else {
            standardOutput.write(bytes)
            return .success
        }
        return write(data: Data(bytes), toFile: output)
    }

    private func write(data: Data, toFile path: String) -> ExitStatus {
        if let output = outputs.output(named: path) {
            // The descriptor the shell opened (`-o /dev/stdout`, `>>` included): written where it stands, after
            // what the command already wrote there, never replaced. Standard output and error are this run's.
            output.write(data)
            guard let failure = output.failure, output !== standardOutput else { return .success }
            diagnostics([FileOutput.failure(path, "cannot write", failure).diagnostic], path: path)
            return .failure
        }
        do {
            try FileOutput.writeIfChanged(data: data, to: path)
        } catch {
            diagnostics([error.diagnostic], path: error.path)
            return .failure
        }
        return .success
    }
}
