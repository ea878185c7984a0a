"""Making a game from a request: a bundled variant or rules text, a mode, a position, moves, seats.

The requests are JSON objects (see docs/serve.md). A variant is named by a
bundled name or alias only: the server never reads a file a client names.
Rules text is parsed from the text under :data:`dsl.files.BUNDLED_ONLY`, so
its ``extends`` and ``include`` lines may name bundled files only; it is
labelled ``<pasted>`` in errors, or ``<NAME>`` for an uploaded file's
base name (the brackets say that the text has no directory on the server).
Games compiled from text are kept in a small cache, keyed by the text, the
mode and the options. A game record (PGN-style) gives the variant (its
``Variant`` tag, unless rules text is given), the mode (``Mode``), the
start (``FEN``) and the moves.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict

from dsl.errors import RulesError, UsageError, clip
from dsl.files import BUNDLED_ONLY, bundled_variant, unknown_variant
from dsl.limits import DEFAULT_MAX_PLIES
from dsl.loader import load_spec_text

from interpreter.compiler.game import Game
from interpreter.loading import compile_variant, load_game, position_from_fen, start_position
from interpreter.loading.records import read_record
from interpreter.notation.reading import moves_from_text

from .clocks import SeatClocks, controls_of
from .database import StoredGame, bundled_text, rules_hash
from .seats import NO_ENGINES, Engines
from .sessions import Session, Source

log = logging.getLogger(__name__)

TEXT_GAMES = 8
"""Games compiled from rules text kept for reuse."""
COMPILING = threading.BoundedSemaphore(2)
"""Rules texts compiled at once: compiling a large file takes seconds, and a server must stay responsive."""

_TEXT_CACHE: OrderedDict[tuple, Game] = OrderedDict()
_TEXT_LOCK = threading.Lock()


def field(body: dict, name: str, kind: type, default=None):
    """``body[name]`` if it is a ``kind``, ``default`` if absent or null; UsageError otherwise."""
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        words = {str: "a string", dict: "an object", int: "a whole number", bool: "true or false", float: "a number"}
        raise UsageError(f"'{name}' must be {words.get(kind, kind.__name__)}, not {clip(repr(value), 40)}")
    return value


def options_of(body: dict) -> dict[str, str]:
    """The mode options of a request (``{"solo": "light"}``)."""
    options = field(body, "options", dict, {})
    for name, value in options.items():
        if not isinstance(value, str):
            raise UsageError(f"the option '{name}' must be given as a string", hint='e.g. {"solo": "light"}')
    return dict(options)


def game_of(body: dict) -> tuple[Game, Source]:
    """The compiled game a request names (see the module docstring), and where it came from."""
    variant, rules = field(body, "variant", str), field(body, "rules", str)
    mode, options = field(body, "mode", str), options_of(body)
    if variant is not None and rules is not None:
        raise UsageError("give either 'variant' or 'rules', not both")
    if rules is not None:
        label = label_of(field(body, "name", str))
        return game_from_text(rules, label, mode, options), Source(None, rules, mode, options, label)
    if variant is None:
        raise UsageError("no variant given", expected="'variant' (a bundled name such as \"chess\") or 'rules' (rules text)")
    if bundled_variant(variant) is None:
        raise unknown_variant(variant, None)
    return load_game(variant, mode, options), Source(variant, None, mode, options)


def label_of(name: str | None) -> str:
    """How a pasted or uploaded text is named in errors: ``<pasted>``, or ``<NAME>`` for a file's base name."""
    if not name:
        return "<pasted>"
    base = re.split(r"[\\/]", name)[-1]
    base = re.sub(r"[^A-Za-z0-9_. -]", "", base)[:64].strip()
    return f"<{base}>" if base else "<pasted>"


def game_from_text(text: str, label: str, mode: str | None, options: dict[str, str]) -> Game:
    """Compile rules ``text`` (bundled files only for its ``extends`` and ``include``), cached."""
    key = (rules_hash(text), label, mode,
           tuple(sorted(options.items())))
    with _TEXT_LOCK:
        game = _TEXT_CACHE.get(key)
        if game is not None:
            _TEXT_CACHE.move_to_end(key)
            return game
    with COMPILING:
        game = compile_variant(load_spec_text(text, label, BUNDLED_ONLY), mode, options)
    with _TEXT_LOCK:
        _TEXT_CACHE[key] = game
        while len(_TEXT_CACHE) > TEXT_GAMES:
            _TEXT_CACHE.popitem(last=False)
    return game


def new_session(body: dict, pace: float, seed: int = 0, max_plies: int = DEFAULT_MAX_PLIES,
                engines: Engines = NO_ENGINES) -> Session:
    """A new game as the request ``body`` asks: variant or rules, mode, options, then ``fen`` or
    ``record``, then ``moves``, then ``clock`` (:func:`.clocks.controls_of`), then ``seats`` (the computer
    starts when it is to move); ``pace``,
    ``seed``, ``max_plies`` and ``engines`` as :class:`~.sessions.Session` takes them."""
    body = dict(body)
    record_text = field(body, "record", str)
    record = read_record(record_text) if record_text is not None else None
    if record is not None:
        if body.get("rules") is None and body.get("variant") is None:
            body["variant"] = record.tags.get("Variant") or _missing_tag("Variant")
        if body.get("mode") is None and record.tags.get("Mode"):
            body["mode"] = record.tags["Mode"]
        if body.get("fen") is None and record.tags.get("FEN"):
            body["fen"] = record.tags["FEN"]
    game, source = game_of(body)
    if record is not None and record.tags.get("Variant") not in (None, game.name):
        raise UsageError(f"the game record is of the variant '{clip(record.tags['Variant'], 40)}', not of '{game.name}'")
    fen = field(body, "fen", str)
    pos = position_from_fen(game, fen) if fen else start_position(game)
    session = Session(game, source, pos, pace=pace, seed=seed, max_plies=max_plies, engines=engines)
    for text in (record.movetext if record is not None else None, field(body, "moves", str)):
        if text:
            session.replay(moves_from_text(pos.copy(), text))
    controls = controls_of(field(body, "clock", dict), session.seats)
    session.clock = SeatClocks(controls) if controls is not None else None
    session.set_seats(field(body, "seats", dict, {}), frozenset(session.tokens))
    return session


def restored_session(stored: StoredGame, pace: float, max_plies: int = DEFAULT_MAX_PLIES,
                     engines: Engines = NO_ENGINES) -> Session:
    """The game a database kept, made again: compiled from its variant or its rules text, its plies
    played again, its seats and tokens as they were. A seat whose kind this server cannot give any
    more (an engine it was not started with) is a person's. RulesError when the game cannot be
    made again (the rules changed since so that a ply no longer reads, says the message). Its clocks,
    its decision and its draw offers are as kept; the clock of the seat to move runs from now
    (:mod:`.clocks`)."""
    source = Source(stored.variant, stored.rules, stored.mode, stored.options, stored.label)
    try:
        if stored.rules is not None:
            game = game_from_text(stored.rules, stored.label or "<pasted>", stored.mode, stored.options)
        else:
            game = load_game(stored.variant, stored.mode, stored.options)
        session = Session(game, source, position_from_fen(game, stored.start_fen), pace=pace, max_plies=max_plies,
                          engines=engines)
        session.restore(stored.plies)
    except RulesError as err:
        changed = stored.rules is None and rules_hash(bundled_text(stored.variant)) != stored.rules_hash
        raise RulesError(f"the stored game '{stored.ident}' cannot be played again: {err.message}",
                         hint=f"the rules of {stored.variant} changed since it was played" if changed else None) from None
    session.tokens = dict(stored.tokens)
    session.clock = SeatClocks.from_stored(stored.clock) if stored.clock is not None else None
    session.decision = stored.decision
    session.offers = set(stored.offers)
    for name, kind in stored.seats.items():
        try:
            session.set_seats({name: kind}, frozenset(session.tokens))
        except RulesError:
            log.warning("stored game %s: seat %s cannot be %s here; a person plays it", stored.ident, name, kind)
    with session.lock:
        session.version = max(session.version, stored.version + 1)
    return session


def _missing_tag(name: str) -> str:
    raise RulesError(f"the game record has no {name} tag", expected=f'a tag line such as [{name} "chess"]',
                     hint="or choose the variant and load the record again")
