import SkanSchema

extension ConditionSyntax {
    /// The condition as written, with the author's parentheses and single spaces:
    /// `iapRevenue >= small or (tutorialDone and adViews == many)`.
    package var text: String {
        switch self {
        case .name(let name): name.text
        case .comparison(let name, let op, let caseName): "\(name.text) \(op.rawValue) \(caseName.text)"
        case .eventMeasure(let name, let member, let op, let number):
            "\(name.text).\(member.text) \(op.rawValue) \(number.text)"
        case .hours(_, let op, let number): "hours \(op.rawValue) \(number.text)"
        case .not(_, let inner): "not " + inner.text
        case .all(let parts): parts.map(\.text).joined(separator: " and ")
        case .any(let parts): parts.map(\.text).joined(separator: " or ")
        case .parenthesized(let inner): "(" + inner.text + ")"
        }
    }
}
