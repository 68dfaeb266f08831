import Foundation
import SkanCompiler
import SkanCore
import SkanLanguageServer
import SkanSchemaTools
import SkanTestSupport
import Testing

/// Diagnostics link their code to the language reference (`codeDescription`), read from the reference itself:
/// every code the compiler and the lints raise has a section there, and the link reaches it.
@Suite struct ReferenceLinksTests {
    static let reference = Paths.packageRoot.appendingPathComponent("docs/LanguageReference.md").path

    /// The anchors GitHub gives the reference's headings, as its renderer writes them.
    @Test func anchorsAreGitHubs() {
        #expect(ReferenceLinks.anchor(ofHeading: "`bit-range` (error)") == "bit-range-error")
        #expect(
            ReferenceLinks.anchor(ofHeading: "`unreachable-time` (error or warning)")
                == "unreachable-time-error-or-warning")
        #expect(ReferenceLinks.anchor(ofHeading: "Lints") == "lints")
        #expect(
            ReferenceLinks.anchor(ofHeading: "`version-unchanged` (error), `version-decreased` (error)")
                == "version-unchanged-error-version-decreased-error")
    }

    @Test func everyCodeHasASectionInTheReference() throws {
        let links = try #require(ReferenceLinks(path: Self.reference))
        let text = try String(contentsOfFile: Self.reference, encoding: .utf8)
        let headings = Set(
            text.split(separator: "\n").filter { $0.hasPrefix("## ") || $0.hasPrefix("### ") }.map {
                ReferenceLinks.anchor(ofHeading: String($0.drop { $0 == "#" }.dropFirst()))
            })
        for code in DiagnosticCode.schemaCodes + DiagnosticCode.lintCodes {
            let href = try #require(links.href(for: code), "\(code) has no section in the language reference")
            let anchor = String(href.split(separator: "#").last ?? "")
            #expect(headings.contains(anchor), "\(code) links to #\(anchor), which no heading has")
        }
        #expect(links.href(for: DiagnosticCode.bitRange)?.hasSuffix("LanguageReference.md#bit-range-error") == true)
        #expect(links.href(for: DiagnosticCode.fineAfterWindowOne)?.hasSuffix("#lints") == true)
        #expect(links.href(for: DiagnosticCode("no-such-code")) == nil)
    }

    /// Through the protocol: the reference a client names in `initializationOptions`, then none at all.
    @Test func diagnosticsCarryTheLinkTheClientAskedFor() throws {
        var session = ServerSession()
        let options = #"{"languageReference": \#(ServerSession.quoted(Self.reference))}"#
        _ = session.request("initialize", #"{"capabilities": {}, "initializationOptions": \#(options)}"#)
        let diagnostics = session.open("schema T\nversion 1\nflag paid at bit 6\ncoarse { low otherwise }\n")
        let first = try #require(diagnostics.first)
        guard case .string("bit-range")? = first["code"] else {
            Issue.record("not the bit-range error: \(first)")
            return
        }
        guard case .string(let href)? = first["codeDescription"]?["href"] else {
            Issue.record("no codeDescription: \(first)")
            return
        }
        #expect(href == URL(fileURLWithPath: Self.reference).absoluteString + "#bit-range-error")

        var plain = ServerSession.initialized()
        let unlinked = plain.open("schema T\nversion 1\nflag paid at bit 6\ncoarse { low otherwise }\n")
        #expect(unlinked.count == 1)
        #expect(unlinked.first?["codeDescription"] == nil)
    }

    /// `skanc lsp` finds the checkout's reference above its executable.
    @Test func theServerFindsTheReferenceAboveItsExecutable() {
        let executable = Paths.packageRoot.appendingPathComponent(".build/debug/skanc").path
        #expect(ReferenceLinks.locate(executable: executable) == Self.reference)
        #expect(ReferenceLinks.locate(executable: "/nonexistent/bin/skanc") == nil)
    }
}
