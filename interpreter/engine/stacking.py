"""Stacks of pieces at play: the moves, effects and attacks of a stacking game.

A cell holds a stack: ``Position.board[cell]`` is its top piece (the one
that moves) and ``Position.under[cell]`` the piece below it, or 0 (stacks of
two, the height the interpreter runs). A piece standing alone moves at the
*ground* level, the top of a stack at the *upper* level; the piece below is
locked: it neither moves nor attacks.

Every move of a stacking game is one of the *interactions* the rules file
lists (:class:`~interpreter.compiler.stacking.Interaction`), found by walking
the mover's patterns with the blocking rule of its level. A move is the
usual tuple with the special ``("st", outcome, passed)`` (``passed``: cells
a double step passed, for en passant), ``("sep", victim)`` (an upper-level
en passant: the piece that just passed is put back under the mover) or
``("castlock", rook_from, rule)`` (castling in which the rook climbs onto
the king). All of them are made by writing new contents into a few cells
(:func:`effects`), which the position snapshots and restores.

Check (:mod:`interpreter.engine.attacks`): a royal piece is attacked when an
enemy piece that is not locked has a move whose outcome removes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.compiler.stacking import MODALITIES, REMOVES

if TYPE_CHECKING:
    from interpreter.compiler.game import Game
    from .position import Position


# ---------------------------------------------------------------- move generation


def piece_moves(pos: "Position", src: int, out: list) -> None:
    """The stacking moves of the piece on top of ``src``.

    Each cell an atom reaches is met as one of the targets of
    :data:`~interpreter.compiler.stacking.TARGETS`; the compiled table of the
    mover's kind and situation gives the outcomes a move there may have.
    Equal moves found by two atoms are listed once.
    """
    game = pos.game
    st = game.stacking
    board, under = pos.board, pos.under
    code = board[src]
    army = game.code_army[code]
    hostile = game.hostile[army]
    low = under[src]
    upper = bool(low)
    table = st.outcomes[game.code_kind[code]][("upper", "enemy" if hostile[low] else "own") if upper else ("ground", None)]
    promotions = game.promotions[code]
    blocked = st.upper_blocked_by
    block_empty, block_singles, block_stacks = "empty" in blocked, "singles" in blocked, "stacks" in blocked
    found: dict[tuple, None] = {}

    def emit(to: int, outcomes: tuple, sets_ep: bool, passed: tuple[int, ...]) -> None:
        top = board[to]
        if not top:
            target = 0
        elif not under[to]:
            target = 1 if hostile[top] else 2
        else:
            target = (3 if hostile[top] else 5) + (0 if hostile[under[to]] else 1)
        choices = (promotions[to] if promotions is not None else ()) or (0,)
        for outcome in outcomes[target]:
            special = ("st", outcome, passed if outcome == "move" and sets_ep and passed else None)
            for promo in choices:
                found[(src, to, promo, special)] = None

    for atom in game.atoms[code]:
        if atom.level is not None and (atom.level == "upper") != upper:
            continue
        if atom.unmoved and not (pos.unmoved >> src) & 1:
            continue
        if atom.from_cells is not None and src not in atom.from_cells:
            continue
        outcomes = table[MODALITIES.index((atom.quiet, atom.capture))]
        sets_ep, to_cells = atom.sets_en_passant, atom.to_cells
        ep = atom.en_passant and pos.ep_cells
        if atom.kind == "leap":
            for to, between in atom.leaps[src]:
                if to_cells is not None and to not in to_cells:
                    continue
                if between and any(_blocks(board, under, c, upper, block_empty, block_singles, block_stacks)
                                   for c in between):
                    continue
                emit(to, outcomes, sets_ep, between)
                if ep and to in pos.ep_cells:
                    _en_passant(pos, src, to, atom, hostile, upper, found)
        else:
            for ray in atom.rays[src]:
                passed: list[int] = []
                for to in ray:
                    if to_cells is None or to in to_cells:
                        emit(to, outcomes, sets_ep, tuple(passed))
                        if ep and to in pos.ep_cells:
                            _en_passant(pos, src, to, atom, hostile, upper, found)
                    if _blocks(board, under, to, upper, block_empty, block_singles, block_stacks):
                        break
                    passed.append(to)
    out.extend(found)


def _blocks(board: list[int], under: list[int], cell: int, upper: bool, empty: bool, singles: bool,
            stacks: bool) -> bool:
    """Does ``cell`` stop a piece passing over it? Any piece stops one at the ground level; a piece at the
    upper level is stopped by what the ``upper blocked by`` rule names (empty cells, singles, stacks)."""
    if not upper:
        return bool(board[cell])
    if not board[cell]:
        return empty
    return stacks if under[cell] else singles


def _en_passant(pos: "Position", src: int, to: int, atom, hostile: list[bool], upper: bool, found: dict) -> None:
    """An en passant capture onto the empty cell ``to`` (``ep`` at the ground level, ``sep`` above)."""
    victim = pos.ep_victim
    if pos.board[to] or not hostile[pos.board[victim]] or pos.under[victim]:
        return
    if not upper and atom.capture:
        found[(src, to, 0, ("ep", victim))] = None
    elif upper:
        found[(src, to, 0, ("sep", victim))] = None


# ---------------------------------------------------------------- making moves


def effects(pos: "Position", move) -> tuple[list[tuple[int, int, int]], list[int]]:
    """The new (cell, top, under) contents a stacking move writes, and the codes it captures."""
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
    else:  # capture-both
        cell, captured = (to, new, 0), [top, low]
    return [left, cell], captured


def removes_royal(pos: "Position", move, royals: set[int]) -> bool:
    """Does ``move`` remove a piece standing on one of the cells ``royals`` that is royal?"""
    frm, to, promo, special = move
    if to not in royals or special[0] != "st":
        return False
    is_royal = pos.game.is_royal
    removed = REMOVES[special[1]]
    return ("top" in removed and is_royal[pos.board[to]]) or ("under" in removed and is_royal[pos.under[to]])
