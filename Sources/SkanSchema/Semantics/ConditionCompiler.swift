/// One instruction of a compiled condition. A condition runs on one register, the answer so far: a test sets
/// it, `not` flips it, and `all`/`any` jump past their remaining parts once it decides them (as `&&` and `||`
/// do), so nesting needs no stack. Plain values only: running them retains nothing.
enum ConditionInstruction: Sendable {
    case constant(Bool)
    /// `codes[field] op code`.
    case code(field: Int, ComparisonOperator, Int)
    /// `counts[event] op number`.
    case count(event: Int, ComparisonOperator, Double)
    /// `sums[event] op number`.
    case sum(event: Int, ComparisonOperator, Double)
    /// `hours op number`.
    case hours(ComparisonOperator, Double)
    case not
    /// To the instruction at the index when the answer is false (an `all` decided) or true (an `any` decided).
    case jumpIfFalse(Int)
    case jumpIfTrue(Int)
}

/// Turns each `Condition` into instructions appended to one array: what `Condition.holds(for:facts:)` decides by
/// walking the tree on every call (which operator, which slot, which branch shape) is decided here once.
/// Indices outside the schema read 0, as `ActivityFacts` answers for an event it does not know, so no
/// instruction reads past its storage.
struct ConditionCompiler {
    /// How many fields and events the storage holds.
    let fields: Int
    let events: Int
    /// Every condition compiled so far, one after another.
    private(set) var instructions: [ConditionInstruction] = []

    /// Compiles `condition`; returns where its instructions are.
    mutating func compile(_ condition: Condition) -> Range<Int> {
        let start = instructions.count
        emit(condition)
        return start..<instructions.count
    }

    private mutating func emit(_ condition: Condition) {
        switch condition {
        case .always:
            instructions.append(.constant(true))
        case .flag(let field):
            instructions.append(
                (0..<fields).contains(field) ? .code(field: field, .equal, 1) : .constant(false))
        case .comparison(let field, let op, let code):
            instructions.append(
                (0..<fields).contains(field) ? .code(field: field, op, code) : .constant(op.holds(0, code)))
        case .event(let event):
            instructions.append((0..<events).contains(event) ? .count(event: event, .greater, 0) : .constant(false))
        case .eventMeasure(let event, let measure, let op, let number):
            guard (0..<events).contains(event) else {
                instructions.append(.constant(op.holds(0, number)))
                return
            }
            instructions.append(measure == .count ? .count(event: event, op, number) : .sum(event: event, op, number))
        case .hours(let op, let number):
            instructions.append(.hours(op, number))
        case .not(let inner):
            emit(inner)
            instructions.append(.not)
        case .all(let parts):
            emit(parts, decidedWhen: false)
        case .any(let parts):
            emit(parts, decidedWhen: true)
        }
    }

    /// Each part in turn, jumping to the end as soon as one gives `decided`.
    private mutating func emit(_ parts: [Condition], decidedWhen decided: Bool) {
        guard !parts.isEmpty else {
            // An empty `all` holds; an empty `any` does not.
            instructions.append(.constant(!decided))
            return
        }
        var jumps: [Int] = []
        for (index, part) in parts.enumerated() {
            emit(part)
            if index < parts.count - 1 {
                jumps.append(instructions.count)
                instructions.append(decided ? .jumpIfTrue(0) : .jumpIfFalse(0))
            }
        }
        for jump in jumps {
            instructions[jump] = decided ? .jumpIfTrue(instructions.count) : .jumpIfFalse(instructions.count)
        }
    }
}
