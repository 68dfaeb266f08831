import Foundation
import GeneratedPackage
import GeneratedPublic
import SkanCompiler
import SkanCore
import SkanSchema
import Testing

@testable import GeneratedInternal

/// The golden generated code, compiled into this test target, against the library's reference semantics:
/// every fine value 0...63 of every schema and access level, every window.
@Suite struct GeneratedCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func schema(_ path: String) throws -> Schema {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        return try #require(SchemaCompiler.compile(text, path: path).schema)
    }

    /// The generated error's description for each reason the library gives.
    static func generatedDescription(of error: FineValueError) -> String {
        switch error {
        case .outOfRange(let value): "\(value) is not a fine value: fine values are 0...63"
        case .reservedBitSet(let bit, _): "bit \(bit) is reserved"
        case .reservedBitClear(let bit, _): "bit \(bit) is clear, but this version sets it in every value"
        case .unusedBitSet(let bit): "bit \(bit) belongs to no flag or field of this schema"
        case .undefinedCode(let field, let code, _): "code \(code) is no case of \(field)"
        }
    }

    /// Decodes every fine value (and a few outside the range) with both, and compares everything.
    func agree<T: GeneratedState>(_ type: T.Type, with schema: Schema) {
        var decoded = 0
        for fine in -2...66 {
            switch schema.decode(fineValue: fine) {
            case .success(let state):
                guard let generated = try? T(fineValue: fine) else {
                    Issue.record("\(T.self) rejects \(fine), which the schema accepts")
                    continue
                }
                decoded += 1
                #expect(generated.fineValue == fine, "\(T.self) round trip of \(fine)")
                for window in ConversionWindow.allCases {
                    let typed = T.Window(rawValue: window.number)!
                    #expect(
                        generated.coarseValue(in: typed).rawValue
                            == schema.coarseValue(of: state, window: window)?.rawValue,
                        "\(T.self) coarse value of \(fine) in window \(window)")
                    #expect(
                        generated.shouldLock(in: typed) == schema.shouldLock(state, window: window),
                        "\(T.self) lock of \(fine) in window \(window)")
                }
            case .failure(let error):
                do {
                    _ = try T(fineValue: fine)
                    Issue.record("\(T.self) accepts \(fine): \(error)")
                } catch let thrown {
                    #expect("\(thrown)" == Self.generatedDescription(of: error), "\(T.self) error for \(fine)")
                }
            }
        }
        #expect(decoded == schema.validStates.count)
    }

    @Test func shop() throws {
        let schema = try Self.schema("Schemas/Shop.skan")
        agree(GeneratedInternal.Shop.self, with: schema)
        agree(GeneratedPackage.Shop.self, with: schema)
        agree(GeneratedPublic.Shop.self, with: schema)
    }

    @Test func eventFlags() throws {
        let schema = try Self.schema("Schemas/EventFlags.skan")
        agree(GeneratedInternal.EventFlags.self, with: schema)
        agree(GeneratedPackage.EventFlags.self, with: schema)
        agree(GeneratedPublic.EventFlags.self, with: schema)
    }

    @Test func subscription() throws {
        let schema = try Self.schema("Schemas/Subscription.skan")
        agree(GeneratedInternal.Subscription.self, with: schema)
        agree(GeneratedPackage.Subscription.self, with: schema)
        agree(GeneratedPublic.Subscription.self, with: schema)
    }

    /// A version marked by a reserved bit set in every value: the generated encoder sets it, the decoder
    /// requires it.
    @Test func markedVersion() throws {
        let schema = try Self.schema("Tests/SkanCompilerTests/Fixtures/ShopMarked.skan")
        agree(GeneratedInternal.ShopMarked.self, with: schema)
        agree(GeneratedPackage.ShopMarked.self, with: schema)
        agree(GeneratedPublic.ShopMarked.self, with: schema)
        #expect(GeneratedPublic.ShopMarked().fineValue == 32)
        #expect(
            GeneratedPublic.ShopMarked(registered: true, paymentTier: .low, dayOneAction: .searched).fineValue == 43)
        #expect(throws: GeneratedPublic.ShopMarked.FineValueError.reservedBitClear(bit: 5)) {
            try GeneratedPublic.ShopMarked(fineValue: 11)
        }
    }

    @Test func torture() throws {
        let schema = try Self.schema("Tests/SkanCompilerTests/Fixtures/Torture.skan")
        agree(GeneratedInternal.`Protocol`.self, with: schema)
        agree(GeneratedPackage.`Protocol`.self, with: schema)
        agree(GeneratedPublic.`Protocol`.self, with: schema)
    }

    @Test func typedAPIReadsLikeTheSchema() throws {
        let state = GeneratedPublic.Shop(registered: true, paymentTier: .low, dayOneAction: .browsed)
        #expect(state.fineValue == 11)
        #expect(state.coarseValue(in: .first) == .medium)
        #expect("\(state.paymentTier)" == "low")
        #expect("\(state.coarseValue(in: .second))" == "medium")
        #expect(GeneratedPublic.Shop() == (try GeneratedPublic.Shop(fineValue: 0)))
        #expect(GeneratedPublic.Shop.schemaVersion == 3)
        #expect(throws: GeneratedPublic.Shop.FineValueError.reservedBitSet(bit: 5)) {
            try GeneratedPublic.Shop(fineValue: 42)
        }
        #expect(throws: GeneratedPublic.Shop.FineValueError.outOfRange(64)) { try GeneratedPublic.Shop(fineValue: 64) }
        #expect(GeneratedPublic.Shop.PaymentTier.allCases.map { "\($0)" } == ["none", "low", "medium", "high"])
        #expect(GeneratedPublic.Shop.PaymentTier.medium > .low)
        let keywords = GeneratedPublic.`Protocol`(self: true, default: .Type, Type: .Self)
        #expect("\(keywords.default)" == "Type")
        #expect(keywords.fineValue == 1 + 8 + 16)
    }

    @Test func bucketInitializersMatchTheLibrary() throws {
        let schema = try Self.schema("Schemas/Subscription.skan")
        let revenue = try #require(schema.field(named: "revenue"))
        let sessions = try #require(schema.field(named: "sessions"))
        let amounts: [Double] = [
            -5, 0, 0.001, 0.0099, 0.01, 0.5, 0.99, 1, 4.99, 5, 12.5, 19.99, 20, 49.99, 50, 99.99, 100, 1e12, .nan,
            .infinity,
        ]
        for amount in amounts {
            #expect(
                GeneratedPublic.Subscription.Revenue(amount: amount).rawValue
                    == revenue.nearestBucketCase(for: amount)?.code, "amount \(amount)")
            if let exact = revenue.bucketCase(for: amount) {
                #expect(GeneratedPublic.Subscription.Revenue(amount: amount).rawValue == exact.code, "amount \(amount)")
            }
        }
        #expect(GeneratedPublic.Subscription.Revenue(amount: 12.5) == .mid)
        for count in -1...30 {
            #expect(
                GeneratedInternal.Subscription.Sessions(count: count).rawValue
                    == sessions.nearestBucketCase(for: Double(count))?.code, "count \(count)")
        }
        #expect(GeneratedInternal.`Protocol`.In(count: 10) == .while)
    }

    /// Windows are a type: a window number or postback index that names no window is nil, never a trap.
    @Test func windowsComeFromNumbersAndPostbackIndexes() {
        typealias Window = GeneratedPublic.Shop.Window
        #expect(Window(number: 1) == .first && Window(number: 3) == .third)
        #expect(Window(postbackSequenceIndex: 0) == .first && Window(postbackSequenceIndex: 2) == .third)
        for wrong in [Int.min, -1, 0, 4, Int.max] { #expect(Window(number: wrong) == nil) }
        for wrong in [Int.min, -1, 3, Int.max] { #expect(Window(postbackSequenceIndex: wrong) == nil) }
        #expect(Window.allCases.map(\.number) == [1, 2, 3])
        #expect(Window.allCases.map(\.postbackSequenceIndex) == [0, 1, 2])
        #expect(Window.first < .third)
        let state = GeneratedPublic.Shop(paymentTier: .high)
        #expect(Window.allCases.map { state.shouldLock(in: $0) } == [true, false, false])
    }
}
