"""``rules export fsf``: a variant as a section of Fairy-Stockfish's ``variants.ini``.

:func:`fsf_section` translates a compiled :class:`~interpreter.compiler.game.Game`
into one ``[name]`` section of Fairy-Stockfish's variant configuration, with
no parent: every setting the game needs is written, against the defaults of
Fairy-Stockfish's template (chess without pieces). Setting by setting:

- the board: ``maxFile``, ``maxRank``; cells removed from the grid are
  walls, ``*`` in ``startFen`` (:func:`walled_fen`); the start position is
  our FEN of the setup (of its template array, with ``chess960`` castling,
  for a shuffled setup: dealing the arrays is the GUI's job, as for
  Fairy-Stockfish's own Chess960);
- the pieces: an orthodox pawn (a step forward, diagonal captures, double
  steps from zones) is ``pawn`` with ``doubleStep``, ``doubleStepRegion`` and
  ``enPassantRegion`` (the cells the enemy's en passant double steps pass);
  another pawn (moves from a zone, en passant) a custom piece among
  ``pawnTypes`` whose moves from the zone are initial moves (``i``) in the
  double step region; xiangqi's soldier is ``soldier`` with
  ``soldierPromotionRank``; the royal piece is ``king``; every other piece a
  built-in piece of the same Betza text or a ``customPieceN`` with the rules
  file's Betza text and its options as modifiers
  (:func:`dsl.betza.written_betza`). Moves that all end in one zone the
  piece never leaves give its ``mobilityRegion``; a royal piece's capture of
  the enemy royal piece along its file (or its file and rank) is ``flyingGeneral``;
- promotion on arrival in a zone to a choice of pieces
  (``promotionPawnTypes``, ``promotionRegion``, ``promotionPieceTypes`` per
  army, ``mandatoryPawnPromotion``, ``promotionLimit``), shogi's promotion to
  one piece on entering or leaving the zone (``promotedPieceType``; the
  promoted kinds, whose letters are ``+`` and their base's, get free
  letters), and a promotion compulsory only where the piece could never move
  again (``immobilityIllegal``);
- castling: the king's destination files, the castling pieces, their files
  and rank;
- hands: ``pieceDrops``, ``capturesToHand``, ``dropLoop``, where pieces may
  be dropped (``dropRegion``, the pawn's first rank and promotion zone),
  ``dropNoDoubled`` (and ``dropNoDoubledCount``), ``shogiPawnDropMateIllegal``; Seirawan chess's gating
  (``gating``, ``seirawanGating``); a duck that every move moves
  (``wallingRule = duck``);
- rules: ``mustCapture``, ``checking``, ``makpongRule``, ``nMoveRuleTypes``;
  end rules recognised by their conditions (:func:`expression_text`):
  checkmate and stalemate values, n-fold repetition, the n-move rule,
  extinction of piece kinds (with a count, and the bare king), a royal
  piece reaching a zone (``flagPiece``, ``flagRegion``), check counting.
  Insufficient-material rules are not written: Fairy-Stockfish judges
  insufficient material by its own rules.

What Fairy-Stockfish cannot express (stacks, other than two armies, teams,
boards that are no rectangle of at most 12 files and 10 ranks, wrapping
boards, moves that are not Betza or not in Fairy-Stockfish's subset of it,
conditions, explosions, several royal kinds, end rules it has no setting for
or that are not recognised, ...) is collected over the whole game and
refused at once by :class:`NotExportable`, a :class:`~dsl.errors.UsageError`
that lists every such construct with its place in the rules file.

``tests/test_fsf_export.py`` is the proof that an exported section is the
same game: Fairy-Stockfish's perft of it equals ours for every bundled
variant that exports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dsl import spec as S
from dsl.betza import BetzaAtom, parse_betza, written_betza
from dsl.errors import Loc, UsageError, clip
from interpreter.compiler.game import Game, PieceKind
from interpreter.engine.position import Position
from interpreter.loading import start_position
from interpreter.notation.fen import to_fen

MAX_FILES, MAX_RANKS = 12, 10
"""The largest board of Fairy-Stockfish (built for large boards, as pyffish is)."""

SECTION_NAME = re.compile(r"[A-Za-z0-9_+.-]+")
"""What a section's name may be made of (Fairy-Stockfish's own names are such: 3check, ai-wok)."""

MAX_CUSTOM_PIECES = 25
"""Fairy-Stockfish's custom piece slots: ``customPiece1`` .. ``customPiece25``."""

BUILTIN_PIECES = {
    "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "F": "fers", "A": "alfil", "FA": "fersAlfil",
    "FfW": "silver", "RNF": "aiwok", "RF": "bers", "BN": "archbishop", "RN": "chancellor", "QN": "amazon",
    "fW": "shogiPawn", "fR": "lance", "fN": "shogiKnight", "WfF": "gold", "BW": "dragonHorse",
    "mRcpR": "cannon", "nN": "horse", "nA": "elephant", "nZ": "janggiElephant",
    "W": "wazir", "K": "commoner", "KN": "centaur", "": "immobile",
}
"""Fairy-Stockfish's built-in pieces by their Betza text (as its documentation gives it), for the
non-royal pieces that move exactly so; the pawn and the king are written otherwise. Its
``janggiCannon``, documented as ``pR``, may not jump over nor capture a piece of its own type: it
is written for the hopper limited so (:meth:`_Section._janggi_cannon`), never for a plain ``pR``."""

RIDER_STEPS = {(1, 0), (1, 1), (2, 1)}       # riders Fairy-Stockfish has: W/R, F/B and N lines
HOPPER_STEPS = {(1, 0), (1, 1)}              # hoppers: pR, pB, gR, gB
LAME_LEAPS = {(2, 1), (2, 2), (3, 2), (2, 0)}  # lame leapers: nN, nA, nZ, nD
# The lines of a royal piece's royal-only capture that are the flying-general rule: its file, or file and rank.
_FLYING_LINES = ({(0, 1), (0, -1)}, {(0, 1), (0, -1), (1, 0), (-1, 0)})


@dataclass(frozen=True)
class Construct:
    """One thing of a variant that Fairy-Stockfish cannot express, and where the rules file says it."""

    what: str
    loc: Loc | None = None

    def __str__(self) -> str:
        return f"{self.loc}: {self.what}" if self.loc else self.what


class NotExportable(UsageError):
    """The variant uses constructs that Fairy-Stockfish cannot express; ``constructs`` lists them all."""

    def __init__(self, variant: str, constructs: list[Construct]) -> None:
        alike: dict[str, list[Construct]] = {}   # one line per kind of construct, with every place of it
        for construct in constructs:
            alike.setdefault(construct.what, []).append(construct)
        lines = "\n".join(f"  - {found[0]}{_also(found)}" for found in alike.values())
        super().__init__(f"{variant} cannot be written as a Fairy-Stockfish variant: it uses "
                         f"{len(constructs)} construct(s) that Fairy-Stockfish cannot express:\n{lines}",
                         hint="only variants within Fairy-Stockfish's rules export (see docs/engines.md, "
                              "'rules export fsf')")
        self.constructs = constructs


def _also(found: list[Construct]) -> str:
    """The other places of one kind of construct after its first: lines of the same file, else places."""
    others = [c.loc for c in found[1:] if c.loc is not None]
    if not others:
        return ""
    if found[0].loc is not None and all(loc.path == found[0].loc.path for loc in others):
        return f" (also at line{'s' if len(others) > 1 else ''} {', '.join(str(loc.line) for loc in others)})"
    return f" (also at {', '.join(str(loc) for loc in others)})"


def fsf_section(game: Game, name: str | None = None) -> str:
    """The ``variants.ini`` section of ``game``, named ``name`` (the variant's name by default),
    ending with a newline. :class:`NotExportable` lists every construct that stands in the way.

    Fairy-Stockfish does not let a section redefine a variant it already knows (``chess``,
    ``crazyhouse`` ...): give such a variant another ``name`` to load it there.
    """
    if name is not None and not SECTION_NAME.fullmatch(name):
        raise UsageError(f"{clip(name)!r} cannot name a variants.ini section",
                         expected="letters, digits and the characters _ - + . (e.g. my-chess)")
    section = _Section(game)
    if section.refused:
        raise NotExportable(game.name, section.refused)
    lines = [f"[{name or game.name}]"] + [f"{key} = {value}" for key, value in section.settings.items()]
    return "\n".join(lines) + "\n"


def walled_fen(pos: Position) -> str:
    """The FEN of ``pos`` as Fairy-Stockfish reads it for an exported variant: where the board is a
    grid with cells removed, every missing cell is a wall ``*`` in its place (our FEN lists only the
    cells a rank has); otherwise our FEN itself."""
    fen = to_fen(pos)
    game, board = pos.game, pos.game.board
    if len(board) == board.files * board.ranks:
        return fen
    rows = []
    for y in range(board.ranks - 1, -1, -1):
        row, empty = "", 0
        for x in range(board.files):
            cell = board.at.get((x, y))
            code = pos.board[cell] if cell is not None else 0
            if cell is not None and not code:
                empty += 1
                continue
            row += (str(empty) if empty else "") + ("*" if cell is None else game.code_symbol[code])
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + fen.split(" ", 1)[1]


# The end rules of perpetual check after their 'repetitions >= N and' (see expression_text), with
# their results: the first and the last together (and the mutual one's draw, which the importer
# writes where the repetition itself is no draw), before the repetition rule on the same N,
# Fairy-Stockfish's perpetualCheckIllegal.
PERPETUAL = {"checked_throughout and not (checking_throughout)": "win",
             "checked_throughout and checking_throughout": "draw",
             "checking_throughout and not (checked_throughout)": "loss"}


def expression_text(expr: S.Expr) -> str:
    """An end condition as a rules file writes it, in one canonical spelling (for recognising the
    conditions Fairy-Stockfish has a setting for, and for naming those it has not)."""
    if isinstance(expr, S.Num):
        return str(expr.value)
    if isinstance(expr, S.Str):
        return f'"{expr.value}"'
    if isinstance(expr, S.Ref):
        return ".".join(expr.path)
    if isinstance(expr, S.Call):
        return f"{expr.name}({', '.join(expression_text(a) for a in expr.args)})"
    if isinstance(expr, S.Not):
        return f"not ({expression_text(expr.operand)})"
    if isinstance(expr, S.Neg):
        return f"-({expression_text(expr.operand)})"
    if isinstance(expr, S.BoolOp):
        return f" {expr.op} ".join(f"({expression_text(e)})" if isinstance(e, S.BoolOp) else expression_text(e)
                                   for e in expr.operands)
    parts = [f"({expression_text(e)})" if isinstance(e, (S.BoolOp, S.Compare)) else expression_text(e)
             for e in (expr.left, expr.right)]
    return f"{parts[0]} {expr.op} {parts[1]}"


class _Section:
    """The settings of one game's section (``settings``, in the order written) and the constructs
    refused on the way (``refused``); built by reading the game once, part by part."""

    def __init__(self, game: Game) -> None:
        self.game, self.spec, self.board = game, game.spec, game.board
        self.settings: dict[str, str] = {}
        self.refused: list[Construct] = []
        self.chars: dict[int, str] = {}       # kind -> Fairy-Stockfish's letter
        self.pawn: int | None = None          # the kind written as Fairy-Stockfish's pawn
        self.types: dict[int, str] = {}       # kind -> Fairy-Stockfish's piece type (pawn, king, customPiece1 ...)
        self.mobility: dict[int, list[frozenset[int]]] = {}   # kind -> per army, the cells it may stand on
        self.immobility = False               # immobilityIllegal is set
        self.promotion_regions: list[frozenset[int]] | None = None
        self._board()
        armies = self._armies()
        if armies:   # the rest, for every construct in the way, whatever the board (settings go with a refusal)
            self._pieces()
            self._promotions()
            self._castling()
            self._drops()
            self._rules()
            self._ends()
            self._setup()

    def refuse(self, what: str, loc: Loc | None = None) -> None:
        """Note a construct Fairy-Stockfish cannot express (the section will not be written)."""
        self.refused.append(Construct(what, loc))

    def char(self, kind: int) -> str:
        """Fairy-Stockfish's letter of ``kind`` (``?`` for a kind whose letter was refused)."""
        return self.chars.get(kind, "?")

    def region(self, cells: frozenset[int]) -> str:
        """A set of cells as Fairy-Stockfish's Bitboard value: whole ranks as ``*N``, other cells by
        name, ``-`` for none."""
        board = self.board
        by_rank: dict[int, list[int]] = {}
        for cell in cells:
            by_rank.setdefault(board.coords[cell][1], []).append(cell)
        parts = []
        for y in sorted(by_rank):
            if len(by_rank[y]) == board.files:
                parts.append(f"*{y + 1}")
            else:
                parts += [self.square(c) for c in sorted(by_rank[y], key=lambda c: board.coords[c][0])]
        return " ".join(parts) or "-"

    def square(self, cell: int) -> str:
        """Fairy-Stockfish's name of a cell: its file letter and rank number."""
        x, y = self.board.coords[cell]
        return f"{chr(ord('a') + x)}{y + 1}"

    def piece_set(self, kinds) -> str:
        """A PieceSet value: the letters of ``kinds`` (``-`` for none)."""
        return "".join(sorted(self.char(k) for k in kinds)) or "-"

    def per_army(self, key: str, cells: list[frozenset[int]]) -> None:
        """``keyWhite`` and ``keyBlack`` (or ``key % colour`` where ``key`` has ``%s``): one region per army."""
        for colour, army_cells in zip(("White", "Black"), cells):
            self.settings[key % colour if "%s" in key else key + colour] = self.region(army_cells)

    # ------------------------------------------------------------ board and armies
    def _board(self) -> None:
        """``maxFile`` and ``maxRank`` of a grid (cells removed from it are walls, see :func:`walled_fen`)."""
        spec, board = self.spec.board, self.board
        whole = True
        if not isinstance(spec.generator, S.GridGen) or spec.cells or spec.links:
            self.refuse("a board that is not a rectangular grid (hexagons, ragged files, explicit cells "
                        "or links)", spec.generator.loc if spec.generator else self.game.variant_loc)
            whole = False
        if spec.wrap:
            self.refuse(f"a board that wraps round ({' and '.join(spec.wrap)})", spec.locs.get("wrap", spec.loc))
        if spec.directions:
            self.refuse("directions of its own (Fairy-Stockfish has only the grid's)", spec.directions[0].loc)
        if board.files > MAX_FILES or board.ranks > MAX_RANKS:
            self.refuse(f"a board of {board.files}x{board.ranks} cells (at most {MAX_FILES} files and "
                        f"{MAX_RANKS} ranks)", spec.generator.loc if spec.generator else None)
            whole = False
        if whole:
            self.settings["maxFile"] = str(board.files)
            self.settings["maxRank"] = str(board.ranks)

    def _armies(self) -> bool:
        """Are there two armies, White and Black as Fairy-Stockfish has them (refusing what differs)?
        The rest of the game is read only then."""
        spec, game = self.spec, self.game
        if spec.teams:
            self.refuse("teams", spec.teams[0].loc)
        if any(m.players or m.turn for m in spec.modes):
            self.refuse("play modes with other players or turns", spec.modes[0].loc)
        if len(game.armies) != 2:
            self.refuse(f"{len(game.armies)} armies (Fairy-Stockfish has two)", spec.armies[0].loc)
            return False
        first, second = game.armies
        if ([a.symbol for a in game.armies] != ["w", "b"] or first.letter_case != "upper"
                or second.letter_case != "lower" or game.turn_order != [0, 1]):
            self.refuse("armies other than White (upper case, 'w', moving first) and Black (lower case, 'b')",
                        spec.armies[0].loc)
        if (first.forward or "n", second.forward) != ("n", "s"):
            self.refuse("armies whose forward is not north for White and south for Black", spec.armies[0].loc)
        return True

    # ------------------------------------------------------------ pieces
    def _pieces(self) -> None:
        """A setting per piece kind (``pawn = p``, ``king = k``, ``archbishop = a``, ``customPiece1 = x:BETZA``)
        and the mobility regions of pieces whose moves stay in a zone; at most one royal kind."""
        game = self.game
        royals = [k for k in game.kinds if k.royal]
        if len(royals) > 1:
            self.refuse(f"more than one royal piece kind ({', '.join(k.name for k in royals)})", royals[1].spec.loc)
        if self.spec.rules.royal_check == "all":
            self.refuse("check only when all royal pieces are attacked", self.spec.rules.loc or game.variant_loc)
        promoted = self._promoted_letters()
        customs = 0
        for kind in game.kinds:
            spec = kind.spec
            if spec.neutral:
                if self.spec.rules.neutral_move == kind.name and kind.letter == "*":
                    self.settings["wallingRule"] = "duck"   # Fairy-Stockfish's duck: a wall every move moves
                else:
                    self.refuse(f"the neutral piece {kind.name}, other than a duck '*' that every move moves",
                                spec.loc)
                continue
            if kind.index in promoted:
                self.chars[kind.index] = promoted[kind.index]
            elif len(kind.letter) == 1 and kind.letter.isascii() and kind.letter.isalpha():
                self.chars[kind.index] = kind.letter.lower()
            else:
                self.refuse(f"the letter '{kind.letter}' of {kind.name} (Fairy-Stockfish's are one letter "
                            f"a to z, or '+' for a piece that a shogi-style promotion makes)", spec.loc)
                continue
            char = self.char(kind.index)
            if not kind.royal and self._orthodox_pawn(kind):
                self.types[kind.index] = "pawn"
            elif not kind.royal and self._soldier(kind):
                self.types[kind.index] = "soldier"
            elif not kind.royal and self._janggi_cannon(kind):
                self.types[kind.index] = "janggiCannon"
            else:
                betza = self._betza(kind, not kind.royal and self._pawn(kind))
                if kind.royal:
                    self.types[kind.index] = "king"
                    char = char if betza == "K" else f"{char}:{betza}"
                elif betza in BUILTIN_PIECES and BUILTIN_PIECES[betza] not in self.settings:
                    self.types[kind.index] = BUILTIN_PIECES[betza]
                else:
                    customs += 1
                    self.types[kind.index] = f"customPiece{customs}"
                    char = f"{char}:{betza}"
            self.settings[self.types[kind.index]] = char
        if customs > MAX_CUSTOM_PIECES:
            self.refuse(f"{customs} pieces of their own (Fairy-Stockfish has {MAX_CUSTOM_PIECES} slots)")
        for kind, cells in self.mobility.items():
            if kind in self.types:
                name = self.types[kind]
                self.per_army(f"mobilityRegion%s{name[0].upper()}{name[1:]}", cells)

    def _promoted_letters(self) -> dict[int, str]:
        """Letters for the kinds whose letter is '+' and the letter of the one kind that promotes to
        them in shogi's way (Fairy-Stockfish writes them so in FEN and needs a letter of their own for
        their moves): letters no other kind uses, from z down."""
        game = self.game
        used = {k.letter.lower() for k in game.kinds if len(k.letter) == 1}
        free = [c for c in "zyxwvutsrqponmlkjihgfedcba" if c not in used]
        found: dict[int, str] = {}
        for kind in game.kinds:
            if len(kind.letter) == 2 and kind.letter[0] == "+":
                sources = [k for k in game.kinds if any(kind.name in p.to for p in k.spec.promotions)]
                if len(sources) == 1 and sources[0].letter == kind.letter[1] and free:
                    found[kind.index] = free.pop(0)
        return found

    def _orthodox_pawn(self, kind: PieceKind) -> bool:
        """Is ``kind`` an orthodox pawn (a quiet step forward, captures one step diagonally forward,
        perhaps en passant, and perhaps quiet lame double steps from zones, which may set en passant)?
        Then it is Fairy-Stockfish's pawn, with its double steps and en passant written as settings:
        the double step regions, and per army the cells en passant may capture on (those the enemy's
        en passant double steps pass over)."""
        steps, captures, doubles = [], [], []
        for move in kind.spec.moves:
            if (not isinstance(move.pattern, S.BetzaPattern) or _restrictions(move) or move.to_cells is not None
                    or move.royal_only):
                return False
            atoms = parse_betza(move.pattern.text)
            if len(atoms) != 1 or atoms[0].rider or atoms[0].hop or atoms[0].initial:
                return False
            atom, vectors = atoms[0], set(atoms[0].vectors)
            modality = move.modality if atom.modality == "both" else atom.modality
            if vectors == {(0, 1)} and modality == "quiet" and not (move.from_cells or move.unmoved
                                                                    or move.lame or move.en_passant):
                steps.append(move)
            elif vectors == {(1, 1), (-1, 1)} and modality == "capture" and not (
                    move.from_cells or move.unmoved or move.lame or move.sets_en_passant):
                captures.append(move)
            elif (vectors == {(0, 2)} and modality == "quiet" and (atom.lame or move.lame)
                  and not move.unmoved and not move.en_passant):
                doubles.append(move)
            else:
                return False
        if (len(steps), len(captures)) != (1, 1) or self.pawn is not None:
            return False
        self.pawn = kind.index
        game, board = self.game, self.board
        self.settings["doubleStep"] = "true" if doubles else "false"
        if not doubles:
            return True
        everywhere = frozenset(range(game.n))
        starts = [frozenset().union(*(board.term(d.from_cells, a.name) if d.from_cells is not None else everywhere
                                      for d in doubles)) for a in game.armies]
        self.per_army("doubleStepRegion", starts)
        self._en_passant(kind, captures[0].en_passant)
        return True

    def _en_passant(self, kind: PieceKind, captures: bool) -> None:
        """``enPassantRegionWhite``/``Black``: per army, the cells it may capture en passant on (when
        ``kind`` captures so): those the enemy's moves that set en passant leap over."""
        game = self.game
        passed = []
        for army in game.armies:
            cells: set[int] = set()
            for atom in game.atoms[game.code(kind.index, army.index)]:
                if atom.sets_en_passant and atom.rays and any(atom.rays):
                    self.refuse(f"a sliding move of {kind.name} that sets en passant", kind.spec.loc)
                for frm, leaps in enumerate(atom.leaps if atom.sets_en_passant else ()):
                    if atom.from_cells is None or frm in atom.from_cells:
                        cells.update(c for _, between in leaps for c in between)
            passed.append(frozenset(cells))
        self.per_army("enPassantRegion", [passed[1], passed[0]] if captures else [frozenset(), frozenset()])

    def _pawn(self, kind: PieceKind) -> bool:
        """Is ``kind`` a pawn of its own (moves from a zone, en passant) but not an orthodox one? Then
        it is a custom piece among Fairy-Stockfish's ``pawnTypes``: its moves from the zone are its
        initial moves (Betza ``i``), allowed in the double step region, and ``e`` its en passant
        captures. There is one such region for every move of that kind."""
        moves = kind.spec.moves
        if self.pawn is not None or not any(m.from_cells is not None or m.en_passant or m.sets_en_passant
                                             for m in moves):
            return False
        if any(m.unmoved for m in moves):
            return False
        game = self.game
        zones = {tuple(self.board.term(m.from_cells, a.name) for a in game.armies)
                 for m in moves if m.from_cells is not None}
        if len(zones) > 1:
            self.refuse(f"moves of {kind.name} from different zones", kind.spec.loc)
        self.pawn = kind.index
        self.settings["pawnTypes"] = self.char(kind.index)
        if zones:
            self.per_army("doubleStepRegion", list(next(iter(zones))))
        self._en_passant(kind, any(m.en_passant for m in moves))
        return True

    def _soldier(self, kind: PieceKind) -> bool:
        """Is ``kind`` xiangqi's soldier (a step forward, and sideways steps from the ranks from some
        rank on, counted from its army's side)? Then it is Fairy-Stockfish's soldier with
        ``soldierPromotionRank``."""
        moves = kind.spec.moves
        if len(moves) != 2 or kind.spec.promotions or any(
                not isinstance(m.pattern, S.BetzaPattern) or _restrictions(m) or m.to_cells is not None
                or m.royal_only or m.unmoved or m.lame
                or m.en_passant or m.sets_en_passant or m.modality != "both" for m in moves):
            return False
        texts = [m.pattern.text for m in moves]
        if texts != ["fW", "sW"] or moves[0].from_cells is not None or moves[1].from_cells is None:
            return False
        board, game = self.board, self.game
        zones = [board.term(moves[1].from_cells, a.name) for a in game.armies]
        for rank in range(1, board.ranks + 1):
            ranks = [frozenset(c for c in range(game.n) if board.coords[c][1] + 1 >= rank),
                     frozenset(c for c in range(game.n) if board.ranks - board.coords[c][1] >= rank)]
            if ranks == zones:
                self.settings["soldierPromotionRank"] = str(rank)
                return True
        return False

    def _janggi_cannon(self, kind: PieceKind) -> bool:
        """Is ``kind`` Fairy-Stockfish's janggiCannon (the first such kind)? One Betza ``pR`` that
        moves and captures, with no option but ``hurdle not K, takes not K``, ``K`` the kind itself:
        Fairy-Stockfish's piece jumps over and captures no piece of its own type, of either side."""
        moves = kind.spec.moves
        if len(moves) != 1 or "janggiCannon" in self.settings:
            return False
        move = moves[0]
        alone = S.KindSet(names=[kind.name], negated=True)
        hurdle, takes = move.hurdle, move.takes
        if (not isinstance(move.pattern, S.BetzaPattern) or hurdle is None or takes is None
                or hurdle.side != "any" or hurdle.kinds is None
                or (hurdle.kinds.names, hurdle.kinds.negated) != (alone.names, alone.negated)
                or (takes.names, takes.negated) != (alone.names, alone.negated)):
            return False
        plain = move.model_copy(update={"hurdle": None, "takes": None})
        atoms = parse_betza(move.pattern.text)
        return (written_betza(plain) == "pR" and not _restrictions(plain) and len(atoms) == 1
                and plain.to_cells is None and not plain.royal_only)

    def _betza(self, kind: PieceKind, pawn: bool) -> str:
        """The Betza text of a piece that is not the orthodox pawn (refusing what of its moves is beyond
        Fairy-Stockfish's Betza); a ``pawn`` (:meth:`_pawn`) may have moves from a zone and en passant.
        Moves that end in one zone are its mobility region, when its other moves never leave that
        zone; a royal piece's capture of the enemy royal piece along its file, or along its file and
        rank, is the flying-general rule (Fairy-Stockfish tests both lines; a file alone is the same
        game where, as in xiangqi, the royal pieces never share a rank)."""
        parts, ends = [], []
        for move in kind.spec.moves:
            if not isinstance(move.pattern, S.BetzaPattern):
                self.refuse(f"a '{move.pattern.kind}' move of {kind.name} (only Betza moves are written)", move.loc)
                continue
            atoms = parse_betza(move.pattern.text)
            if (move.royal_only and kind.royal and len(atoms) == 1 and set(atoms[0].vectors) in _FLYING_LINES
                    and atoms[0].rider and atoms[0].range is None and not atoms[0].hop
                    and "capture" in (move.modality, atoms[0].modality) and not _restrictions(move)
                    and move.to_cells is None and move.from_cells is None):
                self.settings["flyingGeneral"] = "true"
                continue
            ends.append(move.to_cells)
            for what in _restrictions(move) + [w for w, flag in (
                    ("a move that only captures royal pieces", move.royal_only),
                    ("a move allowed only from some cells", move.from_cells is not None and not pawn),
                    ("an en passant capture by a piece other than a pawn", move.en_passant and not pawn),
                    ("a move that sets en passant by a piece other than a pawn", move.sets_en_passant and not pawn))
                    if flag]:
                self.refuse(f"{what} ({kind.name})", move.loc)
            for atom in atoms:
                problem = _beyond_fsf(atom)
                if problem:
                    self.refuse(f"{problem} in {kind.name}'s Betza '{move.pattern.text}'", move.loc)
            parts.append(written_betza(move))
        if any(e is not None for e in ends):
            regions = {tuple(self.board.term(e, a.name) if e is not None else None for a in self.game.armies)
                       for e in ends}
            regions.discard((None,) * len(self.game.armies))
            if len(regions) == 1 and self._closed(kind, list(next(iter(regions)))):
                self.mobility[kind.index] = list(next(iter(regions)))
            else:
                where = next(m for m in kind.spec.moves if m.to_cells is not None)
                self.refuse(f"moves of {kind.name} allowed only into some cells, where its other moves may "
                            f"go elsewhere", where.loc)
        return "".join(parts)

    def _closed(self, kind: PieceKind, regions: list[frozenset[int]]) -> bool:
        """Do the moves of ``kind`` that may end anywhere never leave its army's region, and does the
        setup place it only there (so that the region is where it may stand)?"""
        game, start = self.game, start_position(self.game)
        for army, region in zip(game.armies, regions):
            code = game.code(kind.index, army.index)
            if any(start.board[c] == code for c in start.cells_of[army.index] if c not in region):
                return False
            for atom in game.atoms[code]:
                if atom.to_cells is None and not atom.royal_only and any(not atom.reach(c) <= region for c in region):
                    return False
        return True

    # ------------------------------------------------------------ promotion
    def _promotions(self) -> None:
        """Promotion, from the compiled tables of each kind (so that a later promotion line that
        overrides an earlier one is read as the game plays it): pawn-style (arriving in the zone, a
        choice of kinds) or shogi-style (entering or leaving it, one kind), the zone shared by all."""
        game = self.game
        pawn_style: dict[int, tuple] = {}     # kind -> (regions, targets, optional)
        shogi_style: dict[int, tuple] = {}    # kind -> (regions, target, optional)
        for kind in game.kinds:
            if not kind.spec.promotions or kind.index not in self.chars:
                continue
            for promo in kind.spec.promotions:
                for flag, what in ((promo.on_capture_into is not None, "promotion on a capture into a zone"),
                                   (promo.partner_pieces, "promotion to a partner's pieces"),
                                   (promo.in_place is not None, "promotion as a move of its own ('in place', not "
                                                                "translated yet)")):
                    if flag:
                        self.refuse(f"{what} ({kind.name})", promo.loc)
            codes = [game.code(kind.index, a.index) for a in game.armies]
            if any(game.promotions[code] is None for code in codes):
                continue   # promotions in place only (refused above)
            regions = [frozenset(c for c, t in enumerate(game.promotions[code]) if t) for code in codes]
            targets = tuple(tuple(sorted({game.code_kind[t] for cell in game.promotions[code] for t in cell if t}))
                            for code in codes)
            optional = any(0 in game.promotions[code][c] for code, region in zip(codes, regions) for c in region)
            if any(set(game.promotions[code][c]) - {0} != {game.code(t, game.code_army[code]) for t in kinds}
                   for code, region, kinds in zip(codes, regions, targets) for c in region):
                self.refuse(f"promotion choices that differ from cell to cell ({kind.name})", kind.spec.promotions[0].loc)
                continue
            compulsory = [frozenset(c for c in region if 0 not in game.promotions[code][c])
                          for code, region in zip(codes, regions)]
            if optional and compulsory != [r & self._immobile(code) for r, code in zip(regions, codes)]:
                self.refuse(f"an optional promotion that is compulsory elsewhere than where the piece could "
                            f"never move again ({kind.name})", kind.spec.promotions[0].loc)
                continue
            leaving = [game.promotions_leaving[code] for code in codes]
            if leaving[0] is None:
                pawn_style[kind.index] = (regions, tuple(targets), optional)
            elif all(frozenset(c for c, t in enumerate(cells) if t) == region
                     for cells, region in zip(leaving, regions)) and len(set(targets)) == 1 and len(targets[0]) == 1:
                shogi_style[kind.index] = (regions, targets[0][0], optional)
            else:
                self.refuse(f"a promotion on leaving a zone that is not shogi's (one piece, the same zone) "
                            f"({kind.name})", kind.spec.promotions[0].loc)
        styles = list(pawn_style.values()) + list(shogi_style.values())
        if len({tuple(s[0]) for s in styles}) > 1:
            self.refuse("promotion zones that differ between pieces", self.game.variant_loc)
            return
        if len({s[1] for s in pawn_style.values()}) > 1:
            self.refuse("promotion choices that differ between pieces", self.game.variant_loc)
            return
        if any(s[2] for s in styles):
            self._immobility_illegal()
        self.settings["promotionPawnTypes"] = self.piece_set(pawn_style)
        if pawn_style:
            regions, targets, optional = next(iter(pawn_style.values()))
            for colour, kinds in zip(("White", "Black"), targets):
                self.settings["promotionPieceTypes" + colour] = self.piece_set(kinds)
            self.settings["mandatoryPawnPromotion"] = "false" if optional else "true"
        if shogi_style:
            self.settings["promotedPieceType"] = " ".join(
                f"{self.char(k)}:{self.char(target)}" for k, (_, target, _) in shogi_style.items())
            self.settings["mandatoryPiecePromotion"] = "false" if any(s[2] for s in shogi_style.values()) else "true"
        if styles:
            self.promotion_regions = styles[0][0]
            self.per_army("promotionRegion", styles[0][0])
        limits = {}
        for code, limit in game.promotion_limits.items():
            limits.setdefault(game.code_kind[code], set()).add(limit)
        if any(len(v) > 1 for v in limits.values()):
            self.refuse("promotion limits that differ between the armies", self.game.variant_loc)
        elif limits:
            self.settings["promotionLimit"] = " ".join(f"{self.char(k)}:{min(v)}" for k, v in sorted(limits.items()))

    def _immobile(self, code: int) -> frozenset[int]:
        """The cells from which a piece of ``code`` could never move, whatever stands around it."""
        atoms = self.game.atoms[code]
        return frozenset(c for c in range(self.game.n) if not any(atom.reach(c) for atom in atoms))

    def _immobility_illegal(self) -> None:
        """Set ``immobilityIllegal``: no piece may go where it could never move again. Refused where a
        piece that does not promote there could (Fairy-Stockfish would forbid its move)."""
        self.immobility = True
        self.settings["immobilityIllegal"] = "true"
        game = self.game
        for kind in game.kinds:
            for army in game.armies:
                code = game.code(kind.index, army.index)
                stuck = self._immobile(code) - frozenset(c for c, t in enumerate(game.promotions[code] or ()) if t)
                if stuck and kind.spec.moves:
                    self.refuse(f"a piece that may stand where it could never move again ({kind.name} on "
                                f"{self.square(min(stuck))}), in a game where Fairy-Stockfish must forbid that "
                                f"to make a promotion compulsory there", kind.spec.loc)
                    return

    # ------------------------------------------------------------ castling
    def _castling(self) -> None:
        """Castling as Fairy-Stockfish has it: one rule a side, king to a file, the rook beside it on
        the inside, FIDE's conditions, the kings on one file of their first ranks."""
        game, spec = self.game, self.spec.castling
        if not game.castling_kinds:
            self.settings["castling"] = "false"
            return
        if game.castle_locks:
            self.refuse("castling by the rook climbing onto the king", spec.loc)
        sides: dict[int, int] = {}
        for rule in game.castle_rules:
            rule_spec = next(r for r in spec.rules if r.name == rule.name)
            problems = [what for what, flag in (
                ("a king-rook swap", rule.swap), ("along the king's file", rule.axis == 1),
                ("ignoring the cells between", rule.ignore_path), ("ignoring attacks", rule.ignore_attacks),
                ("with a rook on given cells", rule_spec.in_cells is not None),
                ("without a side", rule.side == 0), ("a second rule on one side", rule.side in sides),
                ("with the rook elsewhere than beside the king on the inside",
                 not rule.swap and rule.rook_to != (rule.king_to or 0) - rule.side))
                if flag]
            if problems:
                self.refuse(f"castling '{rule.name}' {', '.join(problems)}", rule_spec.loc)
                continue
            sides[rule.side] = rule.king_to
        start = start_position(game)
        kings = [[c for c in start.cells_of[a.index] if start.board[c] == game.code(game.castle_king, a.index)]
                 for a in game.armies]
        placed = {(self.board.coords[k[0]][0], self.board.coords[k[0]][1] if a == 0
                   else self.board.ranks - 1 - self.board.coords[k[0]][1]) for a, k in enumerate(kings) if len(k) == 1}
        if any(len(k) > 1 for k in kings) or len(placed) != 1:
            self.refuse("castling kings that are not one of each army on one file of their first ranks, or none",
                        spec.loc)
            return
        (x, rank), = placed
        army = next(a for a, k in enumerate(kings) if k)
        letters = "abcdefghijkl"
        self.settings["castlingKingPiece"] = self.char(game.castle_king)
        self.settings["castlingRookPieces"] = self.piece_set(game.castle_rooks)
        self.settings["castlingKingFile"] = letters[x]
        self.settings["castlingRank"] = str(rank + 1)
        if 1 in sides:
            self.settings["castlingKingsideFile"] = letters[sides[1]]
        if -1 in sides:
            self.settings["castlingQueensideFile"] = letters[sides[-1]]
        rooks = [self.board.coords[c][0] for c in start.cells_of[army] if start.board[c] in game.castle_rook_codes[army]
                 and self.board.coords[c][1] == self.board.coords[kings[army][0]][1]]
        if any(r > x for r in rooks):
            self.settings["castlingRookKingsideFile"] = letters[max(rooks)]
        if any(r < x for r in rooks):
            self.settings["castlingRookQueensideFile"] = letters[min(rooks)]

    # ------------------------------------------------------------ drops
    def _drops(self) -> None:
        """Hands: drops and where they may go, captures to hand (demoted or not), gating; every piece a
        hand may hold must have a rule to drop it (Fairy-Stockfish drops any)."""
        game, drops = self.game, self.spec.drops
        if drops is None:
            return
        start = start_position(game)
        in_hand = {game.code_kind[c] for c, count in enumerate(start.hands) if count}
        if game.to_hand:
            # a captured piece goes to hand as it is, a promoted one perhaps as the kind it was; a
            # kind that only promotion makes always goes back
            in_hand |= {game.demote[k.index] if game.always_demote[k.index] else k.index
                        for k in game.kinds if not k.royal and not k.spec.neutral}
        if drops.gates:
            self._gating(drops.gates, in_hand)
        if not game.has_drops:
            return
        self.settings["pieceDrops"] = "true"
        self.settings["capturesToHand"] = "true" if game.to_hand else "false"
        if game.to_hand and not game.drops_demoted:
            self.settings["dropLoop"] = "true"
        for rule in drops.drops:
            kind = game.kind_index[rule.piece]
            if rule.condition is not None:
                self.refuse(f"a condition on dropping {rule.piece}", rule.loc)
            if rule.no_file_twin and (rule.no_file_twin != rule.piece or "dropNoDoubled" in self.settings):
                self.refuse(f"a {rule.piece} drop barred from a file by another kind, or two such rules", rule.loc)
            elif rule.no_file_twin:
                self.settings["dropNoDoubled"] = self.char(kind)
            self._drop_limits(rule, kind)
            if rule.no_mate and self.settings.get("shogiPawn") != self.chars.get(kind):
                self.refuse(f"a drop that may not mate, of {rule.piece} (Fairy-Stockfish's rule is the shogi "
                            f"pawn's)", rule.loc)
            elif rule.no_mate:
                self.settings["shogiPawnDropMateIllegal"] = "true"
            if rule.unmoved_in is not None:
                self.refuse(f"'unmoved in' on dropping {rule.piece} (not translated yet)", rule.loc)
        if drops.must_drop:
            self.refuse("'must drop' (not translated yet)", drops.locs.get("must drop"))
        for name in drops.both_colours:
            self.refuse(f"'keep {name} on both colours' (not translated yet)", drops.locs.get(f"both colours {name}"))
        for kind in sorted(in_hand):
            if game.drop_cells[game.code(kind, 0)] is None:
                self.refuse(f"{game.kinds[kind].name} in hand without a rule to drop it", drops.loc)
        self._drop_regions(drops)

    def _flag_region(self, zone: str) -> None:
        """``flagRegionWhite``/``Black``: each army's cells of ``zone``."""
        cells = self.board.zones.get(zone, {})
        self.per_army("flagRegion", [cells.get(a.name, cells.get(None, frozenset())) for a in self.game.armies])

    def _drop_limits(self, rule: S.DropRule, kind: int) -> None:
        """``at most N on file``: ``dropNoDoubled`` with ``dropNoDoubledCount`` N, where it is the only
        file rule (a limit in a set of cells has no counterpart)."""
        for limit in rule.at_most:
            if limit.cells is not None or "dropNoDoubled" in self.settings:
                self.refuse(f"a limit on {rule.piece} drops in a set of cells, or two file rules", limit.loc)
            else:
                self.settings["dropNoDoubled"] = self.char(kind)
                self.settings["dropNoDoubledCount"] = str(limit.count)

    def _gating(self, gates: list[S.GateRule], in_hand: set[int]) -> None:
        """Seirawan chess's gating (``gating``, ``seirawanGating``): a piece from the hand enters on a
        cell of the first rank that a piece leaves on its first move. Fairy-Stockfish gates any piece
        in hand but a pawn, on every cell of the first rank."""
        game, board = self.game, self.board
        first = [frozenset(c for c in range(game.n) if board.coords[c][1] == y) for y in (0, board.ranks - 1)]
        pieces = {game.kind_index[name] for gate in gates for name in gate.pieces}
        cells = [[board.term(gate.cells, a.name) for a in game.armies] for gate in gates]
        if any(army_cells != first for army_cells in cells) or pieces != in_hand - {self.pawn}:
            self.refuse("gating other than Fairy-Stockfish's: every piece in hand but a pawn, on the first rank",
                        gates[0].loc)
            return
        self.settings["gating"] = "true"
        self.settings["seirawanGating"] = "true"

    def _drop_regions(self, drops: S.DropsSpec) -> None:
        """``dropRegionWhite``/``Black`` and the pawn's drop settings from where each kind may be
        dropped; refused when they differ by kind in ways Fairy-Stockfish has no setting for."""
        game = self.game
        everywhere = frozenset(range(game.n))
        common: list[frozenset[int]] | None = None
        pawn_barred = None
        for kind in game.kinds:
            codes = [game.code(kind.index, a.index) for a in game.armies]
            if game.drop_cells[codes[0]] is None:
                continue
            barred = [everywhere - game.drop_cells[c] for c in codes]
            if self.immobility:   # Fairy-Stockfish bars the cells a piece could never leave: so must the rules
                stuck = [self._immobile(c) for c in codes]
                if any(not s <= b for s, b in zip(stuck, barred)):
                    self.refuse(f"drops of {kind.name} where it could never move again", drops.loc)
                barred = [b - s for b, s in zip(barred, stuck)]
            if kind.index == self.pawn:
                pawn_barred = barred
            elif common is None:
                common = barred
            elif common != barred:
                self.refuse("drop zones that differ between pieces", drops.loc)
                return
        common = common or [frozenset(), frozenset()]
        if any(common):
            self.per_army("dropRegion", [everywhere - barred for barred in common])
        if pawn_barred is None:
            return
        ranks = self.board.ranks
        first = [frozenset(c for c in everywhere if self.board.coords[c][1] == y) for y in (0, ranks - 1)]
        zone = self.promotion_regions or [frozenset(), frozenset()]
        for first_rank in (False, True):
            for in_zone in (False, True):
                fsf = [b | (frozenset() if first_rank else f) | (frozenset() if in_zone else z)
                       for b, f, z in zip(common, first, zone)]
                if fsf == pawn_barred:
                    self.settings["firstRankPawnDrops"] = str(first_rank).lower()
                    self.settings["promotionZonePawnDrops"] = str(in_zone).lower()
                    return
        self.refuse("pawn drops barred from cells other than the first rank and the promotion zone", drops.loc)

    # ------------------------------------------------------------ rules
    def _rules(self) -> None:
        """The rules block's switches: check (royal pieces must not be left attacked), compulsory
        captures, the makpong rule, what resets the move clock; refusals for the rest."""
        game, rules = self.game, self.spec.rules
        loc = rules.loc or game.variant_loc   # the rules block has no place of its own once merged
        if any(k.royal for k in game.kinds) and "self-check" not in rules.forbid:
            self.refuse("royal pieces that may be left attacked", loc)
        if "partner-check" in rules.forbid:
            self.refuse("'forbid partner-check'", loc)
        if "royal-escape" in rules.forbid:
            self.settings["makpongRule"] = "true"
        if "giving-check" in rules.forbid:
            self.settings["checking"] = "false"
        if rules.compulsory_capture:
            self.settings["mustCapture"] = "true"
        points = next((at for key, at in rules.locs.items() if key.startswith("points.")), None)
        for flag, what, at in ((rules.explosion is not None, "captures that explode", rules.locs.get("explosion")),
                               (bool(rules.points), "points", points),
                               (rules.neutral_move is not None and "wallingRule" not in self.settings,
                                "a neutral piece's move", rules.locs.get("neutral_move")),
                               (self.spec.stacking is not None, "stacks", self.spec.stacking and self.spec.stacking.loc),
                               (rules.resign != "lose", "resigning that does not lose", None)):
            if flag:
                self.refuse(what, at or loc)
        for rule in rules.no_moves:
            self.refuse(f"'when no moves: {rule.action}'", rule.loc)
        resetting = {game.kind_index[e] for e in rules.clock_resets if e in game.kind_index}
        if "promotion" in rules.clock_resets:
            resetting |= {k.index for k in game.kinds if k.spec.promotions}
        self.settings["nMoveRuleTypes"] = self.piece_set(k for k in resetting if k in self.chars)

    def _ends(self) -> None:
        """The end rules, each recognised by its condition (:func:`expression_text`) as one of
        Fairy-Stockfish's settings, or refused; no repetition or clock rule is written as 0 (none)."""
        game, rules = self.game, self.spec.rules
        values: dict[str, str] = {}
        extinction: dict[str, tuple[set[str], int, S.EndRule]] = {}
        perpetual: dict[str, str] = {}
        royal = next((k for k in game.kinds if k.royal), None)
        for rule in rules.ends:
            text = expression_text(rule.condition)
            result = rule.result
            words = text.split()
            if result == "score":
                self.refuse(f"the end rule '{rule.name}' ending the game by scores", rule.loc)
            elif text == "in_check and legal_moves == 0":
                values.setdefault("checkmateValue", result)
            elif text == "legal_moves == 0":
                values.setdefault("checkmateValue", result)
                values.setdefault("stalemateValue", result)
            elif (len(words) == 3 and words[:2] == ["repetitions", ">="] and words[2].isdigit()
                  and "nFoldRule" not in values):
                values["nFoldRule"], values["nFoldValue"] = words[2], result
            elif (words[:2] == ["repetitions", ">="] and words[3:4] == ["and"] and "nFoldRule" not in values
                  and PERPETUAL.get(" ".join(words[4:])) == result):
                perpetual[result] = words[2]   # before the repetition rule, which they must share N with
            elif (len(words) == 5 and words[:2] == ["clock", ">="] and words[2].isdigit()
                  and words[3:] == ["*", "sides"] and result == "draw" and "nMoveRule" not in values):
                values["nMoveRule"] = words[2]
                if "capture" not in rules.clock_resets:
                    self.refuse(f"the end rule '{rule.name}' on a move clock that captures do not reset",
                                rules.locs.get("clock", rule.loc))
            elif text == "insufficient_material" and result == "draw":
                continue
            elif (isinstance(rule.condition, S.Call) and rule.condition.name == "enemy_royal_in" and result == "loss"
                  and royal is not None and "flagPiece" not in values):
                values["flagPiece"] = self.char(royal.index)
                self._flag_region(rule.condition.args[0].path[0])
            elif _flag_count(rule.condition) is not None and result == "loss" and "flagPiece" not in values:
                zone, kind, most = _flag_count(rule.condition)
                values["flagPiece"] = self.char(game.kind_index[kind])
                if most > 1:
                    values["flagPieceCount"] = str(most)
                self._flag_region(zone)
            elif (len(words) == 3 and words[:2] == ["enemy_checks", ">="] and result == "loss"
                  and words[2] == str(rules.count_checks)):
                values["checkCounting"] = "true"
            elif _extinction(rule.condition) is not None and _extinction(rule.condition)[0] not in extinction:
                side, kinds, most = _extinction(rule.condition)
                extinction[side] = (kinds, most, rule)
            else:
                self.refuse(f"the end rule '{rule.name}' ({text}: {result}), which Fairy-Stockfish has no "
                            f"setting for", rule.loc)
        if perpetual:
            if sorted(set(perpetual) - {"draw"}) != ["loss", "win"] or set(perpetual.values()) != {values.get("nFoldRule")}:
                self.refuse("perpetual check without both of its end rules before the repetition rule, on the "
                            "same number of repetitions (Fairy-Stockfish's perpetualCheckIllegal)",
                            rules.loc or game.variant_loc)
            values["perpetualCheckIllegal"] = "true"
        if rules.count_checks is not None and "checkCounting" not in values:
            self.refuse("counted checks without the end rule Fairy-Stockfish has for them",
                        rules.loc or game.variant_loc)
        self._extinction(extinction)
        if "checkmateValue" not in values and any(k.royal for k in game.kinds):
            self.refuse("no end rule for a side without legal moves", rules.loc or game.variant_loc)
        values.setdefault("nMoveRule", "0")
        values.setdefault("nFoldRule", "0")
        self.settings.update(values)

    def _extinction(self, found: dict[str, tuple[set[str], int, S.EndRule]]) -> None:
        """``extinctionValue`` and its companions from the rules that count pieces (:func:`_extinction`):

        - ``count(P) == 0 or ...: loss`` with ``enemy_count(P) == 0 or ...: win`` (both, for the same
          kinds and counts: Fairy-Stockfish decides both sides' extinction; ``< N`` for a count of
          N - 1);
        - one of them alone for a count of 0 of kinds that neither promote nor explode, the side's
          own (``pieces == 0``: every kind, ``*``): the other side cannot have lost them by its own move;
        - the bare king: ``pieces == royals: R`` with ``enemy_pieces == enemy_royals: -R`` (losers),
          with one royal piece in each army that no promotion makes.

        Shatranj's bare king, ``enemy_pieces == enemy_royals and pieces > royals: win`` alone (the
        bared side makes one more move), is refused: Fairy-Stockfish's nearest settings
        (``extinctionOpponentPieceCount = 2``, ``extinctionClaim``) end the game before that move
        when the barer has three pieces or more, a position where the legal moves differ."""
        if not found:
            return
        game, settings = self.game, self.settings
        opposite = {"win": "loss", "loss": "win", "draw": "draw"}
        own, enemy = found.get("own"), found.get("enemy")
        bare, bared, claim = found.get("bare"), found.get("bared"), found.get("bare-claim")
        if bare or bared or claim:
            royal = [k for k in game.kinds if k.royal]
            counts = [sum(game.setup_counts[game.code(k.index, a.index)] for k in royal) for a in game.armies]
            promoted = {name for k in game.kinds for p in k.spec.promotions for name in p.to}
            if own or enemy or counts != [1, 1] or any(k.name in promoted for k in royal):
                return self._refuse_extinction(found)
            settings.update({"extinctionPieceTypes": "*", "extinctionPieceCount": "1"})
            if bare and bared and not claim and opposite[bare[2].result] == bared[2].result:
                settings["extinctionValue"] = bare[2].result
            else:
                return self._refuse_extinction(found)
        elif own and enemy and own[:2] == enemy[:2] and own[2].result == opposite[enemy[2].result]:
            settings["extinctionValue"] = own[2].result
        elif len(found) == 1 and (own or enemy)[1] == 0 and self._kept((own or enemy)[0]):
            settings["extinctionValue"] = own[2].result if own else opposite[enemy[2].result]
        else:
            return self._refuse_extinction(found)
        if own or enemy:
            kinds, most, _ = own or enemy
            settings["extinctionPieceTypes"] = "*" if kinds == {"*"} else self.piece_set(game.kind_index[n] for n in kinds)
            if most:
                settings["extinctionPieceCount"] = str(most)

    def _kept(self, kinds: set[str]) -> bool:
        """Can a side lose pieces of these kinds (``*``: any, whose number promotion keeps) only by the
        other side's moves (no promotion turns them into others, no explosion takes the mover's own)?"""
        if self.spec.rules.explosion is not None:
            return False
        return "*" in kinds or not any(k.spec.promotions for k in self.game.kinds if k.name in kinds)

    def _refuse_extinction(self, found: dict[str, tuple[set[str], int, S.EndRule]]) -> None:
        """Refuse each of the counting end rules that :meth:`_extinction` could not write."""
        for _, _, rule in found.values():
            self.refuse(f"the end rule '{rule.name}' ({expression_text(rule.condition)}: {rule.result}), whose "
                        f"counts of pieces Fairy-Stockfish's extinction rules cannot say", rule.loc)

    # ------------------------------------------------------------ setup
    def _setup(self) -> None:
        """``startFen`` (walls where the grid lacks cells), and ``chess960`` castling for a shuffled setup."""
        setup = self.spec.setup
        if setup.shuffles and self.game.castle_rules:
            self.settings["chess960"] = "true"   # castling from any array; dealing arrays is the GUI's job
        for place in setup.places:
            if place.facing:
                self.refuse(f"pieces facing other ways ({place.piece})", place.loc)
                break
        if not self.refused:
            self.settings["startFen"] = walled_fen(start_position(self.game))


def _restrictions(move: S.MoveSpec) -> list[str]:
    """The options of ``move`` that no piece of Fairy-Stockfish has, in words (the cells a move must
    end in and a royal piece's capture of royal pieces are looked at by the caller)."""
    return [what for what, flag in (
        ("a move with a condition", move.condition is not None),
        ("a move confined to some cells ('within')", move.within is not None),
        ("a hopper limited in what it may jump over", move.hurdle is not None),
        ("a hopper limited in what it may capture", move.takes is not None),
        ("a once-per-game move", move.once_per_game),
        ("a move that commits the piece to a direction", move.commits is not None)) if flag]


def _beyond_fsf(atom: BetzaAtom) -> str | None:
    """What in a Betza atom Fairy-Stockfish's Betza subset lacks, or None."""
    steps = {(max(abs(dx), abs(dy)), min(abs(dx), abs(dy))) for dx, dy in atom.vectors}
    if atom.hop and (not atom.rider or atom.range is not None or not steps <= HOPPER_STEPS):
        return "a hopper other than pR, pB, gR or gB"
    if atom.rider and not steps <= RIDER_STEPS:
        return "a rider other than along rook, bishop or knight lines"
    if atom.lame and (atom.rider or not steps <= LAME_LEAPS):
        return "a lame piece other than nN, nA, nZ or nD"
    return None


def _flag_count(condition) -> tuple[str, str, int] | None:
    """``(zone, kind, n)`` of ``enemy_pieces_in(ZONE, KIND) >= n`` (or ``> n - 1``): Fairy-Stockfish's flag
    piece ``KIND`` with ``flagPieceCount`` n, in the flag region ``ZONE``; else None."""
    if not (isinstance(condition, S.Compare) and isinstance(condition.left, S.Call)
            and condition.left.name == "enemy_pieces_in" and len(condition.left.args) == 2
            and isinstance(condition.right, S.Num) and condition.op in (">", ">=")):
        return None
    most = condition.right.value + (condition.op == ">")
    zone, kind = (".".join(arg.path) for arg in condition.left.args)
    return (zone, kind, most) if most >= 1 else None


def _extinction(condition: S.Expr) -> tuple[str, set[str], int] | None:
    """What an end condition counts, as ``(side, kinds, most)``: the condition holds when ``side``
    (``own`` or ``enemy``) has at most ``most`` pieces of one of ``kinds``; ``count(A) == 0 or
    count(B) < 2 ...`` (all with one bound), ``enemy_count`` likewise, ``pieces == 0`` (kinds
    ``*``). The bare king: ``("bare", {"*"}, 1)`` for ``pieces == royals``, ``("bared", ...)`` for
    ``enemy_pieces == enemy_royals``, ``("bare-claim", ...)`` for that and ``pieces > royals``.
    None for anything else."""
    text = expression_text(condition)
    named = {"pieces == 0": ("own", {"*"}, 0), "enemy_pieces == 0": ("enemy", {"*"}, 0),
             "pieces == royals": ("bare", {"*"}, 1), "enemy_pieces == enemy_royals": ("bared", {"*"}, 1),
             "enemy_pieces == enemy_royals and pieces > royals": ("bare-claim", {"*"}, 1)}
    if text in named:
        return named[text]
    terms = condition.operands if isinstance(condition, S.BoolOp) and condition.op == "or" else [condition]
    calls, kinds, bounds = set(), set(), set()
    for term in terms:
        if not (isinstance(term, S.Compare) and term.op in ("==", "<", "<=") and isinstance(term.left, S.Call)
                and term.left.name in ("count", "enemy_count") and len(term.left.args) == 1
                and isinstance(term.left.args[0], S.Ref) and isinstance(term.right, S.Num)):
            return None
        most = term.right.value - (term.op == "<")
        if most < 0 or (term.op == "==" and most != 0):
            return None
        calls.add(term.left.name)
        kinds.add(term.left.args[0].path[0])
        bounds.add(most)
    if len(calls) != 1 or len(bounds) != 1:
        return None
    return ("own" if calls == {"count"} else "enemy"), kinds, bounds.pop()
