/// SplitMix64 (Steele, Lea and Flood), a small seeded generator: whatever draws random numbers in the
/// project (simulated postbacks for `--seed`, the lints' sample activities, the tests' random inputs) gives
/// the same numbers on every machine and run.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The state, advanced by each draw.
    package var state: UInt64

    /// A generator whose draws follow from `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
