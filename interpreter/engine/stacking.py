"""Stacks of pieces at play: the moves, effects and attacks of a stacking game.

A cell holds a stack: ``Position.board[cell]`` is its top piece (the one
that moves), ``Position.under[cell]`` the piece below it, or 0, and, in a
game whose stacks may be higher than two, ``Position.deep[cell]`` the pieces
below that one, bottom first (``Position.deep`` is None in games of stacks
of two, so that they pay nothing for taller ones). A piece standing alone
moves at the *ground* level, the top of a stack at the *upper* level; the
pieces below are locked: they neither move nor attack.

Every move of a stacking game is one of the *interactions* the rules file
lists (:class:`~interpreter.compiler.stacking.Interaction`), found by walking
the mover's patterns with the blocking rule of its level. A move is the
usual tuple with the special ``("st", outcome, passed)`` (``passed``: cells
a double step passed, for en passant), ``("sep", victim)`` (an upper-level
en passant: the piece that just passed is put back under the mover) or
``("castlock", rook_from, rule)`` (castling in which the rook climbs onto
the king). All of them are made by writing new contents into a few cells
(:func:`effects`: ``(cell, top, under)``, with the deeper pieces as a fourth
item in games of taller stacks), which the position snapshots and restores.

Check (:mod:`interpreter.engine.attacks`): a royal piece is attacked when an
enemy piece that is not locked has a move whose outcome removes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.compiler.native_game import NativeGame
from interpreter.compiler.stacking import MODALITIES, REMOVES, target_index

if TYPE_CHECKING:
    from interpreter.compiler.game import Game
    from interpreter.compiler.stacking import Stacking
    from .position import Position


# The outcomes that, for a piece standing alone, are an ordinary move (to an empty cell, or taking
# a lone piece): Position.push makes them in place, as the moves of games without stacks.
STEP_OUTCOMES = frozenset({"move", "capture"})

# The special of a move with each outcome (that passed no cell a double step gives en passant on),
# made once; and the promotion choices of a move that does not promote.
PLAIN = {outcome: ("st", outcome, None) for outcome in REMOVES}
NO_PROMOTION = (0,)


def rules_of(game: NativeGame) -> "Stacking":
    """The game's compiled stacking block. Every function of this module (and the stacking branches of
    the attack and legality tests) runs only in a game that has one: its absence here is a bug."""
    st = game.stacking
    assert st is not None, "a stacking function called in a game without stacking"
    return st


# ---------------------------------------------------------------- move generation


def piece_moves(pos: "Position", src: int, out: list, only: set[int] | frozenset[int] | None = None) -> None:
    """The stacking moves of the piece on top of ``src`` (with ``only``: those to one of these cells).

    Each cell an atom reaches is met as one of the targets of
    :func:`~interpreter.compiler.stacking.targets`; the compiled table of the
    mover's kind and situation gives the outcomes a move there may have.
    Equal moves found by two atoms are listed once.
    """
    game: NativeGame = pos.game
    st = rules_of(game)
    board, under, deep = pos.board, pos.under, pos.deep
    code = board[src]
    hostile = game.hostile[game.code_army[code]]
    low = under[src]
    upper = bool(low)
    level = "upper" if upper else "ground"
    situation = (("upper", "enemy" if hostile[low] else "own", 2 if deep is None else 2 + len(deep[src]))
                 if upper else ("ground", None, 1))
    table = st.outcomes[game.code_kind[code]][situation]
    promotions = game.promotions[code]
    blocked = st.upper_blocked_by
    block_empty, block_singles, block_stacks = "empty" in blocked, "singles" in blocked, "stacks" in blocked
    # Every cell an atom reaches, in order: (to, outcomes, cells passed), or (to, None, modality) for
    # an en passant capture there.
    reached: list[tuple] = []
    for atom_level, unmoved, leaps, rays, to_cells, modality, sets_ep, takes_ep in st.atoms[code]:
        if (atom_level is not None and atom_level != level) or (unmoved and not (pos.unmoved >> src) & 1):
            continue
        atom_outcomes = table[modality]  # not "outcomes" (None below): compiled, a name has one type
        ep = takes_ep and pos.ep_cells
        if leaps is not None:
            for to, between in leaps[src]:
                if only is not None and to not in only:
                    continue
                if between and any(_blocks(board, under, c, upper, block_empty, block_singles, block_stacks)
                                   for c in between):
                    continue
                reached.append((to, atom_outcomes, between if sets_ep else ()))
                if ep and to in pos.ep_cells:
                    reached.append((to, None, modality))
            continue
        assert rays is not None     # an atom has its leaps or its rays
        for ray in rays[src]:
            if only is not None and only.isdisjoint(ray):
                continue
            for i, to in enumerate(ray):
                if (to_cells is None or to in to_cells) and (only is None or to in only):
                    reached.append((to, atom_outcomes, tuple(ray[:i]) if sets_ep else ()))
                    if ep and to in pos.ep_cells:
                        reached.append((to, None, modality))
                if (board[to] if not upper else
                        _blocks(board, under, to, upper, block_empty, block_singles, block_stacks)):
                    break
    # Equal moves are possible only where the piece reaches a cell twice (see Stacking.repeats): they
    # are gathered apart and the first of each kept.
    repeats = st.repeats[code]
    dest = [] if repeats else out
    for entry in reached:
        to = entry[0]      # an int (typed where the atoms give it): native once compiled
        outcomes, passed = entry[1], entry[2]
        if outcomes is None:
            _en_passant(pos, src, to, passed, hostile, upper, dest)
            continue
        top = board[to]
        if not top:
            target = 0
        elif not under[to]:
            target = 1 if hostile[top] else 2
        elif deep is None or not deep[to]:
            target = (3 if hostile[top] else 5) + (0 if hostile[under[to]] else 1)
        else:
            target = target_index([not hostile[c] for c in (*deep[to], under[to], top)])
        named = outcomes[target]
        if not named:
            continue
        choices = NO_PROMOTION if promotions is None else (promotions[to] or NO_PROMOTION)
        for outcome in named:
            special = ("st", outcome, passed) if passed and outcome == "move" else PLAIN[outcome]
            for promo in choices:
                dest.append((src, to, promo, special))
    if repeats:
        out.extend(dict.fromkeys(dest))


def _blocks(board: list[int], under: list[int], cell: int, upper: bool, empty: bool, singles: bool,
            stacks: bool) -> bool:
    """Does ``cell`` stop a piece passing over it? Any piece stops one at the ground level; a piece at the
    upper level is stopped by what the ``upper blocked by`` rule names (empty cells, singles, stacks)."""
    if not upper:
        return bool(board[cell])
    if not board[cell]:
        return empty
    return stacks if under[cell] else singles


def _en_passant(pos: "Position", src: int, to: int, modality: int, hostile: list[bool], upper: bool,
                out: list) -> None:
    """An en passant capture onto the empty cell ``to`` (``ep`` at the ground level, by an atom that
    captures; ``sep`` above), added to ``out``."""
    victim = pos.ep_victim
    if pos.board[to] or not hostile[pos.board[victim]] or pos.under[victim]:
        return
    if not upper and MODALITIES[modality][1]:
        out.append((src, to, 0, ("ep", victim)))
    elif upper:
        out.append((src, to, 0, ("sep", victim)))


# ---------------------------------------------------------------- making moves


def effects(pos: "Position", move) -> tuple[list[tuple], list[int]]:
    """The new (cell, top, under) contents a stacking move writes, and the codes it captures."""
    if pos.deep is not None:
        return _tall_effects(pos, move)
    frm, to, promo, special = move
    board, under = pos.board, pos.under
    tag = special[0]
    mover = board[frm]
    new = promo or mover
    left = (frm, under[frm], 0)  # the cell the mover leaves: its lower piece is freed
    if tag == "castlock":
        rook_from = special[1]
        return [(frm, 0, 0), (rook_from, 0, 0), (to, pos.board[rook_from], mover)], []
    if tag == "sep":
        victim = special[1]
        return [left, (victim, 0, 0), (to, new, board[victim])], []
    outcome = special[1]
    top, low = board[to], under[to]
    if outcome in ("move", "descend"):
        cell = (to, new, 0)
        captured: list[int] = []
    elif outcome in ("climb", "land"):
        cell, captured = (to, new, top), []
    elif outcome == "capture":
        cell, captured = (to, new, 0), [top]
    elif outcome == "capture-top":
        cell, captured = (to, new, low), [top]
    elif outcome == "capture-bottom":
        cell, captured = (to, top, new), [low]
    else:  # capture-both, capture-all
        cell, captured = (to, new, 0), [top, low]
    return [left, cell], captured


def path_to(game: "Game", code: int, src: int, target: int) -> set[int]:
    """The cells a piece ``code`` on ``src`` passes on its way to ``target`` by any of its atoms (the
    cells between of a leap, the cells of a ray before ``target``): what may block that move."""
    cells: set[int] = set()
    for atom in rules_of(game).atoms[code]:
        leaps, rays = atom[2], atom[3]
        if leaps is not None:
            for to, between in leaps[src]:
                if to == target:
                    cells.update(between)
        elif rays is not None:
            for ray in rays[src]:
                if target in ray:
                    cells.update(ray[:ray.index(target)])
    return cells


def _tall_effects(pos: "Position", move) -> tuple[list[tuple], list[int]]:
    """:func:`effects` in a game of stacks higher than two: the new (cell, top, under, deeper pieces)
    contents, and the codes captured. The cells are rebuilt from their lists of pieces, bottom first."""
    frm, to, promo, special = move
    tag = special[0]
    mover = pos.board[frm]
    new = promo or mover
    left = without_top(pos, frm)
    if tag == "castlock":
        rook_from = special[1]
        return [(frm, 0, 0, ()), (rook_from, 0, 0, ()), _contents(to, (mover, pos.board[rook_from]))], []
    if tag == "sep":
        victim = special[1]
        return [left, (victim, 0, 0, ()), _contents(to, (pos.board[victim], new))], []
    outcome = special[1]
    pieces = (*lower_pieces(pos, to), pos.board[to]) if pos.board[to] else ()
    after: tuple[int, ...]   # (declared: compiled, a name keeps the type of its first value)
    captured: list[int]
    if outcome in ("move", "descend"):
        after, captured = (new,), []
    elif outcome in ("climb", "land"):
        after, captured = (*pieces, new), []
    elif outcome == "capture":
        after, captured = (new,), [pieces[-1]]
    elif outcome == "capture-top":
        after, captured = (*pieces[:-1], new), [pieces[-1]]
    elif outcome == "capture-bottom":
        after, captured = (new, *pieces[1:]), [pieces[0]]
    else:  # capture-both (a stack of two), capture-all
        after, captured = (new,), list(reversed(pieces))
    return [left, _contents(to, after)], captured


def _contents(cell: int, pieces: tuple[int, ...]) -> tuple[int, int, int, tuple[int, ...]]:
    """The (cell, top, under, deeper pieces) write that puts ``pieces`` (bottom first) on ``cell``."""
    if len(pieces) < 2:
        return (cell, pieces[0] if pieces else 0, 0, ())
    return (cell, pieces[-1], pieces[-2], pieces[:-2])


def lower_pieces(pos: "Position", cell: int) -> tuple[int, ...]:
    """The locked pieces under the top of ``cell``, bottom first (``()``: a lone piece or an empty cell)."""
    low = pos.under[cell]
    if not low:
        return ()
    return (*pos.deep[cell], low) if pos.deep is not None else (low,)


def locked_pieces(pos: "Position") -> list[tuple[int, int]]:
    """(cell, code) of every locked piece: those under the top of a stack, at any depth."""
    return [(cell, code) for cell in pos.stacked for code in lower_pieces(pos, cell)]


def without_top(pos: "Position", cell: int) -> tuple:
    """The write that takes the top piece off ``cell``: the piece below it, if any, is the new top (and
    is freed)."""
    if pos.deep is None:
        return (cell, pos.under[cell], 0)
    return _contents(cell, lower_pieces(pos, cell))


def removes_royal(pos: "Position", move, royals: set[int]) -> bool:
    """Does ``move`` remove a piece standing on one of the cells ``royals`` that is royal?"""
    frm, to, promo, special = move
    if to not in royals or special[0] != "st":
        return False
    g: NativeGame = pos.game
    is_royal = g.is_royal
    removed = REMOVES[special[1]]
    if "top" in removed and is_royal[pos.board[to]]:
        return True
    if "bottom" in removed:
        return is_royal[pos.under[to] if pos.deep is None or not pos.deep[to] else pos.deep[to][0]]
    return "all" in removed and any(is_royal[code] for code in (*lower_pieces(pos, to), pos.board[to]))
