"""The TextMate grammar (editors/skan.tmLanguage.json), read by textmate-grammar-python (PyPI, Oniguruma as
editors use): every token of every shipped schema gets a scope, the kinds of token are told apart, and the
names it scopes agree with the compiler's (the declarations and references `skanc lsp` reports)."""

import json
import logging

import pytest
from conftest import ROOT
from lsprotocol import types
from pytest_lsp import LanguageClient
from textmate_grammar.parsers.base import LanguageParser

logging.getLogger("textmate_grammar").setLevel(logging.ERROR)

GRAMMAR = LanguageParser(json.loads((ROOT / "editors" / "skan.tmLanguage.json").read_text()))
SHIPPED = sorted((ROOT / "Schemas").rglob("*.skan")) + sorted((ROOT / "Examples").rglob("*.skan"))


def tokens(text: str):
    """(line, column, text, innermost scope) of every token that is not white space."""
    found = []
    for (line, column), token, scopes in GRAMMAR.parse_string(text).flatten():
        # A token may span white space and words when the grammar leaves them unscoped.
        if token.strip():
            found.append((line, column, token, scopes[-1]))
    return found


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_token_of_a_shipped_schema_has_a_scope(path):
    unscoped = [t for t in tokens(path.read_text()) if t[3] == "source.skan"]
    assert unscoped == []


def test_the_kinds_of_token_are_told_apart():
    text = (
        "# a comment\n"
        "schema Sample\n"
        "event purchase value USD\n"
        'flag paid at bit 0 "Payé \\u{1F389}" when purchase.sum >= 0.99\n'
        "field low at bits 1...2 { low = 1 when hours < 24 and not paid  none = 0 otherwise }\n"
        "coarse { high when low == low  nothing otherwise }\n"
    )
    assert tokens(text) == [
        (0, 0, "# a comment", "comment.line.number-sign.skan"),
        (1, 0, "schema", "keyword.other.declaration.skan"),
        (1, 7, "Sample", "entity.name.type.schema.skan"),
        (2, 0, "event", "keyword.other.declaration.skan"),
        (2, 6, "purchase", "entity.name.function.event.skan"),
        (2, 15, "value", "keyword.other.skan"),
        (2, 21, "USD", "constant.other.currency.skan"),
        (3, 0, "flag", "keyword.other.declaration.skan"),
        (3, 5, "paid", "entity.name.variable.field.skan"),
        (3, 10, "at", "keyword.other.skan"),
        (3, 13, "bit", "keyword.other.skan"),
        (3, 17, "0", "constant.numeric.skan"),
        (3, 19, '"', "punctuation.definition.string.begin.skan"),
        (3, 20, "Payé ", "string.quoted.double.skan"),
        (3, 25, "\\u{1F389}", "constant.character.escape.skan"),
        (3, 34, '"', "punctuation.definition.string.end.skan"),
        (3, 36, "when", "keyword.other.skan"),
        (3, 41, "purchase", "variable.other.skan"),
        (3, 49, ".", "punctuation.accessor.skan"),
        (3, 50, "sum", "variable.language.member.skan"),
        (3, 54, ">=", "keyword.operator.comparison.skan"),
        (3, 57, "0.99", "constant.numeric.skan"),
        (4, 0, "field", "keyword.other.declaration.skan"),
        (4, 6, "low", "entity.name.variable.field.skan"),
        (4, 10, "at", "keyword.other.skan"),
        (4, 13, "bits", "keyword.other.skan"),
        (4, 18, "1", "constant.numeric.skan"),
        (4, 19, "...", "keyword.operator.range.skan"),
        (4, 22, "2", "constant.numeric.skan"),
        (4, 24, "{", "punctuation.section.block.begin.skan"),
        (4, 26, "low", "entity.name.constant.case.skan"),
        (4, 30, "=", "keyword.operator.assignment.skan"),
        (4, 32, "1", "constant.numeric.skan"),
        (4, 34, "when", "keyword.other.skan"),
        (4, 39, "hours", "keyword.other.skan"),
        (4, 45, "<", "keyword.operator.comparison.skan"),
        (4, 47, "24", "constant.numeric.skan"),
        (4, 50, "and", "keyword.operator.logical.skan"),
        (4, 54, "not", "keyword.operator.logical.skan"),
        (4, 58, "paid", "variable.other.skan"),
        (4, 64, "none", "entity.name.constant.case.skan"),
        (4, 69, "=", "keyword.operator.assignment.skan"),
        (4, 71, "0", "constant.numeric.skan"),
        (4, 73, "otherwise", "keyword.other.skan"),
        (4, 83, "}", "punctuation.section.block.end.skan"),
        (5, 0, "coarse", "keyword.other.declaration.skan"),
        (5, 7, "{", "punctuation.section.block.begin.skan"),
        (5, 9, "high", "constant.language.coarse.skan"),
        (5, 14, "when", "keyword.other.skan"),
        (5, 19, "low", "variable.other.skan"),
        (5, 23, "==", "keyword.operator.comparison.skan"),
        (5, 26, "low", "variable.other.skan"),
        (5, 31, "nothing", "constant.language.coarse.skan"),
        (5, 39, "otherwise", "keyword.other.skan"),
        (5, 49, "}", "punctuation.section.block.end.skan"),
    ]


NAME_SCOPES = {
    types.SymbolKind.Event: "entity.name.function.event.skan",
    types.SymbolKind.Field: "entity.name.variable.field.skan",
    types.SymbolKind.EnumMember: "entity.name.constant.case.skan",
}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
async def test_names_are_scoped_where_the_compiler_finds_them(client: LanguageClient, path):
    text = path.read_text()
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri, "skan", 1, text))
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    # Columns: the grammar counts characters, the protocol UTF-16 units; the shipped names are ASCII and
    # what precedes them on their lines is compared as characters by converting each line.
    by_position = {}
    lines = text.split("\n")
    for line, column, token, scope in tokens(text):
        units = len(lines[line][:column].encode("utf-16-le")) // 2
        by_position[(line, units)] = (token, scope)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri))
    )
    # Names only: the coarse and lock blocks are in the outline too, under their keyword.
    declared = [(s, s.kind) for s in symbols if s.kind in NAME_SCOPES] + [
        (c, c.kind) for s in symbols for c in s.children or []
    ]
    assert declared, "the compiler found no names"
    for symbol, kind in declared:
        start = symbol.selection_range.start
        assert by_position.get((start.line, start.character)) == (symbol.name, NAME_SCOPES[kind])
        references = await client.text_document_references_async(
            types.ReferenceParams(
                text_document=types.TextDocumentIdentifier(uri),
                position=start,
                context=types.ReferenceContext(include_declaration=False),
            )
        )
        for reference in references:
            at = (reference.range.start.line, reference.range.start.character)
            token, scope = by_position.get(at, ("", "none"))
            assert token == symbol.name and scope in {"variable.other.skan", NAME_SCOPES[kind]}, (path, at)


def test_the_vscode_extension_registers_the_language_grammar_and_server():
    folder = ROOT / "editors" / "vscode"
    manifest = json.loads((folder / "package.json").read_text())
    (language,) = manifest["contributes"]["languages"]
    (grammar,) = manifest["contributes"]["grammars"]
    assert language["id"] == grammar["language"] == "skan" and language["extensions"] == [".skan"]
    # The grammar it ships is the one tested here, byte for byte (a copy, not a link: links break on Windows
    # clones), under the scope name the grammar declares.
    shipped = folder / grammar["path"]
    assert not shipped.is_symlink()
    assert shipped.read_bytes() == (ROOT / "editors" / "skan.tmLanguage.json").read_bytes()
    assert grammar["scopeName"] == json.loads((ROOT / "editors" / "skan.tmLanguage.json").read_text())["scopeName"]
    configuration = json.loads((folder / language["configuration"]).read_text())
    assert configuration["comments"]["lineComment"] == "#"
    # The client starts `skanc lsp` with the dependency the manifest names.
    client = (folder / manifest["main"]).read_text()
    assert 'require("vscode-languageclient/node")' in client and "vscode-languageclient" in manifest["dependencies"]
    assert 'args: ["lsp"]' in client and 'language: "skan"' in client
