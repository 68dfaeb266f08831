import SkanCompiler
public import SkanCore
public import SkanSchema

/// What a change from one version of a schema to the next does to its values, computed from the
/// semantics: every fine value decoded with both, every coarse value and lock of the values that keep their
/// meaning, and the layout changes, renames and new descriptions behind them.
public struct SchemaDiff: Sendable {
    /// A fine value whose meaning changes.
    public struct ValueChange: Hashable, Sendable {
        /// How the value changes.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// Valid in both, decoded to a different state.
            case changed
            /// Valid before, invalid now.
            case becameInvalid = "became-invalid"
            /// Invalid before, valid now.
            case becameValid = "became-valid"
        }

        /// The fine value, 0...63.
        public var fineValue: Int
        /// How it changes.
        public var kind: Kind
        /// The state it decoded to before (`registered=true payment_tier=low`), or why it was invalid.
        public var old: String
        /// The state it decodes to now, or why it is invalid.
        public var new: String
    }

    /// A value that keeps its meaning but gets another coarse value in a window.
    public struct CoarseChange: Hashable, Sendable {
        /// 1, 2 or 3.
        public var window: ConversionWindow
        /// The fine value whose state this is.
        public var fineValue: Int
        /// Before and now: `low`, `medium`, `high`, or `nothing` where the state sends no update.
        public var old: String, new: String
    }

    /// A value that keeps its meaning but now locks a window, or no longer does.
    public struct LockChange: Hashable, Sendable {
        /// 1, 2 or 3.
        public var window: ConversionWindow
        /// The fine value whose state this is.
        public var fineValue: Int
        /// True: locks now and did not; false: locked and no longer does.
        public var locksNow: Bool
    }

    /// The schema's name now and its versions.
    public var name: String
    /// The old version and the new.
    public var oldVersion: Int, newVersion: Int
    /// Fine values whose meaning changes, in increasing order.
    public var values: [ValueChange]
    /// Coarse values that change, by window then fine value.
    public var coarse: [CoarseChange]
    /// Locks that change, by window then fine value.
    public var locks: [LockChange]
    /// What moved in the layout, in sentences: fields and cases added, removed, moved; buckets; reserved bits.
    public var layout: [String]
    /// Fields, cases or the schema renamed, with the same bits and codes.
    public var renames: [String]
    /// Descriptions that changed, and nothing else about their declaration.
    public var descriptions: [String]
    /// What a field is derived from (events, time, other fields), or a window's coarse rules on events and time,
    /// that changed: the same fine value now stands for other activity.
    public var bindings: [String]
    /// Whether either schema reads events or time.
    public var readsActivity: Bool

    /// Whether some value means something else now: a fine value changed, became invalid or valid, a coarse value
    /// changed, or what a field or coarse value is derived from changed. Locks, renames and descriptions do not
    /// change what a postback says.
    public var changesMeaning: Bool { !values.isEmpty || !coarse.isEmpty || !bindings.isEmpty }

    /// The difference between `old` and `new`.
    public init(old: Schema, new: Schema) {
        let correspondence = FieldCorrespondence(old: old, new: new)
        name = new.name
        (oldVersion, newVersion) = (old.version, new.version)
        (values, coarse, locks) = ([], [], [])
        for fineValue in Schema.fineValueRange {
            switch (old.decode(fineValue: fineValue), new.decode(fineValue: fineValue)) {
            case (.failure, .failure): continue
            case (.success(let state), .failure(let reason)):
                values.append(
                    ValueChange(
                        fineValue: fineValue, kind: .becameInvalid, old: old.describe(state), new: reason.description))
            case (.failure(let reason), .success(let state)):
                values.append(
                    ValueChange(
                        fineValue: fineValue, kind: .becameValid, old: reason.description, new: new.describe(state)))
            case (.success(let oldState), .success(let newState)):
                guard correspondence.meaning(of: oldState, in: old) == Self.meaning(of: newState, in: new) else {
                    values.append(
                        ValueChange(
                            fineValue: fineValue, kind: .changed, old: old.describe(oldState),
                            new: new.describe(newState)))
                    continue
                }
                for window in ConversionWindow.allCases {
                    if let before = old.coarseHead(of: oldState, window: window),
                        let now = new.coarseHead(of: newState, window: window), before != now
                    {
                        coarse.append(CoarseChange(window: window, fineValue: fineValue, old: before, new: now))
                    }
                    let (lockedBefore, locksNow) = (
                        old.shouldLock(oldState, window: window), new.shouldLock(newState, window: window)
                    )
                    if lockedBefore != locksNow {
                        locks.append(LockChange(window: window, fineValue: fineValue, locksNow: locksNow))
                    }
                }
            }
        }
        coarse.sort { ($0.window, $0.fineValue) < ($1.window, $1.fineValue) }
        locks.sort { ($0.window, $0.fineValue) < ($1.window, $1.fineValue) }
        let declarations = DeclarationChanges(old: old, new: new, correspondence: correspondence)
        (layout, renames, descriptions) = (declarations.layout, declarations.renames, declarations.descriptions)
        bindings = Self.bindingChanges(old: old, new: new, correspondence: correspondence)
        readsActivity = old.readsActivity || new.readsActivity
    }

    /// Derivations and coarse rules on events that differ, in sentences.
    static func bindingChanges(old: Schema, new: Schema, correspondence: FieldCorrespondence) -> [String] {
        var changes: [String] = []
        for (newIndex, field) in new.fields.enumerated() {
            guard let oldIndex = correspondence.oldIndexOfNew[newIndex] else { continue }
            let before = old.derivationText(of: old.fields[oldIndex])
            let now = new.derivationText(of: field)
            guard before != now else { continue }
            switch (before, now) {
            case (nil, let now?): changes.append("`\(field.name)` is now derived: `\(now)`; the app set it")
            case (let before?, nil):
                changes.append("`\(field.name)` is now set by the app; it was derived: `\(before)`")
            default: changes.append("`\(field.name)` is now `\(now ?? "")`, was `\(before ?? "")`")
            }
        }
        for window in ConversionWindow.allCases {
            let readsActivity = { (schema: Schema) in
                schema.coarseRules(window: window).contains(where: \.condition.readsActivity)
            }
            guard readsActivity(old) || readsActivity(new) else { continue }
            let (before, now) = (old.rulesText(window: window), new.rulesText(window: window))
            if before != now {
                changes.append("window \(window)'s coarse rules on events and time are now `\(now)`, were `\(before)`")
            }
        }
        return changes
    }

    /// A state's meaning in `schema`'s own names, each case with its bucket: equal meanings are equal arrays.
    static func meaning(of state: SchemaState, in schema: Schema) -> [String] {
        zip(schema.fields, state.codes).map { field, code in meaning(of: field, field.caseWithCode(code)!) }.sorted()
    }

    /// `paymentTier=low`, with the bucket for a bucket case: `revenue=small(0.01..<5)`.
    static func meaning(of field: Field, _ fieldCase: FieldCase) -> String {
        "\(field.name)=\(fieldCase.name)\(fieldCase.bucket.map { "(\($0))" } ?? "")"
    }
}

extension FieldCorrespondence {
    /// An old state's meaning in the new schema's names (renames applied), comparable with
    /// `SchemaDiff.meaning(of:in:)` of a new state. A field or case the new schema lacks keeps a mark
    /// no new name can have, so it never compares equal.
    func meaning(of state: SchemaState, in old: Schema) -> [String] {
        let fields = old.fields.indices.map { index in
            let field = old.fields[index]
            let fieldCase = field.caseWithCode(state.codes[index])!
            let bucket = fieldCase.bucket.map { "(\($0))" } ?? ""
            guard let name = newNames[index] else {
                return "-\(field.name)=\(fieldCase.name)\(bucket)"
            }
            return "\(name)=\(caseNames[index]?[fieldCase.name] ?? "-" + fieldCase.name)\(bucket)"
        }
        return (fields + zeroExtensions).sorted()
    }
}

extension Schema {
    /// `registered=true payment_tier=low`: each field's case, in declaration order.
    func describe(_ state: SchemaState) -> String {
        zip(fields, cases(of: state)).map { "\($0.name)=\($1?.name ?? "?")" }.joined(separator: " ")
    }
}
