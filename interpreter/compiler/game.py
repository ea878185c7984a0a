"""The compiled game: everything about a variant that does not change in play.

:class:`Game` compiles a :class:`~dsl.spec.VariantSpec`: the board, armies,
piece codes, move-generation closures, reverse attack tables, castling
rules, Zobrist keys, end rules and the setup. A Game is static data: it
builds no position (that is :mod:`interpreter.loading`'s job, which also
checks the setup as a whole position); an
:class:`~interpreter.engine.position.Position` holds the state of one game
and refers to its Game for everything else.

Piece codes are small positive integers, ``1 + kind * n_armies + army``;
0 is an empty cell. Tables indexed by code are plain lists.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations
from dataclasses import dataclass
from functools import cached_property

from dsl import spec as S
from dsl.errors import Loc, RulesSemanticError, UnsupportedError, unknown_name

from .board import Board, compile_board
from .budget import compiling, located
from .castling import compile_castling, partner_mask
from .conditions import split_condition
from .drops import compile_drops
from .gating import compile_gating
from .modes import compile_mode
from .native_game import NativeGame
from .rights import aimed_losses, inferred_marks, own_marks
from .scoring import SCORE_KEYS, compile_scoring
from .neutral import add_neutral_codes, compile_neutral_move, neutral_letter_ok
from .atoms import Atom, Pieces, compile_atoms, frame
from .generators import make_generators
from .end_rules import (compile_condition, compile_end_rules, compile_insufficient, compile_no_moves, counts_moves, material_kinds,
                        needs_no_moves)
from .setup import Setup, compile_setup
from .promotions import InPlacePromotion, check_promotion_options, in_place_promotion, relinked
from .stacking import compile_stacking
from .tables import AttackTables, FoeTables, attack_tables, foe_tables
from .traditions import check_notation


HAND_LIMIT = 64  # the most pieces of one kind a hand can hold
# Bits of a Zobrist key, and so of a position's hash: 62 keeps every hash a small integer for
# mypyc (the compiled engine XORs and compares them in place; 64 would make each one an object).
ZOBRIST_BITS = 62
SUBSET_FOES = 8  # merged attack tables kept for enemies still in the game where some are out (Game.foes)


@dataclass(frozen=True)
class Army:
    index: int
    name: str
    title: str
    symbol: str          # the side-to-move field of FEN: the army's first letter or its prefix
    letter_case: str | None
    prefix: str | None
    forward: str | None


@dataclass(frozen=True)
class PieceKind:
    index: int
    name: str
    letter: str
    value: float | None
    royal: bool
    spec: S.PieceSpec


class Game(NativeGame):
    """A compiled variant. Build one with :func:`interpreter.loading.load_game` or
    :func:`interpreter.loading.compile_variant`, which also check the setup as a position.
    The attributes the engine reads at every move are declared by its compiled base class
    (:class:`~.native_game.NativeGame`); the rest are ordinary attributes."""

    # Set by the compile_* functions of other modules; those the engine reads at every move are
    # declared by NativeGame (hands and drops: compiler.drops; gating: compiler.gating; points and
    # armies out of the game: compiler.scoring; neutral pieces: compiler.neutral), the rest here.
    promotion_only: set[int]
    has_hands: bool
    neutral_codes: dict[int, int]

    def __init__(self, spec: S.VariantSpec, mode: str | None = None, options: dict[str, str] | None = None) -> None:
        generator = spec.board.generator
        with compiling(generator.loc if generator is not None else variant_loc(spec)):
            self._compile(spec, mode, options)

    def _compile(self, spec: S.VariantSpec, mode: str | None, options: dict[str, str] | None) -> None:
        """Everything :meth:`__init__` compiles, under the compile budget (:mod:`.budget`)."""
        self.spec = spec
        self.variant_loc = variant_loc(spec)
        self.name = spec.name
        self.title = spec.title
        self._compile_armies(spec)
        self.mode, self.players, self.turn_armies = compile_mode(spec, self.armies, self.turn_order, mode,
                                                                 options or {})
        self.turn_order = [armies[0] for armies in self.turn_armies]
        self.board: Board = compile_board(spec.board, [a.name for a in self.armies], self.variant_loc)
        self.n = len(self.board)
        for army in spec.armies:  # each army's frame, checked once (patterns are turned into it)
            frame(army.forward, self.board, army.locs.get("forward", army.loc))
        for piece in spec.pieces.values():     # 'diagram at' names cells of this board; glyphs name armies
            for army in piece.army_glyphs:
                if army not in self.army_index:
                    raise unknown_name("army", army, list(self.army_index), piece.locs.get(f"glyph {army}", piece.loc))
            for cell in piece.diagram_cells:
                if cell not in self.board.index:
                    raise unknown_name("cell", cell, self.board.names, piece.locs.get(f"diagram {cell}", piece.loc))
        self._compile_pieces(spec)
        check_notation(spec, self)
        tables = attack_tables(self)
        # Per army, the tables of its attacks that depend on occupancy alone; slow_attackers: the codes
        # whose attacks are found by generating their moves.
        self.attackers: list[FoeTables] = [foe_tables(tables, (a,)) for a in range(len(self.armies))]
        self.slow_attackers, self.stand_in, self.pin_safe = tables.slow, tables.stand_in, tables.pin_safe
        self.ep_attackers = tables.ep
        self._attack_tables: AttackTables = tables
        # Each army's enemies' tables merged, made here under the compile budget; Game.foes adds the
        # enemies still in the game where some are out.
        self._foes: dict[tuple[int, ...], FoeTables] = {}
        for enemies in {tuple(e) for e in self.enemies if len(e) > 1}:
            self._foes[enemies] = foe_tables(tables, enemies)
        self._subset_foes: dict[tuple[int, ...], FoeTables] = {}
        self.clock_resets = [False] * self.ncodes
        self.stacking = None
        if spec.stacking is not None:
            self.stacking = compile_stacking(self, spec.stacking)
            in_place = next((p for piece in spec.pieces.values() for p in piece.promotions if p.in_place), None)
            if in_place is not None:
                raise UnsupportedError("a promotion 'in place' with stacking is not run by the interpreter yet",
                                       in_place.loc)
            unchecked = next((m for p in spec.pieces.values() for m in p.moves
                              if split_condition(m.condition, m.loc)[1]), None)
            if unchecked is not None:
                raise UnsupportedError("'if not in_check' with stacking is not run by the interpreter yet",
                                       unchecked.loc)
            self.pin_safe = [False] * len(self.armies)  # legality is always tested by make and unmake
        castling = compile_castling(self, spec)
        self.castle_rules, self.castle_locks = castling.rules, castling.locks
        self.castle_king, self.castle_rooks = castling.king, castling.rooks
        self._partner_masks: dict[int, int] = {}   # see castle_partner_mask
        self._compile_rules(spec)
        self._compile_castlers()
        # A node that asks more than once about the same royal pieces (a swap castling's check, a
        # partner's or a team's check) shares the answers (see engine.legality.Guard); one that
        # asks each question once does without.
        self.shares_royal_answers = bool(self.partner_check
                                         or any(len(armies) > 1 for armies in self.turn_armies)
                                         or any(rule.swap for rule in self.castle_rules))
        self._zobrist()
        self.setup: Setup = compile_setup(self, spec.setup, self.variant_loc)
        codes = self.setup.codes()
        self.royal_armies: frozenset[int] = frozenset(self.code_army[c] for c in codes if self.is_royal[c])
        # Kinds that exist only by promotion go back whenever captured (shogi's promoted
        # pieces, which FEN writes with letters of their own rather than with '~').
        in_setup = {self.code_kind[code] for code in codes}
        self.always_demote = [k.index in self.promotion_only and k.index not in in_setup for k in self.kinds]
        placed = list(self.setup.placement.values())
        self.setup_counts = [placed.count(code) for code in range(self.ncodes)]
        for code in self.captured_only:
            self.promotion_limits[code] = min(self.setup_counts[code], self.promotion_limits.get(code, self.setup_counts[code]))
        # Once-per-game privileges: every piece that has one holds it at the start.
        if any(self.privileged) and self.castle_rules:
            once = next(m for p in spec.pieces.values() for m in p.moves if m.once_per_game)
            raise UnsupportedError("'once per game' together with castling is not run by the interpreter "
                                   "yet (both use FEN's castling field)", once.loc)
        # Per code: its own mark is read from the setup cells rather than written in FEN (see compiler.rights).
        self.inferred = inferred_marks(self)
        # Can a mark stop allowing anything while its piece stays? Then push drops it (engine.rights).
        self.marks_die = bool(self.castling_kinds or self.gating or self.eliminates)
        # Can a gate mark die when a piece leaves the hand? (Never where captures go to hand.)
        self.hand_marks_die = self.gating and not self.to_hand
        # May a quiescence search generate the captures and promotions alone (engine.generation.noisy_moves)?
        # (Not where a quiet pattern allowed only out of check promotes: see below.)
        self.noisy_generation: bool = True
        # Is a move's legality only whether the one army moving keeps its royal pieces safe
        # (engine.legality.allowed judges it by the pins alone)?
        self.self_check_only: bool = (self.self_check and not self.partner_check and not self.forbid_giving_check
                                      and self.apart_rays is None
                                      and not self.forbid_royal_escape and not any(self.drop_no_mate)
                                      and all(len(armies) == 1 for armies in self.turn_armies))

    # ------------------------------------------------------------ armies
    def _compile_armies(self, spec: S.VariantSpec) -> None:
        if len(spec.armies) < 1:
            raise RulesSemanticError("the variant declares no army", self.variant_loc,
                                     expected="an 'armies { army white ... }' block")
        armies = []
        seen: dict[str, Loc | None] = {}
        for i, army in enumerate(spec.armies):
            if army.name in seen:
                raise RulesSemanticError(f"army '{army.name}' is declared twice", army.loc)
            seen[army.name] = army.loc
            symbol = army.prefix or army.name[0].lower()
            armies.append(Army(i, army.name, army.title, symbol, army.letter_case, army.prefix, army.forward))
        symbols = [a.symbol for a in armies]
        if len(set(symbols)) != len(symbols):
            raise RulesSemanticError("two armies have the same notation symbol", spec.armies[0].loc,
                                     hint="give them distinct first letters or 'letters prefix' symbols")
        if len(armies) == 2 and all(a.letter_case for a in armies) and armies[0].letter_case == armies[1].letter_case:
            raise RulesSemanticError("both armies use the same letter case", spec.armies[1].loc,
                                     expected="'letters upper' for one army and 'letters lower' for the other")
        self.armies: list[Army] = armies
        self.army_index = {a.name: a.index for a in armies}
        names = list(self.army_index)
        turn = spec.turn or names
        for name in turn:
            if name not in self.army_index:
                raise unknown_name("army", name, names, spec.locs.get("turn"))
        self.turn_order: list[int] = [self.army_index[name] for name in turn]
        # Teams: partners never capture each other; every army outside the team is an enemy.
        team_of = {a.index: a.index for a in armies}
        for number, team in enumerate(spec.teams):
            for name in team.armies:
                if name not in self.army_index:
                    raise unknown_name("army", name, names, team.loc)
                team_of[self.army_index[name]] = len(armies) + number
        self.enemies: list[list[int]] = [[b.index for b in armies if team_of[b.index] != team_of[a.index]]
                                         for a in armies]
        self.partners: list[list[int]] = [[b.index for b in armies if b.index != a.index
                                           and team_of[b.index] == team_of[a.index]] for a in armies]
        # The teams, numbered in the order of their first army (an army without partners is a team of
        # its own): partners share their results, so a result is the result of teams.
        numbers: dict[int, int] = {}
        self.team_of: list[int] = [numbers.setdefault(team_of[a.index], len(numbers)) for a in armies]
        self.teams: list[tuple[int, ...]] = [tuple(a.index for a in armies if self.team_of[a.index] == t)
                                             for t in range(len(numbers))]

    # ------------------------------------------------------------ pieces
    def _compile_pieces(self, spec: S.VariantSpec) -> None:
        kinds = []
        letters: dict[str, str] = {}
        prefixed = all(a.prefix is not None for a in self.armies)  # else letters are told apart by case
        for i, piece in enumerate(spec.pieces.values()):
            letter = piece.letter or piece.name[0].upper()
            written = piece.neutral and neutral_letter_ok(letter)  # as it stands: no army's case or prefix
            if not written and not (letter[-1:].isalpha() and (len(letter) == 1 or (len(letter) == 2 and letter[0] == "+"))):
                raise RulesSemanticError(f"piece letter '{letter}' of {piece.name} must be one letter, "
                                         "or '+' and a letter", piece.loc, hint='write e.g. letter N or letter "+P"')
            if not written and not prefixed and not _has_cases(letter[-1]):
                raise RulesSemanticError(
                    f"piece letter '{letter}' of {piece.name} has no distinct upper- and lower-case forms",
                    piece.loc, expected="a letter such as A to Z, which armies write in upper or lower case",
                    hint="or give every army a 'letters prefix'")
            letter = letter.upper()
            if letter in letters:
                raise RulesSemanticError(
                    f"pieces {letters[letter]} and {piece.name} have the same letter '{letter}'",
                    piece.loc, hint="give one of them another 'letter'")
            letters[letter] = piece.name
            kinds.append(PieceKind(i, piece.name, letter, piece.value, piece.royal, piece))
        if not kinds:
            raise RulesSemanticError("the variant declares no piece", self.variant_loc)
        self.kinds: list[PieceKind] = kinds
        self.kind_index = {k.name: k.index for k in kinds}
        na = len(self.armies)
        ncodes = 1 + len(kinds) * na
        self.ncodes_plain = ncodes  # codes past this are facing variants (see _facing_variants)
        self.code_kind = [-1] + [c // na for c in range(ncodes - 1)]
        self.code_army = [-1] + [c % na for c in range(ncodes - 1)]
        self.code_facing: list[tuple[str, ...] | None] = [None] * ncodes
        self.facing_codes: dict[tuple[int, int, tuple[str, ...]], int] = {}
        for kind, army, facings in self._facing_variants(spec):
            self.facing_codes[kind, army, facings] = ncodes
            self.code_kind.append(kind)
            self.code_army.append(army)
            self.code_facing.append(facings)
            self.code_facing[self.code(kind, army)] = (self.armies[army].forward or "n",)  # named in FEN too
            ncodes += 1
        ncodes = add_neutral_codes(self, spec, ncodes)
        self.is_royal = [False] + [kinds[self.code_kind[c]].royal for c in range(1, ncodes)]
        self.ncodes = ncodes
        # What an army may capture: enemy pieces (not royal ones where 'forbid royal-capture').
        spare_royals = "royal-capture" in spec.rules.forbid
        self.hostile: list[list[bool]] = [
            [False] + [self.code_army[c] in self.enemies[a] and not (spare_royals and self.is_royal[c])
                       for c in range(1, ncodes)] for a in range(na)
        ]
        # Letters in FEN: per army case or prefix; a facing variant adds '>' and its directions.
        self.code_symbol: list[str] = [""] * ncodes
        for kind_index, code in self.neutral_codes.items():
            self.code_symbol[code] = kinds[kind_index].spec.letter or kinds[kind_index].letter
        for code in range(1, ncodes):
            if kinds[self.code_kind[code]].spec.neutral:
                continue  # its per-army codes are never used
            army, kind = self.armies[self.code_army[code]], kinds[self.code_kind[code]]
            if army.prefix is not None:
                self.code_symbol[code] = army.prefix + kind.letter
            else:
                self.code_symbol[code] = kind.letter.lower() if army.letter_case == "lower" else kind.letter
            if self.code_facing[code]:
                self.code_symbol[code] += "".join(">" + f for f in self.code_facing[code])
        self.symbol_code = {s: c for c, s in enumerate(self.code_symbol) if s}
        for code in range(1, ncodes):  # the directions of a facing in any order; none for the army's forward
            if self.code_facing[code]:
                bare = self.code_symbol[code].split(">")[0]
                for order in permutations(self.code_facing[code]):
                    self.symbol_code.setdefault(bare + "".join(">" + f for f in order), code)
                if code < self.ncodes_plain:
                    self.symbol_code.setdefault(bare, code)
        self.symbol_width = max(len(s) for s in self.symbol_code)
        # Movement atoms and promotion tables per code; a facing variant has the atoms of each
        # of its directions.
        self.atoms: list[list[Atom]] = [[] for _ in range(ncodes)]
        self.promotions: list[list[tuple[int, ...]] | None] = [None] * ncodes
        self.promotions_leaving: list[list[tuple[int, ...]] | None] = [None] * ncodes
        # Per code, its promotions as moves of their own ('in place' lines), or None.
        self.in_place_promotions: list[tuple[InPlacePromotion, ...] | None] = [None] * ncodes
        # Promotion targets limited by how many of them the army has on the board: code -> the count
        # below which it may be chosen ('limit P to N'; 'only captured': the setup's count, set below).
        self.promotion_limits: dict[int, int] = {}
        self.captured_only: set[int] = set()   # targets of 'only captured' promotions
        # code -> (zone, choices): a capture from outside the zone into it promotes ('on capture into').
        self.capture_promotions: dict[int, tuple[frozenset[int], tuple[int, ...]]] = {}
        # code -> {from * n + to: code}: the facing a move narrows a piece to ('commits facing').
        self.commits: list[dict[int, int] | None] = [None] * ncodes
        tables = {}
        names = [""] + [kinds[self.code_kind[c]].name for c in range(1, ncodes)]
        pieces = [Pieces(names, [""] + ["own" if self.code_army[c] in (a, *self.partners[a]) else
                                        "enemy" if self.code_army[c] in self.enemies[a] else ""
                                        for c in range(1, ncodes)]) for a in range(na)]
        for code in range(1, ncodes):
            if self.code_army[code] == self.neutral_army:
                continue  # no moves, no promotions
            kind, army = kinds[self.code_kind[code]], self.armies[self.code_army[code]]
            facings = self.code_facing[code] if code >= self.ncodes_plain else (army.forward,)
            reach = []
            for facing in facings:
                committing: dict[int, set[int]] = {}
                for move in kind.spec.moves:
                    with located(move.loc):
                        atoms = compile_atoms(move, self.board, army.name, facing, pieces[army.index])
                    self.atoms[code] += atoms
                    if move.commits:
                        for frm, to in _reach(atoms):
                            committing.setdefault(frm, set()).add(to)
                reach.append(committing)
            if len(facings) > 1:
                self.commits[code] = self._commit_table(code, facings, reach)
            if (kind.index, army.index) not in tables:
                tables[kind.index, army.index] = self._promotion_tables(kind, army)
            self.promotions[code], self.promotions_leaving[code], self.in_place_promotions[code] = tables[kind.index, army.index]
            if code >= self.ncodes_plain and self.code(kind.index, army.index) in self.capture_promotions:
                self.capture_promotions[code] = self.capture_promotions[self.code(kind.index, army.index)]
        self.has_commits = any(self.commits)
        self.has_in_place_promotions = any(self.in_place_promotions)
        # Per army, the cells a move of one of its pieces may promote on (in a stacking game the
        # captures and promotions are generated as the moves to these cells and to enemy pieces).
        self.promotion_cells: list[frozenset[int]] = [
            frozenset(cell for code in range(1, ncodes) if self.code_army[code] == army.index and self.promotions[code]
                      for cell, choices in enumerate(self.promotions[code]) if choices)
            for army in self.armies]
        self.privileged = [any(a.once for a in self.atoms[c]) for c in range(ncodes)]  # 'once per game'
        self.own_mark = own_marks(self)   # first-move patterns: see compiler.rights
        # 'unmoved lost when aimed by': see compiler.rights.aimed_losses
        self.aim_reach, self.aim_victims = aimed_losses(self)
        self._make_generators()
        if self.unchecked_generators is not None and any(
                any(a.unchecked for a in self.atoms[c]) and (self.promotions[c] or self.promotions_leaving[c])
                for c in range(1, ncodes)):
            self.noisy_generation = False

    def _make_generators(self) -> None:
        """The move-generation closures of every code, made from its atoms (:func:`.generators.make_generators`):
        ``generators``, ``noisy_generators`` (captures and promotions) and ``unchecked_generators``, the
        quiet patterns allowed only while the mover's army is not in check ('if not in_check'), None
        when there are none: engine.generation runs them apart, so that no attack ever asks about
        check (a quiescence search that could miss their promotions generates every move)."""
        na = len(self.armies)
        royal_targets = [[h and royal for h, royal in zip(row, self.is_royal)] for row in self.hostile]
        shared: dict = {}   # tables made once for the generators of a piece and its noisy ones

        def generators(unchecked: bool, noisy: bool = False) -> list[list]:
            return [[]] + [make_generators([a for a in self.atoms[c] if a.unchecked == unchecked], self.n,
                                           self.promotions[c], royal_targets[self.code_army[c]],
                                           self.promotions_leaving[c], noisy, shared)
                           if self.code_army[c] < na else [] for c in range(1, self.ncodes)]
        self.generators = generators(False)
        self.noisy_generators = generators(False, noisy=True)
        unchecked = any(a.unchecked for atoms in self.atoms for a in atoms)
        self.unchecked_generators = generators(True) if unchecked else None

    def _facing_variants(self, spec: S.VariantSpec) -> list[tuple[int, int, tuple[str, ...]]]:
        """(kind, army, facings) of the pieces the setup places facing other ways than their
        army's forward, with every narrower set of directions a committing move can leave.

        A piece ``facing e or s`` moves as if its army's forward were ``e``
        and as if it were ``s``; a move marked ``commits facing`` keeps only
        the directions for which it was such a move.
        """
        found: list[tuple[int, int, tuple[str, ...]]] = []
        for place in spec.setup.places:
            if not place.facing or place.piece not in self.kind_index or place.army not in self.army_index:
                continue  # unknown names are reported by _setup
            army = self.armies[self.army_index[place.army]]
            facings = tuple(dict.fromkeys(place.facing))
            for facing in facings:
                if facing not in self.board.directions:
                    raise unknown_name("direction", facing, self.board.directions, place.loc)
                frame(facing, self.board, place.loc)
            if spec.stacking is not None:
                raise UnsupportedError("'facing' in a game with stacks is not run by the interpreter yet", place.loc)
            kind = self.kind_index[place.piece]
            for size in range(len(facings), 0, -1):
                for subset in combinations(facings, size):
                    key = (kind, army.index, subset)
                    if subset != (army.forward or "n",) and key not in found:
                        found.append(key)
        for piece in spec.pieces.values():
            for move in piece.moves:
                if move.commits is not None and move.commits != "facing":
                    raise unknown_name("committed property", move.commits, ["facing"], move.loc)
        return found

    def typical_code(self, kind: int, army: int) -> int:
        """The code of a piece of ``kind`` in ``army`` as the setup first places it: with the facing
        of the first placement that gives one, else the plain code (for diagrams and examples)."""
        for place in self.spec.setup.places:
            if place.facing and self.kind_index.get(place.piece) == kind and self.army_index.get(place.army) == army:
                return self.facing_code(kind, army, tuple(dict.fromkeys(place.facing)))
        return self.code(kind, army)

    def codes_of_kind(self, kind: int) -> list[int]:
        """Every code of a piece kind: one per army, and its facing variants."""
        return [c for c in range(1, self.ncodes) if self.code_kind[c] == kind]

    def facing_code(self, kind: int, army: int, facings: tuple[str, ...]) -> int:
        """The code of a piece of ``kind`` in ``army`` facing ``facings`` (the plain code for its
        army's forward)."""
        if facings in ((), (self.armies[army].forward or "n",)):
            return self.code(kind, army)
        return self.facing_codes[kind, army, facings]

    def _commit_table(self, code: int, facings: tuple[str, ...], reach: list[dict[int, set[int]]]) -> dict[int, int]:
        """``from * n + to`` -> the code a committing move between the two cells leaves: the piece
        facing only the directions under which the move exists."""
        table = {}
        kind, army = self.code_kind[code], self.code_army[code]
        for frm in set().union(*reach):
            for to in set().union(*(r.get(frm, ()) for r in reach)):
                kept = tuple(f for f, r in zip(facings, reach) if to in r.get(frm, ()))
                if kept != facings:
                    table[frm * self.n + to] = self.facing_code(kind, army, kept)
        return table

    def foes(self, armies: list[int]) -> FoeTables:
        """The attack tables of ``armies`` merged into one (see :func:`.tables.foe_tables`): each army's
        enemies' are made with the game; those of the enemies still in the game, where armies are put
        out, on first use, the last :data:`SUBSET_FOES` of them kept (each no larger than all the
        enemies' together)."""
        if len(armies) == 1:
            return self.attackers[armies[0]]
        key = tuple(armies)
        found = self._foes.get(key) or self._subset_foes.get(key)
        if found is None:
            found = foe_tables(self._attack_tables, key)
            # Replaced whole, never changed in place: another thread reads the old or the new.
            kept = list(self._subset_foes.items())[1 - SUBSET_FOES:]
            self._subset_foes = dict([*kept, (key, found)])
        return found

    def _promotion_tables(self, kind: PieceKind, army: Army):
        """Per destination cell, and per origin cell for ``also leaving``: the codes a move must
        promote to (0 among them: it may also stay as it is), None when the piece never promotes
        on a move; and its ``in place`` promotions (see :mod:`.promotions`), or None."""
        if not kind.spec.promotions:
            return None, None, None
        arriving: list[tuple[int, ...]] | None = None
        leaving: list[tuple[int, ...]] | None = None
        in_place: list[InPlacePromotion] = []
        for promo in kind.spec.promotions:
            check_promotion_options(promo)
            targets = [0] if promo.optional else []
            owners = [army.index] + (self.partners[army.index] if promo.partner_pieces else [])
            for name in promo.to:
                if name not in self.kind_index:
                    raise unknown_name("piece", name, self.kind_index, promo.locs.get(name, promo.loc))
                targets += [self.code(self.kind_index[name], owner) for owner in owners]
            if promo.on_capture_into is not None:
                zone = self.board.term(promo.on_capture_into, army.name)
                self.capture_promotions[self.code(kind.index, army.index)] = (zone, tuple(t for t in targets if t))
            if promo.only_captured:
                self.captured_only.update(t for t in targets if t)
            for name, limit in promo.limits.items():
                if name not in promo.to:
                    raise RulesSemanticError(f"'limit {name}' names a piece this promotion does not choose",
                                             promo.locs.get(name, promo.loc),
                                             expected=f"one of {', '.join(promo.to)}")
                for owner in owners:
                    code = self.code(self.kind_index[name], owner)
                    self.promotion_limits[code] = min(limit, self.promotion_limits.get(code, limit))
            if promo.in_place is not None:
                in_place.append(in_place_promotion(self, promo, army.name, tuple(targets)))
                continue
            cells = self.board.term(promo.cells, army.name)
            arriving = arriving or [()] * self.n
            for cell in cells:
                arriving[cell] = tuple(targets)
            if promo.leaving:
                leaving = leaving or [()] * self.n
                for cell in cells:
                    leaving[cell] = tuple(targets)
        return arriving, leaving, tuple(in_place) or None

    @cached_property
    def tracked(self) -> list[bool]:
        """Per code: does the game need to know whether this piece has moved (it has first-move
        patterns, or it castles)? See :mod:`~interpreter.compiler.rights`."""
        kinds = self.castling_kinds
        return [own or (code > 0 and self.code_kind[code] in kinds) for code, own in enumerate(self.own_mark)]

    @cached_property
    def castling_kinds(self) -> tuple[int, ...]:
        """The kinds whose moving ends a castling right: the castling king's and the rooks' (none
        without a castling rule: a ``castling`` block emptied by a variant that extends another
        leaves its king a king like any other)."""
        if self.castle_king < 0 or not (self.castle_rules or self.castle_locks):
            return ()
        return (self.castle_king, *self.castle_rooks)

    def _compile_castlers(self) -> None:
        """The codes that castle, per army and per code, for make and unmake (after the castling
        rules and the neutral pieces' codes): ``castle_king_codes``, per army the code of its
        castling king (-1 without castling); ``castle_rook_codes``, per army the codes of the pieces
        its king may castle with; ``castler``, per code (0 included: no piece; a neutral piece is
        none) whether it is a castling king or one of its army's castling rooks."""
        self.castle_king_codes = [self.code(self.castle_king, a.index) if self.castling_kinds else -1
                                  for a in self.armies]
        self.castle_rook_codes = [frozenset(self.code(kind, army.index) for kind in self.castle_rooks)
                                  for army in self.armies]
        kings, rooks, armies = self.castle_king_codes, self.castle_rook_codes, len(self.armies)
        self.castler = [0 < code and self.code_army[code] < armies
                        and (code == kings[self.code_army[code]] or code in rooks[self.code_army[code]])
                        for code in range(self.ncodes)]

    def castle_partner_mask(self, army: int, king: int) -> int:
        """The cells (a bit mask) where a rook of ``army`` may stand to castle by some rule with a
        king on ``king`` (:func:`~.castling.partner_mask`); kept per (army, cell) once asked, for
        :func:`~interpreter.engine.rights.dead_marks`, which asks on every move that clears a mark."""
        key = army * self.n + king
        mask = self._partner_masks.get(key)
        if mask is None:
            mask = 0
            for rule in self.castle_rules + self.castle_locks:
                mask |= partner_mask(rule, army, king, self.n)
            self._partner_masks[key] = mask
        return mask

    # ------------------------------------------------------------ rules
    def _compile_rules(self, spec: S.VariantSpec) -> None:
        rules = spec.rules
        self.self_check = "self-check" in rules.forbid
        self.resign_removes_royal = rules.resign == "remove-royal"   # else resigning loses
        self.resign_eliminates = rules.resign == "eliminate"
        self.check_all = rules.royal_check == "all"   # several royal pieces: check only when all are attacked
        self.partner_check = "partner-check" in rules.forbid
        self.count_checks = rules.count_checks
        self.forbid_giving_check = "giving-check" in rules.forbid
        self.forbid_royal_escape = "royal-escape" in rules.forbid
        self.compulsory_capture = rules.compulsory_capture
        self._compile_explosion(rules)
        compile_drops(self, spec.drops)
        compile_gating(self, spec.drops)
        self.gate_codes = sorted({code for gates in self.gates for codes in gates.values() for code in codes})
        compile_neutral_move(self, spec)
        for event in rules.clock_resets:
            if event in ("capture", "promotion", "drop"):
                continue
            if event not in self.kind_index:
                raise unknown_name("piece", event, self.kind_index, rules.locs.get("clock"))
            for code in self.codes_of_kind(self.kind_index[event]):
                self.clock_resets[code] = True
        self.clock_on_capture = "capture" in rules.clock_resets
        self.clock_on_promotion = "promotion" in rules.clock_resets
        self.clock_on_drop = "drop" in rules.clock_resets
        compile_scoring(self, rules)
        self._compile_conditions(rules)
        self.has_immediate_ends = bool(self.immediate_ends)
        self.ends_count_moves = any(counts_moves(rule.condition) for rule in rules.ends)
        self.material_kinds = material_kinds(self, self.insufficient_rules)
        self._compile_passing_and_counting(rules)

    def _compile_conditions(self, rules: S.RulesSpec) -> None:
        """The rules' compiled conditions: ``no_moves``, ``end_rules`` (those that are immediate in
        ``immediate_ends``; for searches that try moves one at a time, ``ends_with_moves``: those
        that may hold while the side to move has a legal move, as a mate or a stalemate needs none),
        ``insufficient_rules`` and ``pass_condition`` (``may pass``: None for always)."""
        self.no_moves = compile_no_moves(self, rules.no_moves)
        self.end_rules = compile_end_rules(self, rules.ends)
        self.immediate_ends = [condition for _, condition, immediate in self.end_rules if immediate]
        self.ends_with_moves = [entry for entry in self.end_rules if not needs_no_moves(entry[0].condition)]
        self.insufficient_rules = compile_insufficient(self, rules.insufficient)
        self.pass_condition = compile_condition(self, rules.passing.condition) if rules.passing else None

    def _compile_passing_and_counting(self, rules: S.RulesSpec) -> None:
        """``may pass``, ``forbid keeping royals facing`` (``apart_rays``: per cell, the rays of the
        family, else None) and what the result ``material`` counts (``material_values`` per code,
        ``material_bonus`` per army)."""
        self.may_pass = rules.passing is not None
        self.apart_rays = (self.family_rays(rules.keep_apart, rules.locs.get("keep_apart"))
                           if rules.keep_apart is not None else None)
        self.material_values = [0.0] + [self.kinds[self.code_kind[c]].value or 0.0 for c in range(1, self.ncodes)]
        names = {army.name: army.index for army in self.armies}
        self.material_bonus = [0.0] * len(self.armies)
        for name, bonus in rules.material_bonus.items():
            if name not in names:
                raise unknown_name("army", name, names, rules.locs.get(f"material_bonus.{name}"))
            self.material_bonus[names[name]] = bonus

    def family_rays(self, family: str, loc=None) -> list[list[list[int]]]:
        """Per cell, the rays of every label of the direction family ``family`` (or of the one label
        ``family``), nearest cell first; an unknown name is an error at ``loc``."""
        board = self.board
        labels = board.families.get(family) or ((family,) if family in board.steps else None)
        if labels is None:
            raise unknown_name("direction", family, list(board.families) + list(board.steps), loc)
        return [[ray for ray in (board.ray(cell, label) for label in labels) if ray] for cell in range(self.n)]

    def _compile_explosion(self, rules: S.RulesSpec) -> None:
        """``blast[cell]``: the cell and its neighbours in every grid direction; ``blast_spares[code]``."""
        self.blast: list[list[int]] | None = None
        self.blast_spares = [False] * self.ncodes
        if rules.explosion is None:
            return
        for name in rules.explosion:
            if name not in self.kind_index:
                raise unknown_name("piece", name, self.kind_index, rules.locs.get("explosion"))
            for code in self.codes_of_kind(self.kind_index[name]):
                self.blast_spares[code] = True
        steps = self.board.steps
        self.blast = [[cell] + [steps[d][cell] for d in steps if steps[d][cell] >= 0] for cell in range(self.n)]

    def _zobrist(self) -> None:
        rng = random.Random(0x5EED)
        bits = ZOBRIST_BITS
        self.z_piece = [rng.getrandbits(bits) for _ in range(self.ncodes * self.n)]
        self.z_unmoved = [rng.getrandbits(bits) for _ in range(self.n)]
        self.z_ep = [rng.getrandbits(bits) for _ in range(self.n)]
        self.z_turn = [rng.getrandbits(bits) for _ in range(len(self.turn_order))]
        # Check counters: one key per army and count (counts past the target share the last key).
        keys = (self.count_checks or 0) + 2
        self.z_checks = [[0] + [rng.getrandbits(bits) for _ in range(keys - 1)] for _ in self.armies]
        # Hands: a key per code and count (up to HAND_LIMIT of a kind), and promoted flags per cell.
        self.z_hand = [[0] + [rng.getrandbits(bits) for _ in range(HAND_LIMIT)] for _ in range(self.ncodes)]
        self.z_promoted = [rng.getrandbits(bits) for _ in range(self.n)]
        self.z_under = [rng.getrandbits(bits) for _ in range(self.ncodes * self.n)]
        self.z_privilege = [rng.getrandbits(bits) for _ in range(self.n)]
        # Stacks higher than two: a key per code and cell for each level below the piece under the top.
        deeper = self.spec.stacking.height - 2 if self.spec.stacking is not None else 0
        self.z_deep = [[rng.getrandbits(bits) for _ in range(self.ncodes * self.n)] for _ in range(max(deeper, 0))]
        # Scores (a key per army and score, see compiler.scoring) and armies out of the game.
        keys = SCORE_KEYS if self.scoring else 1
        self.z_score = [[0] + [rng.getrandbits(bits) for _ in range(keys - 1)] for _ in self.armies]
        self.z_out = [rng.getrandbits(bits) for _ in self.armies]

    # ------------------------------------------------------------ storing
    # The attributes that hold functions made by compiling (closures): a stored game
    # (:mod:`interpreter.loading.stored`) keeps everything else, and :meth:`_link` makes them again.
    _LINKED = ("generators", "noisy_generators", "unchecked_generators", "no_moves", "end_rules", "immediate_ends",
               "ends_with_moves", "insufficient_rules", "pass_condition", "drop_conditions")

    def __getstate__(self) -> dict:
        state = {**_slot_state(self), **self.__dict__}
        return {name: value for name, value in state.items() if name not in self._LINKED}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():   # by name: the compiled base class keeps some in slots
            setattr(self, name, value)
        self._link()

    def _link(self) -> None:
        """Make the closures of a stored game again from its atoms and its Spec: what :meth:`_compile`
        made them from is all kept, so they are the same as a fresh compile's."""
        self._make_generators()
        self._compile_conditions(self.spec.rules)
        compile_drops(self, self.spec.drops)
        self.in_place_promotions = [lines and tuple(relinked(self, line) for line in lines)
                                    for lines in self.in_place_promotions]

    def summary(self) -> str:
        """A one-line summary: cells, pieces, armies."""
        return (f"{self.name}: {self.n} cells, {len(self.kinds)} piece kinds "
                f"({', '.join(k.name for k in self.kinds)}), {len(self.armies)} armies "
                f"({', '.join(a.name for a in self.armies)})")


def _slot_state(game: Game) -> dict[str, object]:
    """The attributes of ``game`` that :class:`~.native_game.NativeGame` declares and that are set,
    by name: in the compiled build they live in slots, outside ``__dict__`` (mypyc lists them in
    ``__mypyc_attrs__``); in pure Python they are in ``__dict__`` as well, and the class's
    annotations name them."""
    names = getattr(NativeGame, "__mypyc_attrs__", None) or tuple(NativeGame.__annotations__)
    return {name: getattr(game, name) for name in names if not name.startswith("__") and hasattr(game, name)}


def variant_loc(spec: S.VariantSpec) -> Loc:
    """Where errors about a variant as a whole point: its name, else the top of its file."""
    return spec.locs.get("name") or Loc(spec.path or f"<{spec.name}>", 1, 1)


def _has_cases(letter: str) -> bool:
    """Whether ``letter`` has an upper- and a lower-case form, one character each, that turn into each
    other (not ``中``, which has no case, nor ``ß``, whose upper case is ``SS``, nor ``ı``)."""
    upper, lower = letter.upper(), letter.lower()
    return len(upper) == len(lower) == 1 and upper != lower and upper.lower() == lower and lower.upper() == upper


def _reach(atoms: list[Atom]):
    """(from, to) pairs the atoms connect on an empty board."""
    for atom in atoms:
        if atom.kind == "leap":
            for frm, row in enumerate(atom.leaps):
                for to, _ in row:
                    yield frm, to
        else:
            for frm, rays in enumerate(atom.rays):
                for ray in rays:
                    for to in ray:
                        yield frm, to
