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

from interpreter.compiler.stacking import REMOVES

if TYPE_CHECKING:
    from interpreter.compiler.game import Game
    from .position import Position


# ---------------------------------------------------------------- move generation


def _side(game: "Game", army: int, code: int) -> str:
    return "own" if code and not game.hostile[army][code] else "enemy"


def _fits(side: str | None, actual: str) -> bool:
    return side == "any" or side == actual


def piece_moves(pos: "Position", src: int, out: list) -> None:
    """The stacking moves of the piece on top of ``src``."""
    game = pos.game
    st = game.stacking
    board, under = pos.board, pos.under
    code = board[src]
    army = game.code_army[code]
    kind = game.code_kind[code]
    level = "upper" if under[src] else "ground"
    below = _side(game, army, under[src]) if under[src] else None
    promotions = game.promotions[code]
    rules = [i for i in st.interactions if i.level == level and (i.only is None or kind in i.only)
             and (i.below is None or i.below == below)]
    blocked = st.upper_blocked_by
    found: dict[tuple, None] = {}

    def config(cell: int) -> tuple[str, str | None, str | None]:
        top = board[cell]
        if not top:
            return "empty", None, None
        if not under[cell]:
            return "single", _side(game, army, top), None
        return "stack", _side(game, army, top), _side(game, army, under[cell])

    def blocks(cell: int) -> bool:
        if level == "ground":
            return bool(board[cell])
        if not board[cell]:
            return "empty" in blocked
        return ("stacks" if under[cell] else "singles") in blocked

    def emit(to: int, atom, passed: tuple[int, ...]) -> None:
        target, top, bottom = config(to)
        outcomes = []
        if target == "empty" and level == "ground" and atom.quiet:
            outcomes.append("move")
        for rule in rules:
            if rule.target != target or not (("move" in rule.using and atom.quiet) or
                                              ("capture" in rule.using and atom.capture)):
                continue
            if target == "single" and not _fits(rule.top, top):
                continue
            if target == "stack" and not (_fits(rule.bottom, bottom) and _fits(rule.top, top)):
                continue
            outcomes.append(rule.outcome)
        for outcome in outcomes:
            special = ("st", outcome, passed if outcome == "move" and atom.sets_en_passant and passed else None)
            choices = (promotions[to] if promotions is not None else ()) or (0,)
            for promo in choices:
                found[(src, to, promo, special)] = None
        if atom.en_passant and target == "empty" and pos.ep_cells and to in pos.ep_cells:
            victim = pos.ep_victim
            if game.hostile[army][board[victim]] and not under[victim]:
                if level == "ground" and atom.capture:
                    found[(src, to, 0, ("ep", victim))] = None
                elif level == "upper":
                    found[(src, to, 0, ("sep", victim))] = None

    for atom in game.atoms[code]:
        if atom.level is not None and atom.level != level:
            continue
        if atom.unmoved and not (pos.unmoved >> src) & 1:
            continue
        if atom.from_cells is not None and src not in atom.from_cells:
            continue
        if atom.kind == "leap":
            for to, between in atom.leaps[src]:
                if atom.to_cells is not None and to not in atom.to_cells:
                    continue
                if between and any(blocks(c) for c in between):
                    continue
                emit(to, atom, between)
        else:
            for ray in atom.rays[src]:
                passed: list[int] = []
                for to in ray:
                    if atom.to_cells is None or to in atom.to_cells:
                        emit(to, atom, tuple(passed))
                    if blocks(to):
                        break
                    passed.append(to)
    out.extend(found)


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
