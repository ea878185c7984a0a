"""The part of a compiled game that the engine reads at every move, as a compiled class.

:class:`~interpreter.compiler.game.Game` is a plain Python class: the
compiled engine reads each of its attributes by name, a dictionary lookup
for every ``game.code_army`` of every move made. :class:`NativeGame`, its
base class, declares the attributes that make and unmake, the attack
tables' walks, legality and generation read, with their types: compiled
with mypyc (``interpreter.native.COMPILED``) it keeps them in the object's
own fixed slots, and compiled code that holds the game as a ``NativeGame``
reads them in place, with no lookup. Pure Python sees an ordinary base
class with annotations: nothing changes there.

What this class is not: a second copy of anything. Its attributes are the
Game's own, set where they always were (:class:`Game`'s compile and the
``compile_*`` functions it calls); a value of the wrong type for a slot is
a ``TypeError`` where it is assigned, in the compiled build. Attributes
that hold instances of plain Python classes (the armies, the stacking and
castling rules) are declared with those classes' types, which compiled
code holds as plain objects; the board, the Spec and the methods that
compute (but :meth:`NativeGame.code`) stay on the Game. The attack tables
of :class:`FoeTables`, which every check test and every pin walks, are a
compiled class of this module too.

Pickling (stored games, :mod:`interpreter.loading.stored`): a slot is not in
``__dict__``, so :meth:`Game.__getstate__ <interpreter.compiler.game.Game.__getstate__>`
adds the slots' values and ``__setstate__`` sets every entry by name;
:class:`FoeTables` pickles as the call that makes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from .castling import CastleRule
    from .game import Army
    from .promotions import InPlacePromotion
    from .stacking import Stacking
    from .tables import Chains, HopChains, Lames, Leaps


@mypyc_attr(allow_interpreted_subclasses=True)
class NativeGame:
    """The typed attributes of a :class:`~interpreter.compiler.game.Game` that the compiled
    engine reads in place (see the module's docstring); codes index the per-code lists
    (``code = 1 + kind * armies + army``, 0 an empty cell), cells the per-cell ones,
    ``code * n + cell`` the Zobrist keys of pieces."""

    # Sizes.
    n: int                                   # cells
    ncodes: int                              # piece codes, 0 (empty) included
    ncodes_plain: int                        # codes before the neutral pieces' (see compiler.neutral)
    army_sets: int                           # armies, plus one for the neutral pieces when there are any
    # Per code.
    code_army: list[int]
    code_kind: list[int]
    is_royal: list[bool]
    castler: list[bool]
    clock_resets: list[bool]
    own_mark: list[bool]
    stand_in: list[int]
    demote: list[int]
    always_demote: list[bool]
    blast_spares: list[bool]
    material_kinds: list[bool]
    material_values: list[float]
    material_bonus: list[float]
    aim_reach: list[list[int] | None]
    aim_victims: list[tuple[bool, ...]]
    drop_marks: list[frozenset[int] | None]
    drop_no_mate: list[bool]
    promotions: list[list[tuple[int, ...]] | None]
    commits: list[dict[int, int] | None]
    drop_cells: list[Any]                    # per code: the cells it may be dropped on (None: none)
    drop_conditions: list[Any]               # per code: a drop's condition (None: none)
    in_place_promotions: list[tuple[InPlacePromotion, ...] | None]
    # Per army.
    armies: list[Army]
    attackers: list[FoeTables]               # per army: its attack tables (see compiler.tables)
    ep_attackers: list[list[tuple[Any, ...]]]  # per army, per cell: the pieces that may take en passant there
    hostile: list[list[bool]]                # per army, per code: a piece of an enemy
    pin_safe: list[bool]
    enemies: list[list[int]]
    partners: list[list[int]]
    turn_order: list[int]
    turn_armies: list[tuple[int, ...]]
    castle_king_codes: list[int]
    castle_rook_codes: list[frozenset[int]]
    promotion_cells: list[frozenset[int]]
    slow_attackers: list[frozenset[int]]
    both_colours: list[tuple[int, ...]]
    points_of: list[int]
    gates: list[dict[int, tuple[int, ...]]]
    gate_codes: list[int]
    gate_mask: int
    royal_armies: frozenset[int]
    dark_cells: frozenset[int]
    apart_rays: list[list[list[int]]] | None
    blast: list[list[int]] | None            # per cell: the cells a capture there explodes (None: none explode)
    capture_promotions: dict[int, tuple[frozenset[int], tuple[int, ...]]]
    promotion_limits: dict[int, int]
    drop_limits: list[list[tuple[int, int, list[int]]]]
    stacking: Stacking | None
    castle_rules: list[CastleRule]
    castle_locks: list[CastleRule]
    # Move generation (closures per code; see compiler.generators), the end of the game.
    generators: list[list[Any]]
    noisy_generators: list[list[Any]]
    unchecked_generators: list[list[Any]] | None
    noisy_generation: bool
    no_moves: Any
    pass_condition: Any | None
    # Zobrist keys.
    z_piece: list[int]
    z_turn: list[int]
    z_ep: list[int]
    z_unmoved: list[int]
    z_under: list[int]
    z_promoted: list[int]
    z_privilege: list[int]
    z_out: list[int]
    z_hand: list[list[int]]
    z_checks: list[list[int]]
    z_deep: list[list[int]]
    z_score: list[list[int]]
    # Switches of the rules.
    castle_king: int
    check_all: bool
    self_check: bool
    self_check_only: bool
    partner_check: bool
    shares_royal_answers: bool
    compulsory_capture: bool
    count_checks: int | None
    neutral_army: int
    neutral_move: int | None
    to_hand: bool
    drops_demoted: bool
    has_drops: bool
    must_drop: bool
    drop_marking: bool
    hand_marks_die: bool
    marks_die: bool
    gating: bool
    has_commits: bool
    has_immediate_ends: bool
    has_in_place_promotions: bool
    ends_count_moves: bool
    may_pass: bool
    clock_on_capture: bool
    clock_on_drop: bool
    clock_on_promotion: bool
    scoring: bool
    scores_captures: bool
    eliminates: bool
    mate_points: int
    stalemate_points: int
    resign_eliminates: bool
    resign_removes_royal: bool
    forbid_giving_check: bool
    forbid_royal_escape: bool

    def code(self, kind: int, army: int) -> int:
        """The code of a piece of ``kind`` in ``army``."""
        return 1 + kind * len(self.armies) + army


class FoeTables:
    """The tables of :class:`~.tables.AttackTables` for several attacking armies at once, per attacked cell:
    ``leap``, ``once``, ``lame``, ``ray``, ``hop`` and ``near`` mean what they mean there, for a piece of any
    of them. A walk along a chain that two armies share is made once (a rider of either army may
    stand at its first occupied cell); chains that differ stay apart. ``slow`` attacks are not
    included: they are found by generating moves (see :func:`interpreter.engine.attacks.attacked`).
    """

    leap: list[Leaps]
    once: list[Leaps]
    lame: list[Lames]
    ray: list[Chains]
    hop: list[HopChains]
    near: list[HopChains]

    def __init__(self, leap: list[Leaps], once: list[Leaps], lame: list[Lames], ray: list[Chains],
                 hop: list[HopChains], near: list[HopChains]) -> None:
        self.leap, self.once, self.lame, self.ray, self.hop, self.near = leap, once, lame, ray, hop, near

    def __reduce__(self) -> tuple[type[FoeTables], tuple]:
        """Pickled (a stored game holds its tables) as the call that makes them again."""
        return FoeTables, (self.leap, self.once, self.lame, self.ray, self.hop, self.near)
