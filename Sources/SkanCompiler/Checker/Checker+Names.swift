import SkanCore
import SkanSchema

extension Checker {
    /// Words that are always operators in a condition (docs/LanguageReference.md, lexical rules): a flag, field
    /// or event with such a name could not be read in one.
    static let conditionOperators: Set<String> = ["and", "or", "not"]

    /// A `name` error when a flag, field or event is called like a condition's operator.
    mutating func checkNotAnOperator(_ name: Identifier, kind: String) {
        if Self.conditionOperators.contains(name.text) {
            report(.operatorAsName(name.text, kind: kind, at: name.location))
        }
    }

    /// Makes a flag or field name known to conditions; reports a `duplicate` when it is taken.
    mutating func registerName(_ name: Identifier, kind: String) {
        checkNotAnOperator(name, kind: kind)
        if let earlier = declared[name.text] {
            report(.nameTaken(name.text, kind: kind, at: name.location, first: earlier.location))
            return
        }
        declared[name.text] = Declared(index: fields.count, location: name.location)
    }

    /// `name` errors: a flag or field whose table column another has, an output has, or an engine keeps. (The
    /// Swift names the generated code needs for itself are resolved by the generator: `SwiftNamePlan`.)
    mutating func checkColumnClashes() {
        var columns: [String: (field: String, location: SourceLocation)] = [:]
        // One error per name: the first clash found.
        for (field, location) in zip(fields, fieldNameLocations) {
            let kind = field.isFlag ? "flag" : "field"
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
        }
    }
}

extension Diagnostic {
    fileprivate static func operatorAsName(_ name: String, kind: String, at location: SourceLocation) -> Diagnostic {
        .error(
            .name,
            "'\(name)' is an operator in conditions ('and', 'or', 'not'), so no condition could read this \(kind); give it another name",
            at: location)
    }

    fileprivate static func nameTaken(
        _ name: String, kind: String, at location: SourceLocation, first: SourceLocation
    ) -> Diagnostic {
        .error(
            .duplicate, "a flag or field named '\(name)' is already declared; give this \(kind) another name",
            at: location, notes: [.init("the first '\(name)' is here", at: first)])
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
