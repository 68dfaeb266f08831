#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// `read(2)` and `write(2)` under names of their own. `Output.write` and `PostbackReader.read` shadow the
// C functions inside those types, and the way around that must not be a module qualifier: `Glibc.write`
// does not exist on macOS, nor `Darwin.write` on Linux. At file scope the unqualified names reach the C
// library of whichever platform this is compiled on.

/// `write(2)`: writes up to `count` bytes, returning how many were written or -1 with `errno` set.
func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// `read(2)`: reads up to `count` bytes, returning how many were read, 0 at the end, or -1 with `errno` set.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
