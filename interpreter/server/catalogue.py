"""The bundled variants as the page's variant chooser shows them, with their thumbnails and rule pages.

:func:`listing` groups the bundled variants by family, in the order of the
documentation site (:func:`interpreter.documentation.site.families`), each
with its title, its aliases, a one-line summary (the first sentence of its
description; "" without one) and the addresses of its thumbnail and of its
rule page on this server. :func:`source` is a bundled variant's file as it is (an
``extends`` line and all: the design page starts from it). :func:`thumbnail` is a bundled variant's start
position (its default mode) as SVG, without coordinates. :func:`rule_file`
is a file of its rule page as ``rules doc --format html`` writes it, whose
"play this" link leads to this server's page (``/?variant=NAME``); perft is
counted to :data:`RULES_PERFT_DEPTH` plies only, so that a page is made in
about a second.

Everything here depends on the bundled files only, so it is made once per
name and kept. A name that is not a bundled variant's own (an alias, a
path, anything else) is :class:`NoSuchPage`, answered 404: the listing
gives the addresses.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote

from dsl import bundled_names, load_spec
from dsl.errors import RulesError, clip

from interpreter.documentation.pages import variant_files
from interpreter.documentation.site import families
from interpreter.drawing.render import diagram_of, render_svg
from interpreter.loading import load_game, start_position

from .database import bundled_text

RULES_PERFT_DEPTH = 2
"""The perft depth of the rule pages the server makes (the pages under docs/variants go one ply deeper)."""
_SENTENCE_END = re.compile(r"(?<!e\.g\.)(?<!i\.e\.)(?<=[.!?])\s+(?=[A-Z])")   # not after "e.g." or "i.e."


class NoSuchPage(RulesError):
    """A thumbnail or rule page asked for by a name that is not a bundled variant's, or a file its page has not."""


@lru_cache(maxsize=1)
def listing() -> tuple[tuple[str, ...], tuple[dict, ...]]:
    """``(families, variants)``: the family names in order, and every bundled variant (name, title,
    aliases, family, summary, thumbnail, rules) family by family, by title within a family."""
    order, rows = [], []
    for family, members in families():
        order.append(family)
        for title, name in members:
            spec = load_spec(name)
            rows.append({"name": name, "title": title, "aliases": list(spec.aliases), "family": family,
                         "summary": summary(spec.description),
                         "thumbnail": f"/api/variants/{quote(name)}/thumbnail.svg", "rules": f"/rules/{quote(name)}/"})
    return tuple(order), tuple(rows)


def summary(description: str | None) -> str:
    """The first sentence of a description ("" for none): up to a full stop, a question or an exclamation
    mark followed by a capital (never "e.g." or "i.e.")."""
    return _SENTENCE_END.split(description.strip(), maxsplit=1)[0] if description else ""


@lru_cache(maxsize=None)
def thumbnail(name: str) -> str:
    """The SVG of the start position of the bundled variant ``name``; NoSuchPage for any other name."""
    game = load_game(_bundled(name))
    return render_svg(game, diagram_of(start_position(game)), coordinates=False, title=game.title)


def source(name: str) -> str:
    """The text of the file of the bundled variant ``name``; NoSuchPage for any other name."""
    return bundled_text(_bundled(name))


def rule_file(name: str, file: str) -> str:
    """The file ``file`` (``index.html`` or a picture) of the rule page of the bundled variant ``name``;
    NoSuchPage for any other name or file."""
    files = _rule_files(_bundled(name))
    if file not in files:
        raise NoSuchPage(f"the rule page of {name} has no file '{clip(file, 60)}'")
    return files[file]


@lru_cache(maxsize=16)
def _rule_files(name: str) -> dict[str, str]:
    return variant_files(load_game(name), "html", perft_depth=RULES_PERFT_DEPTH, play="/")


def _bundled(name: str) -> str:
    if name not in bundled_names():
        raise NoSuchPage(f"'{clip(name, 60)}' is not the name of a bundled variant",
                         hint="GET /api/variants lists them, each with its thumbnail and rule page")
    return name
