import SkanCompiler
public import SkanCore

/// The diagnostics of a schema given as text.
public func diagnostics(_ text: String) -> [Diagnostic] {
    SchemaCompiler.compile(text).diagnostics
}

/// `line:column code` of each diagnostic, for compact assertions.
public func summaries(_ text: String) -> [String] {
    diagnostics(text).map {
        "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.severity.rawValue) \($0.code.rawValue)"
    }
}

/// The head every small test schema needs: two flags and a field over bits 0...3, bits 4...5 reserved.
public let header = """
    schema T
    version 1
    flag registered at bit 0
    flag paid at bit 1
    field rank at bits 2...3 {
      none = 0
      low = 1
      mid = 2
      top = 3
    }
    reserved bits 4...5

    """
