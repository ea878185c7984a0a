"""Stacks of pieces: the ``stacking`` block of a rules file, compiled and run.

A cell holds a stack: ``Position.board[cell]`` is its top piece (the one
that moves) and ``Position.under[cell]`` the piece below it, or 0 (stacks of
two, the height the interpreter runs). A piece standing alone moves at the
*ground* level, the top of a stack at the *upper* level; the piece below is
locked: it neither moves nor attacks.

Every move of a stacking game is one of the *interactions* the rules file
lists (:class:`Interaction`), found by walking the mover's patterns with the
blocking rule of its level. A move is the usual tuple with the special
``("st", outcome, passed)`` (``passed``: cells a double step passed, for
en passant), ``("sep", victim)`` (an upper-level en passant: the piece that
just passed is put back under the mover) or ``("castlock", rook_from,
rule)`` (castling in which the rook climbs onto the king). All of them are
made by writing new contents into a few cells (:func:`effects`), which the
position snapshots and restores.

Check: a royal piece is attacked when an enemy piece that is not locked
has a move whose outcome removes it (GAMES.md §1.7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import RulesSemanticError, UnsupportedError, unknown_name

if TYPE_CHECKING:
    from interpreter.compiler.game import Game
    from .position import Position

# What an outcome removes from the target cell: nothing, the top piece, the
# piece below, or both.
REMOVES = {"move": (), "descend": (), "climb": (), "land": (), "capture": ("top",),
           "capture-top": ("top",), "capture-bottom": ("under",), "capture-both": ("top", "under")}
CAPTURES = {outcome for outcome, removed in REMOVES.items() if removed}


@dataclass(frozen=True)
class Interaction:
    """One compiled ``on LEVEL TARGET: OUTCOME`` line."""

    level: str                      # "ground" | "upper"
    target: str                     # "empty" | "single" | "stack"
    top: str | None                 # side of the (top) target piece: own | enemy | any
    bottom: str | None
    outcome: str
    using: frozenset[str]           # "move" and/or "capture"
    only: frozenset[int] | None     # piece kinds, None: every piece
    below: str | None               # condition below == "own"/"enemy": the side under the mover


@dataclass
class Stacking:
    """The compiled stacking rules of a game."""

    height: int
    upper_blocked_by: frozenset[str]
    interactions: list[Interaction]
    reach: list[list[frozenset[int]]]   # per code, per cell: every cell its patterns could reach


def _below_condition(expr, loc) -> str:
    if (isinstance(expr, S.Compare) and expr.op == "==" and isinstance(expr.left, S.Ref)
            and expr.left.path == ["below"] and isinstance(expr.right, S.Str) and expr.right.value in ("own", "enemy")):
        return expr.right.value
    raise UnsupportedError("an interaction's condition must be below == \"own\" or below == \"enemy\" for now", loc)


def compile_stacking(game: "Game", spec: S.StackingSpec) -> Stacking:
    """Check and compile a stacking block for ``game``."""
    if spec.height != 2:
        raise UnsupportedError(f"stacks of height {spec.height} are not run by the interpreter yet (only 2)",
                               spec.loc)
    interactions = []
    for inter in spec.interactions:
        only = None
        if inter.only:
            for name in inter.only:
                if name not in game.kind_index:
                    raise unknown_name("piece", name, game.kind_index, inter.loc)
            only = frozenset(game.kind_index[name] for name in inter.only)
        using = frozenset(inter.using) or frozenset({"move"} if inter.target == "empty" else {"capture"})
        if inter.outcome not in REMOVES:
            raise RulesSemanticError(f"unknown outcome '{inter.outcome}'", inter.loc)
        fits = {"empty": {"descend", "move"}, "single": {"capture", "climb", "land"},
                "stack": {"capture-top", "capture-bottom", "capture-both", "land", "climb"}}
        if inter.outcome not in fits[inter.target]:
            raise RulesSemanticError(f"outcome '{inter.outcome}' does not fit a target '{inter.target}'", inter.loc,
                                     expected=", ".join(sorted(fits[inter.target])))
        if inter.target == "stack" and inter.outcome in ("climb", "land"):
            raise RulesSemanticError("nothing may climb or land on a full stack (height 2)", inter.loc)
        below = _below_condition(inter.condition, inter.loc) if inter.condition is not None else None
        interactions.append(Interaction(inter.level, inter.target, inter.top, inter.bottom, inter.outcome,
                                        using, only, below))
    reach = [[frozenset()] * game.n for _ in range(game.ncodes)]
    for code in range(1, game.ncodes):
        for atom in game.atoms[code]:
            if atom.kind == "hop":
                raise UnsupportedError("hoppers are not run with stacking yet", spec.loc)
        reach[code] = [frozenset(to for atom in game.atoms[code] for to in _targets(atom, cell))
                       for cell in range(game.n)]
    blocked = frozenset(spec.upper_blocked_by) if spec.upper_blocked_by else frozenset({"stacks", "singles"})
    return Stacking(spec.height, blocked, interactions, reach)


def _targets(atom, cell: int) -> list[int]:
    if atom.kind == "leap":
        return [to for to, _ in atom.leaps[cell]]
    return [to for ray in atom.rays[cell] for to in ray]


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


def castlock_moves(pos: "Position", army: int, out: list) -> None:
    """Castling rules whose rook climbs onto the king (``rook onto king``)."""
    game = pos.game
    board, under = pos.board, pos.under
    king_code = game.code(game.castle_king, army)
    rook_code = game.code(game.castle_rook, army)
    for rule in game.castle_locks:
        for k in pos.cells_of[army]:
            if board[k] != king_code or under[k] or not (pos.unmoved >> k) & 1:
                continue
            kx, ky = game.board.coords[k]
            kd = game.board.at.get((rule.king_file, ky), -1)
            if kd < 0:
                continue
            for r in pos.cells_of[army]:
                rx, ry = game.board.coords[r]
                if (board[r] != rook_code or under[r] or not (pos.unmoved >> r) & 1 or ry != ky
                        or (rule.side and (rx - kx) * rule.side <= 0)):
                    continue
                if not pos._castle_path_clear(k, r, kd, kd):
                    continue
                if pos._castle_path_attacked(k, kd, army):
                    continue
                out.append((k, kd, 0, ("castlock", r, rule.index)))


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


def royal_attacked(pos: "Position", army: int) -> bool:
    """Could an enemy piece that is not locked remove a royal piece of ``army``?"""
    game = pos.game
    royals = set(pos.royal_cells(army))
    if not royals:
        return False
    reach = game.stacking.reach
    board = pos.board
    for enemy in game.enemies[army]:
        for src in list(pos.cells_of[enemy]):
            near = reach[board[src]][src]
            for k in royals:
                if k in near:
                    break
            else:
                continue
            out: list = []
            piece_moves(pos, src, out)
            for m in out:
                if m[1] in royals and removes_royal(pos, m, royals):
                    return True
    return False


def cell_attacked(pos: "Position", cell: int, by: int) -> bool:
    """Could army ``by`` capture a lone enemy piece standing on ``cell`` (castling's path test)?"""
    game = pos.game
    board = pos.board
    occupant = board[cell]
    if not occupant:
        board[cell] = game.stand_in[by]
    try:
        reach = game.stacking.reach
        for src in list(pos.cells_of[by]):
            if src == cell or cell not in reach[board[src]][src]:
                continue
            out: list = []
            piece_moves(pos, src, out)
            if any(m[1] == cell and m[3][0] == "st" and m[3][1] in CAPTURES for m in out):
                return True
        return False
    finally:
        board[cell] = occupant


def without_self_check(pos: "Position", moves: list, royals: list[int]) -> list:
    """The moves that leave no royal piece of the mover removable.

    A move is tried by make and unmake unless the mover is not in check and
    the move touches no cell on a line from a royal piece out to an enemy
    piece whose patterns reach the royal piece,
    moves no royal piece and frees no enemy piece it was locking: elsewhere,
    adding, removing or restacking pieces changes no line of attack on it,
    and no enemy piece moves.
    """
    game = pos.game
    army = pos.army
    sensitive: set[int] = set()
    reach = game.stacking.reach
    board = pos.board
    hostile = game.hostile[army]
    for k in royals:
        sensitive.add(k)
        for table in game.board.steps.values():
            ray, at = [], table[k]
            while at >= 0 and at != k:
                ray.append(at)
                if hostile[board[at]] and k in reach[board[at]][at]:
                    sensitive.update(ray)  # up to the farthest enemy piece that could reach the king
                at = table[at]
    if royal_attacked(pos, army):
        return [m for m in moves if pos._safe_after(m, army)]
    board, under, is_royal, hostile = pos.board, pos.under, game.is_royal, game.hostile[army]
    legal = []
    for m in moves:
        frm, to, _, special = m
        if (frm in sensitive or to in sensitive or is_royal[board[frm]] or hostile[under[frm]]
                or (special is not None and special[0] in ("sep", "ep", "castlock", "castle"))):
            if pos._safe_after(m, army):
                legal.append(m)
        else:
            legal.append(m)
    return legal
