import SkanCore

extension Checker {
    /// Makes a flag or field name known to conditions; reports a `duplicate` when it is taken.
    mutating func registerName(_ name: Identifier, kind: String) {
        if name.text == "_" {
            report(.wildcardName("a \(kind) in the generated code", kind: kind, at: name.location))
        }
        if let earlier = declared[name.text] {
            report(.nameTaken(name.text, kind: kind, at: name.location, first: earlier.location))
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
            report(.unusableSchemaName(schemaName.text, reason: reason, at: schemaName.location))
        }
        var typeNames: [String: (field: String, location: SourceLocation)] = [:]
        var columns: [String: (field: String, location: SourceLocation)] = [:]
        // One error per name: the first clash found.
        for (field, location) in zip(fields, fieldNameLocations) {
            let kind = field.isFlag ? "flag" : "field"
            if GeneratedNames.stateMembers.contains(field.name) {
                report(.memberOfGeneratedType(field.name, kind: kind, at: location))
                continue
            }
            let column = ColumnNames.snakeCase(field.name)
            if let reason = ColumnNames.engineReserved[column] {
                report(.engineColumn(field.name, kind: kind, column: column, reason: reason, at: location))
                continue
            }
            if let outputs = reservedColumns[column] {
                report(.reservedColumn(field: field.name, kind: kind, column: column, outputs: outputs, at: location))
                continue
            }
            if let earlier = columns[column], earlier.field != field.name {
                report(.sameColumn(column, fields: (earlier.field, field.name), at: location, first: earlier.location))
                continue
            }
            columns[column] = (field.name, location)
            guard !field.isFlag else { continue }
            let typeName = GeneratedNames.typeName(ofField: field.name)
            if let reason = Self.unusableTypeNames[typeName] {
                report(.unusableTypeName(typeName, field: field.name, reason: reason, at: location))
            } else if GeneratedNames.nestedTypes.contains(typeName) || typeName == schemaName?.text {
                report(
                    .unusableTypeName(
                        typeName, field: field.name, reason: "the generated code already uses", at: location))
            } else if let earlier = typeNames[typeName], earlier.field != field.name {
                report(
                    .sameTypeName(typeName, fields: (earlier.field, field.name), at: location, first: earlier.location))
            } else {
                typeNames[typeName] = (field.name, location)
            }
        }
    }
}

extension Diagnostic {
    /// `_` as a name: Swift's wildcard names nothing.
    static func wildcardName(_ what: String, kind: String, at location: SourceLocation) -> Diagnostic {
        .error(.name, "'_' is Swift's wildcard and cannot name \(what); give the \(kind) a name", at: location)
    }

    fileprivate static func nameTaken(
        _ name: String, kind: String, at location: SourceLocation, first: SourceLocation
    ) -> Diagnostic {
        .error(
            .duplicate, "a flag or field named '\(name)' is already declared; give this \(kind) another name",
            at: location, notes: [.init("the first '\(name)' is here", at: first)])
    }

    fileprivate static func unusableSchemaName(_ name: String, reason: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error(.name, "a schema named '\(name)' \(reason) in the generated code; rename the schema", at: location)
    }

    fileprivate static func memberOfGeneratedType(_ name: String, kind: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error(.name, "'\(name)' is a member of the generated type; rename this \(kind)", at: location)
    }

    fileprivate static func engineColumn(
        _ name: String, kind: String, column: String, reason: String, at location: SourceLocation
    ) -> Diagnostic {
        .error(.name, "'\(name)' would make the column '\(column)', which \(reason); rename the \(kind)", at: location)
    }

    fileprivate static func sameColumn(
        _ column: String, fields: (first: String, second: String), at location: SourceLocation, first: SourceLocation
    ) -> Diagnostic {
        .error(
            .name, "'\(fields.first)' and '\(fields.second)' would both make the table column '\(column)'; rename one",
            at: location, notes: [.init("'\(fields.first)' is here", at: first)])
    }

    fileprivate static func unusableTypeName(
        _ typeName: String, field: String, reason: String, at location: SourceLocation
    ) -> Diagnostic {
        .error(
            .name, "field '\(field)' would generate a type named '\(typeName)', which \(reason); rename the field",
            at: location)
    }

    fileprivate static func sameTypeName(
        _ typeName: String, fields: (first: String, second: String), at location: SourceLocation, first: SourceLocation
    ) -> Diagnostic {
        .error(
            .name,
            "fields '\(fields.first)' and '\(fields.second)' would both generate a type named '\(typeName)'; rename one",
            at: location, notes: [.init("'\(fields.first)' is here", at: first)])
    }

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
