"""``rules lsp`` driven over stdio by pygls' own language client, message by message.

One exchange, as an editor has it: initialize, open a copy of a bundled variant that extends
another, an edit that introduces an error and the edit that undoes it, completion, hover and
go-to-definition on a piece the variant inherits, the outline, formatting of a messy text and of a
text that does not parse, close, shutdown and exit. Every expectation comes from the rest of the
implementation or from running ``rules check`` on the same text: the diagnostics must be what the
command reports, at the same places.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from dsl.formatting import format_text  # noqa: E402
from dsl.loader import load_spec  # noqa: E402
from dsl.parser import expected_after  # noqa: E402
from interpreter.documentation.phrases import sentence  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WAIT = 20.0


def _inheriting_variant() -> tuple[Path, str]:
    """The first bundled variant (by file name) that extends another and names, in its own text,
    a piece declared in another file; with that piece's name."""
    for path in sorted((ROOT / "variants").glob("*.rules")):
        text = path.read_text(encoding="utf-8")
        if not re.search(r"(?m)^extends ", text):
            continue
        spec = load_spec(str(path))
        for name, piece in spec.pieces.items():
            if piece.loc.path != str(path.resolve()) and _uses(text, name) is not None:
                return path, name
    raise AssertionError("no bundled variant names a piece it inherits")


def _uses(text: str, name: str) -> int | None:
    """Where ``text`` first names ``name`` outside a comment and a string, or None."""
    for match in re.finditer(rf"\b{name}\b", text):
        line = text[text.rfind("\n", 0, match.start()) + 1:match.start()]
        if "#" not in line and line.count('"') % 2 == 0:
            return match.start()
    return None


def _position(text: str, offset: int) -> T.Position:
    before = text[:offset]
    return T.Position(line=before.count("\n"), character=offset - (before.rfind("\n") + 1))


def _rules_check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter.cli", "check", str(path)], capture_output=True,
                          text=True, cwd=ROOT, env=os.environ, timeout=300)


def _checked_warnings(path: Path) -> set[tuple[int, int, str]]:
    """The warnings ``rules check`` prints for ``path``: (0-based line, 0-based column, message)."""
    found = set()
    for line in _rules_check(path).stdout.splitlines():
        match = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): warning: (.*)", line)
        if match:
            found.add((int(match[1]) - 1, int(match[2]) - 1, match[3]))
    return found


def _checked_error(path: Path) -> tuple[int, int, str]:
    """The error ``rules check`` reports for ``path``: (0-based line, 0-based column, message)."""
    result = _rules_check(path)
    assert result.returncode == 2, result.stdout + result.stderr
    match = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): (.*)", result.stderr.splitlines()[0])
    assert match, result.stderr
    return int(match[1]) - 1, int(match[2]) - 1, match[3]


def _apply(text: str, edits: list[T.TextEdit]) -> str:
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = sum(len(t) + 1 for t in lines[:edit.range.start.line]) + edit.range.start.character
        end = sum(len(t) + 1 for t in lines[:edit.range.end.line]) + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
        lines = text.split("\n")
    return text


def test_an_editing_session_over_stdio(tmp_path: Path) -> None:
    asyncio.run(_session(tmp_path))


async def _session(tmp_path: Path) -> None:
    bundled, piece_name = _inheriting_variant()
    text = bundled.read_text(encoding="utf-8")
    path = tmp_path / bundled.name
    path.write_text(text, encoding="utf-8")
    uri = path.resolve().as_uri()
    spec = load_spec(str(path))

    client = LanguageClient("rules-lsp-test", "1")
    published: asyncio.Queue[T.PublishDiagnosticsParams] = asyncio.Queue()

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _diagnostics(params: T.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    async def next_diagnostics() -> T.PublishDiagnosticsParams:
        params = await asyncio.wait_for(published.get(), WAIT)
        assert params.uri == uri
        return params

    await client.start_io(sys.executable, "-m", "interpreter.cli", "lsp", cwd=str(ROOT), env=os.environ)
    server = client._server   # the subprocess (pygls keeps it there): to see it exit, or end it
    try:
        # initialize: the server says what it offers
        result = await asyncio.wait_for(client.initialize_async(T.InitializeParams(
            capabilities=T.ClientCapabilities(), root_uri=tmp_path.as_uri())), WAIT)
        caps = result.capabilities
        assert caps.completion_provider is not None and caps.hover_provider
        assert caps.definition_provider and caps.document_formatting_provider and caps.document_symbol_provider
        client.initialized(T.InitializedParams())

        # open: the warnings of 'rules check', at its places
        client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(uri=uri, language_id="rules", version=1, text=text)))
        opened = await next_diagnostics()
        assert all(d.source == "rules" for d in opened.diagnostics)
        assert {(d.range.start.line, d.range.start.character, d.message) for d in opened.diagnostics
                if d.severity == T.DiagnosticSeverity.Warning} == _checked_warnings(path)

        # an edit that misspells the inherited piece: the error of 'rules check' on that text, at its range
        offset = _uses(text, piece_name)
        at = _position(text, offset + len(piece_name))
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[T.TextDocumentContentChangePartial(range=T.Range(start=at, end=at), text="x")]))
        broken = text[:offset + len(piece_name)] + "x" + text[offset + len(piece_name):]
        (tmp_path / "broken").mkdir()
        broken_path = tmp_path / "broken" / bundled.name
        broken_path.write_text(broken, encoding="utf-8")
        line, column, message = _checked_error(broken_path)
        errors = (await next_diagnostics()).diagnostics
        assert len(errors) == 1 and errors[0].severity == T.DiagnosticSeverity.Error
        assert (errors[0].range.start.line, errors[0].range.start.character) == (line, column)
        assert errors[0].message.splitlines()[0] == message
        assert errors[0].range.end.character > column

        # the edit undone: the warnings again
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=3),
            content_changes=[T.TextDocumentContentChangePartial(range=T.Range(start=at, end=T.Position(line=at.line, character=at.character + 1)), text="")]))
        assert (await next_diagnostics()).diagnostics == opened.diagnostics

        # completion where a piece name is being typed: every piece of the variant, inherited ones too, and no
        # keyword (only a name may stand there); where a declaration starts, the keywords the grammar accepts
        where = _position(text, offset + 1)
        completion = await asyncio.wait_for(client.text_document_completion_async(T.CompletionParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=where)), WAIT)
        labels = {item.label for item in completion.items if item.kind == T.CompletionItemKind.Class}
        assert labels == set(spec.pieces)
        assert not any(item.kind == T.CompletionItemKind.Keyword for item in completion.items)
        top = re.search(r"(?m)^extends ", text).start()   # where a declaration starts: the grammar's keywords
        completion = await asyncio.wait_for(client.text_document_completion_async(T.CompletionParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=_position(text, top))), WAIT)
        keywords = {item.label for item in completion.items if item.kind == T.CompletionItemKind.Keyword}
        assert {"extends", "include", "piece"} <= keywords == set(expected_after(text[:top])[0])

        # hover on the inherited piece: the rule page's English and its movement diagram
        hover = await asyncio.wait_for(client.text_document_hover_async(T.HoverParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=where)), WAIT)
        assert hover.contents.kind == T.MarkupKind.Markdown
        piece = spec.pieces[piece_name]
        assert sentence(piece.description) in hover.contents.value
        assert f"![Moves of the {piece_name} from " in hover.contents.value
        assert "](data:image/svg+xml;base64," in hover.contents.value

        # definition: where the base file declares the piece
        found = await asyncio.wait_for(client.text_document_definition_async(T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=where)), WAIT)
        assert found.uri == Path(piece.loc.path).as_uri() != uri
        assert (found.range.start.line, found.range.start.character) == (piece.loc.line - 1, piece.loc.column - 1)

        # the outline: what the file itself declares
        symbols = await asyncio.wait_for(client.text_document_document_symbol_async(T.DocumentSymbolParams(
            text_document=T.TextDocumentIdentifier(uri=uri))), WAIT)
        own = {name for name, p in spec.pieces.items() if p.loc.path == str(path.resolve())}
        assert own and {s.name for s in symbols if s.kind == T.SymbolKind.Class} == own

        # formatting a messy text: edits that give the canonical text
        messy = "\n".join(line.strip() + "   " for line in text.splitlines()) + "\n"
        whole = T.Range(start=T.Position(line=0, character=0), end=T.Position(line=len(text.split("\n")) - 1, character=len(text.split("\n")[-1])))
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=4), content_changes=[T.TextDocumentContentChangePartial(range=whole, text=messy)]))
        edits = await asyncio.wait_for(client.text_document_formatting_async(T.DocumentFormattingParams(
            text_document=T.TextDocumentIdentifier(uri=uri), options=T.FormattingOptions(tab_size=2, insert_spaces=True))), WAIT)
        assert edits and _apply(messy, edits) == format_text(messy) == format_text(text)
        await next_diagnostics()

        # a text that does not parse: no edits, and the diagnostic says why
        unparsable = messy + "piece {\n"
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=5), content_changes=[T.TextDocumentContentChangeWholeDocument(text=unparsable)]))
        edits = await asyncio.wait_for(client.text_document_formatting_async(T.DocumentFormattingParams(
            text_document=T.TextDocumentIdentifier(uri=uri), options=T.FormattingOptions(tab_size=2, insert_spaces=True))), WAIT)
        assert edits is not None and len(edits) == 0
        syntax = (await next_diagnostics()).diagnostics
        assert [d.severity for d in syntax] == [T.DiagnosticSeverity.Error]
        assert syntax[0].range.start.line == unparsable.count("\n") - 1

        # close: the diagnostics cleared
        client.text_document_did_close(T.DidCloseTextDocumentParams(text_document=T.TextDocumentIdentifier(uri=uri)))
        assert len((await next_diagnostics()).diagnostics) == 0

        assert await asyncio.wait_for(client.shutdown_async(None), WAIT) is None
        client.exit(None)
        assert await asyncio.wait_for(server.wait(), WAIT) == 0
    finally:
        if server.returncode is None:   # a failed step: client.stop() would wait for the server forever
            server.kill()
        await client.stop()


def test_the_garbage_collector_runs_when_the_server_is_idle(monkeypatch):
    """Between checks, not during them: after a pause with no change, or at once after too many
    checks without a pause."""
    from interpreter.lsp import server as lsp_server

    runs = []
    monkeypatch.setattr(lsp_server.gc, "collect", lambda: runs.append(1))
    monkeypatch.setattr(lsp_server, "IDLE", 0.05)

    async def session() -> list[int]:
        collector = lsp_server.IdleCollector()
        counts = []
        collector.checked()
        await asyncio.sleep(0.15)
        counts.append(len(runs))            # idle after a check: collected
        collector.checked()
        collector.changed()                 # typing goes on: not yet
        await asyncio.sleep(0.15)
        counts.append(len(runs))
        for _ in range(lsp_server.MOST_CHECKS_UNSWEPT - 1):
            collector.checked()
            collector.changed()
        counts.append(len(runs))            # the twentieth check without a pause: at once
        return counts

    assert asyncio.run(session()) == [1, 1, 2]
