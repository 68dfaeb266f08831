import SkanCore
import SkanSchema

/// Every activity a block of conditions can tell apart, as a few representative points per quantity: the hours
/// (within the block's windows), each event's count since first launch (a whole number, 0 or more) and sum (0 or
/// more, 0 when nothing was logged; whole minor units of the event's currency, as amounts are summed). A condition compares one quantity with a number, so between two of the numbers
/// a block names every value of a quantity answers every comparison alike: trying one value of each such region is
/// trying them all. Combinations are searched depth first with three-valued evaluation (a subtree whose outcome
/// is already decided, or already known, is not entered), within a budget of points: the coverage check is exact,
/// or says that it could not decide.
struct ActivitySpace {
    /// A quantity the conditions read.
    enum Quantity: Hashable {
        case hours
        case count(Int)
        case sum(Int)
    }

    /// The quantities in the order they are tried: a count before its event's sum.
    let quantities: [Quantity]
    /// The values tried for each quantity, one per region.
    let candidates: [[Double]]
    /// Where each quantity stands in `quantities`.
    let position: [Quantity: Int]

    /// The space of the conditions' atoms, with hours in `windows` and each event's sums in whole units of
    /// `units[event]` per one (nil: any real amount).
    init(atoms: [Condition], windows: [ConversionWindow], units: [Double?] = []) {
        var thresholds: [Quantity: [Double]] = [:]
        var order: [Quantity] = []
        func note(_ quantity: Quantity, _ number: Double?) {
            if thresholds[quantity] == nil { order.append(quantity) }
            thresholds[quantity, default: []] += number.map { [$0] } ?? []
        }
        for atom in atoms {
            switch atom {
            case .event(let event): note(.count(event), 1)
            case .eventMeasure(let event, .count, _, let number): note(.count(event), number)
            case .eventMeasure(let event, .sum, _, let number):
                note(.count(event), 1)
                note(.sum(event), number)
            case .hours(_, let number): note(.hours, number)
            default: break
            }
        }
        // A count comes before its sum, which it constrains.
        order.sort { rank($0) < rank($1) }
        quantities = order
        position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        candidates = order.map { quantity in
            let numbers = thresholds[quantity] ?? []
            switch quantity {
            case .hours:
                return Self.realCandidates(
                    numbers, in: windows.map { Double($0.hours.lowerBound)..<Double($0.hours.upperBound) })
            case .count: return Self.countCandidates(numbers)
            case .sum(let event):
                guard let unit = units.indices.contains(event) ? units[event] : nil else {
                    return Self.realCandidates(numbers, in: [0..<Double.infinity])
                }
                // Sums are whole minor units: the count candidates on the unit's grid (`< 10` and `>= 9.99`
                // leave no gap between them in cents).
                let scaled = numbers.filter(\.isFinite).map { number in
                    MinorUnitSum.isWhole(number, unitsPerWhole: unit) ? (number * unit).rounded() : number * unit
                }
                return Self.countCandidates(scaled).map { $0 / unit }
            }
        }
        func rank(_ quantity: Quantity) -> (Int, Int) {
            switch quantity {
            case .hours: (0, 0)
            case .count(let event): (event, 0)
            case .sum(let event): (event, 1)
            }
        }
    }

    /// Whole numbers 0 and up: 0, and at each number the comparisons change (`>= t` at ⌈t⌉, `> t` at ⌊t⌋ + 1,
    /// `<= t` at ⌊t⌋, `< t` at ⌈t⌉ − 1, `== t` at t), and one past the largest.
    static func countCandidates(_ numbers: [Double]) -> [Double] {
        var values: Set<Double> = [0, 1]
        for number in numbers where number.isFinite {
            for value in [
                number.rounded(.up), number.rounded(.down) + 1, number.rounded(.down), number.rounded(.up) - 1,
            ]
            where value >= 0 {
                values.insert(value)
            }
        }
        let largest = values.max() ?? 0
        values.insert(largest + 1)
        return values.sorted()
    }

    /// Real numbers in `ranges`: each number the comparisons name, a point between each two, and the ranges' ends
    /// (a lower end, and a point below an upper one).
    static func realCandidates(_ numbers: [Double], in ranges: [Range<Double>]) -> [Double] {
        var cuts = Set(numbers.filter(\.isFinite))
        for range in ranges {
            cuts.insert(range.lowerBound)
            if range.upperBound.isFinite { cuts.insert(range.upperBound) }
        }
        let sorted = cuts.sorted()
        var values: Set<Double> = Set(sorted)
        for (low, high) in zip(sorted, sorted.dropFirst()) { values.insert(low + (high - low) / 2) }
        if let last = sorted.last { values.insert(last + 1) }
        return values.filter { value in ranges.contains { $0.contains(value) } }.sorted()
    }
}

/// A point of an `ActivitySpace`, some of whose quantities are chosen.
struct ActivityPoint {
    var values = Values()

    /// The value chosen for each quantity so far; nil while it is not. Kept by slot (the hours, then each event's
    /// count and sum) rather than hashed: the coverage search reads a value for every atom it decides.
    struct Values {
        private var slots: [Double?] = []

        private static func slot(_ quantity: ActivitySpace.Quantity) -> Int {
            switch quantity {
            case .hours: 0
            case .count(let event): 1 + 2 * event
            case .sum(let event): 2 + 2 * event
            }
        }

        subscript(quantity: ActivitySpace.Quantity) -> Double? {
            get {
                let slot = Self.slot(quantity)
                return slot < slots.count ? slots[slot] : nil
            }
            set {
                let slot = Self.slot(quantity)
                if slot >= slots.count {
                    guard newValue != nil else { return }
                    slots += Array(repeating: nil, count: slot + 1 - slots.count)
                }
                slots[slot] = newValue
            }
        }
    }

    /// The value of `atom` at this point, or nil while its quantity is not chosen.
    func value(of atom: Condition) -> Bool? {
        switch atom {
        case .event(let event): values[.count(event)].map { $0 > 0 }
        case .eventMeasure(let event, .count, let op, let number): values[.count(event)].map { op.holds($0, number) }
        case .eventMeasure(let event, .sum, let op, let number): values[.sum(event)].map { op.holds($0, number) }
        case .hours(let op, let number): values[.hours].map { op.holds($0, number) }
        default: nil
        }
    }
}

extension Condition {
    /// Three-valued: whether the condition holds for `codes` at `point`, or nil when it turns on a quantity the
    /// point has not chosen.
    func value(for codes: [Int], at point: ActivityPoint) -> Bool? {
        switch self {
        case .always: return true
        case .flag(let field): return codes[field] == 1
        case .comparison(let field, let op, let code): return op.holds(codes[field], code)
        case .event, .eventMeasure, .hours: return point.value(of: self)
        case .not(let inner): return inner.value(for: codes, at: point).map { !$0 }
        case .all(let parts):
            var unknown = false
            for part in parts {
                switch part.value(for: codes, at: point) {
                case false?: return false
                case nil: unknown = true
                case true?: break
                }
            }
            return unknown ? nil : true
        case .any(let parts):
            var unknown = false
            for part in parts {
                switch part.value(for: codes, at: point) {
                case true?: return true
                case nil: unknown = true
                case false?: break
                }
            }
            return unknown ? nil : false
        }
    }
}
