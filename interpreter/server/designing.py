"""The design page's answers: a rules text as it is being written, checked, drawn and documented.

:func:`design` checks a text as ``rules check`` does (:func:`interpreter.loading.checking.check_game`:
every play mode compiled, each by :func:`.creating.game_from_text`, so bundled files only for
``extends`` and ``include``, at most two texts compiled at once, the language's own limits on a
file's size and nesting) and answers its warnings (located) and board notes, its start position
as SVG (the picture of ``rules render``, every name from the file escaped by the drawing module)
and its rule page (the HTML of ``rules doc --format html``, perft to :data:`DESIGN_PERFT_DEPTH`
ply so that it is made as fast as the page asks, its pictures put in as ``data:`` addresses so
that the page is one document the browser shows in a sandboxed frame). A text with an error is
not an error of the request: the caller answers it as the text's first error, located.

At most :data:`DESIGNING` pages are made at once; a request that waits longer than
:data:`MOST_DESIGN_WAIT` seconds for its turn is :class:`~.sessions.Conflict` (409): the page
asks again after the next change of the text.
"""

from __future__ import annotations

import base64
import html
import threading

from dsl.errors import UsageError
from dsl.syntax import grammar_keywords, token_patterns

from interpreter.documentation.pages import variant_files
from interpreter.drawing.render import diagram_of, render_svg
from interpreter.loading import start_position
from interpreter.loading.checking import check_game

from .creating import field, game_from_text, label_of
from .sessions import Conflict
from .views import lint_view

DESIGN_PERFT_DEPTH = 1
"""The perft depth of the design page's rule page: one ply, the number of first moves."""
DESIGNING = threading.BoundedSemaphore(2)
"""Design answers made at once."""
MOST_DESIGN_WAIT = 5.0
"""Seconds a design request waits for its turn before it is refused."""


def syntax() -> dict:
    """How the page colours the text: the token patterns of :mod:`dsl.syntax` (``[pattern, class]``,
    tried in order) and the keywords, so that the browser colours as the documentation site does."""
    return {"patterns": [list(p) for p in token_patterns()], "keywords": sorted(grammar_keywords())}


def design_text(body: dict) -> tuple[str, str]:
    """The text a design request carries and its label (``<pasted>``, or ``<NAME>`` for a file's base
    name); UsageError when ``rules`` is missing or not a string."""
    text = field(body, "rules", str)
    if text is None:
        raise UsageError("no rules text given", expected='{"rules": "variant ... "}')
    return text, label_of(field(body, "name", str))


def design(text: str, label: str) -> dict:
    """``{"label", "errors": [], "warnings", "notes", "title", "svg", "page"}`` for a text that compiles in
    every play mode (``label`` names the text in errors: ``<pasted>`` or ``<NAME>``): ``warnings`` are the
    lints, each located (:func:`.views.lint_view`), ``notes`` the board's notes (no place). The first
    RulesError of the text otherwise."""
    if not DESIGNING.acquire(timeout=MOST_DESIGN_WAIT):
        raise Conflict("the server is busy with other designs", hint="the page asks again after the next change")
    try:
        checked = check_game(game_from_text(text, label, None, {}), lambda mode: game_from_text(text, label, mode, {}))
        game = checked.game
        svg = render_svg(game, diagram_of(start_position(game)), coordinates=True, title=game.title)
        files = variant_files(game, "html", perft_depth=DESIGN_PERFT_DEPTH, play="/")
    finally:
        DESIGNING.release()
    return {"label": label, "errors": [], "warnings": [lint_view(lint) for lint in checked.lints],
            "notes": list(checked.notes), "title": game.title, "svg": svg, "page": _one_document(files)}


def _one_document(files: dict[str, str]) -> str:
    """The rule page ``index.html`` with each of its pictures put in as a ``data:`` address."""
    page = files["index.html"]
    for name, picture in files.items():
        if name != "index.html":
            encoded = base64.b64encode(picture.encode("utf-8")).decode("ascii")
            page = page.replace(f'src="{html.escape(name)}"', f'src="data:image/svg+xml;base64,{encoded}"')
    return page
