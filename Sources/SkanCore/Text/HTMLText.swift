/// Text placed in HTML, as element content or a quoted attribute value: the five characters HTML gives
/// meaning to become references, on Unicode scalars so that no combining mark can hide a `<` or a quote.
/// Every page skanc writes (tables, previews, reports) escapes through this one function.
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references.
    public static func escaped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&#39;".unicodeScalars)
            case "\t", "\n", "\r": result.append(scalar)
            case _ where ControlCharacters.isControl(scalar):
                result.append(contentsOf: ControlCharacters.escape(scalar).unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
