public import SkanCore

/// A platform's configuration that cannot be read: each problem, with the key path it is at as its subject.
public struct ConfigurationReadError: Error, Sendable {
    /// Each problem, with its key path as the subject.
    public var diagnostics: [Diagnostic]

    /// An error carrying `diagnostics`, each at its key path in the configuration.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }
}
