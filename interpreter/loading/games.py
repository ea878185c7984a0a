"""Load a variant: find its rules file, compile it, and check its setup as a position.

:func:`load_game` is what every front end calls: a bundled name, an alias
or a path to a ``.rules`` file, a play mode and the runner's mode options
give a compiled :class:`~interpreter.compiler.game.Game`. Compiling checks
the file's names and tables; here the setup is also read as a whole position
(side to move, castling rights, en passant), so that a setup the engine
could not start from is an error at the setup's line in the rules file.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from dsl import spec as S
from dsl.errors import PositionError, RulesError, RulesSemanticError, UsageError, inherited_error
from dsl.files import FilePolicy
from dsl.loader import DEFAULT_POLICY, find_variant, load_spec

from interpreter.compiler.game import Game
from interpreter.compiler.setup import setup_error
from interpreter.engine.position import Position
from interpreter.notation.fen import last_movers_in_check

from . import stored
from .collection import collection_paused
from .positions import start_position


def mode_options(texts: list[str] | None) -> dict[str, str]:
    """The mode options written ``NAME=VALUE`` (the runner's ``--option``), as a dict; UsageError
    for a text that is not of that form."""
    options = {}
    for text in texts or []:
        name, sep, value = text.partition("=")
        if not sep or not name or not value:
            raise UsageError(f"--option {text!r} is not NAME=VALUE", hint="e.g. --option solo=light")
        options[name] = value
    return options


def compile_variant(spec: S.VariantSpec, mode: str | None = None, options: dict[str, str] | None = None) -> Game:
    """Compile a Spec in one of its play modes (default: the first), with the runner's mode
    ``options``. Raises RulesSemanticError / UnsupportedError / UsageError with source locations."""
    try:
        with collection_paused():
            game = Game(spec, mode, options)
        try:
            pos = start_position(game)
        except PositionError as err:
            raise setup_error(err, game.setup.loc) from None
        if game.setup.fen is None:  # a FEN is checked as it is read
            _refuse_setup_in_check(game, spec, pos)
    except RulesError as err:
        moved = inherited_error(err, spec.inherited_via)
        if moved is err:
            raise
        raise moved from None
    return game


def _refuse_setup_in_check(game: Game, spec: S.VariantSpec, pos: Position) -> None:
    """Refuse a place-list setup whose armies that move last stand in check where no move may
    leave a royal piece attacked (``forbid self-check``): the first mover could take it. The
    error points at the line that places the exposed army's first royal piece (at the setup
    when it has none there: the check then comes from the pieces the setup places)."""
    exposed = last_movers_in_check(game, pos)
    if not exposed:
        return
    army = game.armies[exposed[0]]
    royals = {k.name for k in game.kinds if k.royal}
    places = [p for p in spec.setup.places if p.army == army.name and p.piece in royals]
    first = game.armies[game.turn_armies[0][0]].title
    raise RulesSemanticError(f"the setup is not a valid position: {army.title} is in check, but {first} moves first",
                             places[0].loc if places else game.setup.loc,
                             expected=f"a setup in which {army.title} is not in check",
                             hint="no move may leave a royal piece attacked here (forbid self-check), "
                                  "so the side to move could take it")


_CACHE: dict[tuple, tuple[str, Game]] = {}  # (file, mode, options, policy) -> (fingerprint of its sources, game)


def load_game(ref: str | Path, mode: str | None = None, options: dict[str, str] | None = None,
              policy: FilePolicy = DEFAULT_POLICY) -> Game:
    """Load and compile a variant by bundled name, alias or path, in a play ``mode`` with mode
    ``options``; ``policy`` says which files its extends and include lines may read
    (:class:`~dsl.files.FilePolicy`).

    Games are cached per file, mode and options, in memory and on disk
    (:mod:`.stored`, in the user's cache directory), and a cached game is
    served only while every file its variant was read from (the file itself,
    what it extends and includes) has the same contents: an edited include is
    compiled afresh.
    """
    path = find_variant(str(ref), policy)
    resolved = path.resolve()
    key = (str(resolved), mode, tuple(sorted((options or {}).items())), policy)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] == stored.fingerprint(cached[1].spec.sources):
        return cached[1]
    stored_key = storage_key(resolved, mode, options, policy)
    found = stored.read(stored_key)
    if found is None:
        spec = load_spec(path, policy)
        game = compile_variant(spec, mode, options)
        found = (stored.fingerprint(spec.sources), game)
        stored.write(stored_key, *found)
    _CACHE[key] = found
    return found[1]


PROSE = frozenset({"path", "sources", "title", "description", "source", "aliases", "interpretations", "examples"})
"""The fields of a spec that no move depends on: where it was read from and its prose."""


def rules_digest(spec: S.VariantSpec) -> str:
    """A hash of the rules that a game of ``spec`` is played by: the merged spec (what it extends and
    includes resolved, its ``ai`` block included) without :data:`PROSE`. Two files that differ in
    layout, comments, prose or place give the same digest; a changed piece, setup, end rule or weight
    gives another. The same in every process (no set's order enters it)."""
    text = spec.model_dump_json(exclude=set(PROSE))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def storage_key(path: Path, mode: str | None = None, options: dict[str, str] | None = None,
                policy: FilePolicy = DEFAULT_POLICY) -> str:
    """The key of a game on disk (:mod:`.stored`): the variant's resolved ``path``, ``mode``, ``options``
    and the folders ``policy`` allows, resolved (its own may be relative to the working directory)."""
    return json.dumps([str(path), mode, sorted((options or {}).items()), [str(root) for root in policy.roots(path)],
                       policy.local])
