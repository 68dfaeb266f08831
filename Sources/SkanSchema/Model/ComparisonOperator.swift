/// The comparisons a condition may make: a field's code with a case's code, an event's count or sum or the hours
/// with a number.
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// Whether `lhs` compares to `rhs` this way.
    @inlinable public func holds<Value: Comparable>(_ lhs: Value, _ rhs: Value) -> Bool {
        switch self {
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        }
    }
}
