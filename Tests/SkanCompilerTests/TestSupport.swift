import Foundation
import SkanTestSupport

extension Paths {
    /// The invalid schemas with the diagnostics they must produce.
    static let invalidFixtures = file("Tests/SkanCompilerTests/Fixtures/invalid")
}
