// libFuzzer target: the generated decoders (from `skanc generate`, which Fuzz/run.sh runs first) against the library's reference
// semantics, for any Int the fuzzer makes up: same verdict, same values, same error.
import FuzzSupport
import FuzzedSchemas
import SkanCompiler
import SkanCore
import SkanSchema

/// Compiled for every input, not kept in a global (see FuzzPostbacks).
func schema(_ text: String) -> Schema {
    SchemaCompiler.compile(text).schema!
}

func check<T>(
    _ schema: Schema, _ fine: Int, decode: (Int) throws -> T, fineValue: (T) -> Int,
    coarse: (T, Int) -> String, lock: (T, Int) -> Bool
) {
    let generated = try? decode(fine)
    switch schema.decode(fineValue: fine) {
    case .success(let state):
        guard let value = generated else { fatalError("\(schema.name): generated code rejects \(fine)") }
        guard fineValue(value) == fine else { fatalError("\(schema.name): round trip of \(fine)") }
        for window in ConversionWindow.allCases {
            guard coarse(value, window.number) == schema.coarseValue(of: state, window: window)!.rawValue,
                lock(value, window.number) == schema.shouldLock(state, window: window)
            else {
                fatalError("\(schema.name): values of \(fine) in window \(window)")
            }
        }
    case .failure:
        if generated != nil { fatalError("\(schema.name): generated code accepts \(fine)") }
    }
}

/// One input; a crash, leak or failed check is a finding.
func fuzzGeneratedDecoder(_ input: UnsafeRawBufferPointer) -> Int32 {
    let count = input.count
    guard count >= 1 else { return 0 }
    let bytes = input
    var fine = 0
    for byte in bytes.dropFirst().prefix(8) { fine = fine << 8 | Int(byte) }
    if count <= 2 { fine = Int(bytes[count - 1]) & 0x7F }  // short inputs explore the interesting range
    switch bytes[0] % 3 {
    case 0:
        check(
            schema(shopText), fine, decode: { try Shop(fineValue: $0) }, fineValue: \.fineValue,
            coarse: { $0.coarseValue(in: .init(number: $1)!).rawValue }, lock: { $0.shouldLock(in: .init(number: $1)!) }
        )
    case 1:
        check(
            schema(eventFlagsText), fine, decode: { try EventFlags(fineValue: $0) }, fineValue: \.fineValue,
            coarse: { $0.coarseValue(in: .init(number: $1)!).rawValue }, lock: { $0.shouldLock(in: .init(number: $1)!) }
        )
    default:
        let subscription = schema(subscriptionText)
        check(
            subscription, fine, decode: { try Subscription(fineValue: $0) }, fineValue: \.fineValue,
            coarse: { $0.coarseValue(in: .init(number: $1)!).rawValue }, lock: { $0.shouldLock(in: .init(number: $1)!) }
        )
        // Bucket initializers agree with the library's total bucket function.
        let amount = Double(bitPattern: UInt64(truncatingIfNeeded: fine))
        let revenue = subscription.field(named: "revenue")!
        guard Subscription.Revenue(amount: amount).rawValue == revenue.nearestBucketCase(for: amount)!.code else {
            fatalError("Revenue(amount: \(amount))")
        }
    }
    return 0
}

runLibFuzzer { data, count in fuzzGeneratedDecoder(fuzzInput(data, count)) }
