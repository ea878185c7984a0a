"""Castling rules, compiled: king and rook to given files, king-rook swaps, and castlock.

A ``castling`` block names the king and rook kinds and lists rules:
``O-O: king to file g, rook to file f, side e`` (the orthodox kind; the
rook may stand anywhere on the king's side, as in Chess960), the same along
the king's file (``king to rank 4, rook to rank 5, side n``: the side armies
of four-player chess), a swap (king
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
    king_to: int | None        # where the king and the rook go: a file (axis 0) or rank (axis 1) index
    rook_to: int | None
    side: int                  # +1: the rook is on higher files (ranks) than the king, -1: lower, 0: either
    ignore_path: bool
    ignore_attacks: bool
    swap: bool = False         # king and rook exchange cells (Superchess)
    rook_cells: tuple[frozenset[int] | None, ...] = ()   # per army: where the rook must stand (``in``)
    # Per king cell: the castlings a king there may make, (rook cell, king's destination, rook's
    # destination, the cells that must be empty, the cells the king starts on and passes).
    paths: tuple[tuple[tuple[int, int, int, tuple[int, ...], tuple[int, ...]], ...], ...] = ()
    axis: int = 0              # 0: along the king's rank (files change), 1: along its file (ranks change)


@dataclass(frozen=True)
class Castling:
    """The castling of a game: ``rules`` (king and rook move, or swap), ``locks`` (the rook climbs
    onto the king), the kind of the king (-1 when the game has no castling) and the kinds a king may
    castle with, its "rooks" (none without castling)."""

    rules: list[CastleRule]
    locks: list[CastleRule]
    king: int
    rooks: tuple[int, ...]


def compile_castling(game: Game, spec: S.VariantSpec) -> Castling:
    """The castling rules of ``game`` (whose board, armies and pieces are compiled)."""
    rules: list[CastleRule] = []
    locks: list[CastleRule] = []
    castling = spec.castling
    if castling is None:
        return Castling(rules, locks, -1, ())
    for role, name in [("king", castling.king)] + [(f"rooks.{i}", rook) for i, rook in enumerate(castling.rooks)]:
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
            king_to = letters.index(rule.king_to_file)
            # The rook ends on the king's destination; its way is always tested, as the king's is.
            locks.append(CastleRule(len(locks), rule.name, rule.notation, king_to, None, sides[rule.side],
                                    rule.ignore_path, rule.ignore_attacks, False, (),
                                    _paths(game.board, king_to, king_to, sides[rule.side], False)))
            continue
        if rule.king_to_rank is not None or rule.rook_to_rank is not None:
            rules.append(_along_file(game, rule, len(rules), rook_cells))
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
    return Castling(rules, locks, game.kind_index[castling.king],
                    tuple(dict.fromkeys(game.kind_index[rook] for rook in castling.rooks)))


def partner_mask(rule: CastleRule, army: int, king: int, n: int) -> int:
    """The cells (a bit mask of a board of ``n`` cells) where a rook of ``army`` may stand to castle by
    ``rule`` with a king on ``king``, whatever stands between them: the rook cells of the rule's paths
    from there, or for a swap any cell; within the rule's ``in`` cells, if it has them."""
    allowed = rule.rook_cells[army] if rule.rook_cells else None
    if rule.swap:
        return sum(1 << r for r in allowed) if allowed is not None else (1 << n) - 1
    return sum(1 << path[0] for path in rule.paths[king] if allowed is None or path[0] in allowed)


def _along_file(game: Game, rule: S.CastleRule, index: int, rook_cells: tuple) -> CastleRule:
    """A castling rule along the king's file: ``king to rank R, rook to rank S[, side n|s]``."""
    if rule.king_to_file is not None or rule.rook_to_file is not None:
        raise RulesSemanticError(f"castling '{rule.name}' moves along a rank or along a file, not both", rule.loc,
                                 expected="'king to file' and 'rook to file', or 'king to rank' and 'rook to rank'")
    ranks = []
    for r in (rule.king_to_rank, rule.rook_to_rank):
        if r is None:
            raise RulesSemanticError(f"castling '{rule.name}' needs 'king to rank' and 'rook to rank'", rule.loc)
        if not 1 <= r <= game.board.ranks:
            raise RulesSemanticError(f"castling '{rule.name}': no rank {r}", rule.loc,
                                     expected=f"a rank from 1 to {game.board.ranks}")
        ranks.append(r - 1)
    sides = {"n": 1, "s": -1, None: 0}
    if rule.side not in sides:
        raise unknown_name("side along a file", rule.side, ["n", "s"], rule.loc)
    return CastleRule(index, rule.name, rule.notation, ranks[0], ranks[1], sides[rule.side], rule.ignore_path,
                      rule.ignore_attacks, False, rook_cells,
                      _paths(game.board, ranks[0], ranks[1], sides[rule.side], rule.ignore_path, axis=1), axis=1)


def _point(axis: int, along: int, across: int) -> tuple[int, int]:
    """The coordinates of the cell ``along`` a castling line (a rank for axis 0, a file for axis 1)
    that lies at ``across``."""
    return (along, across) if axis == 0 else (across, along)


def king_path(board, k: int, kd: int, axis: int = 0) -> tuple[int, ...]:
    """The cells a castling king starts on and passes, going from ``k`` to ``kd`` along its rank (its
    file for axis 1), not its destination, which legality tests after the rook has moved too."""
    start, end, across = board.coords[k][axis], board.coords[kd][axis], board.coords[k][1 - axis]
    step = 1 if end >= start else -1
    points = (_point(axis, a, across) for a in range(start, end, step))
    return tuple(board.at[p] for p in points if p in board.at) or (k,)


def _paths(board, king_to: int, rook_to: int, side: int, ignore_path: bool, axis: int = 0):
    """Per king cell, the castlings of a rule that sends the king to ``king_to`` and the rook to
    ``rook_to`` (files, or ranks for axis 1) with a rook of the same line on ``side`` (see
    :attr:`CastleRule.paths`). A castling whose cells between are not all on the board can never be
    made and is left out."""
    rows = []
    for k in range(len(board)):
        along, across = board.coords[k][axis], board.coords[k][1 - axis]
        kd, rd = board.at.get(_point(axis, king_to, across), -1), board.at.get(_point(axis, rook_to, across), -1)
        found = []
        for r in range(len(board)) if kd >= 0 and rd >= 0 else ():
            r_along, r_across = board.coords[r][axis], board.coords[r][1 - axis]
            if r_across != across or r_along == along or (side and (r_along - along) * side < 0):
                continue
            line = range(min(along, r_along, king_to, rook_to), max(along, r_along, king_to, rook_to) + 1)
            cells = [board.at.get(_point(axis, a, across), -1) for a in line]
            if -1 in cells and not ignore_path:
                continue
            between = () if ignore_path else tuple(c for c in cells if c not in (k, r))
            found.append((r, kd, rd, between, king_path(board, k, kd, axis)))
        rows.append(tuple(found))
    return tuple(rows)
