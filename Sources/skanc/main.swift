import SkanCommands

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The command line, run on the process's own standard input, output and error.
let arguments = Array(CommandLine.arguments.dropFirst())
let status = Skanc.run(arguments, in: .process)
exit(status.rawValue)
