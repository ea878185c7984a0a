"""Castling rules, compiled: king and rook to given files, king-rook swaps, and castlock.

A ``castling`` block names the king and rook kinds and lists rules:
``O-O: king to file g, rook to file f, side e`` (the orthodox kind; the
rook may stand anywhere on the king's side, as in Chess960), a swap (king
and rook exchange their cells, optionally only with a rook ``in`` given
cells) or ``rook onto king`` (castlock, in stacking games: the rook climbs
onto the king).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import RulesSemanticError, unknown_name

from .board import file_letter

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class CastleRule:
    """A compiled castling rule for one army (see :class:`dsl.spec.CastleRule`)."""

    index: int
    name: str
    notation: str
    king_file: int | None
    rook_file: int | None
    side: int                  # +1: the rook is on higher files than the king, -1: lower, 0: either
    ignore_path: bool
    ignore_attacks: bool
    swap: bool = False         # king and rook exchange cells (Superchess)
    rook_cells: tuple[frozenset[int] | None, ...] = ()   # per army: where the rook must stand (``in``)
    # Per king cell: the castlings a king there may make, (rook cell, king's destination, rook's
    # destination, the cells that must be empty, the cells the king starts on and passes).
    paths: tuple[tuple[tuple[int, int, int, tuple[int, ...], tuple[int, ...]], ...], ...] = ()


@dataclass(frozen=True)
class Castling:
    """The castling of a game: ``rules`` (king and rook move, or swap), ``locks`` (the rook climbs
    onto the king), and the kinds of the king and the rook (-1 when the game has no castling)."""

    rules: list[CastleRule]
    locks: list[CastleRule]
    king: int
    rook: int


def compile_castling(game: Game, spec: S.VariantSpec) -> Castling:
    """The castling rules of ``game`` (whose board, armies and pieces are compiled)."""
    rules: list[CastleRule] = []
    locks: list[CastleRule] = []
    castling = spec.castling
    if castling is None:
        return Castling(rules, locks, -1, -1)
    for role in ("king", "rook"):
        name = getattr(castling, role)
        if name not in game.kind_index:
            raise unknown_name("piece", name, game.kind_index, castling.locs.get(role, castling.loc))
    letters = [file_letter(x) for x in range(game.board.files)]
    sides = {"e": 1, "w": -1, None: 0}
    for i, rule in enumerate(castling.rules):
        rook_cells = tuple(game.board.term(rule.in_cells, a.name) if rule.in_cells is not None else None
                           for a in game.armies)
        if rule.swap:
            rules.append(CastleRule(len(rules), rule.name, rule.notation, None, None,
                                                sides.get(rule.side, 0), True, rule.ignore_attacks, True,
                                                rook_cells))
            continue
        if rule.rook_onto_king:
            if spec.stacking is None:
                raise RulesSemanticError("'rook onto king' needs a stacking block", rule.loc)
            if rule.king_to_file not in letters:
                raise unknown_name("file", str(rule.king_to_file), letters, rule.loc)
            if rule.side not in sides:
                raise unknown_name("side", rule.side, ["e", "w"], rule.loc)
            locks.append(CastleRule(len(locks), rule.name, rule.notation, letters.index(rule.king_to_file),
                                                None, sides[rule.side], rule.ignore_path, rule.ignore_attacks))
            continue
        files = []
        for f in (rule.king_to_file, rule.rook_to_file):
            if f is None:
                raise RulesSemanticError(f"castling '{rule.name}' needs 'king to file' and 'rook to file'",
                                         rule.loc)
            if f not in letters:
                raise unknown_name("file", f, letters, rule.loc)
            files.append(letters.index(f))
        if rule.side not in sides:
            raise unknown_name("side", rule.side, ["e", "w"], rule.loc)
        rules.append(CastleRule(len(rules), rule.name, rule.notation, files[0], files[1],
                                            sides[rule.side], rule.ignore_path, rule.ignore_attacks, False,
                                            rook_cells, _paths(game.board, files[0], files[1], sides[rule.side],
                                                               rule.ignore_path)))
    return Castling(rules, locks, game.kind_index[castling.king], game.kind_index[castling.rook])


def king_path(board, k: int, kd: int) -> tuple[int, ...]:
    """The cells a castling king starts on and passes, going from ``k`` to ``kd`` along its rank
    (not its destination, which legality tests after the rook has moved too)."""
    (kx, y), (kdx, _) = board.coords[k], board.coords[kd]
    step = 1 if kdx >= kx else -1
    return tuple(board.at[(x, y)] for x in range(kx, kdx, step) if (x, y) in board.at) or (k,)


def _paths(board, king_file: int, rook_file: int, side: int, ignore_path: bool):
    """Per king cell, the castlings of a rule that sends the king to ``king_file`` and the rook to
    ``rook_file`` with a rook of the same rank on ``side`` (see :attr:`CastleRule.paths`). A castling
    whose cells between are not all on the board can never be made and is left out."""
    rows = []
    for k in range(len(board)):
        kx, y = board.coords[k]
        kd, rd = board.at.get((king_file, y), -1), board.at.get((rook_file, y), -1)
        found = []
        for r in range(len(board)) if kd >= 0 and rd >= 0 else ():
            rx, ry = board.coords[r]
            if ry != y or rx == kx or (side and (rx - kx) * side < 0):
                continue
            xs = range(min(kx, rx, king_file, rook_file), max(kx, rx, king_file, rook_file) + 1)
            cells = [board.at.get((x, y), -1) for x in xs]
            if -1 in cells and not ignore_path:
                continue
            between = () if ignore_path else tuple(c for c in cells if c not in (k, r))
            found.append((r, kd, rd, between, king_path(board, k, kd)))
        rows.append(tuple(found))
    return tuple(rows)
