package import SkanCore

/// The project's seeded generator, so the random inputs of the tests are the same on every run.
package typealias SplitMix64 = SkanCore.SplitMix64
