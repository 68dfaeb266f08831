import SkanCore
import SkanSchema

/// The Swift name of everything the generated code declares for a schema, decided once (as names: `SwiftNames`
/// spells them as identifiers). A schema's name is kept
/// where Swift accepts it (keywords go in backticks); where it would be Swift's wildcard `_`, a name the generated
/// code needs for itself, or a name already taken in the same scope, it gets trailing underscores until it is
/// free (`activity` → `activity_`, `_` → `__`, field `funnel` of schema `Funnel` → type `Funnel_`), as
/// swift-protobuf resolves its generated names. Names that need no change are claimed first, so a resolved name
/// never takes one the schema spells out.
struct SwiftNamePlan {
    let typeName: String
    /// Each field's (or flag's) property, by the field's name.
    let propertyNames: [String: String]
    /// Each field's enum type, by the field's name (flags have none).
    let fieldTypeNames: [String: String]
    /// Each event's case of `Event`, by the event's name.
    let eventCaseNames: [String: String]
    /// Each field's cases, by the field's name and then by the case's.
    let caseNames: [String: [String: String]]
    /// Every name taken in the schema's type.
    private let stateNames: Set<String>

    /// What a struct's members and nested types can never be named: the generated members and types, and the
    /// names Swift keeps (`derive()` takes no argument, so a property of that name would redeclare it).
    static let stateScope: Set<String> = [
        "_", "Self", "Swift", "fineValue", "coarseValue", "coarseUpdate", "sendsUpdate", "shouldLock", "schemaVersion",
        "schemaName", "hashValue", "derive", "CoarseValue", "FineValueError", "Window",
    ]
    /// The same, added in a schema with events and time.
    static let activityScope: Set<String> = ["Event", "Activity", "activity"]
    /// `Event`'s own members.
    static let eventScope: Set<String> = ["_", "index", "amount", "hashValue"]
    /// A field enum's own members.
    static let fieldCaseScope: Set<String> = ["_", "allCases", "rawValue", "hashValue", "AllCases", "RawValue"]
    /// What a top-level type cannot be named.
    static let topLevelScope: Set<String> = ["_", "Self", "Swift"]

    init(schema: Schema) {
        var topLevel = Scope(reserved: Self.topLevelScope)
        let typeName = topLevel.resolve([schema.name])[0]
        self.typeName = typeName

        var state = Scope(reserved: Self.stateScope.union(schema.readsActivity ? Self.activityScope : []))
        state.reserved.insert(typeName)  // a nested type of the same name would hide the schema's type
        let fieldNames = schema.fields.map(\.name)
        let fieldsWithTypes = schema.fields.filter { !$0.isFlag }.map(\.name)
        let resolved = state.resolve(fieldNames + fieldsWithTypes.map(GeneratedNames.typeName(ofField:)))
        propertyNames = Self.table(fieldNames, resolved.prefix(fieldNames.count))
        fieldTypeNames = Self.table(fieldsWithTypes, resolved.dropFirst(fieldNames.count))
        stateNames = state.reserved.union(state.taken)

        var events = Scope(reserved: Self.eventScope)
        let eventNames = schema.events.map(\.name)
        eventCaseNames = Self.table(eventNames, events.resolve(eventNames))

        caseNames = Dictionary(
            schema.fields.map { field in
                var cases = Scope(reserved: Self.fieldCaseScope)
                let names = field.cases.map(\.name)
                return (field.name, Self.table(names, cases.resolve(names)))
            }, uniquingKeysWith: { first, _ in first })
    }

    /// `base`, or with underscores until free, for a method the generator adds to the schema's type.
    func freeStateName(_ base: String) -> String {
        var name = base
        while stateNames.contains(name) { name += "_" }
        return name
    }

    /// Each name with its resolved spelling.
    private static func table(_ names: [String], _ resolved: some Sequence<String>) -> [String: String] {
        Dictionary(zip(names, resolved), uniquingKeysWith: { first, _ in first })
    }

    /// The names declared in one Swift scope.
    private struct Scope {
        var reserved: Set<String>
        var taken: Set<String> = []

        /// `names` in order, each made free: first every name that is free as written claims itself, then the
        /// others get underscores until free.
        mutating func resolve(_ names: [String]) -> [String] {
            var result = [String?](repeating: nil, count: names.count)
            for (index, name) in names.enumerated() where !reserved.contains(name) && !taken.contains(name) {
                taken.insert(name)
                result[index] = name
            }
            for (index, name) in names.enumerated() where result[index] == nil {
                var candidate = name + "_"
                while reserved.contains(candidate) || taken.contains(candidate) || names.contains(candidate) {
                    candidate += "_"
                }
                taken.insert(candidate)
                result[index] = candidate
            }
            return result.map { $0! }
        }
    }
}
