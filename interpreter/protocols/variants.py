"""Which variants the engine protocols carry and what they are called there, known without compiling one.

A GUI learns the variants an engine plays before it asks for one: from the
``UCI_Variant`` combo of the ``uci`` answer, or from ``feature variants=...``
in XBoard's handshake, and it waits for ``uciok`` / ``feature done=1``
meanwhile. Compiling every bundled variant to find out which of them the
protocols can carry takes seconds, so the answer is read from
``carried.json`` beside this module: for each protocol, each bundled name
maps to None (carried) or to the reason it is not. The table is written by
``python -m interpreter.protocols.games`` (``make protocol-variants``) from
the compiled games, and a test fails when it is stale.

A variant goes by its bundled name and by each of its aliases
(``threecheck`` is also ``3check``, the name python-chess and
Fairy-Stockfish give it); a user's ``.rules`` file goes by its file name
without ``.rules``. XBoard lists one name per variant: the first of its name
and aliases that XBoard knows as one of its own variants
(:data:`XBOARD_KNOWN`), else its name.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

from dsl.catalogue import RULES_SUFFIX, Header, bundled_aliases, bundled_headers
from dsl.errors import UsageError, clip, suggest

PROTOCOLS = {"uci": "UCI", "xboard": "XBoard"}
TABLE = "carried.json"
SERVE_HINT = "play it through the JSON API of 'rules serve' instead, see docs/serve.md"

XBOARD_KNOWN = frozenset((
    "normal", "wildcastle", "nocastle", "fischerandom", "bughouse", "crazyhouse", "losers", "suicide", "giveaway",
    "twokings", "kriegspiel", "atomic", "3check", "shatranj", "xiangqi", "shogi", "capablanca", "gothic", "falcon",
    "courier", "knightmate", "berolina", "janus", "caparandom", "cylinder", "super", "great", "twilight", "makruk",
    "asean", "spartan", "grand", "seirawan",
))
"""The variants XBoard knows by itself (the ``variant`` command of the CECP specification): for
these the GUI has its own rules, so the engine sends no ``setup`` and no ``piece`` definitions."""


@lru_cache(maxsize=1)
def carried_table() -> dict[str, dict[str, str | None]]:
    """protocol -> bundled name -> None (the protocol carries it) or why it cannot."""
    return json.loads(files(__package__).joinpath(TABLE).read_text(encoding="utf-8"))


def refusal(title: str, protocol: str, reason: str) -> str:
    """The message that refuses a variant: what it is, why the protocol cannot carry it, where to go."""
    return f"{title} cannot be played over {PROTOCOLS[protocol]}: {reason}; {SERVE_HINT}"


def carried_headers(protocol: str) -> list[Header]:
    """The bundled variants ``protocol`` carries, in name order."""
    table = carried_table()[protocol]
    return [h for h in bundled_headers() if table.get(h.name, "") is None]


def protocol_names(protocol: str) -> list[str]:
    """Every name under which ``protocol`` offers a bundled variant: names and aliases (UCI), or one
    name per variant (XBoard, see :func:`xboard_name`)."""
    headers = carried_headers(protocol)
    if protocol == "xboard":
        return [xboard_name(h.name, h.aliases) for h in headers]
    return sorted({name for h in headers for name in (h.name, *h.aliases)})


def xboard_name(name: str, aliases: tuple[str, ...] = ()) -> str:
    """The name XBoard lists for a variant: the first of ``name`` and ``aliases`` XBoard knows, else ``name``."""
    return next((n for n in (name, *aliases) if n in XBOARD_KNOWN), name)


def file_variant_name(path: str) -> str:
    """The protocol name of a user's rules file: its file name without ``.rules``."""
    name = Path(path).name
    return name[: -len(RULES_SUFFIX)] if name.endswith(RULES_SUFFIX) else name


def resolve(name: str, protocol: str, files_by_name: dict[str, str] | None = None) -> str:
    """What a protocol's variant name stands for: a user's file (by its :func:`file_variant_name`
    in ``files_by_name``) or a bundled name. Raises :class:`UsageError` for a bundled variant the
    protocol cannot carry (with the reason) and for an unknown name (with a suggestion)."""
    files_by_name = files_by_name or {}
    if name in files_by_name:
        return files_by_name[name]
    bundled = name if name in carried_table()[protocol] else bundled_aliases().get(name)
    if bundled is not None:
        reason = carried_table()[protocol][bundled]
        if reason is not None:
            header = next(h for h in bundled_headers() if h.name == bundled)
            raise UsageError(refusal(header.title or bundled, protocol, reason))
        return bundled
    offered = protocol_names(protocol) + list(files_by_name)
    guess = suggest(name, offered)
    raise UsageError(f"unknown variant '{clip(name)}'", expected=f"one of {', '.join(offered)}",
                     hint=f"did you mean '{guess}'?" if guess else None)


def check_argument(ref: str, protocol: str) -> tuple[str, str | None]:
    """The protocol name of the ``VARIANT`` argument of ``rules uci`` or ``rules xboard``, and the
    path for a user's file (None for a bundled variant). A bundled name or alias is refused at
    once, with the reason, if the protocol cannot carry it; a file must exist (it is compiled when
    the GUI first needs it)."""
    is_path = ref.endswith(RULES_SUFFIX) or "/" in ref or "\\" in ref
    if not is_path and (ref in carried_table()[protocol] or ref in bundled_aliases()):
        bundled = resolve(ref, protocol)
        header = next(h for h in bundled_headers() if h.name == bundled)
        return (xboard_name(bundled, header.aliases) if protocol == "xboard" else ref), None
    try:
        exists = Path(ref).is_file()
    except (OSError, ValueError):
        exists = False
    if not exists:
        guess = suggest(ref, protocol_names(protocol))
        raise UsageError(f"no bundled variant and no file named '{clip(ref)}'",
                         expected=f"a variant {PROTOCOLS[protocol]} carries ({', '.join(protocol_names(protocol))}) "
                                  "or a path to a .rules file",
                         hint=f"did you mean '{guess}'?" if guess else None)
    return file_variant_name(ref), ref
