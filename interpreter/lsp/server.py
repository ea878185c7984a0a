"""The language server of ``rules lsp``: pygls over standard input and output.

It keeps each open buffer's text (pygls' workspace, synchronised incrementally) and answers from it:
diagnostics when a buffer is opened and, :data:`DEBOUNCE` seconds after the last change of a burst
of keystrokes, again; completion, hover, definition, the outline and formatting on request. A check
runs in a worker thread, so that requests are answered while it runs; its diagnostics are published
only if the buffer has not changed meanwhile (the check of the newer text follows). Requests answer
from the last check of the buffer's text when it is done, else from the last Spec the buffer
compiled to (completion while typing a half-written line), until it compiles again. Closing a
buffer clears its diagnostics.

Python's cyclic garbage collector runs between checks, not during them (:class:`IdleCollector`): the
server keeps compiled games and the tables built from their boards, and a full collection over them
took 0.1 to 0.15 s, which a check that happened to start one paid after a keystroke.
"""

from __future__ import annotations

import asyncio
import gc

from dsl.errors import RulesError
from dsl.formatting import format_text
from lsprotocol import types as T
from pygls.lsp.server import LanguageServer

from .completion import completions
from .definitions import definition
from .diagnostics import Checked, check_text
from .hover import hover_text
from .places import offset_of, path_of
from .symbols import document_symbols

DEBOUNCE = 0.1
"""Seconds without a change before a changed buffer is checked again."""
IDLE = 1.0
"""Seconds without a check or a change after which the garbage collector runs."""
MOST_CHECKS_UNSWEPT = 20
"""Checks after which the collector runs at once, for someone who never pauses (memory stays bounded)."""


class IdleCollector:
    """Runs Python's cyclic garbage collector (turned off while the server runs) when the server
    is idle: :data:`IDLE` seconds after the last check if no change came meanwhile, and at once
    after :data:`MOST_CHECKS_UNSWEPT` checks without a collection."""

    def __init__(self) -> None:
        self.unswept = 0
        self.timer: asyncio.TimerHandle | None = None

    def changed(self) -> None:
        """A change came: a collection waiting for idleness waits for the next check."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def checked(self) -> None:
        """A check ended: collect now if too many came without one, else when idle."""
        self.changed()
        self.unswept += 1
        if self.unswept >= MOST_CHECKS_UNSWEPT:
            self.collect()
        else:
            self.timer = asyncio.get_running_loop().call_later(IDLE, self.collect)

    def collect(self) -> None:
        self.timer = None
        self.unswept = 0
        gc.collect()


class RulesLanguageServer(LanguageServer):
    """The server, with each open buffer's last finished check (``checked``: the text checked and
    what was found), its last check that compiled (``last``) and its pending check (``pending``)."""

    def __init__(self) -> None:
        super().__init__("rules-lsp", "1", text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.checked: dict[str, tuple[str, Checked]] = {}
        self.last: dict[str, Checked] = {}
        self.pending: dict[str, asyncio.Task] = {}
        self.collector = IdleCollector()

    def serve(self) -> None:
        """Serve on standard input and output until the client says ``exit``, the cyclic garbage
        collector run by :class:`IdleCollector` only."""
        gc.disable()
        self.start_io()

    def schedule(self, uri: str, delay: float) -> None:
        """Check the buffer ``uri`` after ``delay`` seconds, instead of any check still waiting."""
        self.collector.changed()
        if uri in self.pending:
            self.pending[uri].cancel()

        async def later() -> None:
            await asyncio.sleep(delay)
            await self.check(uri)
            self.pending.pop(uri, None)

        self.pending[uri] = asyncio.ensure_future(later())

    async def check(self, uri: str) -> None:
        """Check the buffer ``uri`` in a worker thread; publish its diagnostics and remember what was
        found unless the buffer changed or closed meanwhile."""
        document = self.workspace.get_text_document(uri)
        text, version = document.source, document.version
        checked = await asyncio.to_thread(check_text, text, path_of(uri))
        self.collector.checked()
        if self.workspace.get_text_document(uri).version != version:
            return   # changed meanwhile (a change or a close cancels the task that awaits this check)
        self.checked[uri] = (text, checked)
        if checked.spec is not None:
            self.last[uri] = checked
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, diagnostics=list(checked.diagnostics), version=version))

    def known(self, uri: str) -> tuple[str, str, Checked | None]:
        """The buffer's text, its file and its freshest check that read a Spec (None: never)."""
        text = self.workspace.get_text_document(uri).source
        done = self.checked.get(uri)
        checked = done[1] if done is not None and done[0] == text else None
        return text, path_of(uri), checked if checked is not None and checked.spec is not None else self.last.get(uri)


server = RulesLanguageServer()


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulesLanguageServer, params: T.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulesLanguageServer, params: T.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, DEBOUNCE)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulesLanguageServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri in ls.pending:
        ls.pending.pop(uri).cancel()
    ls.last.pop(uri, None)
    ls.checked.pop(uri, None)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["("]))
def completion(ls: RulesLanguageServer, params: T.CompletionParams) -> T.CompletionList:
    text, _, checked = ls.known(params.text_document.uri)
    spec, game = (checked.spec, checked.game) if checked is not None else (None, None)
    return T.CompletionList(is_incomplete=False,
                            items=completions(spec, game, text, offset_of(text, params.position)))


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: RulesLanguageServer, params: T.HoverParams) -> T.Hover | None:
    text, _, checked = ls.known(params.text_document.uri)
    if checked is None or checked.spec is None:
        return None
    words = hover_text(checked.spec, checked.game, text, offset_of(text, params.position))
    return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, words)) if words else None


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def go_to_definition(ls: RulesLanguageServer, params: T.DefinitionParams) -> T.Location | None:
    text, _, checked = ls.known(params.text_document.uri)
    if checked is None or checked.spec is None:
        return None
    return definition(checked.spec, text, offset_of(text, params.position))


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def outline(ls: RulesLanguageServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
    _, path, checked = ls.known(params.text_document.uri)
    return document_symbols(checked.spec, path) if checked is not None and checked.spec is not None else []


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: RulesLanguageServer, params: T.DocumentFormattingParams) -> list[T.TextEdit]:
    """The whole buffer replaced by ``rules fmt``'s text; no edits when it is already canonical or
    does not parse (its diagnostic says why)."""
    text = ls.workspace.get_text_document(params.text_document.uri).source
    try:
        formatted = format_text(text, path_of(params.text_document.uri))
    except RulesError:
        return []
    if formatted == text:
        return []
    lines = text.split("\n")
    whole = T.Range(T.Position(0, 0), T.Position(len(lines) - 1, len(lines[-1])))
    return [T.TextEdit(range=whole, new_text=formatted)]

