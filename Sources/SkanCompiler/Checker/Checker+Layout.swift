import SkanCore

extension Checker {
    /// Who owns a bit so far, for overlap notes.
    struct BitOwner {
        var description: String
        var location: SourceLocation
    }

    mutating func declareFlag(_ flag: FlagSyntax) {
        let bits = validBits(flag.bit)
        registerName(flag.name, kind: "flag")
        claim(bits, syntax: flag.bit, owner: "\(bits?.description ?? "bit") of \(flag.name.text)")
        fields.append(
            Field(
                name: flag.name.text, kind: .flag, bits: bits ?? BitRange(0, 0),
                description: flag.description?.value, cases: Field.flagCases))
        fieldNameLocations.append(flag.name.location)
    }

    mutating func declareField(_ field: FieldSyntax) {
        let bits = validBits(field.bits)
        registerName(field.name, kind: "field")
        claim(bits, syntax: field.bits, owner: "\(bits?.description ?? "bits") of \(field.name.text)")
        var cases: [FieldCase] = []
        var caseNames: [String: SourceLocation] = [:]
        var caseCodes: [Int: (name: String, location: SourceLocation)] = [:]
        for caseSyntax in field.cases {
            let name = caseSyntax.name.text
            let code = caseSyntax.code
            if let earlier = caseNames[name] {
                report(
                    .error(
                        .duplicate, "field '\(field.name.text)' already has a case named '\(name)'",
                        at: caseSyntax.name.location, notes: [.init("the first '\(name)' is here", at: earlier)]))
            } else {
                caseNames[name] = caseSyntax.name.location
            }
            if name == "_" {
                report(
                    .error(
                        .name,
                        "'_' is Swift's wildcard and cannot name a case of the generated enum; give the case a name",
                        at: caseSyntax.name.location))
            } else if GeneratedNames.caseMembers.contains(name) {
                report(
                    .error(
                        .name,
                        "case '\(name)' clashes with a member of the generated enum '\(GeneratedNames.typeName(ofField: field.name.text))'; rename the case",
                        at: caseSyntax.name.location))
            }
            if let bits, code.value > bits.maximumCode {
                layoutIsSound = false
                report(
                    .error(
                        .caseWidth,
                        "code \(code.value) of case '\(name)' does not fit in \(bits.width) bit\(bits.width == 1 ? "" : "s") (0...\(bits.maximumCode)); widen '\(field.name.text)' or pick a smaller code",
                        at: code.location))
            } else if let earlier = caseCodes[code.value] {
                layoutIsSound = false
                report(
                    .error(
                        .duplicate,
                        "cases '\(earlier.name)' and '\(name)' of field '\(field.name.text)' both have code \(code.value); give each case its own code",
                        at: code.location, notes: [.init("'\(earlier.name)' is here", at: earlier.location)]))
            } else {
                caseCodes[code.value] = (name, caseSyntax.name.location)
            }
            cases.append(
                FieldCase(
                    name: name, code: code.value, description: caseSyntax.description?.value,
                    bucket: bucketRange(of: caseSyntax)))
        }
        checkBuckets(field)
        let kind: Field.Kind = field.buckets.map { .buckets($0.unit == .amount ? .amount : .count) } ?? .cases
        fields.append(
            Field(
                name: field.name.text, kind: kind, bits: bits ?? BitRange(0, 0),
                description: field.description?.value, cases: cases))
        fieldNameLocations.append(field.name.location)
    }

    mutating func declareReserved(_ reserved: ReservedSyntax) {
        let bits = validBits(reserved.bits)
        claim(bits, syntax: reserved.bits, owner: "reserved \(bits?.description ?? "bits")")
        guard let bits else { return }
        let code = reserved.code?.value ?? 0
        if let literal = reserved.code, code > bits.maximumCode {
            layoutIsSound = false
            report(
                .error(
                    .caseWidth,
                    "code \(code) does not fit in reserved \(bits) (0...\(bits.maximumCode)); pick a smaller code",
                    at: literal.location))
            return
        }
        reservedBits.append(ReservedBits(bits: bits, description: reserved.description?.value, code: code))
    }

    /// The bit range as written, or nil (with a `bit-range` error) when it leaves 0...5 or runs high...low.
    mutating func validBits(_ syntax: BitsSyntax) -> BitRange? {
        let lower = syntax.lower.value
        guard let upperLiteral = syntax.upper else {
            if lower > 5 {
                layoutIsSound = false
                report(
                    .error(
                        .bitRange, "bit \(lower) does not exist: fine values have bits 0...5", at: syntax.lower.location
                    ))
                return nil
            }
            return BitRange(lower, lower)
        }
        let upper = upperLiteral.value
        if lower > upper {
            layoutIsSound = false
            report(
                .error(
                    .bitRange, "bits \(lower)...\(upper) run from high to low; write 'bits \(upper)...\(lower)'",
                    at: syntax.location))
            return nil
        }
        if upper > 5 {
            layoutIsSound = false
            report(
                .error(
                    .bitRange, "bits \(lower)...\(upper) reach past bit 5: fine values have bits 0...5",
                    at: syntax.location))
            return nil
        }
        return BitRange(lower, upper)
    }

    /// Records that a declaration owns `bits`; reports an `overlap` when an earlier one owns any of them.
    mutating func claim(_ bits: BitRange?, syntax: BitsSyntax, owner: String) {
        guard let bits else { return }
        // Every earlier declaration it overlaps, once each, in bit order.
        var earlier: [BitOwner] = []
        for bit in bits.indices {
            if let other = bitOwners[bit], !earlier.contains(where: { $0.location == other.location }) {
                earlier.append(other)
            }
        }
        if !earlier.isEmpty {
            layoutIsSound = false
            report(
                .error(
                    .overlap,
                    "\(owner) overlap\(bits.width == 1 ? "s" : "") \(listed(earlier.map(\.description))); every bit belongs to one declaration",
                    at: syntax.location,
                    notes: earlier.map { .init("\($0.description) declared here", at: $0.location) }))
        }
        for bit in bits.indices where bitOwners[bit] == nil {
            bitOwners[bit] = BitOwner(description: owner, location: syntax.location)
        }
    }

    /// Makes a flag or field name known to conditions; reports a `duplicate` when it is taken.
    mutating func registerName(_ name: Identifier, kind: String) {
        if name.text == "_" {
            report(
                .error(
                    .name,
                    "'_' is Swift's wildcard and cannot name a \(kind) in the generated code; give the \(kind) a name",
                    at: name.location))
        }
        if let earlier = declared[name.text] {
            report(
                .error(
                    .duplicate,
                    "a flag or field named '\(name.text)' is already declared; give this \(kind) another name",
                    at: name.location, notes: [.init("the first '\(name.text)' is here", at: earlier.location)]))
            return
        }
        declared[name.text] = Declared(index: fields.count, location: name.location)
    }

    /// Type names Swift keeps for itself, with what they would do.
    static let unusableTypeNames = [
        "Swift": "would hide the standard library", "Self": "would mean the enclosing type",
        "_": "would be Swift's wildcard",
    ]

    /// `name` errors: names that the generated Swift code needs for itself.
    mutating func checkGeneratedNameClashes(schemaName: Identifier?) {
        if let schemaName, let reason = Self.unusableTypeNames[schemaName.text] {
            report(
                .error(
                    .name, "a schema named '\(schemaName.text)' \(reason) in the generated code; rename the schema",
                    at: schemaName.location))
        }
        var typeNames: [String: (field: String, location: SourceLocation)] = [:]
        var columns: [String: (field: String, location: SourceLocation)] = [:]
        // One error per name: the first clash found.
        for (field, location) in zip(fields, fieldNameLocations) {
            let kind = field.isFlag ? "flag" : "field"
            if GeneratedNames.stateMembers.contains(field.name) {
                report(
                    .error(
                        .name, "'\(field.name)' is a member of the generated type; rename this \(kind)", at: location))
                continue
            }
            let column = ColumnNames.snakeCase(field.name)
            if let reason = SQLDialect.engineReservedColumns[column] {
                report(
                    .error(
                        .name, "'\(field.name)' would make the column '\(column)', which \(reason); rename the \(kind)",
                        at: location))
                continue
            }
            if let outputs = reservedColumns[column] {
                report(.reservedColumn(field: field.name, kind: kind, column: column, outputs: outputs, at: location))
                continue
            }
            if let earlier = columns[column], earlier.field != field.name {
                report(
                    .error(
                        .name,
                        "'\(earlier.field)' and '\(field.name)' would both make the table column '\(column)'; rename one",
                        at: location, notes: [.init("'\(earlier.field)' is here", at: earlier.location)]))
                continue
            }
            columns[column] = (field.name, location)
            guard !field.isFlag else { continue }
            let typeName = GeneratedNames.typeName(ofField: field.name)
            if let reason = Self.unusableTypeNames[typeName] {
                report(
                    .error(
                        .name,
                        "field '\(field.name)' would generate a type named '\(typeName)', which \(reason); rename the field",
                        at: location))
            } else if GeneratedNames.nestedTypes.contains(typeName) || typeName == schemaName?.text {
                report(
                    .error(
                        .name,
                        "field '\(field.name)' would generate a type named '\(typeName)', which the generated code already uses; rename the field",
                        at: location))
            } else if let earlier = typeNames[typeName], earlier.field != field.name {
                report(
                    .error(
                        .name,
                        "fields '\(earlier.field)' and '\(field.name)' would both generate a type named '\(typeName)'; rename one",
                        at: location, notes: [.init("'\(earlier.field)' is here", at: earlier.location)]))
            } else {
                typeNames[typeName] = (field.name, location)
            }
        }
    }
}

extension Diagnostic {
    /// A flag or field whose column an output already has for itself.
    static func reservedColumn(
        field: String, kind: String, column: String, outputs: [String], at location: SourceLocation
    ) -> Diagnostic {
        let owners =
            outputs.count == 1
            ? "the output of \(outputs[0]) has"
            : "the outputs of \(outputs.dropLast().joined(separator: ", ")) and \(outputs.last!) have"
        return .error(
            .name,
            "'\(field)' would make the column '\(column)', which \(owners) already; rename the \(kind)",
            at: location)
    }
}
