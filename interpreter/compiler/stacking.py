"""The ``stacking`` block of a rules file, compiled: interactions, the blocking rule, reach tables.

Which moves may end on a piece and with what result is a list of
*interactions* (``on ground single enemy: capture``, ``on upper stack own:
land``): each names the mover's level (``ground``: standing alone,
``upper``: on top of a stack), the target (an empty cell, a single piece or
a stack of a given height) with the sides of its pieces, and the outcome
(move, descend, climb, land, or a capture of the top, the bottom, both
pieces of a stack of two, or the whole stack). A condition may name the side
of the piece under the mover (``below``) and the height of the mover's stack
(``height``). Running them is the job of :mod:`interpreter.engine.stacking`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import RulesSemanticError, UnsupportedError, unknown_name

from .expressions import COMPARE

if TYPE_CHECKING:
    from .game import Game

# What an outcome removes from the target cell: nothing, the top piece, the
# bottom piece, or every piece of it.
REMOVES = {"move": (), "descend": (), "climb": (), "land": (), "capture": ("top",),
           "capture-top": ("top",), "capture-bottom": ("bottom",), "capture-both": ("top", "bottom"),
           "capture-all": ("all",)}
CAPTURES = {outcome for outcome, removed in REMOVES.items() if removed}


@dataclass(frozen=True)
class Interaction:
    """One compiled ``on LEVEL TARGET: OUTCOME`` line."""

    level: str                      # "ground" | "upper"
    target: str                     # "empty" | "single" | "stack"
    sides: tuple[str, ...]          # the sides of the target's pieces, bottom first: own | enemy | any
    outcome: str
    using: frozenset[str]           # "move" and/or "capture"
    only: frozenset[int] | None     # piece kinds, None: every piece
    condition: InteractionCondition | None


# An atom as the stacking move generator reads it (see Stacking.atoms); typed, so that the compiled
# generator reads its parts natively.
GeneratorAtom = tuple[str | None, bool, list[list[tuple[int, tuple[int, ...]]]] | None, list[list[list[int]]] | None,
                      frozenset[int] | None, int, bool, bool]


@dataclass
class Stacking:
    """The compiled stacking rules of a game."""

    height: int
    upper_blocked_by: frozenset[str]
    interactions: list[Interaction]
    reach: list[list[frozenset[int]]]   # per code, per cell: every cell its patterns could reach
    # Per piece kind and situation of the mover ((level, side below it, height of its stack)): per
    # modality of the atom (see :data:`MODALITIES`) and per target (see :func:`targets`), the
    # outcomes of a move there.
    outcomes: list[dict[tuple[str, str | None, int], tuple[tuple[str, ...], ...]]]
    # Per code: its atoms as the move generator reads them, (level or None, unmoved only, leaps
    # (with the fixed from and to cells applied) or None, rays or None, to cells of a ray or None,
    # the index of its modality, sets en passant, takes en passant).
    atoms: list[tuple[GeneratorAtom, ...]]
    # Per code: from some cell its atoms reach a cell twice (two atoms, or two rays of one on a board
    # that wraps round), so the move generator must drop equal moves.
    repeats: list[bool]


MODALITIES = ((True, False), (False, True), (True, True))  # (quiet, capture) of an atom


def targets(height: int) -> list[tuple[str, ...]]:
    """What a move can meet on a cell in a game whose stacks are up to ``height`` pieces high: the
    sides (own or enemy) of the pieces there, bottom first; ``()`` is an empty cell.

    The index of a cell of ``k`` pieces is ``2**k - 1`` plus, for each own
    piece, ``2**i`` (``i``: its place from the bottom, 0 first), so the index
    grows with the height and the top piece weighs most: 0 empty, 1 and 2 a
    lone enemy or own piece, 3 to 6 the stacks of two (enemy top on enemy,
    enemy on own, own on enemy, own on own), then the stacks of three.
    """
    return [tuple("own" if bits >> i & 1 else "enemy" for i in range(k))
            for k in range(height + 1) for bits in range(2 ** k)]


def target_index(sides_own: list[bool]) -> int:
    """The index in :func:`targets` of a cell whose pieces, bottom first, are own (True) or not."""
    return 2 ** len(sides_own) - 1 + sum(1 << i for i, own in enumerate(sides_own) if own)


def _fits(rule: Interaction, sides: tuple[str, ...], height: int) -> bool:
    """Does ``rule`` name a cell whose pieces are of ``sides`` (bottom first)?"""
    if rule.target == "empty":
        return not sides
    if rule.outcome in ("climb", "land") and len(sides) >= height:
        return False        # a full stack takes no more pieces
    return len(rule.sides) == len(sides) and all(want in ("any", side) for want, side in zip(rule.sides, sides))


def _outcomes(interactions: list[Interaction], kind: int, level: str, below: str | None, stack: int,
              height: int):
    """Per modality and target, the outcomes of a move of a piece of ``kind`` at ``level``, with a
    piece of side ``below`` under it (None: none) in a stack of ``stack`` pieces, in a game of stacks up to
    ``height`` high; the outcomes are in the order the interactions are listed."""
    rules = [i for i in interactions if i.level == level and (i.only is None or kind in i.only)
             and (i.condition is None or i.condition(below, stack))]
    table = []
    for quiet, capture in MODALITIES:
        row = []
        for sides in targets(height):
            found = ["move"] if not sides and level == "ground" and quiet else []
            for rule in rules:
                if (("move" in rule.using and quiet) or ("capture" in rule.using and capture)) and \
                        _fits(rule, sides, height):
                    found.append(rule.outcome)
            row.append(tuple(found))
        table.append(tuple(row))
    return tuple(table)


_CONDITION_FORM = ('an interaction\'s condition is below == "own" or below == "enemy", a comparison of '
                   'height (the number of pieces in the mover\'s stack, the mover included) with a number, '
                   'or several of these joined by \'and\'')


@dataclass(frozen=True)
class InteractionCondition:
    """An interaction's compiled ``if``, called with the side of the piece under the mover (None: none)
    and the height of its stack: the sides ``below`` must be (``below == "own"`` / ``"enemy"``)
    and the comparisons ``(op, n)`` its height must pass (``height OP N``), all of them. Plain data,
    so that a compiled game can be stored (:mod:`interpreter.loading.stored`)."""

    sides: tuple[str, ...]
    heights: tuple[tuple[str, int], ...]

    def __call__(self, below: str | None, stack: int) -> bool:
        return all(below == side for side in self.sides) and all(COMPARE[op](stack, n) for op, n in self.heights)


def _condition(expr, loc) -> InteractionCondition:
    """An interaction's ``if``: ``below == "own"`` / ``"enemy"`` (the side of the piece under the
    mover), ``height OP N`` (the pieces in the mover's stack), or several of them joined by ``and``."""
    parts = expr.operands if isinstance(expr, S.BoolOp) and expr.op == "and" else [expr]
    sides, heights = [], []
    for part in parts:
        if not (isinstance(part, S.Compare) and isinstance(part.left, S.Ref) and len(part.left.path) == 1):
            raise UnsupportedError(_CONDITION_FORM, loc)
        name, right = part.left.path[0], part.right
        if (name == "below" and part.op == "==" and isinstance(right, S.Str)
                and right.value in ("own", "enemy")):
            sides.append(right.value)
        elif name == "height" and isinstance(right, S.Num) and part.op in COMPARE:
            heights.append((part.op, right.value))
        else:
            raise UnsupportedError(_CONDITION_FORM, loc)
    return InteractionCondition(tuple(sides), tuple(heights))


# The outcomes each kind of target takes (a stack target: see _check_outcome for its height).
FITS = {"empty": {"descend", "move"}, "single": {"capture", "climb", "land"},
        "stack": {"capture-top", "capture-bottom", "capture-both", "capture-all", "land", "climb"}}


def _check_outcome(inter: S.Interaction, height: int) -> None:
    """Refuse, located, an outcome that cannot happen on the target an interaction names."""
    if inter.outcome not in REMOVES:
        raise RulesSemanticError(f"unknown outcome '{inter.outcome}'", inter.loc)
    if inter.outcome not in FITS[inter.target]:
        raise RulesSemanticError(f"outcome '{inter.outcome}' does not fit a target '{inter.target}'", inter.loc,
                                 expected=", ".join(sorted(FITS[inter.target])))
    if inter.target != "stack":
        return
    pieces = 2 + len(inter.middle)
    if pieces > height:
        raise RulesSemanticError(f"a stack of {pieces} pieces is higher than the game's stacks (height {height})",
                                 inter.loc, hint="list one side per piece, bottom first, up to the height")
    if inter.outcome in ("climb", "land") and pieces >= height:
        raise RulesSemanticError(f"nothing may climb or land on a full stack (height {height})", inter.loc)
    if inter.outcome == "capture-both" and pieces != 2:
        raise RulesSemanticError("capture-both takes the two pieces of a stack of two", inter.loc,
                                 hint="capture-all takes every piece of a stack")


def compile_stacking(game: "Game", spec: S.StackingSpec) -> Stacking:
    """Check and compile a stacking block for ``game``."""
    if spec.height < 2:
        raise RulesSemanticError(f"a stacking block needs stacks of two or more pieces, not {spec.height}",
                                 spec.loc, hint="height 1, one piece per cell, is a game without stacking")
    height = spec.height
    interactions = []
    for inter in spec.interactions:
        only = None
        if inter.only:
            for name in inter.only:
                if name not in game.kind_index:
                    raise unknown_name("piece", name, game.kind_index, inter.loc)
            only = frozenset(game.kind_index[name] for name in inter.only)
        using = frozenset(inter.using) or frozenset({"move"} if inter.target == "empty" else {"capture"})
        _check_outcome(inter, height)
        sides = (() if inter.target == "empty" else (inter.top or "any",) if inter.target == "single"
                 else (inter.bottom or "any", *inter.middle, inter.top or "any"))
        condition = _condition(inter.condition, inter.loc) if inter.condition is not None else None
        interactions.append(Interaction(inter.level, inter.target, sides, inter.outcome, using, only, condition))
    reach = [[frozenset()] * game.n for _ in range(game.ncodes)]
    repeats = [False] * game.ncodes
    for code in range(1, game.ncodes):
        for atom in game.atoms[code]:
            if atom.kind == "hop":
                raise UnsupportedError("hoppers are not run with stacking yet", spec.loc)
        for cell in range(game.n):
            cells = [to for atom in game.atoms[code] for to in _targets(atom, cell)]
            reach[code][cell] = frozenset(cells)
            repeats[code] = repeats[code] or len(cells) > len(reach[code][cell])
    blocked = frozenset(spec.upper_blocked_by) if spec.upper_blocked_by else frozenset({"stacks", "singles"})
    situations = [("ground", None, 1)] + [("upper", side, stack) for stack in range(2, height + 1)
                                          for side in ("own", "enemy")]
    outcomes = [{situation: _outcomes(interactions, kind.index, *situation, height) for situation in situations}
                for kind in game.kinds]
    atoms = [()] + [tuple(_generator_atom(atom) for atom in game.atoms[code]) for code in range(1, game.ncodes)]
    return Stacking(height, blocked, interactions, reach, outcomes, atoms, repeats)


def _generator_atom(atom) -> GeneratorAtom:
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
