import Foundation
import SkanCompiler
import SkanCore
import SkanSchema
import SkanSchemaTools
import Testing

/// A condition as deep as the parser allows (`Parser.maximumConditionDepth`) is parsed, checked, formatted,
/// generated and evaluated on a thread with 512 KiB of stack, what Darwin gives a secondary thread: the limit
/// keeps every recursive stage inside the smallest stack it may run on.
@Suite struct DeepConditionStackTests {
    static let text: String = {
        let half = 64 / 2
        let condition = String(repeating: "not (", count: half) + "a" + String(repeating: ")", count: half)
        return
            "schema T\nversion 1\nflag a at bit 0\nreserved bits 1...5\ncoarse { high when \(condition)  low otherwise }\n"
    }()

    /// Runs `work` on a new thread with `stackSize` bytes of stack and waits for it.
    static func onThread(stackSize: Int, _ work: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
    }

    /// What the thread found; written before the semaphore is signalled, read after it is waited for.
    final class Outcome: @unchecked Sendable {
        var value: (compiled: Bool, highs: Int, written: Bool, problems: [String]) = (false, 0, false, [])
    }

    @Test func theDeepestConditionFitsInASecondaryThreadsStack() {
        let outcome = Outcome()
        Self.onThread(stackSize: 512 * 1_024) {
            let compiled = SchemaCompiler.compile(Self.text)
            guard let schema = compiled.schema else {
                outcome.value.problems = compiled.diagnostics.map(\.message)
                return
            }
            let code = SwiftGenerator.generate(schema, options: .init(sourceName: "deep.skan"))
            let formatted = SchemaFormatter.format(Self.text)
            // 32 `not`s: the condition is `a`, so fine value 1 is high and 0 low.
            let highs = schema.validStates.filter { schema.coarseValue(of: $0, window: .first) == .high }.count
            outcome.value = (true, highs, formatted != nil && code.contains("func coarseValue"), [])
        }
        let (compiled, highs, written, problems) = outcome.value
        #expect(compiled, "\(problems)")
        #expect(highs == 1)
        #expect(written)
    }
}
