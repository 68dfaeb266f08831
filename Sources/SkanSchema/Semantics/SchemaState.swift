/// One state of the app's user, as the schema sees it: a code for each flag and field.
/// Codes are in the order of `Schema.fields`; a flag's code is 0 or 1.
public struct SchemaState: Hashable, Sendable {
    /// Each field's code, in the order of `Schema.fields`.
    public var codes: [Int]

    /// A state from each field's code.
    public init(codes: [Int]) {
        self.codes = codes
    }

    /// The state where every code is 0: nothing happened yet.
    public init(schema: Schema) {
        self.codes = Array(repeating: 0, count: schema.fields.count)
    }
}

extension Schema {
    /// Every state whose codes are defined cases, in increasing fine-value order.
    public var validStates: [SchemaState] {
        Schema.fineValueRange.compactMap { try? decode(fineValue: $0).get() }
    }

    /// The named case of each field in `state`, in field order; nil for a code with no case.
    public func cases(of state: SchemaState) -> [FieldCase?] {
        zip(fields, state.codes).map { field, code in field.caseWithCode(code) }
    }

    /// Builds a state from case names, e.g. `["registered": "true", "paymentTier": "low"]`; fields left out
    /// hold code 0. Returns nil when a name or case is unknown.
    public func state(_ caseNames: [String: String]) -> SchemaState? {
        var state = SchemaState(schema: self)
        for (fieldName, caseName) in caseNames {
            guard let index = fieldIndex(named: fieldName),
                let fieldCase = fields[index].caseNamed(caseName)
            else { return nil }
            state.codes[index] = fieldCase.code
        }
        return state
    }
}
