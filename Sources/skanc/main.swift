#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let status = Skanc.run(arguments)
exit(status.rawValue)
