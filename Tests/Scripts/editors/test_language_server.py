"""`skanc lsp` end to end through pytest-lsp: every feature on a shipped schema and on broken ones, with the
answers written out."""

import asyncio
import json
import subprocess

import pytest
from conftest import ROOT
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

SHOP = (ROOT / "Schemas" / "Shop.skan").read_text()
SHOP_URI = (ROOT / "Schemas" / "Shop.skan").as_uri()


async def open_document(client: LanguageClient, text: str, uri: str = SHOP_URI):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="skan", version=1, text=text)
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics[uri]


def at(text: str, line: int, word: str) -> types.Position:
    """The position of `word` on 0-based `line`, in UTF-16 code units."""
    prefix = text.split("\n")[line].split(word)[0]
    return types.Position(line=line, character=len(prefix.encode("utf-16-le")) // 2)


def doc(uri: str = SHOP_URI) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def summary(diagnostic: types.Diagnostic) -> tuple:
    r = diagnostic.range
    return (r.start.line, r.start.character, r.end.character, diagnostic.severity, diagnostic.code)


async def test_a_shipped_schema_has_no_findings(client: LanguageClient):
    assert list(await open_document(client, SHOP)) == []


async def test_diagnostics_on_open_and_change_in_utf16(client: LanguageClient):
    # A typo after a description with characters of 2, 3 and 4 UTF-8 bytes (é, —, 🎉; 🎉 is 2 UTF-16 units).
    broken = SHOP.replace('"Completed registration"', '"Inscrit — é 🎉" when registerd')
    diagnostics = await open_document(client, broken)
    # "flag registered at bit 0 " is 25 units, the description 16 (🎉 counts 2), " when " 6: the name is at 47.
    assert [summary(d) for d in diagnostics] == [(5, 47, 56, types.DiagnosticSeverity.Error, "unknown-name")]
    assert diagnostics[0].message == "no flag or field named 'registerd'"
    assert diagnostics[0].source == "skanc"
    # The change mends it; a duplicate field then gets its note as related information.
    duplicate = SHOP.replace("field dayOneAction", "field paymentTier")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=SHOP_URI, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=duplicate)],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    diagnostics = client.diagnostics[SHOP_URI]
    assert [summary(d) for d in diagnostics][0] == (14, 6, 17, types.DiagnosticSeverity.Error, "duplicate")
    related = diagnostics[0].related_information
    assert [(r.location.range.start.line, r.message) for r in related] == [(7, "the first 'paymentTier' is here")]


async def test_formatting_is_fmt_and_refused_on_syntax_errors(client: LanguageClient):
    messy = SHOP.replace("flag registered at bit 0", "flag   registered   at bit 0").replace("  high   when", "high when")
    await open_document(client, messy)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=doc(), options=types.FormattingOptions(2, True))
    )
    fmt = subprocess.run([client_binary(), "fmt", "-"], input=messy, capture_output=True, text=True, check=True)
    assert len(edits) == 1 and edits[0].range.start == types.Position(0, 0)
    assert edits[0].new_text == fmt.stdout == SHOP
    await open_document(client, SHOP.replace("at bits 1...2", "at bits 1..."), uri=SHOP_URI + "?broken")
    broken = types.DocumentFormattingParams(
        text_document=doc(SHOP_URI + "?broken"), options=types.FormattingOptions(2, True)
    )
    # Format on save: no edits and no error, the reason shown once per version. The waiter is scheduled
    # before the request, so it is registered before the answer and the message after it are read.
    shown = asyncio.ensure_future(client.wait_for_notification(types.WINDOW_SHOW_MESSAGE))
    assert list(await client.text_document_formatting_async(broken)) == []
    message = await shown
    assert "syntax errors" in message.message and message.type == types.MessageType.Warning
    count = len(client.messages)
    assert list(await client.text_document_formatting_async(broken)) == []
    # Any message for the second request would be read before the answer to the next one.
    await client.text_document_hover_async(types.HoverParams(text_document=doc(), position=types.Position(0, 0)))
    assert len(client.messages) == count


async def test_hover_definition_references_symbols(client: LanguageClient):
    await open_document(client, SHOP)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(), position=at(SHOP, 24, "paymentTier"))
    )
    assert hover.contents.value == (
        '**paymentTier**: field, bits 1...2 ("Highest purchase tier")\n\n'
        "- `none` = 0 → fine value +0\n"
        '- `low` = 1 → fine value +2: "under $5"\n'
        '- `medium` = 2 → fine value +4: "$5 to $20"\n'
        '- `high` = 3 → fine value +6: "over $20"\n\n'
        "Read by: `coarse`, `lock window 1`"
    )
    definition = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(), position=at(SHOP, 29, "paymentTier"))
    )
    assert (definition.range.start.line, definition.range.start.character) == (7, 6)
    references = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(),
            position=at(SHOP, 25, "addedToCart"),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert [(r.range.start.line, r.range.start.character) for r in references] == [(17, 2), (25, 44)]
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc()))
    assert [(s.name, s.kind, [c.name for c in s.children or []]) for s in symbols] == [
        ("registered", types.SymbolKind.Field, []),
        ("paymentTier", types.SymbolKind.Field, ["none", "low", "medium", "high"]),
        ("dayOneAction", types.SymbolKind.Field, ["none", "browsed", "addedToCart", "ordered"]),
        ("coarse", types.SymbolKind.Namespace, []),
        ("lock window 1", types.SymbolKind.Function, []),
    ]


async def test_completion_of_cases_events_and_keywords(client: LanguageClient):
    text = SHOP + "lock window 2 when paymentTier == "
    await open_document(client, text)
    items = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc(), position=types.Position(30, 34))
    )
    labels = [item.label for item in (items.items if hasattr(items, "items") else items)]
    assert labels == ["none", "low", "medium", "high"]
    assert {item.kind for item in items} == {types.CompletionItemKind.EnumMember}
    await open_document(client, SHOP, uri=SHOP_URI + "?whole")
    items = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc(SHOP_URI + "?whole"), position=types.Position(30, 0))
    )
    labels = [item.label for item in (items.items if hasattr(items, "items") else items)]
    assert labels == ["event", "flag", "field", "reserved", "coarse", "lock", "schema", "version"]


async def test_a_quick_fix_for_did_you_mean(client: LanguageClient):
    text = SHOP.replace("paymentTier >= medium", "paymentTier >= mediun")
    diagnostics = await open_document(client, text)
    assert [d.message for d in diagnostics] == ["field 'paymentTier' has no case named 'mediun'; did you mean 'medium'?"]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(),
            range=diagnostics[0].range,
            context=types.CodeActionContext(diagnostics=list(diagnostics)),
        )
    )
    assert [(a.title, a.kind, a.is_preferred) for a in actions] == [
        ("Replace 'mediun' with 'medium'", types.CodeActionKind.QuickFix, True)
    ]
    (edit,) = actions[0].edit.changes[SHOP_URI]
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.character) == (24, 29, 35)
    assert edit.new_text == "medium"


async def test_rename_everywhere_or_refused(client: LanguageClient):
    await open_document(client, SHOP)
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc(), position=at(SHOP, 29, "paymentTier"))
    )
    assert (prepared.range.start.line, prepared.range.start.character, prepared.placeholder) == (29, 19, "paymentTier")
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc(), position=at(SHOP, 29, "paymentTier"), new_name="spendTier")
    )
    # Visual Studio Code shows change annotations, so the edit asks for confirmation and says why.
    (change,) = edit.document_changes
    assert [(e.range.start.line, e.range.start.character, e.new_text) for e in change.edits] == [
        (7, 6, "spendTier"),
        (24, 14, "spendTier"),
        (29, 19, "spendTier"),
    ]
    annotation = edit.change_annotations["rename"]
    assert annotation.label == "Rename 'paymentTier' to 'spendTier'" and annotation.needs_confirmation
    assert "skanc diff" in annotation.description
    for taken in ["registered", "fine_value", "not"]:
        with pytest.raises(JsonRpcException):
            await client.text_document_rename_async(
                types.RenameParams(text_document=doc(), position=at(SHOP, 29, "paymentTier"), new_name=taken)
            )


async def test_protocol_errors(client: LanguageClient):
    with pytest.raises(JsonRpcException, match="is not open"):
        await client.text_document_hover_async(
            types.HoverParams(text_document=doc("file:///nowhere.skan"), position=types.Position(0, 0))
        )
    with pytest.raises(JsonRpcException, match="not served"):
        await client.protocol.send_request_async("skanc/unknown", {})


def client_binary() -> str:
    import os

    return os.environ.get("SKANC", "skanc")


SCHEMAS = (
    sorted((ROOT / "Schemas").rglob("*.skan"))
    + sorted((ROOT / "Examples").rglob("*.skan"))
    + sorted((ROOT / "Tests" / "SkanCompilerTests" / "Fixtures" / "invalid").glob("*.skan"))
)


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: str(p.relative_to(ROOT)))
async def test_diagnostics_are_what_check_and_lint_print(client: LanguageClient, path):
    """Every shipped schema and every invalid example: the editor gets what `skanc lint` prints, the same
    codes, severities, places (UTF-16 in the editor, UTF-8 bytes on the command line) and messages."""
    text = path.read_text()
    lint = subprocess.run(
        [client_binary(), "lint", "--error-format", "json", str(path)], capture_output=True, text=True
    )
    lines = text.split("\n")
    expected = []
    for record in map(json.loads, lint.stderr.splitlines()):
        line = record["line"] - 1
        prefix = lines[line].encode()[: record["column"] - 1].decode() if record["column"] > 0 else ""
        severity = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}
        expected.append((line, len(prefix.encode("utf-16-le")) // 2, severity[record["severity"]], record["code"],
                         record["message"]))
    diagnostics = await open_document(client, text, uri=path.as_uri())
    seen = [(d.range.start.line, d.range.start.character, d.severity, d.code, d.message.split("\n")[0])
            for d in diagnostics]
    assert seen == expected
    assert (lint.returncode == 1) == any(d.severity == types.DiagnosticSeverity.Error for d in diagnostics)


async def test_semantic_tokens_full_and_delta(client: LanguageClient):
    await open_document(client, SHOP)
    full = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc())
    )
    assert full.result_id and len(full.data) % 5 == 0 and len(full.data) > 100
    # The first tokens: `#` comment lines, then `schema Shop`.
    types_by_index = [
        "keyword", "event", "variable", "property", "enumMember", "number", "string", "comment", "operator",
        "namespace", "type",
    ]
    decoded = [types_by_index[full.data[i + 3]] for i in range(0, len(full.data), 5)]
    assert "comment" in decoded and "property" in decoded and "enumMember" in decoded
    delta = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(text_document=doc(), previous_result_id=full.result_id)
    )
    # Nothing changed: a delta without edits.
    assert delta.result_id != full.result_id and list(delta.edits) == []


async def test_highlights_and_folding_ranges(client: LanguageClient):
    await open_document(client, SHOP)
    highlights = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=doc(), position=at(SHOP, 29, "paymentTier"))
    )
    assert [(h.range.start.line, h.kind) for h in highlights][0] == (7, types.DocumentHighlightKind.Write)
    assert all(h.kind == types.DocumentHighlightKind.Read for h in highlights[1:]) and len(highlights) > 2
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc()))
    assert (7, 12) in [(f.start_line, f.end_line) for f in folds]


async def test_inlay_hints(client: LanguageClient):
    await open_document(client, SHOP)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc(), range=types.Range(types.Position(0, 0), types.Position(40, 0)))
    )
    labels = [hint.label for hint in hints]
    # Shop: paymentTier's cases add 0, 2, 4, 6; bit 5 is reserved, so every bit is held.
    assert labels[:4] == ["+0", "+2", "+4", "+6"] and labels[-1] == "every bit used"
