#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A run's standard output and error, and what a path naming a descriptor writes to: `/dev/stdout` and
/// `/dev/stderr` (and `/dev/fd/1`, `/dev/fd/2`) are the run's own, which for a command run in-process, as the
/// tests run them, are files of that run rather than the process's descriptors 1 and 2.
package struct RunOutputs: Sendable {
    /// Standard output; the run reports its failure.
    package let standardOutput: FileDescriptorOutput
    /// Standard error.
    package let standardError: FileDescriptorOutput

    /// The outputs of a run writing to these two.
    package init(standardOutput: FileDescriptorOutput, standardError: FileDescriptorOutput) {
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The writer `path` names when it names an open descriptor (`FileOutput.openDescriptor(named:)`): the run's
    /// standard output or error for descriptors 1 and 2, that descriptor otherwise; nil for any other path.
    package func output(named path: String) -> FileDescriptorOutput? {
        switch FileOutput.openDescriptor(named: path) {
        case nil: return nil
        case STDOUT_FILENO: return standardOutput
        case STDERR_FILENO: return standardError
        case let descriptor?: return FileDescriptorOutput(descriptor: descriptor)
        }
    }
}
