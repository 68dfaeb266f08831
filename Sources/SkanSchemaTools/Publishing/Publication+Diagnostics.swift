public import SkanCore

extension DiagnosticCode {
    /// `skanc publish`: a version number published already with other content.
    public static let versionPublished = DiagnosticCode("version-published")
    /// `skanc publish --rollout` with no version in rollout, `--rollback` with nothing to go back to, `--revoke` of
    /// a version that is live or was never published.
    public static let publishState = DiagnosticCode("publish-state")
}

extension Diagnostic {
    fileprivate static func publishState(_ message: String) -> Diagnostic { .error(.publishState, message, at: nil) }

    static func versionPublished(_ version: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            .versionPublished,
            "version \(version) is published already with other content; a published version never changes: give "
                + "this schema the next version number", at: location)
    }

    static func noRollout() -> Diagnostic {
        publishState("no version is in rollout: publish one with 'skanc publish SCHEMA --rollout PERCENT'")
    }

    static func nothingToRollBackTo() -> Diagnostic {
        publishState("there is no earlier live version to roll back to ('skanc publish status' lists the versions)")
    }

    static func notPublished(_ version: Int) -> Diagnostic {
        publishState("version \(version) was never published ('skanc publish status' lists the versions)")
    }

    static func revokingLive(_ version: Int) -> Diagnostic {
        publishState("version \(version) is live: roll back or publish another version first, then revoke it")
    }
}
