public import SkanCore

/// Reading a platform's resource from JSON strictly, as Google's client libraries read with
/// `ignore_unknown_fields=False`: a key the message does not have, or a value of the wrong type, is an error with
/// its key path; every problem is collected.
protocol StrictJSONReading {
    var diagnostics: [Diagnostic] { get set }
}

extension StrictJSONReading {
    /// Parses `bytes` as JSON and reads the resource with `read`, which collects every problem with its key path;
    /// throws them all (or that the JSON is none, or not an object) unless there is none.
    mutating func resource<Resource>(
        _ bytes: [UInt8], read: (inout Self, JSONDocument) -> Resource?
    ) throws(ConfigurationReadError) -> Resource {
        let document = try ConfigurationJSON.document(
            bytes, tooDeep: "the JSON nests deeper than the resource", keepsRepeatedKeys: true)
        let resource = read(&self, document)
        guard diagnostics.isEmpty, let resource else {
            throw ConfigurationReadError(diagnostics: diagnostics.isEmpty ? [.notAnObject("")] : diagnostics)
        }
        return resource
    }

    mutating func members(_ value: JSONDocument, at path: String, allowed: [String]) -> [(String, JSONDocument)]? {
        guard case .object(let members) = value else {
            diagnostics.append(.notAnObject(path))
            return nil
        }
        for (key, _) in members where !allowed.contains(key) {
            diagnostics.append(.unknownKey(key, at: path, allowed: allowed))
        }
        // Google's libraries refuse a key given twice (protobuf's JSON parser checks): which one holds is no guess.
        var seen: Set<String> = []
        for (key, _) in members where !seen.insert(key).inserted {
            diagnostics.append(
                .error(.importJSON, "'\(key)' is given twice: keep one", at: nil, subject: path.isEmpty ? key : path))
        }
        return members
    }

    mutating func string(_ value: JSONDocument, at path: String) -> String? {
        guard case .string(let text) = value else {
            diagnostics.append(.wrongType(path, expected: "a string"))
            return nil
        }
        return text
    }

    mutating func bool(_ value: JSONDocument, at path: String) -> Bool? {
        guard case .bool(let flag) = value else {
            diagnostics.append(.wrongType(path, expected: "true or false"))
            return nil
        }
        return flag
    }

    /// An int64: a string of digits (proto3 JSON) or a whole number.
    mutating func integer(_ value: JSONDocument, at path: String) -> Int? {
        switch value {
        case .string(let text) where Int(text) != nil: return Int(text)
        case .number(let number) where number == number.rounded() && abs(number) < 1e15: return Int(number)
        default:
            diagnostics.append(.wrongType(path, expected: "a whole number"))
            return nil
        }
    }

    /// A double: a number, or (proto3 JSON, as Google's library reads it) a string holding a finite one, spelled
    /// as a JSON number (no `inf`, `nan` or hexadecimal).
    mutating func number(_ value: JSONDocument, at path: String) -> Double? {
        switch value {
        case .number(let number): return number
        case .string(let text):
            var reader = JSONReader(bytes: Array(text.utf8), maximumDepth: 0, tooDeep: "")
            if case .number(let number)? = try? reader.document(), number.isFinite { return number }
        default: break
        }
        diagnostics.append(.wrongType(path, expected: "a finite number"))
        return nil
    }
}

extension DiagnosticCode {
    /// `skanc import`: the file is not JSON, or not the platform's resource.
    public static let importJSON = DiagnosticCode("import-json")
}

extension Diagnostic {
    static func notAnObject(_ path: String) -> Diagnostic {
        .error(.importJSON, "expected an object", at: nil, subject: path.isEmpty ? "the schema" : path)
    }

    static func unknownKey(_ key: String, at path: String, allowed: [String]) -> Diagnostic {
        .error(
            .importJSON,
            "'\(TerminalText.visible(key))' is not a field of the resource here; it has \(allowed.joined(separator: ", "))",
            at: nil, subject: path.isEmpty ? "the schema" : path)
    }

    static func missing(_ key: String, at path: String) -> Diagnostic {
        .error(.importJSON, "'\(key)' is required", at: nil, subject: path.isEmpty ? "the schema" : path)
    }

    static func wrongType(_ path: String, expected: String) -> Diagnostic {
        .error(.importJSON, "expected \(expected)", at: nil, subject: path)
    }

    static func outOfRange(_ path: String, _ value: String, _ range: String) -> Diagnostic {
        .error(.importJSON, "\(value) is outside \(range)", at: nil, subject: path)
    }

    static func badEnum(_ path: String, _ name: String, _ names: [String]) -> Diagnostic {
        .error(
            .importJSON, "'\(TerminalText.visible(name))' is not one of \(names.joined(separator: ", "))", at: nil,
            subject: path)
    }

}
