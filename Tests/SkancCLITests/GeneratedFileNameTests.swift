import Testing

/// The plugin's output names (Plugins/SkancPlugin/GeneratedFileName.swift, linked into this target).
@Suite struct GeneratedFileNameTests {
    @Test func namesReadLikeThePath() {
        #expect(GeneratedFileName.forSchema(atRelativePath: "Shop.skan") == "Shop.swift")
        #expect(GeneratedFileName.forSchema(atRelativePath: "Store/Shop.skan") == "Store.Shop.swift")
    }

    @Test func pathsThatOnceCollidedGetDifferentNames() {
        let names = [
            "a_/b.skan", "a/_b.skan", "a__b.skan", "a/b.skan", "a.b.skan", "a_.b.skan", "a/.b.skan", "a./b.skan",
        ]
        .map(GeneratedFileName.forSchema(atRelativePath:))
        #expect(Set(names).count == names.count, "\(names)")
        #expect(names[0] == "a__.b.swift")
        #expect(names[1] == "a.__b.swift")
    }

    @Test func everyShortPathGetsItsOwnName() {
        // All paths of up to four characters from the characters that matter.
        var paths = [""]
        for _ in 0..<4 { paths += paths.flatMap { path in ["a", "_", ".", "/"].map { path + $0 } } }
        let unique = Set(paths)
        let names = Set(unique.map { GeneratedFileName.forSchema(atRelativePath: $0 + ".skan") })
        #expect(names.count == unique.count)
    }
}
