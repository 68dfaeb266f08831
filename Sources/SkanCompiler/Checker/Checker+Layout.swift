import SkanCore
import SkanSchema

extension Checker {
    /// Who owns a bit so far, for overlap notes.
    struct BitOwner {
        var description: String
        var location: SourceLocation
    }

    mutating func declareFlag(_ flag: FlagSyntax) {
        let bits = validBits(flag.bit)
        // Resolved before the flag's own name is declared: it may read only what comes before it.
        let derivation = flag.condition.flatMap { resolveDerivedCondition($0, of: flag.name.text) }.map {
            FieldDerivation.flag($0)
        }
        registerName(flag.name, kind: "flag")
        claim(bits, syntax: flag.bit, owner: "\(bits?.description ?? "bit") of \(flag.name.text)")
        fields.append(
            Field(
                name: flag.name.text, kind: .flag, bits: bits ?? BitRange(0, 0),
                description: flag.description?.value, cases: Field.flagCases, derivation: derivation))
        fieldNameLocations.append(flag.name.location)
    }

    mutating func declareField(_ field: FieldSyntax) {
        let bits = validBits(field.bits)
        // Resolved before the field's own name is declared: it may read only what comes before it.
        let derivation = derivation(of: field)
        if field.isCount {
            declareCountField(field, bits: bits, derivation: derivation)
            return
        }
        registerName(field.name, kind: "field")
        claim(bits, syntax: field.bits, owner: "\(bits?.description ?? "bits") of \(field.name.text)")
        var cases: [FieldCase] = []
        var caseNames: [String: SourceLocation] = [:]
        var caseCodes: [Int: (name: String, location: SourceLocation)] = [:]
        for caseSyntax in field.cases {
            let name = caseSyntax.name.text
            let code = caseSyntax.code
            if let earlier = caseNames[name] {
                report(.duplicateCase(name, of: field.name.text, at: caseSyntax.name.location, first: earlier))
            } else {
                caseNames[name] = caseSyntax.name.location
            }
            if let bits, code.value > bits.maximumCode {
                layoutIsSound = false
                report(.caseCodeTooWide(code.value, case: name, field: field.name.text, bits: bits, at: code.location))
            } else if let earlier = caseCodes[code.value] {
                layoutIsSound = false
                report(
                    .sharedCode(
                        code.value, cases: (earlier.name, name), field: field.name.text, at: code.location,
                        first: earlier.location))
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
                description: field.description?.value, cases: cases, derivation: derivation))
        fieldNameLocations.append(field.name.location)
    }

    /// How the field follows from events and time, if it does: its source, or its cases' conditions.
    private mutating func derivation(of field: FieldSyntax) -> FieldDerivation? {
        if let source = field.source {
            guard let resolved = resolveSource(source, field: field.name.text) else { return nil }
            return field.isCount ? .count(resolved) : .buckets(resolved)
        }
        return resolveFirstMatch(field)
    }

    /// `field streak at bits 0...2 count of days`: the code is the number, saturating at the largest code; a case
    /// per code (`n0`, `n1`, …), each a one-number bucket, the last open-ended.
    private mutating func declareCountField(_ field: FieldSyntax, bits: BitRange?, derivation: FieldDerivation?) {
        registerName(field.name, kind: "field")
        claim(bits, syntax: field.bits, owner: "\(bits?.description ?? "bits") of \(field.name.text)")
        let maximum = bits?.maximumCode ?? 0
        let cases = (0...maximum).map { code in
            FieldCase(
                name: "n\(code)", code: code, description: code == maximum ? "\(code) or more" : "\(code)",
                bucket: BucketRange(
                    lower: Double(code), upper: code == maximum ? nil : Double(code), isHalfOpen: false,
                    lowerText: "\(code)", upperText: code == maximum ? nil : "\(code)"))
        }
        let built = Field(
            name: field.name.text, kind: .buckets(.count), bits: bits ?? BitRange(0, 0),
            description: field.description?.value, cases: cases, derivation: derivation)
        if case .count(let source)? = derivation, bits != nil {
            checkSaturation(built, source: source, at: field.name.location)
        }
        fields.append(built)
        fieldNameLocations.append(field.name.location)
    }

    mutating func declareReserved(_ reserved: ReservedSyntax) {
        let bits = validBits(reserved.bits)
        claim(bits, syntax: reserved.bits, owner: "reserved \(bits?.description ?? "bits")")
        guard let bits else { return }
        let code = reserved.code?.value ?? 0
        if let literal = reserved.code, code > bits.maximumCode {
            layoutIsSound = false
            report(.reservedCodeTooWide(code, bits: bits, at: literal.location))
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
                report(.noSuchBit(lower, at: syntax.lower.location))
                return nil
            }
            return BitRange(lower, lower)
        }
        let upper = upperLiteral.value
        if lower > upper {
            layoutIsSound = false
            report(.bitsBackwards(lower, upper, at: syntax.location))
            return nil
        }
        if upper > 5 {
            layoutIsSound = false
            report(.bitsPastFive(lower, upper, at: syntax.location))
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
            report(.overlap(owner, width: bits.width, earlier: earlier, at: syntax.location))
        }
        for bit in bits.indices where bitOwners[bit] == nil {
            bitOwners[bit] = BitOwner(description: owner, location: syntax.location)
        }
    }
}

extension Diagnostic {
    fileprivate static func duplicateCase(
        _ name: String, of field: String, at location: SourceLocation, first: SourceLocation
    ) -> Diagnostic {
        .error(
            .duplicate, "field '\(field)' already has a case named '\(name)'", at: location,
            notes: [.init("the first '\(name)' is here", at: first)])
    }

    fileprivate static func caseCodeTooWide(
        _ code: Int, case name: String, field: String, bits: BitRange, at location: SourceLocation
    ) -> Diagnostic {
        .error(
            .caseWidth,
            "code \(code) of case '\(name)' does not fit in \(bits.width) bit\(bits.width == 1 ? "" : "s") (0...\(bits.maximumCode)); widen '\(field)' or pick a smaller code",
            at: location)
    }

    fileprivate static func sharedCode(
        _ code: Int, cases: (first: String, second: String), field: String, at location: SourceLocation,
        first: SourceLocation
    ) -> Diagnostic {
        .error(
            .duplicate,
            "cases '\(cases.first)' and '\(cases.second)' of field '\(field)' both have code \(code); give each case its own code",
            at: location, notes: [.init("'\(cases.first)' is here", at: first)])
    }

    fileprivate static func reservedCodeTooWide(_ code: Int, bits: BitRange, at location: SourceLocation) -> Diagnostic
    {
        .error(
            .caseWidth, "code \(code) does not fit in reserved \(bits) (0...\(bits.maximumCode)); pick a smaller code",
            at: location)
    }

    fileprivate static func noSuchBit(_ bit: Int, at location: SourceLocation) -> Diagnostic {
        .error(.bitRange, "bit \(bit) does not exist: fine values have bits 0...5", at: location)
    }

    fileprivate static func bitsBackwards(_ lower: Int, _ upper: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            .bitRange, "bits \(lower)...\(upper) run from high to low; write 'bits \(upper)...\(lower)'", at: location)
    }

    fileprivate static func bitsPastFive(_ lower: Int, _ upper: Int, at location: SourceLocation) -> Diagnostic {
        .error(.bitRange, "bits \(lower)...\(upper) reach past bit 5: fine values have bits 0...5", at: location)
    }

    fileprivate static func overlap(
        _ owner: String, width: Int, earlier: [Checker.BitOwner], at location: SourceLocation
    ) -> Diagnostic {
        .error(
            .overlap,
            "\(owner) overlap\(width == 1 ? "s" : "") \(listed(earlier.map(\.description))); every bit belongs to one declaration",
            at: location, notes: earlier.map { .init("\($0.description) declared here", at: $0.location) })
    }
}
