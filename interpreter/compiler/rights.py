"""Rights: which pieces' unmoved marks a game keeps, and which of them FEN must write.

A position's ``unmoved`` mask marks the cells whose piece has not moved
since the start. A mark matters only for what it allows, and the laws of a
game count a position's *rights*, not its history (FIDE 9.2.3: castling
rights, not "this rook never moved"). Three things can need a mark:

- **castling**: a king and a rook that may still castle together;
- **gating**: a cell on which a piece in hand may still enter (Seirawan);
- **first moves**: a piece with patterns of its own that only an unmoved
  piece makes (``unmoved``, Betza ``i``), its *own* mark.

The engine drops a mark as soon as it can no longer allow anything
(:mod:`interpreter.engine.rights`), so that two positions with the same
rights have the same mask, hash and FEN. This module computes, once per
game, what that needs.

FEN writes castling and gating rights in its castling field. An own mark
is written there too, unless it can be *inferred*: when no piece of that
code can ever come back to (or arrive on) a cell where the setup puts one,
a piece standing on such a cell has never moved, so FEN need not say it
(chess pawns that double-step ``unmoved``, Spartan hoplites). The proof is
an over-approximation from the board and the piece's patterns: every
target of every pattern from every cell such a piece may reach, ignoring
what stands in the way, and every cell where one may enter by promotion,
drop, gating, castling or a committing move. Where it fails (a king with a
first-move leap: it can walk back), the castling field carries the mark,
as Fairy-Stockfish carries Cambodian chess's king and queen leaps: the
file letter of the piece's cell on its army's home rank (``DEde``), or,
for a piece elsewhere, its cell's name (``KQkqe2``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.betza import parse_betza
from dsl.errors import RulesSemanticError, UnsupportedError, unknown_name

from .atoms import frame

if TYPE_CHECKING:
    from .game import Game


def own_marks(game: "Game") -> list[bool]:
    """Per code: does the piece have patterns that only an unmoved piece makes?"""
    return [code > 0 and any(a.unmoved for a in game.atoms[code]) for code in range(game.ncodes)]


def inferred_marks(game: "Game") -> list[bool]:
    """Per code: is its own mark read from its standing on a setup cell of its code, so that FEN
    does not write it? (False for codes without an own mark, and where the question is not
    analysed: stacking games, and setups that shuffle the piece's kind.)"""
    own = own_marks(game)
    result = [False] * game.ncodes
    if game.stacking is None and any(own):
        arrived = _arrivals(game, own)
        shuffled = _shuffled_kinds(game)
        for code in range(1, game.ncodes):
            if own[code] and game.code_kind[code] not in shuffled:
                result[code] = not arrived[code] & setup_cells(game, code)
    if any(game.privileged) and any(o and not i for o, i in zip(own, result)):
        loc = next((m.loc for piece in game.spec.pieces.values() for m in piece.moves if first_move(m)), None)
        raise UnsupportedError("first-move patterns that FEN must write, together with 'once per game', are "
                               "not run by the interpreter yet (both use FEN's castling field)", loc)
    return result


def aimed_losses(game: "Game") -> tuple[list[list[int] | None], list[tuple[bool, ...]]]:
    """What ``unmoved lost when aimed by KINDS`` compiles to: per mover code, ``reach[to]``, the
    cells (a bit mask) its capturing patterns reach from ``to`` on an empty board, for the codes
    whose moves end some enemy piece's mark (None for the others); and ``victims[mover][code]``:
    does a piece of ``code`` lose its mark when a piece of ``mover`` aims at it?

    The option needs first-move patterns of the piece's own (a mark that allows nothing else is
    an error at the option), and names declared pieces."""
    kinds = [k for k in game.kinds if k.spec.unmoved_lost_aimed_by is not None]
    reach: list[list[int] | None] = [None] * game.ncodes
    victims = [tuple([False] * game.ncodes)] * game.ncodes
    own = own_marks(game)
    for kind in kinds:
        aimed = kind.spec.unmoved_lost_aimed_by
        for name in aimed.names:
            if name not in game.kind_index:
                raise unknown_name("piece", name, game.kind_index, aimed.locs.get(name, aimed.loc))
        if not any(own[c] for c in range(1, game.ncodes) if game.code_kind[c] == kind.index):
            raise RulesSemanticError(f"'unmoved lost' on {kind.name}, which has no first moves to lose",
                                     aimed.loc, hint="give it a pattern with 'unmoved' (or Betza 'i'), or "
                                     "remove the line")
    if not kinds:
        return reach, victims
    aims = [game.kinds[game.code_kind[c]].spec.unmoved_lost_aimed_by if c else None for c in range(game.ncodes)]
    for mover in range(1, game.ncodes):
        army, name = game.code_army[mover], game.kinds[game.code_kind[mover]].name
        if army >= len(game.armies):   # a neutral piece aims at no one
            continue
        hit = tuple(aim is not None and game.hostile[army][code] and (name in aim.names) != aim.negated
                    for code, aim in enumerate(aims))
        if any(hit):
            victims[mover] = hit
            atoms = [a for a in game.atoms[mover] if a.capture]
            reach[mover] = [sum(1 << c for c in set().union(*(a.reach(to) for a in atoms))) for to in range(game.n)]
    return reach, victims


def first_move(move: S.MoveSpec) -> bool:
    """Does the pattern make only first moves (the option ``unmoved``, or a Betza atom with ``i``)?"""
    return move.unmoved or (isinstance(move.pattern, S.BetzaPattern)
                            and any(atom.initial for atom in parse_betza(move.pattern.text)))


def setup_cells(game: "Game", code: int) -> set[int]:
    """The cells where the setup puts a piece of ``code`` (as the top piece or in a stack)."""
    setup = game.setup
    cells = {cell for cell, c in setup.placement.items() if c == code}
    cells.update(cell for cell, lower in setup.under.items() if code in lower)
    return cells


def _arrivals(game: "Game", own: list[bool]) -> list[set[int]]:
    """Per code (of those with an own mark, and those a committing move turns into one): the cells
    where a piece of it may stand after having moved or entered the board, over-approximated.

    A walk over (code, cell) from where the setup puts each piece and where
    one may enter (:func:`_entries`), along every target of its patterns
    (:func:`_targets`); a committing move (a pawn that narrows its facing)
    goes on as the code it becomes."""
    codes = {c for c in range(1, game.ncodes) if own[c]}
    grown = True
    while grown:   # and the codes that commit into them
        more = {piece for piece, commits in enumerate(game.commits)
                if commits and piece not in codes and codes & set(commits.values())}
        codes |= more
        grown = bool(more)
    arrived: list[set[int]] = [set() for _ in range(game.ncodes)]
    seen: set[tuple[int, int]] = set()
    for code in codes:
        entries = _entries(game, code)
        arrived[code] |= entries
        seen.update((code, cell) for cell in setup_cells(game, code) | entries)
    frontier = list(seen)
    while frontier:
        code, cell = frontier.pop()
        commits = game.commits[code] or {}
        for target in _targets(game, code, cell):
            state = (commits.get(cell * game.n + target, code), target)
            arrived[state[0]].add(target)
            if state not in seen:
                seen.add(state)
                frontier.append(state)
    return arrived


def _shuffled_kinds(game: "Game") -> set[int]:
    """The kinds whose pieces the setup's ``shuffle`` lines move about (on their cells or mirrored)."""
    cells: set[int] = set()
    for shuffle in game.spec.setup.shuffles:
        cells |= game.board.term(shuffle.cells, None)
        if shuffle.mirror is not None:
            cells |= game.board.term(shuffle.mirror, None)
    return {game.code_kind[c] for cell, c in game.setup.placement.items() if cell in cells}


def _entries(game: "Game", code: int) -> set[int]:
    """The cells where a piece of ``code`` may appear other than by a move of a piece on the board:
    promotion, a drop, gating, castling (any cell, where the way is not worth following)."""
    every = set(range(game.n))
    cells: set[int] = set()
    for tables in (*game.promotions, *game.promotions_leaving):
        if tables is not None:
            cells.update(cell for cell, targets in enumerate(tables) if code in targets)
    if any(code in targets for _, targets in game.capture_promotions.values()):
        return every
    if game.drop_cells[code] is not None:
        cells.update(game.drop_cells[code])
    for gates in game.gates:
        cells.update(cell for cell, codes in gates.items() if code in codes)
    if game.code_kind[code] in game.castling_kinds:
        return every
    return cells


def _targets(game: "Game", code: int, cell: int) -> set[int]:
    """Every cell a pattern of ``code`` reaches from ``cell`` on some board: leaps and every cell of
    every ray (slides and hops), whatever stands in the way."""
    found: set[int] = set()
    for atom in game.atoms[code]:
        found |= atom.reach(cell)
    return found


def home_rank(game: "Game", army: int) -> int | None:
    """The y coordinate of the rank behind ``army`` (its rank 1: where FEN's file letters of rights
    point, as Fairy-Stockfish's castling rank), or None for an army that faces along a rank."""
    (fx, fy), _ = frame(game.armies[army].forward, game.board)
    if fx != 0 or fy == 0:
        return None
    ys = [y for _, y in game.board.coords]
    return min(ys) if fy > 0 else max(ys)
