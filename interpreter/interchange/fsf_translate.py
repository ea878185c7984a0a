"""The translation of a variants.ini section's settings into the declarations of a rules file.

:func:`translate` reads a section's effective settings (its own over those of the sections of the
file it inherits from) and builds a :class:`Translation`: keyed declarations (:class:`Decl`), so that
a child section's file can say only what differs from its parent's, and interpretation lines. Over
Fairy-Stockfish's template every rule is written out; over one of its built-in variants (a bundled
variant of that game, :func:`bundled_counterpart`) only the settings given are translated, as
changes to the bundled Spec: its pieces found by letter or by kind, its pawn redeclared through
:mod:`.spec_text`, its end rules found by what their conditions read. A setting that cannot be
expressed raises :class:`Refusal`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NoReturn

from dsl import spec as S
from dsl.errors import Loc, RulesError, clip

from . import spec_text
from .fsf_ini import Section, Setting
from .fsf_settings import (CUSTOM_PIECE, DEFAULTS, DISPLAY_ONLY, EMPTY_VALUES, NOT_MODELLED, OPPOSITE,
                           OWN_KIND_HOPPERS, PIECE_TYPES, RESULTS, UNSUPPORTED, castling_field, fen_fields, our_fen, plain_text)


class Refusal(Exception):
    """A section that cannot be imported: the ``setting`` (a key, or what the section needs) and why."""

    def __init__(self, setting: str, reason: str, loc: Loc | None = None) -> None:
        super().__init__(f"{setting}: {reason}")
        self.setting, self.reason, self.loc = setting, reason, loc

    def __str__(self) -> str:
        where = f"{self.loc.path}:{self.loc.line}: " if self.loc else ""
        return f"{where}{self.setting}: {self.reason}"


def bundled_counterpart(name: str) -> str | None:
    """Our bundled variant of Fairy-Stockfish's built-in variant ``name``: the bundled variant of that
    name, or the one that lists it among its aliases; None when there is none."""
    from dsl.catalogue import bundled_aliases, bundled_names

    if name in bundled_names():
        return name
    return bundled_aliases().get(name)


# ------------------------------------------------------------------ declarations


@dataclass(frozen=True)
class Decl:
    """One declaration of a generated file, keyed so that a child section's file can declare only what
    differs from its parent's: ``key`` (its identity), ``text`` and ``forget`` (the line that drops it,
    None when it cannot be dropped). Keys ``("zone", ...)`` go in a ``board`` block, ``("rule", ...)``
    in a ``rules`` block."""

    key: tuple[str, ...]
    text: str
    forget: str | None = None


@dataclass
class Translation:
    """The declarations of one section (in order) and its interpretation lines."""

    decls: dict[tuple[str, ...], Decl] = field(default_factory=dict)
    interpretations: list[str] = field(default_factory=list)

    def add(self, key: tuple[str, ...], text: str, forget: str | None = None) -> None:
        self.decls[key] = Decl(key, text, forget)


@dataclass
class _Piece:
    """A piece of the translated game: its ``name``, FEN ``letter`` (lower case, or ``+x``), Betza
    ``lines`` (each a line of the ``piece`` block), ``royal`` and Fairy-Stockfish ``kind``."""

    name: str
    letter: str
    kind: str
    lines: list[str] = field(default_factory=list)
    promotions: list[str] = field(default_factory=list)
    royal: bool = False
    inherits: bool = True
    """A built-in's piece redefined keeps its promotions unless the section changes them."""


class _Config:
    """The effective settings of a section (its own over its in-file ancestors'), read with checks."""

    def __init__(self, settings: dict[str, Setting]) -> None:
        self.settings = settings

    def loc(self, key: str) -> Loc | None:
        """Where ``key`` is set (None: not set, its default applies)."""
        return self.settings[key].loc if key in self.settings else None

    def raw(self, key: str) -> str:
        """The value of ``key`` as written, or its default (``""`` for a setting without one)."""
        return self.settings[key].value if key in self.settings else DEFAULTS.get(key, "")

    def flag(self, key: str) -> bool:
        """A bool setting; another word than true or false refuses the section."""
        value = self.raw(key).lower()
        if value not in ("true", "false"):
            raise Refusal(key, f"{clip(value)!r} is not true or false", self.loc(key))
        return value == "true"

    def number(self, key: str, most: int = 10_000) -> int:
        """A whole-number setting of at most ``most``; anything else refuses the section."""
        value = self.raw(key)
        if not value.isdigit() or int(value) > most:
            raise Refusal(key, f"{clip(value)!r} is not a whole number up to {most}", self.loc(key))
        return int(value)

    def result(self, key: str) -> str | None:
        """A Value setting as our result word (win, loss, draw), None for ``none``."""
        value = self.raw(key).lower()
        if value == "none":
            return None
        if value not in RESULTS:
            raise Refusal(key, f"{clip(value)!r} is not win, loss, draw or none", self.loc(key))
        return RESULTS[value]


# ------------------------------------------------------------------ the translation


class _Translator:
    """Builds the :class:`Translation` of one section's effective settings.

    ``base`` is the Spec of the bundled variant a built-in parent maps to (then only the settings given
    in the sections are translated, as changes to it), or None (Fairy-Stockfish's template: every rule
    is written out).
    """

    def __init__(self, config: _Config, base: S.VariantSpec | None, base_name: str | None) -> None:
        self.c, self.base, self.base_name = config, base, base_name
        self.t = Translation()
        self.pieces: dict[str, _Piece] = {}          # by letter
        self.files = 8
        self.ranks = 8
        self.checks: str | None = None              # the check-count field of the start position
        self.replaced: set[str] = set()              # a built-in's pieces whose letter now names another kind

    # -------------------------------------------------- entry

    def run(self) -> Translation:
        """Translate every setting, in the order declarations depend on one another."""
        self._check_settings()
        self._board()
        self._pieces()
        self._setup()
        if self.base is None:
            self._pawn_moves()
            self._promotions()
        else:
            self._base_pawns()
        self._castling()
        self._drops()
        self._immobility()
        self._rules()
        self._emit_pieces()
        return self.t

    def _check_settings(self) -> None:
        """Refuse unknown keys and settings with no counterpart; note the adjudication rules left out."""
        for key, setting in self.c.settings.items():
            if key in DISPLAY_ONLY:
                continue
            known = (key in DEFAULTS or key in PIECE_TYPES or key in OWN_KIND_HOPPERS or key in UNSUPPORTED
                     or CUSTOM_PIECE.match(key) or key.startswith("mobilityRegion") or key in _PER_COLOUR_KEYS)
            if not known:
                raise Refusal(key, "not a setting this importer knows (Fairy-Stockfish's header documents "
                                   "the settings of its version)", setting.loc)
            if key in UNSUPPORTED and setting.value != DEFAULTS.get(key, "") and setting.value.lower() not in EMPTY_VALUES:
                raise Refusal(key, UNSUPPORTED[key], setting.loc)
            side = re.fullmatch(r"(promotionPawnTypes|promotionPieceTypes|enPassantTypes|nMoveRuleTypes)(White|Black)", key)
            if side and setting.value.lower() != self.c.raw(side.group(1)).lower():
                raise Refusal(key, "piece sets that differ between the two sides have no counterpart", setting.loc)
            if key.startswith("enPassantTypes") and setting.value.lower() != (self.c.raw("pawnTypes").lower() or "p"):
                raise Refusal(key, "en passant taken by other pieces than the pawn kinds is not imported", setting.loc)
            if key in NOT_MODELLED and setting.value.lower() not in ("false", "none", ""):
                note = f"{key} = {plain_text(setting.value, 30)}: {NOT_MODELLED[key]}."
                if note not in self.t.interpretations:
                    self.t.interpretations.append(note)

    # -------------------------------------------------- board

    def _board(self) -> None:
        """The grid: the section's size; over a built-in, its grid unless the section gives another size
        (then its zones are declared again on the new grid)."""
        if self.base is None:
            self.files, self.ranks = self._size("maxFile"), self._size("maxRank")
            self.t.add(("board",), f"grid {self.files} x {self.ranks}")
            return
        generator = self.base.board.generator
        if not isinstance(generator, S.GridGen):
            raise Refusal("parent", f"the bundled '{self.base_name}' is not a rectangular grid")
        self.files = self._size("maxFile") if "maxFile" in self.c.settings else generator.files
        self.ranks = self._size("maxRank") if "maxRank" in self.c.settings else generator.ranks
        if (self.files, self.ranks) != (generator.files, generator.ranks):
            self.t.add(("board",), f"grid {self.files} x {self.ranks}")
            self._reprint_zones()

    def _reprint_zones(self) -> None:
        """A new board for a built-in parent's game: its zones, declared again on it (as Fairy-Stockfish
        keeps the built-in's regions on a board of another size)."""
        assert self.base is not None
        if self.base.board.directions or self.base.board.removes or self.base.board.attributes:
            self._refuse_base_change("maxFile" if "maxFile" in self.c.settings else "maxRank")
        for zone in self.base.board.zones.values():
            try:
                if zone.shared is not None:
                    text = f"zone {zone.name}: {self._clipped(zone.shared)}"
                else:
                    parts = "  ".join(f"{army}: {self._clipped(cells)}" for army, cells in zone.per_army.items()
                                      if self._clipped(cells))
                    text = f"zone {zone.name} {{ {parts} }}"
            except spec_text.Unprintable as err:
                raise Refusal("maxRank", f"the bundled '{self.base_name}' has {err}") from None
            self.t.add(("zone", zone.name), text, f"forget zone {zone.name}")

    def _clipped(self, cells: S.CellSet) -> str:
        """A bundled zone's cells on the new board: the terms that name cells off it left out."""
        def on_board(term: S.CellTerm) -> S.CellTerm | None:
            if term.kind in ("rank", "ranks") and term.lo is not None and term.lo > self.ranks:
                return None
            if term.kind == "ranks" and term.hi is not None and term.hi > self.ranks:
                return term.model_copy(update={"hi": self.ranks})
            if term.kind in ("file", "files") and ord(str(term.a)) - ord("a") >= self.files:
                return None
            if term.kind == "files" and ord(str(term.b)) - ord("a") >= self.files:
                return term.model_copy(update={"b": chr(ord("a") + self.files - 1)})
            if term.kind in ("named", "rect"):
                corners = [term.a] + ([term.b] if term.kind == "rect" else [])
                off = [c for c in corners if not _on_board(str(c), self.files, self.ranks)]
                if off and term.kind == "rect":
                    raise spec_text.Unprintable(f"a rectangle of cells off the new board ({term.a}..{term.b})")
                return None if off else term
            return term
        include = [t for t in map(on_board, cells.include) if t is not None]
        if not include:
            return ""
        exclude = [t for t in map(on_board, cells.exclude) if t is not None]
        return spec_text.cell_set(S.CellSet(include=include, exclude=exclude))

    def _size(self, key: str) -> int:
        """maxFile (a number or a letter) or maxRank as a number from 1 to 12."""
        value = self.c.raw(key).lower()
        if key == "maxFile" and len(value) == 1 and "a" <= value <= "z":
            number = ord(value) - ord("a") + 1
        elif value.isdigit():
            number = int(value)
        else:
            raise Refusal(key, f"{clip(value)!r} is not a board size", self.c.loc(key))
        if not 1 <= number <= 12:
            raise Refusal(key, f"{number}: Fairy-Stockfish's boards have 1 to 12 files and ranks", self.c.loc(key))
        return number

    def _file(self, key: str) -> str:
        """A file setting (``g`` or ``7``) as its letter."""
        value = self.c.raw(key).lower()
        number = int(value) if value.isdigit() else (ord(value) - ord("a") + 1 if len(value) == 1 else 0)
        if not 1 <= number <= self.files:
            raise Refusal(key, f"{clip(value)!r} is not a file of the board", self.c.loc(key))
        return chr(ord("a") + number - 1)

    def _region(self, key: str) -> list[str]:
        """A Bitboard setting as cell terms (``rank 8``, ``file a``, ``d4``); empty for ``-``."""
        value = self.c.raw(key)
        terms: list[str] = []
        for token in value.split():
            if token in ("-", "none"):
                continue
            match = re.fullmatch(r"([a-l*])(\d{1,2}|\*)", token.lower())
            if match is None:
                raise Refusal(key, f"{clip(token)!r} is not a square, *RANK or FILE*", self.c.loc(key))
            file, rank = match.groups()
            if file != "*" and ord(file) - ord("a") >= self.files or rank != "*" and not 1 <= int(rank) <= self.ranks:
                continue    # off the board: Fairy-Stockfish's bitboards have no such square either
            if file == "*" and rank == "*":
                terms.append("all")
            elif file == "*":
                terms.append(f"rank {int(rank)}")
            elif rank == "*":
                terms.append(f"file {file}")
            else:
                terms.append(f"{file}{int(rank)}")
        return terms

    def _zone(self, name: str, white: list[str], black: list[str]) -> str:
        """Declare a per-army zone (an army with no cells is left out of it); return its name, which is
        ``fsf_`` and ``name`` where the built-in parent has a zone ``name`` of its own."""
        if self.base is not None and name in self.base.board.zones:
            name = f"fsf_{name}"
        parts = "  ".join(f"{army}: {', '.join(cells)}" for army, cells in (("white", white), ("black", black))
                          if cells)
        self.t.add(("zone", name), f"zone {name} {{ {parts} }}", f"forget zone {name}")
        return name

    def _colour_region(self, key: str) -> tuple[list[str], list[str]]:
        """The cell terms of ``keyWhite`` and ``keyBlack``."""
        return self._region(key + "White"), self._region(key + "Black")

    # -------------------------------------------------- pieces

    def _piece_settings(self) -> list[tuple[str, str, str | None, Setting]]:
        """(kind, letter, custom Betza or None, setting) of every piece setting; ``-`` letters mean removal."""
        found = []
        for key, setting in self.c.settings.items():
            custom = CUSTOM_PIECE.match(key)
            if key not in PIECE_TYPES and key not in OWN_KIND_HOPPERS and not custom:
                continue
            value = setting.value.strip()
            match = re.fullmatch(r"([a-zA-Z+-])(?::(.*))?", value)
            if match is None:
                raise Refusal(key, f"{clip(value)!r} is not a letter with an optional ':Betza'", setting.loc)
            letter, betza = match.group(1).lower(), match.group(2)
            if custom and betza is None and letter != "-":
                raise Refusal(key, "a custom piece needs its Betza notation", setting.loc)
            if betza is not None and key not in ("king",) and not custom:
                raise Refusal(key, "only custom pieces and the king take a Betza notation", setting.loc)
            found.append((key, letter, betza, setting))
        return found

    def _pieces(self) -> None:
        """The section's pieces by letter (``-`` removes a kind); an initial move outside a pawn kind's double step
        refuses the section."""
        base_letters = self._base_letters()
        pawn_types = self._letters("pawnTypes", default=None)
        for kind, letter, betza, setting in self._piece_settings():
            if letter == "-":
                self._remove_kind(kind, base_letters)
                continue
            if kind == "pawn" and betza is None and letter == "p" and "p" in base_letters:
                continue        # a built-in's own pawn named again: it stays as it is
            name = self._piece_name(kind, letter, base_letters)
            if letter in base_letters and self._base_piece_of_kind(kind) is not base_letters[letter]:
                self.replaced.add(name)     # the built-in's kind of that letter is gone, and with it its uses
            piece = _Piece(name, letter, kind, royal=kind == "king")
            self._moves(piece, betza, setting, pawn_types)
            self.pieces[letter] = piece
        self._mark_pawns(pawn_types)
        for piece in self.pieces.values():
            initial = [a for line in piece.lines for a in _atoms(line.split('"')[1]) if "i" in a.rstrip("0123456789")[:-1]]
            if initial:
                raise Refusal(piece.kind, f"the initial move {initial[0]!r} of a piece other than a pawn kind's double "
                              "step is not imported (Fairy-Stockfish keeps no first-move state for it)",
                              self.c.loc(piece.kind))

    def _base_letters(self) -> dict[str, S.PieceSpec]:
        """The built-in parent's pieces by lower-case letter (empty without a parent)."""
        if self.base is None:
            return {}
        return {(p.letter or p.name[0]).lower(): p for p in self.base.pieces.values()}

    def _remove_kind(self, kind: str, base_letters: dict[str, S.PieceSpec]) -> None:
        """``KIND = -``: the section's piece of that kind is dropped, and a built-in's is forgotten."""
        for letter, piece in list(self.pieces.items()):
            if piece.kind == kind:
                del self.pieces[letter]
        old = self._base_piece_of_kind(kind)
        if old is not None and old.name not in {p.name for p in self.pieces.values()}:
            self.t.add(("forget", "piece", old.name), f"forget piece {old.name}")

    def _base_piece_of_kind(self, kind: str) -> S.PieceSpec | None:
        """The built-in parent's piece of a Fairy-Stockfish kind: its royal piece for ``king``, its P for
        ``pawn``, else the piece whose Betza lines (without options) make exactly the kind's moves."""
        from dsl.betza import parse_betza

        if self.base is None:
            return None
        pieces = list(self.base.pieces.values())
        if kind == "king":
            royals = [p for p in pieces if p.royal]
            return royals[0] if len(royals) == 1 else None
        if kind == "pawn" or kind not in PIECE_TYPES or not PIECE_TYPES[kind]:
            return self._base_letters().get("p") if kind == "pawn" else None
        wanted = frozenset(parse_betza(PIECE_TYPES[kind]))
        for piece in pieces:
            plain = [m.pattern.text for m in piece.moves if isinstance(m.pattern, S.BetzaPattern)
                     and spec_text.move(m) == f'betza "{m.pattern.text}"']
            if plain and len(plain) == len(piece.moves) and not piece.royal and frozenset(
                    atom for text in plain for atom in parse_betza(text)) == wanted:
                return piece
        return None

    def _piece_name(self, kind: str, letter: str, base_letters: dict[str, S.PieceSpec]) -> str:
        """The name of a piece the section declares: a built-in parent's piece of that letter, or of that
        kind (Fairy-Stockfish gives a kind one letter), keeps its name; else the kind's name."""
        old = base_letters.get(letter) or self._base_piece_of_kind(kind)
        if old is not None:
            self.t.decls.pop(("forget", "piece", old.name), None)
            return old.name
        name = kind[0].upper() + kind[1:]
        taken = {p.name for p in self.pieces.values()} | {p.name for p in base_letters.values()}
        if name in taken:
            name = f"{name}{letter.upper()}"
        return name

    def _moves(self, piece: _Piece, betza: str | None, setting: Setting, pawn_types: set[str] | None) -> None:
        """The piece's Betza lines: its kind's moves or its own, each atom checked by our Betza parser (an atom it
        refuses refuses the section); a hopper of :data:`OWN_KIND_HOPPERS` hops over and takes no piece of its
        own kind."""
        from dsl.betza import parse_betza

        if piece.kind == "pawn":
            piece.lines = ['betza "fmW"', 'betza "fcF"']
            return
        if piece.kind in OWN_KIND_HOPPERS and betza is None:
            piece.lines = [f'betza "{OWN_KIND_HOPPERS[piece.kind]}": hurdle not {piece.name}, takes not {piece.name}']
            return
        text = PIECE_TYPES.get(piece.kind, "") if betza is None else betza
        plain, special = _split_betza(text)
        for atom in [plain] + [s for s, _ in special]:
            if atom:
                try:
                    parse_betza(atom)
                except RulesError as err:
                    raise Refusal(setting.key, f"Betza {clip(text)!r}: {err.message}", setting.loc) from None
        if plain:
            piece.lines.append(f'betza "{plain}"')
        for atom, options in special:
            piece.lines.append(f'betza "{atom}": {", ".join(options)}')

    def _letters(self, key: str, default: set[str] | None) -> set[str] | None:
        """A PieceSet setting as letters; None when not given (``default`` then decides)."""
        if key not in self.c.settings:
            return default
        value = self.c.raw(key).lower()
        if value in EMPTY_VALUES:
            return set()
        if not re.fullmatch(r"[a-z*]+", value):
            raise Refusal(key, f"{clip(value)!r} is not a set of piece letters", self.c.loc(key))
        return set(value)

    def _mark_pawns(self, pawn_types: set[str] | None) -> None:
        """Pieces of ``pawnTypes`` (default: the pawn kind) take en passant with their ``e`` moves already;
        their forward initial two-steps (``ifmnD``) are double steps: from the double-step region, as
        Fairy-Stockfish's pawns make them, setting en passant."""
        for letter, piece in self.pieces.items():
            is_pawn = piece.kind == "pawn" if pawn_types is None else letter in pawn_types
            if is_pawn and piece.kind != "pawn":
                piece.lines = [new for line in piece.lines for new in self._double_steps(line)]

    def _double_steps(self, line: str) -> list[str]:
        """A line of a pawn-type piece with its initial forward quiet two-steps on lines of their own."""
        betza = line.split('"')[1]
        atoms = _atoms(betza)
        steps = [a for a in atoms if re.fullmatch(r"[a-z]*D", a) and {"i", "f", "m"} <= set(a)]
        if not steps or ":" in line:
            return [line]
        rest = "".join(a for a in atoms if a not in steps)
        region = self._double_step_zone()
        return ([f'betza "{rest}"'] if rest else []) + [
            f'betza "{a.replace("i", "")}": ' + (f"from zone {region}, " if region else "") + "sets en passant"
            for a in steps]

    def _double_step_zone(self) -> str | None:
        """The zone of the double steps: the built-in parent's (where its pawns' double step starts), else
        one made from the double-step regions; None when there is none."""
        if self.base is not None:
            for piece in self.base.pieces.values():
                for move in piece.moves:
                    if move.sets_en_passant and move.from_cells is not None and move.from_cells.kind == "zone":
                        return move.from_cells.a
            self._refuse_base_change("doubleStepRegionWhite")
        white, black = self._colour_region("doubleStepRegion")
        return self._zone("double_step", white, black) if (white or black) else None

    def _pawn_letters(self, key: str) -> set[str]:
        """The letters of a pawn-type set (``promotionPawnTypes``...), defaulting to ``pawnTypes`` and then
        to the pieces of the pawn kind."""
        pawn_types = self._letters("pawnTypes", default=None)
        default = pawn_types if pawn_types is not None else {l for l, p in self.pieces.items() if p.kind == "pawn"}
        found = self._letters(key, default=default)
        return set(found or ())

    def _name(self, letter: str, key: str) -> str:
        """The name of the piece of ``letter`` (the section's or the built-in parent's), for ``key``."""
        if letter in self.pieces:
            return self.pieces[letter].name
        base = self._base_letters()
        if letter in base and ("forget", "piece", base[letter].name) not in self.t.decls:
            return base[letter].name
        raise Refusal(key, f"no piece has the letter {letter!r}", self.c.loc(key))

    # -------------------------------------------------- pawns and promotion

    def _pawn_moves(self) -> None:
        """The double and triple steps of the pawn kind, and their regions."""
        for piece in self.pieces.values():
            if piece.kind != "pawn":
                continue
            ep = 'betza "fcF": en passant'
            piece.lines = ['betza "fmW"', ep]
            if self.c.flag("doubleStep"):
                white, black = self._colour_region("doubleStepRegion")
                if white or black:
                    zone = self._zone("double_step", white, black)
                    piece.lines.append(f'betza "fmnD": from zone {zone}, sets en passant')
            white, black = self._colour_region("tripleStepRegion")
            if white or black:
                zone = self._zone("triple_step", white, black)
                piece.lines.append(f'betza "fmnH": from zone {zone}, sets en passant')

    def _promotions(self) -> None:
        """The pawn kinds' promotion in the promotion region, to the listed choices; a pawn kind with a
        compulsory promotion and no choice may not enter the region at all, as in Fairy-Stockfish."""
        white, black = self._colour_region("promotionRegion")
        zone = self._zone("promotion", white, black) if (white or black) else None
        pawns = self._pawn_letters("promotionPawnTypes")
        targets = self._letters("promotionPieceTypes", default=set()) or set()
        names = [self._name(l, "promotionPieceTypes") for l in sorted(targets, key=_promotion_order)]
        optional = "" if self.c.flag("mandatoryPawnPromotion") else ": optional"
        promoted = self._promoted_types()
        for letter in sorted(pawns):
            if letter not in self.pieces:
                raise Refusal("promotionPawnTypes", f"no piece has the letter {letter!r}",
                              self.c.loc("promotionPawnTypes") or self.c.loc("pawnTypes"))
            if names and zone and letter not in promoted:
                self.pieces[letter].promotions.append(f"promotes in zone {zone} to {', '.join(names)}{optional}")
            elif zone and letter not in promoted and not optional:
                self._no_choice(self.pieces[letter], zone)
        if promoted and zone is None:
            raise Refusal("promotedPieceType", "promotions with no promotion region", self.c.loc("promotedPieceType"))
        for letter, target in promoted.items():
            self._piece_promotion(letter, target, f"zone {zone}")

    def _no_choice(self, piece: _Piece, zone: str) -> None:
        """A pawn kind with a compulsory promotion and no choice: it may not move into the region, yet
        it attacks there (Fairy-Stockfish's pawn checks a king on the last rank all the same). Written as
        a compulsory promotion whose one choice is never available (``limit ... to 0``)."""
        other = next((p.name for p in self.pieces.values() if p is not piece and not p.letter.startswith("+")), None)
        if other is None:
            raise Refusal("promotionPieceTypes", "a pawn with no promotion choice in a game of no other piece",
                          self.c.loc("promotionPieceTypes"))
        piece.promotions.append(f"promotes in zone {zone} to {other}: limit {other} to 0")
        note = (f"{piece.name} has no promotion choice (the section lists none): it may not move into the promotion "
                f"region, written as a promotion to {other} that is never available (limit 0).")
        if note not in self.t.interpretations:
            self.t.interpretations.append(note)

    def _base_pawns(self) -> None:
        """The pawn settings a child of a built-in changes, applied to the bundled parent's pawn (its
        piece of the letter P), declared again with the change; the pawn settings with no bundled
        counterpart to change refuse the section."""
        assert self.base is not None
        for key in ("enPassantTypes", "nMoveRuleTypes", "pawnTypes", "promotionPawnTypes"):
            value = self.c.raw(key).lower()
            if key in self.c.settings and not (value == "p" or (key == "promotionPawnTypes" and value in EMPTY_VALUES)):
                self._refuse_base_change(key)
        if any(p.kind == "pawn" for p in self.pieces.values()):
            self._refuse_base_change("pawn")
        changed = [k for k in _PAWN_KEYS if k in self.c.settings]
        pawn = self._base_letters().get("p")
        if changed:
            if pawn is None:
                self._refuse_base_change(changed[0])
            redefined = self.pieces.get("p")
            try:
                promotions = self._base_pawn_promotions(pawn)
                if redefined is not None:       # the section's own pawn, with the built-in's promotion changed
                    if set(changed) - _PROMOTION_KEYS:
                        self._refuse_base_change(sorted(set(changed) - _PROMOTION_KEYS)[0])
                    redefined.promotions, redefined.inherits = promotions, False
                else:
                    self.pieces["p"] = _Piece(pawn.name, "p", "", self._base_pawn_moves(pawn), promotions,
                                              royal=pawn.royal, inherits=False)
            except spec_text.Unprintable as err:
                raise Refusal(changed[0], f"the bundled pawn of '{self.base_name}' has {err}",
                              self.c.loc(changed[0])) from None
        self._base_promoted_types(pawn)
        self._drop_replaced_choices()

    def _kept_promotions(self, promotions: list[S.PromotionSpec]) -> list[str]:
        """A built-in's promotion lines without the choices whose kind the section gave away (Fairy-Stockfish's
        promotion choices are kinds: a letter given to another kind takes the old one out of them)."""
        kept = [p.model_copy(update={"to": [n for n in p.to if n not in self.replaced]}) for p in promotions]
        return [spec_text.promotion(p) for p in kept if p.to]

    def _drop_replaced_choices(self) -> None:
        """The built-in's pieces that promote to a kind the section gave away, declared again without it."""
        assert self.base is not None
        if not self.replaced:
            return
        declared = {p.name for p in self.pieces.values()} | {k[2] for k in self.t.decls if k[:2] == ("forget", "piece")}
        for old in self.base.pieces.values():
            if old.name in declared or not any(set(p.to) & self.replaced for p in old.promotions):
                continue
            try:
                self.pieces[(old.letter or old.name[0]).lower()] = _Piece(
                    old.name, (old.letter or old.name[0]).lower(), "", [spec_text.move(m) for m in old.moves],
                    self._kept_promotions(old.promotions), royal=old.royal, inherits=False)
            except spec_text.Unprintable as err:
                raise Refusal("pieces", f"the bundled piece {old.name} has {err}") from None

    def _base_promoted_types(self, pawn: S.PieceSpec | None) -> None:
        """Shogi's promotion given to a built-in's pieces (or the section's): in the section's promotion
        region, else where the bundled pawn promotes."""
        promoted = self._promoted_types()
        if not promoted:
            if "mandatoryPiecePromotion" in self.c.settings:
                self._refuse_base_change("mandatoryPiecePromotion")    # the built-in's own piece promotions
            return
        if "promotionRegionWhite" in self.c.settings or "promotionRegionBlack" in self.c.settings:
            if pawn is None:
                self._refuse_base_change("promotedPieceType")
            term = f"zone {self._zone('promotion', *self._base_region('promotionRegion', pawn, double_step=False))}"
        elif pawn is not None and pawn.promotions:
            term = spec_text.cell_term(pawn.promotions[-1].cells)
        else:
            self._refuse_base_change("promotedPieceType")
        for letter, target in promoted.items():
            self._materialise(letter)
            self._materialise(target)
            self._piece_promotion(letter, target, term)

    def _materialise(self, letter: str) -> None:
        """A built-in's piece of ``letter`` taken among the section's pieces, to be declared again."""
        if letter in self.pieces:
            return
        old = self._base_letters().get(letter)
        if old is None:
            raise Refusal("promotedPieceType", f"no piece has the letter {letter!r}", self.c.loc("promotedPieceType"))
        try:
            lines = [spec_text.move(m) for m in old.moves]
            promotions = [spec_text.promotion(p) for p in old.promotions]
        except spec_text.Unprintable as err:
            raise Refusal("promotedPieceType", f"the bundled piece {old.name} has {err}",
                          self.c.loc("promotedPieceType")) from None
        self.pieces[letter] = _Piece(old.name, letter, "", lines, promotions, royal=old.royal, inherits=False)

    def _base_pawn_moves(self, pawn: S.PieceSpec) -> list[str]:
        """The bundled pawn's moves with the section's double and triple steps."""
        double = self.c.flag("doubleStep")
        region = None
        if "doubleStepRegionWhite" in self.c.settings or "doubleStepRegionBlack" in self.c.settings:
            region = self._zone("double_step", *self._base_region("doubleStepRegion", pawn, double_step=True))
        moves = []
        for move in pawn.moves:
            if move.sets_en_passant and not double:
                continue
            if move.sets_en_passant and region:
                move = move.model_copy(update={"from_cells": S.CellTerm(kind="zone", a=region)})
            moves.append(spec_text.move(move))
        white, black = self._colour_region("tripleStepRegion")
        if white or black:
            moves.append(f'betza "fmnH": from zone {self._zone("triple_step", white, black)}, sets en passant')
        return moves

    def _base_pawn_promotions(self, pawn: S.PieceSpec) -> list[str]:
        """The bundled pawn's promotion with the section's choices, region and compulsion (none for
        ``promotionPawnTypes = -``)."""
        if "promotionPawnTypes" in self.c.settings and self.c.raw("promotionPawnTypes").lower() in EMPTY_VALUES:
            return []
        olds = pawn.promotions or [S.PromotionSpec(cells=S.CellTerm(kind="all"), to=[])]
        if len(olds) > 1:
            self._refuse_base_change("promotionPieceTypes")
        old = olds[0]
        update: dict = {}
        if "promotionPieceTypes" in self.c.settings:
            letters = self._letters("promotionPieceTypes", default=set()) or set()
            update["to"] = [self._name(l, "promotionPieceTypes") for l in sorted(letters, key=_promotion_order)]
        else:
            update["to"] = [n for n in old.to if n not in self.replaced]
        if "promotionRegionWhite" in self.c.settings or "promotionRegionBlack" in self.c.settings:
            zone = self._zone("promotion", *self._base_region("promotionRegion", pawn, double_step=False))
            update["cells"] = S.CellTerm(kind="zone", a=zone)
        if "mandatoryPawnPromotion" in self.c.settings:
            update["optional"] = not self.c.flag("mandatoryPawnPromotion")
        new = old.model_copy(update=update)
        if not new.to or (not pawn.promotions and "cells" not in update):
            return []
        return [spec_text.promotion(new)]

    def _base_region(self, key: str, pawn: S.PieceSpec, double_step: bool) -> tuple[list[str], list[str]]:
        """A per-colour region a child sets for a built-in's pawn; a colour it leaves out keeps the
        built-in's cells (those of the zone the bundled pawn uses for it)."""
        assert self.base is not None
        white, black = self._colour_region(key)
        sides = {"white": (key + "White", white), "black": (key + "Black", black)}
        for army, (name, cells) in sides.items():
            if name in self.c.settings:
                continue
            term = next((m.from_cells for m in pawn.moves if m.sets_en_passant), None) if double_step else (
                pawn.promotions[0].cells if pawn.promotions else None)
            zone = self.base.board.zones.get(str(term.a)) if term is not None and term.kind == "zone" else None
            if zone is None or army not in zone.per_army:
                self._refuse_base_change(name)
            cells.append(spec_text.cell_set(zone.per_army[army]))
        return white, black

    def _promoted_types(self) -> dict[str, str]:
        """promotedPieceType as letter -> letter of the kind it promotes to."""
        value = self.c.raw("promotedPieceType")
        table: dict[str, str] = {}
        for token in value.split():
            match = re.fullmatch(r"([a-z]):([a-z])", token.lower())
            if match is None:
                raise Refusal("promotedPieceType", f"{clip(token)!r} is not 'from:to'", self.c.loc("promotedPieceType"))
            table[match.group(1)] = match.group(2)
        return table

    def _piece_promotion(self, letter: str, target: str, cells: str) -> None:
        """Shogi's promotion: the piece may (or with mandatoryPiecePromotion must) become a promoted kind
        written ``+X``, which moves as ``target`` and goes back to the piece when captured into a hand."""
        if letter not in self.pieces or target not in self.pieces:
            raise Refusal("promotedPieceType", f"no piece has the letter {letter if letter not in self.pieces else target!r}",
                          self.c.loc("promotedPieceType"))
        piece, like = self.pieces[letter], self.pieces[target]
        if any("en passant" in line for line in piece.lines) and self._en_passant_into_region():
            raise Refusal("promotedPieceType", f"an en passant capture into the promotion region promotes "
                          f"{piece.name} here, but not in Fairy-Stockfish", self.c.loc("promotedPieceType"))
        promoted = _Piece(f"Promoted{piece.name}", "+" + letter, like.kind, list(like.lines), royal=False)
        self.pieces["+" + letter] = promoted
        mandatory = self.c.flag("mandatoryPiecePromotion")
        piece.promotions.append(f"promotes in {cells} to {promoted.name}: "
                                + ("also leaving" if mandatory else "optional, also leaving"))
        dead = _dead_ranks([line.split('"')[1] for line in piece.lines])
        if dead and not mandatory and self.c.flag("immobilityIllegal"):
            zone = self._zone(f"last_{dead}", *self._last_ranks(dead))
            piece.promotions.append(f"promotes in zone {zone} to {promoted.name}")


    def _immobility(self) -> None:
        """With immobilityIllegal, a piece may not move to where it could never move again: the section's
        pieces that only move forward and do not promote get ``to`` the ranks before those (a promoting
        piece is already made to promote there)."""
        if not self.c.flag("immobilityIllegal"):
            return
        for piece in self.pieces.values():
            dead = _dead_ranks([line.split('"')[1] for line in piece.lines])
            if not dead or piece.promotions:
                continue
            if any(" to " in line for line in piece.lines):
                raise Refusal("immobilityIllegal", f"{piece.name} has a mobility region too",
                              self.c.loc("immobilityIllegal"))
            white, black = self._last_ranks(dead)
            zone = self._zone(f"alive_{dead}", [f"all except {white[0]}"], [f"all except {black[0]}"])
            piece.lines = [_with_option(line, f"to zone {zone}") for line in piece.lines]

    def _en_passant_into_region(self) -> bool:
        """Whether a pawn's en passant capture may end in its promotion region: White's takes on the rank
        behind a black double step (the sixth of eight), Black's on the third; regions read from the
        section (a region it does not set is taken not to reach there)."""
        white = {int(t.split()[-1]) for t in self._colour_region("promotionRegion")[0] if t.startswith("rank ")}
        black = {int(t.split()[-1]) for t in self._colour_region("promotionRegion")[1] if t.startswith("rank ")}
        return self.ranks - 2 in white or 3 in black

    def _last_ranks(self, count: int) -> tuple[list[str], list[str]]:
        """The last ``count`` ranks of each army, as cell terms."""
        return ([f"ranks {self.ranks - count + 1}..{self.ranks}" if count > 1 else f"rank {self.ranks}"],
                [f"ranks 1..{count}" if count > 1 else "rank 1"])

    # -------------------------------------------------- setup

    def _setup(self) -> None:
        """The start position: the section's startFen in our dialect (a built-in parent's setup stays,
        unless the section ends its castling: then it is written again without castling rights)."""
        if self.base is not None and "startFen" not in self.c.settings:
            if self._castles() or self.base.castling is None:
                return
            if self.base.setup.fen is None:
                raise Refusal("castling", f"the bundled '{self.base_name}' has no setup position to take the "
                                          "castling rights from", self.c.loc("castling"))
            fen = self.base.setup.fen
        else:
            fen = self.c.raw("startFen")
        if "*" in fen.split(" ")[0]:
            raise Refusal("startFen", "walls ('*') have no counterpart", self.c.loc("startFen"))
        try:
            fields = fen_fields(fen)
        except ValueError as err:
            raise Refusal("startFen", str(err), self.c.loc("startFen")) from None
        self.checks = fields["checks"]
        counting = self.c.flag("checkCounting") or (self.base is not None and self.base.rules.count_checks)
        self.t.add(("setup",), f'setup fen "{our_fen(fields, self._castles(), bool(counting))}"')

    # -------------------------------------------------- castling

    def _castles(self) -> bool:
        """Whether the game has castling: enabled, with its king and a rook kind among the pieces."""
        if not self.c.flag("castling"):
            return False
        if self.base is not None and not any(k in self.c.settings for k in _CASTLING_KEYS):
            castling = self.base.castling
            forgotten = {key[2] for key in self.t.decls if key[:2] == ("forget", "piece")}
            return castling is not None and not ({castling.king, *castling.rooks} & forgotten) and all(
                ord(f) - ord("a") < self.files for r in castling.rules for f in (r.king_to_file, r.rook_to_file) if f)
        if self.base is None and castling_field(self.c.raw("startFen")) == "-":
            return False        # no right at the start, and none can appear
        letters = set(self.pieces) | set(self._base_letters())
        return self.c.raw("castlingKingPiece").lower() in letters and any(
            l in letters for l in self.c.raw("castlingRookPieces").lower())

    def _castling(self) -> None:
        """Castling: the king to the castling files, the rook beside it on the inner side; over a built-in, only
        when the section changes it."""
        if self.base is not None:
            if not self._castles() and self.base.castling is not None:
                self.t.add(("forget", "castling"), "forget castling")
            if not self.c.flag("castling") or not any(k in self.c.settings for k in _CASTLING_KEYS):
                return
        if not self._castles():
            return
        king = self._name(self.c.raw("castlingKingPiece").lower(), "castlingKingPiece")
        letters = [l for l in self.c.raw("castlingRookPieces").lower() if l in self.pieces or l in self._base_letters()]
        rooks = " | ".join(self._name(l, "castlingRookPieces") for l in letters)
        short, long = self._file("castlingKingsideFile"), self._file("castlingQueensideFile")
        self.t.add(("castling",), "\n".join([
            "castling {",
            f"  king {king}, rook {rooks}",
            f'  castle short "O-O": king to file {short}, rook to file {chr(ord(short) - 1)}, side e',
            f'  castle long "O-O-O": king to file {long}, rook to file {chr(ord(long) + 1)}, side w',
            "}"]), "forget castling")

    # -------------------------------------------------- drops

    def _drops(self) -> None:
        """The drops block: every piece may be dropped, within the drop region; pawns not on their first
        rank nor in the promotion region (unless allowed), a piece not where it could never move (with
        immobilityIllegal). A built-in's drops are written again this way when the section changes
        them or the board (their zones were written for the built-in's board)."""
        drops, to_hand = self.c.flag("pieceDrops"), self.c.flag("capturesToHand")
        if self.base is not None and self.base.drops is not None:
            if not (set(self.c.settings) & _DROP_KEYS or ("board",) in self.t.decls):
                return
            self._plain_base_drops()
            drops = drops if "pieceDrops" in self.c.settings else True
            to_hand = to_hand if "capturesToHand" in self.c.settings else self.base.drops.captures_to_hand
        if not drops:
            if to_hand:
                raise Refusal("capturesToHand", "captures to hand without drops", self.c.loc("capturesToHand"))
            if self.base is not None and self.base.drops is not None and "pieceDrops" in self.c.settings:
                self.t.add(("forget", "drops"), "forget drops")
            return
        lines = ["drops {"] + (["  captures to hand demoted"] if to_hand else [])
        pawns = self._pawn_letters("promotionPawnTypes")
        base_pawn = self._base_letters().get("p")
        if base_pawn is not None and base_pawn.promotions:   # a pawn (xiangqi's soldier does not promote)
            pawns.add("p")
            if self.c.flag("promotionZonePawnDrops") and not self._promotes_to_the_end():
                raise Refusal("promotionZonePawnDrops", f"pawns dropped beyond the promotion zone of the bundled "
                              f"'{self.base_name}' would not promote there, as Fairy-Stockfish's would",
                              self.c.loc("promotionZonePawnDrops"))
        white, black = self._colour_region("dropRegion")
        outside = None
        if white or black:
            outside = self._zone("no_drop", ["all except " + ", ".join(white)] if white else [],
                                 ["all except " + ", ".join(black)] if black else [])
        no_doubled = self.c.raw("dropNoDoubled").lower()
        for letter, name, betzas in self._droppable():
            if letter == no_doubled and self.c.number("dropNoDoubledCount") == 0:
                continue                # no file may hold one: never dropped, it stays in hand
            options = [f"not in zone {outside}"] if outside else []
            if letter in pawns:
                banned_white, banned_black = [], []
                if not self.c.flag("firstRankPawnDrops"):
                    banned_white.append("rank 1")
                    banned_black.append(f"rank {self.ranks}")
                if not self.c.flag("promotionZonePawnDrops"):
                    pw, pb = self._promotion_cells()
                    banned_white += pw
                    banned_black += pb
                if banned_white or banned_black:
                    options.append(f"not in zone {self._zone('pawn_no_drop', banned_white, banned_black)}")
            dead = _dead_ranks(betzas)
            if dead and self.c.flag("immobilityIllegal"):
                options.append(f"not in zone {self._zone(f'last_{dead}', *self._last_ranks(dead))}")
            if letter == no_doubled:
                most = self.c.number("dropNoDoubledCount")
                options.append(f"at most {most} on file" if most > 1 else f"not on file with own {name}")
                if self.c.flag("shogiPawnDropMateIllegal"):
                    options.append("not giving mate")
            elif self.c.flag("shogiPawnDropMateIllegal") and letter in pawns:
                options.append("not giving mate")
            lines.append(f"  drop {name}" + (": " + ", ".join(options) if options else ""))
        self.t.add(("drops",), "\n".join(lines + ["}"]), "forget drops")

    def _droppable(self) -> list[tuple[str, str, list[str]]]:
        """(letter, name, Betza strings) of every piece that may be dropped: all of the game's but the
        promoted kinds (a captured one goes back to hand as the piece it promoted from)."""
        found: dict[str, tuple[str, str, list[str]]] = {}
        if self.base is not None:
            forgotten = {key[2] for key in self.t.decls if key[:2] == ("forget", "piece")}
            for p in self.base.pieces.values():
                if p.name not in forgotten and not p.neutral and not (p.letter or "").startswith("+"):
                    found[p.name] = ((p.letter or p.name[0]).lower(), p.name,
                                     [m.pattern.text for m in p.moves if isinstance(m.pattern, S.BetzaPattern)])
        for letter, piece in self.pieces.items():
            if not letter.startswith("+"):
                found[piece.name] = (letter, piece.name, [line.split('"')[1] for line in piece.lines])
        return list(found.values())

    def _promotes_to_the_end(self) -> bool:
        """Whether the built-in parent's pawn promotes on every rank from its zone to the last (a pawn
        dropped there promotes when it moves, as in Fairy-Stockfish's promotion region)."""
        pawn = self._base_letters()["p"]
        if not pawn.promotions or pawn.promotions[-1].cells.kind != "zone" or self.base is None:
            return False
        zone = self.base.board.zones.get(str(pawn.promotions[-1].cells.a))
        cells = zone.per_army.get("white") if zone is not None else None
        return cells is not None and any(t.kind in ("rank", "ranks") and (t.hi or t.lo) == self.ranks
                                         for t in cells.include)

    def _promotion_cells(self) -> tuple[list[str], list[str]]:
        """The promotion region as cell terms for each army: the section's, else its built-in parent's
        (the zones its pawn promotes in, optionally or not)."""
        if self.base is None:
            return self._colour_region("promotionRegion")
        pawn = self._base_letters().get("p")
        if pawn is None or not pawn.promotions:
            return self._colour_region("promotionRegion")
        if "promotionRegionWhite" in self.c.settings or "promotionRegionBlack" in self.c.settings:
            return self._base_region("promotionRegion", pawn, double_step=False)
        terms = list(dict.fromkeys(spec_text.cell_term(p.cells) for p in pawn.promotions))
        return terms, list(terms)

    def _plain_base_drops(self) -> None:
        """Refuse to write a built-in's drops again unless they are Fairy-Stockfish's plain drops: every
        drop rule a ``not in`` zone at most, no gating, captured promoted pieces demoted, no placement
        phase (``must drop``, ``keep ... on both colours``, ``unmoved in``)."""
        assert self.base is not None and self.base.drops is not None
        drops = self.base.drops
        if drops.gates or (drops.captures_to_hand and not drops.demoted) or drops.must_drop or drops.both_colours or any(
                d.no_file_twin or d.at_most or d.no_mate or d.condition is not None or d.unmoved_in is not None
                for d in drops.drops):
            self._refuse_base_change(min(set(self.c.settings) & _DROP_KEYS, default="maxRank"))

    # -------------------------------------------------- rules

    def _rules(self) -> None:
        """The end and legality rules: the template's written out, or a built-in's changed."""
        if self.base is None:
            self._template_rules()
        else:
            self._base_forgotten()
            self._base_rules()
        self._special_rules()
        self._perpetual_check()

    def _template_rules(self) -> None:
        """The template's rules written out: no self-check, the clock reset by captures and pawn moves,
        checkmate and stalemate with their values, the draws."""
        self.t.add(("rule", "forbid", "self-check"), "forbid self-check", "forget forbid self-check")
        resets = ["capture"] + [p.name for l, p in self.pieces.items() if l in self._pawn_letters("nMoveRuleTypes")]
        self.t.add(("rule", "clock"), "clock resets on " + ", ".join(resets), "forget clock")
        self.t.add(("rule", "end", "checkmate"),
                   f"end checkmate when in_check and legal_moves == 0: {self._value('checkmateValue')}",
                   "forget end checkmate")
        self.t.add(("rule", "end", "stalemate"), f"end stalemate when legal_moves == 0: {self._value('stalemateValue')}",
                   "forget end stalemate")
        self._draw_rules()

    def _value(self, key: str) -> str:
        """A result setting that must be win, loss or draw."""
        value = self.c.result(key)
        if value is None:
            raise Refusal(key, "'none' is no result here", self.c.loc(key))
        return value

    def _draw_rules(self) -> None:
        """Repetition (nFoldRule times, nFoldValue) and the n-move rule (nMoveRule moves of each side: twice
        as many plies); 0 turns either off."""
        folds = self.c.number("nFoldRule", 1000)
        if folds:
            self.t.add(("rule", "end", "repetition"),
                       f'end repetition "{folds}-fold repetition" when repetitions >= {folds}: '
                       f"{self._value('nFoldValue')}", "forget end repetition")
        moves = self.c.number("nMoveRule", 10_000)
        if moves:
            self.t.add(("rule", "end", "n_moves"), f'end n_moves "{moves}-move rule" when clock >= {2 * moves}: draw',
                       "forget end n_moves")

    def _base_forgotten(self) -> None:
        """What a built-in says of the pieces the section removes or re-letters: its clock resets on the
        others only, and its insufficient-material signatures with letters no piece has are dropped."""
        assert self.base is not None
        forgotten = {key[2] for key in self.t.decls if key[:2] == ("forget", "piece")}
        redefined = {p.name for p in self.pieces.values()}
        letters = {p.letter.upper() for p in self.pieces.values()} | {
            (p.letter or p.name[0]).upper() for p in self.base.pieces.values()
            if p.name not in forgotten and p.name not in redefined}
        for rule in self.base.rules.insufficient:
            if set(rule.first + rule.second) - letters - {"*"}:
                self.t.add(("forget", "insufficient", rule.name), f"forget insufficient {rule.name}")
        resets = self.base.rules.clock_resets
        if set(resets) & forgotten:
            kept = [r for r in resets if r not in forgotten]
            if kept:
                self.t.add(("rule", "clock"), "clock resets on " + ", ".join(kept), "forget clock")
            else:
                self.t.add(("forget", "clock"), "forget clock")

    def _base_rules(self) -> None:
        """The settings a child of a built-in changes among the end rules: each replaces the bundled rule
        of the same meaning (found by what its condition reads), keeping its name and place."""
        assert self.base is not None
        for key, reads, build in (
                ("stalemateValue", "stalemate", lambda: f"when legal_moves == 0: {self._value('stalemateValue')}"),
                ("checkmateValue", "checkmate",
                 lambda: f"when in_check and legal_moves == 0: {self._value('checkmateValue')}"),
                ("nMoveRule", "clock", lambda: f"when clock >= {2 * self.c.number('nMoveRule')}: draw"),
                ("nFoldRule", "repetitions",
                 lambda: f"when repetitions >= {self.c.number('nFoldRule')}: {self._value('nFoldValue')}"),
                ("nFoldValue", "repetitions",
                 lambda: f"when repetitions >= {self.c.number('nFoldRule')}: {self._value('nFoldValue')}")):
            if key not in self.c.settings:
                continue
            rule = _find_rule(self.base.rules.ends, reads)
            zero = key in ("nMoveRule", "nFoldRule") and self.c.number(key) == 0
            if rule is None:
                if zero:
                    continue
                name = {"stalemate": "stalemate", "checkmate": "checkmate", "clock": "n_moves"}.get(reads, "repetition")
                self.t.add(("rule", "end", name), f"end {name} {build()}", f"forget end {name}")
            elif zero:
                self.t.add(("forget", "end", rule.name), f"forget end {rule.name}")
            else:
                self.t.add(("rule", "end", rule.name), f"end {rule.name} {build()}", f"forget end {rule.name}")

    def _perpetual_check(self) -> None:
        """perpetualCheckIllegal: at the repetition that ends the game, the side that gave check with every move
        since the position's first occurrence loses, and if both sides did it is a draw whatever the
        repetition's own result (Fairy-Stockfish's reading). Written as end rules on ``checked_throughout``
        and ``checking_throughout`` just before the repetition rule; an inherited repetition rule keeps its
        place in the order, so it is forgotten and declared again after them. Nothing without a repetition
        rule."""
        if not self.c.flag("perpetualCheckIllegal"):
            return
        key = next((k for k, d in self.t.decls.items() if k[:2] == ("rule", "end") and " when repetitions >= " in d.text),
                   None)
        inherited = _find_rule(self.base.rules.ends, "repetitions") if self.base is not None else None
        if key is None and inherited is not None:
            cond = inherited.condition
            if not (isinstance(cond, S.Compare) and cond.op == ">=" and isinstance(cond.left, S.Ref)
                    and cond.left.path == ["repetitions"] and isinstance(cond.right, S.Num)
                    and inherited.result in RESULTS):
                self._refuse_base_change("perpetualCheckIllegal")
            title = f' "{inherited.title}"' if inherited.title else ""
            key = ("rule", "end", inherited.name)
            self.t.add(key, f"end {inherited.name}{title} when repetitions >= {int(cond.right.value)}: "
                            f"{inherited.result}", f"forget end {inherited.name}")
        if key is None:
            return
        if inherited is not None and key[2] == inherited.name:
            self.t.add(("forget", "end", inherited.name), f"forget end {inherited.name}")
        repetition = self.t.decls[key].text
        folds = repetition.split(" when repetitions >= ")[1].split(":")[0]
        perpetual = [("perpetual_check", "the opponent's perpetual check", "checked_throughout and not checking_throughout: win"),
                     ("perpetual_checking", "the opponent's perpetual check",
                      "checking_throughout and not checked_throughout: loss")]
        if not repetition.endswith(": draw"):
            perpetual.append(("perpetual_checks", "mutual perpetual check",
                              "checked_throughout and checking_throughout: draw"))
        decls: dict[tuple[str, ...], Decl] = {}
        for k, decl in self.t.decls.items():
            if k == key:
                for name, title, condition in perpetual:
                    decls[("rule", "end", name)] = Decl(
                        ("rule", "end", name), f'end {name} "{title}" when repetitions >= {folds} and {condition}',
                        f"forget end {name}")
            decls[k] = decl
        self.t.decls = decls

    def _special_rules(self) -> None:
        """The rules either path may add: no checks, compulsory captures, explosions, check counts, extinction,
        flags, mobility regions."""
        if self.base is not None:
            self._base_flags_off()
        if not self.c.flag("checking"):
            self.t.add(("rule", "forbid", "giving-check"), "forbid giving-check", "forget forbid giving-check")
        if self.c.flag("mustCapture"):
            self.t.add(("rule", "compulsory"), "captures compulsory", "forget captures compulsory")
        if self.c.flag("makpongRule"):
            self.t.add(("rule", "forbid", "royal-escape"), "forbid royal-escape", "forget forbid royal-escape")
        if self.c.flag("blastOnCapture"):
            spared = [p.name for l, p in self.pieces.items() if l in self._pawn_letters("pawnTypes")]
            if self.base is not None:
                spared = [p.name for p in self.base.pieces.values() if (p.letter or "").lower() == "p"]
            self.t.add(("rule", "explode"), "captures explode" + (" sparing " + ", ".join(spared) if spared else ""),
                       "forget captures explode")
            self.t.add(("rule", "end", "exploded"), 'end exploded "blowing up the king" when royals == 0 and '
                       'enemy_royals > 0: loss', "forget end exploded")
        if self.c.flag("flyingGeneral"):
            self._flying_general()
        if self.base is not None and self.base.rules.count_checks and self.checks:
            self._base_check_count()
        if self.c.flag("checkCounting"):
            checks = self.checks
            if not checks or not re.fullmatch(r"\d{1,2}\+\d{1,2}", checks) or len(set(checks.split("+"))) != 1:
                raise Refusal("checkCounting", "the start position must give both sides the same number of checks "
                                               "(a field such as 3+3)", self.c.loc("checkCounting"))
            n = int(checks.split("+")[0])
            self.t.add(("rule", "count"), f"count checks to {n}", "forget count checks")
            self.t.add(("rule", "end", "checks"), f'end checks "check number {n}" when enemy_checks >= {n}: loss',
                       "forget end checks")
        self._extinction()
        self._flag()
        self._mobility()
        if self.c.flag("dupleCheck"):
            self.t.add(("rule", "check"), "check when all royals attacked", "forget check")

    def _base_flags_off(self) -> None:
        """A rule a section turns off on top of a built-in: dropped where the bundled variant has it (the
        rules whose bundled form is one statement), refused where it could not be found."""
        assert self.base is not None
        rules = self.base.rules
        off = {key for key in ("mustCapture", "makpongRule", "blastOnCapture", "dupleCheck", "checkCounting",
                               "flyingGeneral", "extinctionPseudoRoyal", "immobilityIllegal")
               if key in self.c.settings and not self.c.flag(key)}
        for key, present, forget in (
                ("mustCapture", rules.compulsory_capture, "forget captures compulsory"),
                ("makpongRule", "royal-escape" in rules.forbid, "forget forbid royal-escape"),
                ("dupleCheck", rules.royal_check == "all", "forget check")):
            if key in off:
                off.discard(key)
                if present:
                    self.t.add(("forget", key), forget)
        if "blastOnCapture" in off and rules.explosion is None:
            off.discard("blastOnCapture")
        if "checkCounting" in off and rules.count_checks is None:
            off.discard("checkCounting")
        if off:
            self._refuse_base_change(sorted(off)[0])

    def _base_check_count(self) -> None:
        """A start position that gives another number of checks to a built-in that counts them: the count,
        and the bundled rule that reads the checks given (``enemy_checks``), follow it."""
        assert self.base is not None and self.checks is not None
        counts = set(self.checks.split("+"))
        if len(counts) != 1 or not counts.pop().isdigit():
            raise Refusal("startFen", "check counts that differ between the sides have no counterpart",
                          self.c.loc("startFen"))
        n = int(self.checks.split("+")[0])
        if n == self.base.rules.count_checks:
            return
        rule = next((r for r in self.base.rules.ends if _reads(r.condition, "enemy_checks")), None)
        if rule is None or rule.result != "loss":
            self._refuse_base_change("startFen")
        self.t.add(("rule", "count"), f"count checks to {n}", "forget count checks")
        self.t.add(("rule", "end", rule.name), f"end {rule.name} when enemy_checks >= {n}: loss",
                   f"forget end {rule.name}")

    def _flying_general(self) -> None:
        """Kings may not face each other on an open file or rank (Fairy-Stockfish tests the rook's lines):
        each royal piece attacks royal pieces along them."""
        line = 'betza "R": capture, royal only'
        kings = [p for p in self.pieces.values() if p.royal]
        old = self._base_piece_of_kind("king")
        if len(kings) == 1:
            kings[0].lines.append(line)
        elif not kings and old is not None:
            try:
                text = spec_text.piece(old, [spec_text.move(m) for m in old.moves] + [line])
            except spec_text.Unprintable as err:
                raise Refusal("flyingGeneral", f"the bundled royal piece has {err}", self.c.loc("flyingGeneral")) from None
            self.t.add(("piece", old.name), text, f"forget piece {old.name}")
        else:
            raise Refusal("flyingGeneral", "the flying general needs a single royal kind", self.c.loc("flyingGeneral"))

    def _extinction(self) -> None:
        """Extinction: the side whose kinds are down to extinctionPieceCount has the extinction value (the enemy
        side checked first, as Fairy-Stockfish does); a pseudo-royal kind is royal instead."""
        value = self.c.result("extinctionValue")
        letters = self._letters("extinctionPieceTypes", default=set()) or set()
        names = {"own": "extinct", "enemy": "enemy_extinct"}
        keys = ("extinctionValue", "extinctionPieceTypes", "extinctionPieceCount", "extinctionPseudoRoyal")
        given = [key for key in keys if key in self.c.settings]
        if self.base is not None and given:
            value, letters, names = self._base_extinction(value, letters, given)
        if value is None or not letters:
            return
        count = self.c.number("extinctionPieceCount", 1000)
        if self.c.flag("extinctionPseudoRoyal") and not self.c.flag("blastOnCapture"):
            self._pseudo_royal(letters, count)     # a pseudo-royal kind is never extinct: it is mated first
            return
        if "*" in letters:
            if self.c.flag("pieceDrops") or (self.base is not None and self.base.drops is not None):
                raise Refusal("extinctionPieceTypes", "'*' counts pieces in hand too, which 'pieces' does not",
                              self.c.loc("extinctionPieceTypes"))
            own, enemy = [f"pieces <= {count}"], [f"enemy_pieces <= {count}"]
        else:
            kinds = [self._name(l, "extinctionPieceTypes") for l in sorted(letters)]
            own = [f"count({n}) <= {count}" for n in kinds]
            enemy = [f"enemy_count({n}) <= {count}" for n in kinds]
        self.t.add(("rule", "end", names["enemy"]), f'end {names["enemy"]} "extinction" when {" or ".join(enemy)}: '
                   f"{OPPOSITE[value]}", f"forget end {names['enemy']}")
        self.t.add(("rule", "end", names["own"]), f'end {names["own"]} "extinction" when {" or ".join(own)}: {value}',
                   f"forget end {names['own']}")

    def _base_extinction(self, value: str | None, letters: set[str],
                         given: list[str]) -> tuple[str | None, set[str], dict[str, str]]:
        """A section's extinction settings over a built-in: what it leaves out is read from the bundled
        extinction rules (the one on the side to move's pieces, ``pieces`` or ``count(P)`` compared with 0,
        and the one on the enemy's), which the section's rules then replace by name."""
        assert self.base is not None
        own = [r for r in self.base.rules.ends if _reads(r.condition, "pieces") or _calls(r.condition, "count")]
        enemy = [r for r in self.base.rules.ends
                 if _reads(r.condition, "enemy_pieces") or _calls(r.condition, "enemy_count")]
        complete = {"extinctionValue", "extinctionPieceTypes"} <= set(given)
        if len(own) > 1 or len(enemy) > 1 or (not complete and (not own or not _compares_with_zero(own[0].condition))):
            self._refuse_base_change(given[0])     # the built-in's own extinction rule is not known here
        if own and "extinctionValue" not in given:
            value = own[0].result if own[0].result != "score" else None
        if own and "extinctionPieceTypes" not in given:
            if _reads(own[0].condition, "pieces"):
                letters = {"*"}
            else:
                kinds = {str(a.path[0]) for a in _call_args(own[0].condition, "count") if isinstance(a, S.Ref)}
                letters = {(self.base.pieces[k].letter or k[0]).lower() for k in kinds if k in self.base.pieces}
        return value, letters, {"own": own[0].name if own else "extinct",
                                "enemy": enemy[0].name if enemy else "enemy_extinct"}

    def _pseudo_royal(self, letters: set[str], count: int) -> None:
        """The last piece of an extinction kind is royal: the same as a royal kind when each side starts
        with at most one of it, none can be added (promotion, drops) and the count is 0."""
        fen = self.c.raw("startFen").split()[0]
        for letter in letters:
            piece = self.pieces.get(letter)
            targets = " ".join(p for p in (self.c.raw("promotionPieceTypes"), self.c.raw("promotedPieceType")))
            if (piece is None or count != 0 or fen.count(letter) > 1 or fen.count(letter.upper()) > 1
                    or letter in targets.lower() or self.c.flag("pieceDrops")):
                raise Refusal("extinctionPseudoRoyal", "a pseudo-royal kind that a side may have several of "
                              "has no counterpart (a royal kind is checked whenever any of them is attacked)",
                              self.c.loc("extinctionPseudoRoyal"))
            piece.royal = True

    def _flag(self) -> None:
        """Capture the flag: ``flagPieceCount`` flag pieces (the royal piece, a kind, or any piece: ``*``) of the
        side that just moved in its flag region lose for the side to move (``enemy_royal_in`` for one royal
        piece, else ``enemy_pieces_in``)."""
        white, black = self._colour_region("flagRegion")
        shared = self._region("flagRegion")
        white, black = white or shared, black or shared
        if not (white or black):
            return
        letters = {self.c.raw(k).lower() for k in ("flagPiece", "flagPieceWhite", "flagPieceBlack") if k in self.c.settings}
        kings = {l for l, p in self.pieces.items() if p.royal}
        rule = None
        if self.base is not None:
            kings |= {l for l, p in self._base_letters().items() if p.royal}
            # a built-in with a zone goal (king of the hill, breakthrough) has its piece as its flag piece
            rule = next((r for r in self.base.rules.ends
                         if _calls(r.condition, "enemy_royal_in") or _calls(r.condition, "enemy_pieces_in")), None)
        names = {letter: p.name for letter, p in self._base_letters().items()}
        names.update({letter: p.name for letter, p in self.pieces.items()})
        goal = [".".join(a.path) for a in _call_args(rule.condition, "enemy_pieces_in")[1:2]] if rule else []
        if not letters and goal:
            letters = {letter for letter, name in names.items() if name == goal[0]}
        letters = letters or (set(kings) if rule is not None and len(kings) == 1 else {"*"})
        letter, count = letters.pop() if len(letters) == 1 else "", self.c.number("flagPieceCount", 100)
        if not letter or (letter != "*" and letter not in names) or count == 0:
            raise Refusal("flagPiece", "flag pieces that differ between the sides (or of no piece, or none "
                          "needed) have no counterpart",
                          self.c.loc("flagPiece") or self.c.loc("flagPieceWhite") or self.c.loc("flagRegionWhite"))
        zone = self._zone("flag", white, black)
        name = rule.name if rule is not None else "flag"
        condition = (f"enemy_royal_in({zone})" if letter in kings and count == 1 else
                     f"enemy_pieces_in({zone}{'' if letter == '*' else ', ' + names[letter]}) >= {count}")
        self.t.add(("rule", "end", name), f'end {name} "reaching the flag region" when {condition}: loss',
                   f"forget end {name}")

    def _mobility(self) -> None:
        """mobilityRegion{White,Black}{Kind}: every move of that kind ends in the region."""
        kinds: dict[str, dict[str, Setting]] = {}
        for key, setting in self.c.settings.items():
            match = re.fullmatch(r"mobilityRegion(White|Black)(\w+)", key)
            if key.startswith("mobilityRegion") and match is None:
                raise Refusal(key, UNSUPPORTED["mobilityRegion"], setting.loc)
            if match:
                kind = match.group(2)[0].lower() + match.group(2)[1:]
                kinds.setdefault(kind, {})[match.group(1)] = setting
        for kind, sides in kinds.items():
            pieces = [p for p in self.pieces.values() if p.kind == kind]
            if not pieces:
                key = next(iter(sides.values())).key
                raise Refusal(key, f"no piece of the kind '{kind}' is declared here", sides[next(iter(sides))].loc)
            white = self._region(f"mobilityRegionWhite{kind[0].upper()}{kind[1:]}") if "White" in sides else ["all"]
            black = self._region(f"mobilityRegionBlack{kind[0].upper()}{kind[1:]}") if "Black" in sides else ["all"]
            for piece in pieces:
                if any(" to " in line for line in piece.lines):
                    raise Refusal(next(iter(sides.values())).key, f"{piece.name} may not move to where it could "
                                  "never move again too (immobilityIllegal)", next(iter(sides.values())).loc)
                zone = self._zone(f"region_{piece.name.lower()}", white, black)
                piece.lines = [_with_option(line, f"to zone {zone}") for line in piece.lines]

    # -------------------------------------------------- output of pieces

    def _emit_pieces(self) -> None:
        base = {p.name: p for p in (self.base.pieces.values() if self.base is not None else ())}
        for piece in self.pieces.values():
            if piece.name in base:
                self._inherit_promotions(piece, base[piece.name])
            lines = [f"piece {piece.name} {{", f"  letter {spec_text.letter(piece.letter.upper())}"]
            if piece.royal:
                lines.append("  royal")
            lines += [f"  {line}" for line in piece.lines + piece.promotions]
            self.t.add(("piece", piece.name), "\n".join(lines + ["}"]), f"forget piece {piece.name}")

    def _inherit_promotions(self, piece: _Piece, old: S.PieceSpec) -> None:
        """A built-in's piece redefined keeps its promotions (unless the section changed them)."""
        if not piece.inherits:
            return
        try:
            piece.promotions = self._kept_promotions(old.promotions) + piece.promotions
        except spec_text.Unprintable as err:
            raise Refusal(piece.kind, f"the bundled piece {old.name} has {err}") from None

    def _refuse_base_change(self, key: str) -> NoReturn:
        raise Refusal(key, f"changing it on top of a built-in variant of Fairy-Stockfish (here extended as our "
                           f"bundled '{self.base_name}') is not imported yet", self.c.loc(key))


_PROMOTION_KEYS = frozenset({"promotionRegionWhite", "promotionRegionBlack", "promotionPieceTypes",
                             "mandatoryPawnPromotion", "promotionPawnTypes"})
_PAWN_KEYS = ("doubleStep", "doubleStepRegionWhite", "doubleStepRegionBlack", "tripleStepRegionWhite",
              "tripleStepRegionBlack", *sorted(_PROMOTION_KEYS))
"""The pawn settings a child of a built-in variant may change (see ``_Translator._base_pawns``)."""

_DROP_KEYS = frozenset({"pieceDrops", "capturesToHand", "dropRegionWhite", "dropRegionBlack", "dropNoDoubled",
                        "firstRankPawnDrops", "promotionZonePawnDrops", "immobilityIllegal",
                        "shogiPawnDropMateIllegal"})
_CASTLING_KEYS = ("castlingKingsideFile", "castlingQueensideFile", "castlingKingPiece", "castlingRookPieces")

_PER_COLOUR_KEYS = frozenset({
    "promotionPawnTypes", "promotionPawnTypesWhite", "promotionPawnTypesBlack", "promotionPieceTypesWhite",
    "promotionPieceTypesBlack", "pawnTypes", "enPassantTypes", "enPassantTypesWhite", "enPassantTypesBlack",
    "nMoveRuleTypes", "nMoveRuleTypesWhite", "nMoveRuleTypesBlack", "flagPieceWhite", "flagPieceBlack",
    "flagRegionWhite", "flagRegionBlack", "dropRegionWhite", "dropRegionBlack",
})


def _dead_ranks(betzas: list[str]) -> int:
    """How many last ranks a piece of these Betza moves can never leave (it only moves forward): 0 for
    most pieces, and for a piece with no move at all."""
    from dsl.betza import parse_betza

    least = None
    for text in betzas:
        if not text:
            continue
        for atom in parse_betza(text):
            for dx, dy in atom.vectors:
                if dy <= 0:
                    return 0
                least = dy if least is None else min(least, dy)
    return least or 0


def _on_board(cell: str, files: int, ranks: int) -> bool:
    """Whether a grid cell name (``d4``) lies on a board of ``files`` x ``ranks``."""
    match = re.fullmatch(r"([a-z])(\d+)", cell)
    return match is not None and ord(match.group(1)) - ord("a") < files and 1 <= int(match.group(2)) <= ranks


def _promotion_order(letter: str) -> tuple[int, str]:
    """Queen, rook, bishop, knight first (the usual order of choices), then the other letters."""
    return ("qrbn".index(letter) if letter in "qrbn" else 4, letter)


def _split_betza(text: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """Fairy-Stockfish Betza as our lines: the atoms without ``e`` joined, and each atom with ``e``
    (en passant) on a line of its own with the option ``en passant``."""
    plain, special = "", []
    for atom in _atoms(text):
        if "e" in atom[:len(atom) - len(atom.lstrip("abcdefghijklmnopqrstuvwxyz"))]:
            special.append((atom.replace("e", "", 1), ["en passant"]))
        else:
            plain += atom
    return plain, special


def _atoms(text: str) -> list[str]:
    """The atoms of a Betza string, each with its modifiers and its range or doubling (``fmW``, ``NN``, ``R4``)."""
    atoms, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and text[j].islower():
            j += 1
        if j >= len(text):
            atoms.append(text[i:])        # trailing modifiers: left for the Betza parser to refuse
            break
        j += 1
        if j < len(text) and text[j].isdigit():
            while j < len(text) and text[j].isdigit():
                j += 1
        elif j < len(text) and text[j] == text[j - 1]:
            j += 1
        atoms.append(text[i:j])
        i = j
    return atoms


def _with_option(line: str, option: str) -> str:
    return f"{line}, {option}" if ":" in line else f"{line}: {option}"


def _reads(expr, name: str) -> bool:
    """Whether an end rule's condition reads ``name`` (a ref such as ``clock``)."""
    if isinstance(expr, S.Ref):
        return expr.path == [name]
    return any(_reads(child, name) for child in _children(expr))


def _calls(expr, name: str) -> bool:
    """Whether an end rule's condition calls the predicate ``name``."""
    if isinstance(expr, S.Call) and expr.name == name:
        return True
    return any(_calls(child, name) for child in _children(expr))


def _call_args(expr, name: str) -> list:
    """The arguments of every call of ``name`` in a condition."""
    found = list(expr.args) if isinstance(expr, S.Call) and expr.name == name else []
    return found + [a for child in _children(expr) for a in _call_args(child, name)]


def _compares_with_zero(expr) -> bool:
    """Whether every comparison in a condition is ``== 0`` or ``<= 0`` (an extinction at no piece left)."""
    if isinstance(expr, S.Compare):
        return expr.op in ("==", "<=") and isinstance(expr.right, S.Num) and expr.right.value == 0
    children = _children(expr)
    return bool(children) and all(_compares_with_zero(c) for c in children if not isinstance(c, S.Ref | S.Num))


def _children(expr) -> list:
    if isinstance(expr, S.Not | S.Neg):
        return [expr.operand]
    if isinstance(expr, S.BoolOp):
        return list(expr.operands)
    if isinstance(expr, S.Compare | S.Arith):
        return [expr.left, expr.right]
    if isinstance(expr, S.Call):
        return list(expr.args)
    return []


def _find_rule(ends: list[S.EndRule], meaning: str) -> S.EndRule | None:
    """The bundled end rule of a meaning: ``stalemate`` (reads legal_moves and not in_check),
    ``checkmate`` (both), or the one that reads ``clock`` / ``repetitions``."""
    for rule in ends:
        moves, check = _reads(rule.condition, "legal_moves"), _reads(rule.condition, "in_check")
        if meaning == "stalemate" and moves and not check:
            return rule
        if meaning == "checkmate" and moves and check:
            return rule
        if meaning in ("clock", "repetitions") and _reads(rule.condition, meaning):
            return rule
    return None


def effective_settings(section: Section, by_name: dict[str, Section]) -> tuple[str | None, dict[str, Setting]]:
    """The built-in variant at the root of a section's chain of parents (None: the template), and the
    settings of the chain, the section's own last."""
    chain = [section]
    while chain[-1].parent is not None and chain[-1].parent in by_name:
        chain.append(by_name[chain[-1].parent])
    settings: dict[str, Setting] = {}
    for link in reversed(chain):
        settings.update(link.settings)
    return chain[-1].parent, settings


def translate(section: Section, by_name: dict[str, Section]) -> Translation:
    """The declarations of ``section`` (its effective settings over its root); a :class:`Refusal` if a
    setting cannot be expressed."""
    root, settings = effective_settings(section, by_name)
    base = base_name = None
    if root is not None:
        base_name = bundled_counterpart(root)
        if base_name is None:
            raise Refusal("parent", f"Fairy-Stockfish's built-in variant '{clip(root, 40)}' has no bundled "
                                    "counterpart", section.loc)
        from dsl import load_spec

        base = load_spec(base_name)
    return _Translator(_Config(settings), base, base_name).run()
