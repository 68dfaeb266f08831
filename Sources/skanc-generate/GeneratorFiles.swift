import SkanCore
import SkanFiles

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the tool prints, on the C library (files are read with `InputFile` and written with `FileOutput`, as every
/// command reads and writes them).
enum GeneratorFiles {
    /// `text` and a line break on standard error.
    static func printError(_ text: String) {
        FileDescriptorOutput(descriptor: STDERR_FILENO).write(Array((text + "\n").utf8))
    }
}
