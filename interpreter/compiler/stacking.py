"""The ``stacking`` block of a rules file, compiled: interactions, the blocking rule, reach tables.

Which moves may end on a piece and with what result is a list of
*interactions* (``on ground single enemy: capture``, ``on upper stack own:
land``): each names the mover's level (``ground``: standing alone,
``upper``: on top of a stack), the target (an empty cell, a single piece or
a stack) with the sides of its pieces, and the outcome (move, descend,
climb, land, or a capture of the top, the bottom or both). Running them is
the job of :mod:`interpreter.engine.stacking`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import RulesSemanticError, UnsupportedError, unknown_name

if TYPE_CHECKING:
    from .game import Game

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
