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
    # Per piece kind and situation of the mover ((level, side below it)): per modality of the atom
    # (see :data:`MODALITIES`) and per target (see :data:`TARGETS`), the outcomes of a move there.
    outcomes: list[dict[tuple[str, str | None], tuple[tuple[str, ...], ...]]]
    # Per code: its atoms as the move generator reads them, (level or None, unmoved only, leaps
    # (with the fixed from and to cells applied) or None, rays or None, to cells of a ray or None,
    # the index of its modality, sets en passant, takes en passant).
    atoms: list[tuple[tuple, ...]]


# The targets a move can meet: (what stands there, the side of its top piece, the side below it).
TARGETS = (("empty", None, None), ("single", "enemy", None), ("single", "own", None),
           ("stack", "enemy", "enemy"), ("stack", "enemy", "own"), ("stack", "own", "enemy"), ("stack", "own", "own"))
MODALITIES = ((True, False), (False, True), (True, True))  # (quiet, capture) of an atom


def _outcomes(interactions: list[Interaction], kind: int, level: str, below: str | None):
    """Per modality and target, the outcomes of a move of a piece of ``kind`` at ``level``, with a
    piece of side ``below`` under it (None: none), in the order the interactions are listed."""
    rules = [i for i in interactions if i.level == level and (i.only is None or kind in i.only)
             and (i.below is None or i.below == below)]
    table = []
    for quiet, capture in MODALITIES:
        row = []
        for target, top, bottom in TARGETS:
            found = ["move"] if target == "empty" and level == "ground" and quiet else []
            for rule in rules:
                if rule.target != target or not (("move" in rule.using and quiet)
                                                  or ("capture" in rule.using and capture)):
                    continue
                if top is not None and rule.top not in ("any", top):
                    continue
                if bottom is not None and rule.bottom not in ("any", bottom):
                    continue
                found.append(rule.outcome)
            row.append(tuple(found))
        table.append(tuple(row))
    return tuple(table)


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
    outcomes = [{(level, below): _outcomes(interactions, kind.index, level, below)
                 for level, below in (("ground", None), ("upper", "own"), ("upper", "enemy"))} for kind in game.kinds]
    atoms = [()] + [tuple(_generator_atom(atom) for atom in game.atoms[code]) for code in range(1, game.ncodes)]
    return Stacking(spec.height, blocked, interactions, reach, outcomes, atoms)


def _generator_atom(atom) -> tuple:
    """An atom as :func:`interpreter.engine.stacking.piece_moves` reads it (see :attr:`Stacking.atoms`)."""
    sources, targets = atom.from_cells, atom.to_cells
    leaps = rays = None
    if atom.kind == "leap":
        leaps = [[(to, between) for to, between in row if targets is None or to in targets]
                 if sources is None or frm in sources else [] for frm, row in enumerate(atom.leaps)]
    else:
        rays = [r if sources is None or frm in sources else [] for frm, r in enumerate(atom.rays)]
    return (atom.level, atom.unmoved, leaps, rays, targets, MODALITIES.index((atom.quiet, atom.capture)),
            atom.sets_en_passant, atom.en_passant)


def _targets(atom, cell: int) -> list[int]:
    if atom.kind == "leap":
        return [to for to, _ in atom.leaps[cell]]
    return [to for ray in atom.rays[cell] for to in ray]
