"""The Spec: a validated, interpreter-independent model of one game.

The transformer builds these pydantic models from the parse tree, the
resolver merges ``extends`` and ``include`` into one :class:`VariantSpec`,
and the interpreter compiles that into fast tables. Every node that a user
wrote carries ``loc`` (excluded from dumps and equality) so that semantic
errors found later can point at the source.

The models describe *meaning*, not syntax: for example a Betza string and a
native ``ride`` pattern are both :class:`MoveSpec` with a pattern, and the
English renderer of the documentation generator walks these types.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from .errors import Loc


class Node(BaseModel):
    """Base of every Spec node: strict fields and an optional source location."""

    model_config = ConfigDict(defer_build=True, extra="forbid", arbitrary_types_allowed=True)
    loc: Loc | None = Field(default=None, exclude=True, repr=False)
    locs: dict[str, Loc] = Field(default_factory=dict, exclude=True, repr=False)
    """Locations of names inside the node (e.g. each promotion target), by name."""

    def shape(self) -> tuple:
        """The node's meaning as nested tuples: its class and every field but the source locations,
        so that two nodes written alike in different places (or files) have equal shapes. Cheaper
        than ``model_dump``, which builds pydantic's serialiser on first use."""
        return (type(self).__name__, *((name, _shape(value)) for name, value in self.__dict__.items()
                                       if name not in ("loc", "locs")))


def _shape(value: object) -> object:
    if isinstance(value, Node):
        return value.shape()
    if isinstance(value, (list, tuple)):
        return tuple(_shape(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _shape(v)) for k, v in value.items()))
    return value


# ------------------------------------------------------------------ expressions


class Num(Node):
    kind: Literal["num"] = "num"
    value: int


class Str(Node):
    kind: Literal["str"] = "str"
    value: str


class Ref(Node):
    """A name, or a dotted path such as ``to.type``."""

    kind: Literal["ref"] = "ref"
    path: list[str]


class Call(Node):
    kind: Literal["call"] = "call"
    name: str
    args: list["Expr"] = []


class Not(Node):
    kind: Literal["not"] = "not"
    operand: "Expr"


class BoolOp(Node):
    kind: Literal["bool"] = "bool"
    op: Literal["and", "or"]
    operands: list["Expr"]


class Compare(Node):
    kind: Literal["compare"] = "compare"
    op: Literal["==", "!=", "<", "<=", ">", ">="]
    left: "Expr"
    right: "Expr"


class Arith(Node):
    kind: Literal["arith"] = "arith"
    op: Literal["+", "-", "*", "//", "%"]
    left: "Expr"
    right: "Expr"


class Neg(Node):
    kind: Literal["neg"] = "neg"
    operand: "Expr"


Expr = Annotated[
    Union[Num, Str, Ref, Call, Not, BoolOp, Compare, Arith, Neg], Field(discriminator="kind")
]


# ------------------------------------------------------------------ cell sets


class CellTerm(Node):
    """One term of a cell set.

    ``kind`` is one of: ``named`` (a cell name, ``a``), ``rect`` (the
    rectangle between cells ``a`` and ``b``), ``rank`` / ``ranks`` (``lo``,
    ``hi``, ``step``), ``file`` (``a``) / ``files`` (``a``..``b``), ``type``
    (cells whose ``type`` attribute is ``a``), ``zone`` (the cells of zone
    ``a``; for a per-army zone, the cells of the army concerned), ``all``,
    and ``where`` (cells for which ``expr`` holds).
    """

    kind: Literal["named", "rect", "rank", "ranks", "file", "files", "type", "zone", "all", "where"]
    a: str | None = None
    b: str | None = None
    lo: int | None = None
    hi: int | None = None
    step: int = 1
    expr: Expr | None = None


class CellSet(Node):
    """The union of ``include`` minus the union of ``exclude``."""

    include: list[CellTerm]
    exclude: list[CellTerm] = []


# ------------------------------------------------------------------ board


class GridGen(Node):
    """``grid F x R`` (a flat board), or ``grid F x R x L``: ``levels`` boards of F x R stacked."""

    kind: Literal["grid"] = "grid"
    files: int
    ranks: int
    levels: int = 1


class RaggedGen(Node):
    kind: Literal["ragged"] = "ragged"
    lengths: list[int]


class HexGen(Node):
    kind: Literal["hex"] = "hex"
    radius: int


Generator = Annotated[Union[GridGen, RaggedGen, HexGen], Field(discriminator="kind")]


class CellDecl(Node):
    name: str
    x: float
    y: float


class Link(Node):
    source: str
    target: str
    label: str
    edge_kind: str | None = None


class SetAttr(Node):
    attribute: str
    value: str | int
    cells: CellSet


class DirEntry(Node):
    """One label of a direction family: its step in files, ranks and (on a board of levels) levels."""

    label: str
    dx: int
    dy: int
    dz: int = 0
    edge_kind: str | None = None


class DirRow(Node):
    cells: CellSet
    entries: list[DirEntry]


class DirectionFamily(Node):
    """Named steps whose (dx, dy) may depend on the cell a step starts from."""

    name: str
    rows: list[DirRow]


class ZoneSpec(Node):
    """Cells shared by all armies (``shared``) or one cell set per army."""

    name: str
    shared: CellSet | None = None
    per_army: dict[str, CellSet] = {}


class ShapeSpec(Node):
    cells: CellSet
    points: list[tuple[float, float]]


class PositionSpec(Node):
    cells: CellSet
    x: Expr
    y: Expr


class RiverSpec(Node):
    """A river drawn across the board between rank ``below`` and the next rank up, with ``text``
    written in it (none when empty)."""

    below: int
    text: str = ""


class DrawingSpec(Node):
    """How the board is drawn; it changes the picture, never the rules (``draw`` statements).

    ``points``: pieces stand on the crossings of lines drawn through the cells' centres, not in
    the cells. ``plain``: every cell in one colour (no chequering, no tints by type). ``river``:
    see :class:`RiverSpec`. ``diagonals``: cell sets whose rectangular blocks get their two
    diagonals drawn (a palace); a per-army zone in them means the cells of every army. ``facing``:
    each army's pieces are drawn turned towards its forward direction (shogi: Gote's upside down).
    """

    points: bool = False
    plain: bool = False
    facing: bool = False
    river: RiverSpec | None = None
    diagonals: list[CellSet] = []


class BoardSpec(Node):
    """A board: a generator and/or explicit cells, what is removed, links, a wrap, attributes,
    directions, zones and drawing (``position``, ``shape`` and the ``draw`` statements). ``wrap``:
    the coordinates that wrap round (``files``: a cylinder whose last file is next to its first;
    both: a torus)."""

    generator: Generator | None = None
    cells: list[CellDecl] = []
    removes: list[CellSet] = []
    links: list[Link] = []
    wrap: list[Literal["files", "ranks"]] = []
    attributes: list[SetAttr] = []
    directions: list[DirectionFamily] = []
    zones: dict[str, ZoneSpec] = {}
    shapes: list[ShapeSpec] = []
    positions: list[PositionSpec] = []
    drawing: DrawingSpec = Field(default_factory=DrawingSpec)


# ------------------------------------------------------------------ armies


class ArmySpec(Node):
    name: str
    title: str
    letter_case: Literal["upper", "lower"] | None = None
    prefix: str | None = None
    forward: str | None = None
    colour: str | None = None


class TeamSpec(Node):
    name: str
    armies: list[str]


class ModeSpec(Node):
    name: str
    title: str | None = None
    players: dict[str, list[str]] = {}
    turn: list[str] = []
    options: dict[str, str] = {}


# ------------------------------------------------------------------ pieces


class BetzaPattern(Node):
    kind: Literal["betza"] = "betza"
    text: str


class StepPattern(Node):
    kind: Literal["step"] = "step"
    dirs: list[str]


class RidePattern(Node):
    kind: Literal["ride"] = "ride"
    dirs: list[str]
    range: int | None = None


class LeapPattern(Node):
    """Leaps by coordinate offsets (files, ranks and, on a board of levels, levels moved); ``symmetry``
    ``all`` adds the images by turning and reflecting (8 of a flat offset, up to 48 of one with levels:
    every order and sign of its numbers), ``mirrored`` the left-right image."""

    kind: Literal["leap"] = "leap"
    offsets: list[tuple[int, int] | tuple[int, int, int]]
    symmetry: Literal["all", "mirrored", "none"] = "none"


class HopPattern(Node):
    kind: Literal["hop"] = "hop"
    dirs: list[str]


class Leg(Node):
    mode: Literal["step", "ride"]
    dirs: list[str]
    range: int | None = None


class PathPattern(Node):
    kind: Literal["path"] = "path"
    legs: list[Leg]


class ZigzagPattern(Node):
    kind: Literal["zigzag"] = "zigzag"
    first: list[str]
    second: list[str]
    range: int | None = None


Pattern = Annotated[
    Union[BetzaPattern, StepPattern, RidePattern, LeapPattern, HopPattern, PathPattern, ZigzagPattern],
    Field(discriminator="kind"),
]


class KindSet(Node):
    """Kinds of piece named by a condition: the kinds in ``names`` (``Cannon | Rook``), or, when
    ``negated`` (``not Cannon``), every kind but those."""

    names: list[str]
    negated: bool = False


class HurdleSpec(Node):
    """What a hopper may jump over: a piece of ``side`` (relative to the mover: ``own``, a piece of
    its army or a partner's; ``enemy``; ``any``, neutral pieces included) and, unless ``kinds`` is
    None, of one of ``kinds``."""

    side: Literal["own", "enemy", "any"] = "any"
    kinds: KindSet | None = None


class MoveSpec(Node):
    """One movement pattern of a piece with its options.

    ``modality``: ``both`` (move or capture), ``quiet`` (move only) or
    ``capture`` (capture only); a Betza string's own m/c letters narrow it
    further. ``unmoved``: only while the piece has not moved. ``lame``: the
    cells passed over must be empty. ``en_passant``: its captures may take
    en passant. ``sets_en_passant``: the cells it passes over become en
    passant targets for the next turn. ``once_per_game``: a privilege each
    piece may use once. ``royal_only``: its captures take only royal
    pieces (a threat such as xiangqi's flying general). ``commits``: the piece commits to the named
    direction set by its first use. ``from_cells`` / ``to_cells``: where it
    may start / end. ``within``: every cell of the move (its start, its destination and the cells
    on its way that it must find empty or jump over) lies in these cells: a line that leaves them
    ends there (Janggi's palace diagonals). ``condition``: an expression over the move. ``hurdle``: what its hopping
    atoms may jump over; ``takes``: the kinds its hopping atoms may capture (None: no limit).
    """

    pattern: Pattern
    modality: Literal["both", "quiet", "capture"] = "both"
    unmoved: bool = False
    lame: bool = False
    en_passant: bool = False
    sets_en_passant: bool = False
    once_per_game: bool = False
    royal_only: bool = False
    commits: str | None = None
    from_cells: CellTerm | None = None
    to_cells: CellTerm | None = None
    within: CellTerm | None = None
    condition: Expr | None = None
    hurdle: HurdleSpec | None = None
    takes: KindSet | None = None


class PromotionSpec(Node):
    """Promotion on arrival in ``cells`` to one of ``to`` (compulsory unless ``optional``).

    ``leaving``: also when the move starts in ``cells`` (shogi's camp).
    ``only_captured``: only to a kind of which the army has fewer pieces on
    the board than in the setup (Grand Chess); ``limits``: per kind, the
    number of pieces on the board below which it may be chosen. A
    later promotion line overrides an earlier one on the cells they share.
    """

    cells: CellTerm
    to: list[str]
    optional: bool = False
    leaving: bool = False
    only_captured: bool = False
    on_capture_into: CellTerm | None = None
    partner_pieces: bool = False
    limits: dict[str, int] = {}
    """``limit PIECE to N``: a promotion to that kind only while the army has fewer than N of it on
    the board (Spartan chess's second king, sittuyin's one general)."""
    in_place: Literal["standing", "moving"] | None = None
    """``in place``: promotion is a move of its own, not the end of a move: instead of moving, a
    piece standing on a cell of ``cells`` becomes one of ``to`` there (``"standing"``); with ``in
    place or quiet move`` (``"moving"``) the new piece may instead make one of its own quiet moves
    from that cell as it appears. Such a line gives no promotion on arrival."""
    not_attacking: bool = False
    """``not attacking`` (``in place`` only): not when the new piece, where it ends, would attack an
    enemy piece (one of its captures would reach it)."""
    not_giving_check: bool = False
    """``not giving check`` (``in place`` only): not when the promotion checks an enemy royal piece,
    whichever piece gives the check."""
    condition: Expr | None = None
    """``if EXPR`` (``in place`` only): only while the condition holds before the move; it reads the
    names of a drop's condition (``count(P)``, ``enemy_count(P)``, ``in_check``, ``army``), and
    ``to.P`` is a property of the cell the piece stands on."""


class PieceSpec(Node):
    name: str
    letter: str | None = None
    value: float | None = None
    royal: bool = False
    neutral: bool = False
    """``neutral``: the piece belongs to no army. It blocks every move (a leaper may jump over it),
    is never captured, has no moves of its own and is written in FEN with its letter as it stands
    (Fairy-Stockfish's duck is ``*``); only a ``then move`` rule moves it."""
    description: str | None = None
    moves: list[MoveSpec] = []
    promotions: list[PromotionSpec] = []
    unmoved_lost_aimed_by: KindSet | None = None
    """``unmoved lost when aimed by KINDS``: the piece loses its unmoved mark (its first moves, see
    ``MoveSpec.unmoved``) as soon as an enemy piece of one of ``KINDS`` ends a move or a drop on a
    cell from which one of that piece's capturing patterns would reach it on an empty board
    (whatever stands between them; the kind is the mover's before the move: a pawn promoting
    there does not aim). Fairy-Stockfish's reading of Cambodian chess's "the king may not leap
    once it has been checked": a rook lining up with the king ends its right."""
    glyph: str | None = None
    """``glyph "車"``: the piece is drawn as a disc with this text (one to three characters, Chinese
    or Japanese characters, say) instead of its picture, for every army without a glyph of its own."""
    army_glyphs: dict[str, str] = {}
    """``glyph { white: "俥"  black: "車" }``: an army's own glyph for the piece (xiangqi writes the
    same piece differently for Red and Black); it wins over ``glyph``."""
    notation_letter: str | None = None
    """``notation letter E``: the letter the game's traditional notation (``VariantSpec.notation``)
    writes for the piece, when it is not ``letter`` (WXF writes xiangqi's elephant E and horse H)."""
    notation_glyph: str | None = None
    """``notation glyph "成銀"``: the characters the Japanese shogi notation writes for the piece,
    when they are not its glyph (a promoted silver is drawn 全 and written 成銀)."""
    diagram_cells: list[str] = []
    """Where the documentation's movement diagrams show the piece (``diagram at``): for each cell
    type, the first of these cells of that type replaces the cell the generator would choose."""


# ------------------------------------------------------------------ castling


class CastleRule(Node):
    """One way of castling, e.g. ``O-O``.

    Either the king and rook go to files (``king_to_file`` /
    ``rook_to_file``, on the king's rank, the rook on ``side`` of the
    king: ``e`` or ``w``), or to ranks along the king's file
    (``king_to_rank`` / ``rook_to_rank``, ranks counted from 1; ``side`` ``n`` or
    ``s``: the side armies of four-player chess), or they ``swap`` cells, or the rook climbs ``onto`` the king
    after the king moved (``rook_onto_king``). ``in_cells`` limits where the
    rook may stand. FIDE conditions apply unless ignored: both unmoved, the
    cells between them and their destinations empty (``ignore_path``), the
    king not in check and not passing an attacked cell (``ignore_attacks``).
    """

    name: str
    notation: str
    king_to_file: str | None = None
    rook_to_file: str | None = None
    king_to_rank: int | None = None
    rook_to_rank: int | None = None
    rook_onto_king: bool = False
    swap: bool = False
    side: str | None = None
    in_cells: CellTerm | None = None
    ignore_path: bool = False
    ignore_attacks: bool = False


class CastlingSpec(Node):
    """The castling pieces and rules: ``rooks`` lists the kinds a king may castle with (``rook Rook |
    Chancellor``: with either)."""

    king: str
    rooks: list[str]
    rules: list[CastleRule] = []


# ------------------------------------------------------------------ stacking


class Interaction(Node):
    """What a piece moving at ``level`` does to a ``target`` cell.

    ``target``: ``empty``; ``single`` with ``top`` ``own``/``enemy``/``any``;
    ``stack`` with ``bottom`` and ``top`` and, for a stack of three or more,
    ``middle``: the sides of the pieces between them, bottom first (a stack
    target matches stacks of exactly ``2 + len(middle)`` pieces). ``outcome``:
    capture, capture-top, capture-bottom, capture-both, capture-all, climb,
    land, descend. ``using``: which
    pattern modality reaches the target. ``only``: pieces it is limited to.
    """

    level: Literal["ground", "upper"]
    target: Literal["empty", "single", "stack"]
    bottom: Literal["own", "enemy", "any"] | None = None
    top: Literal["own", "enemy", "any"] | None = None
    middle: list[Literal["own", "enemy", "any"]] = []
    outcome: str
    using: list[Literal["capture", "move"]] = []
    only: list[str] = []
    condition: Expr | None = None


class StackingSpec(Node):
    height: int = 1
    upper_blocked_by: list[Literal["stacks", "empty", "singles"]] = []
    interactions: list[Interaction] = []


# ------------------------------------------------------------------ drops


class DropLimit(Node):
    """``at most N on file`` / ``at most N in TERM``: a drop may not make the dropping army hold more
    than ``count`` pieces of the dropped kind on the destination's file, or (``cells``) in those
    cells when the destination is one of them (a per-army zone: the army's cells of it)."""

    count: int
    cells: CellTerm | None = None


class DropRule(Node):
    piece: str
    not_in: list[CellTerm] = []
    no_file_twin: str | None = None
    at_most: list[DropLimit] = []
    no_mate: bool = False
    condition: Expr | None = None
    unmoved_in: CellTerm | None = None
    """``unmoved in TERM``: a piece dropped on a cell of ``TERM`` (a per-army zone: the dropping
    army's) counts as unmoved: it may make its first moves and castle. A castling king or rook
    dropped so also gives that mark back to the castling partners standing on cells of their own
    ``unmoved in`` (a rook dropped beside a king already on its cell: both may castle), as
    Fairy-Stockfish grants castling to dropped pieces; marks that allow nothing are dropped."""


class GateRule(Node):
    """``gate PIECE, ... in TERM``: gating (Seirawan chess). When a piece leaves a cell of ``cells``
    (for a per-army zone, of its own army) on its first move, that is the first move from or to
    the cell, a piece of one of the kinds ``pieces`` may enter on it from the army's hand as part
    of the move; a castling may gate on the king's or the rook's cell."""

    pieces: list[str]
    cells: CellTerm


class DropsSpec(Node):
    captures_to_hand: bool = False
    demoted: bool = False
    drops: list[DropRule] = []
    gates: list[GateRule] = []
    must_drop: bool = False
    """``must drop``: while the army to move has a legal drop it must drop; it moves a piece only
    when no drop is legal (a placement phase before ordinary play)."""
    both_colours: list[str] = []
    """``keep PIECE on both colours``: the army's pieces of that kind, on the board and in hand,
    must be able to end half on dark and half on light cells (``colour``): a drop of one on a
    colour that already holds its half (rounded up) is illegal, and so is a drop of another piece
    that leaves fewer free cells of a colour where that kind may be dropped than it still needs
    there (half, rounded down)."""


# ------------------------------------------------------------------ rules


class EndRule(Node):
    """The game ends when ``condition`` holds at the start of a turn.

    ``result`` is from the point of view of the side to move: ``loss`` means
    the side to move has lost.
    """

    name: str
    title: str | None = None
    condition: Expr
    result: Literal["win", "loss", "draw", "score", "material"]
    """``score``: the game ends and the armies with the highest score (``points``) win, those
    out of the game included; every army when all scores are equal (a draw). ``material``: the
    armies with the most material win: the sum of the ``value``s of their pieces on the board, plus
    their ``material bonus``; a draw when every army has the same."""


class PassRule(Node):
    """``may pass [if EXPR]``: the side to move may pass its turn (a move that changes nothing but
    the side to move) whenever ``condition`` holds (always without one); evaluated as end
    conditions are, at the start of the turn."""

    condition: Expr | None = None


class InsufficientRule(Node):
    """A material signature that cannot mate, e.g. ``"KB*" vs "KB*"`` if ``same_colour(Bishop)``."""

    name: str
    first: str
    second: str
    condition: Expr | None = None


class NoMovesRule(Node):
    action: Literal["pass", "remove-royal", "rescue", "eliminate", "end"]
    condition: Expr | None = None


class RulesSpec(Node):
    forbid: list[Literal["self-check", "partner-check", "royal-capture", "giving-check", "royal-escape"]] = []
    compulsory_capture: bool = False
    explosion: list[str] | None = None
    """With ``captures explode sparing ...``: the piece kinds an explosion spares."""
    clock_resets: list[str] = []
    ends: list[EndRule] = []
    insufficient: list[InsufficientRule] = []
    no_moves: list[NoMovesRule] = []
    count_checks: int | None = None
    """When set, each army's checks given are counted (``count checks to N``: N is the
    target, shown in FEN as checks remaining; 0 when no target is given)."""
    resign: Literal["lose", "remove-royal", "eliminate"] = "lose"
    """What a player's resignation does (``when resigning: ...``): its side ``lose``s the game, or
    (``remove-royal``) its armies' royal pieces leave the board as its move and the armies play on
    for their partners (Superchess); an army without royal pieces left then loses by resigning;
    or (``eliminate``) its armies are out of the game, as ``when no moves: eliminate`` puts them out,
    without points for anyone."""
    points: dict[str, int] = {}
    """``points NAME N, ...``: what a move scores for the army that makes it: ``N`` per piece of
    kind ``NAME`` captured (nothing for a piece of an army that is out), and, with the words
    ``checkmate`` and ``stalemate``, per army put out of the game by ``when no moves: eliminate``
    in check or not. Kinds not named score nothing."""
    royal_check: Literal["any", "all"] = "any"
    """An army with several royal pieces is in check when ``any`` of them is attacked, or only when
    ``all`` are (Spartan chess's duple check: one of two kings may be left attacked and lost)."""
    passing: PassRule | None = None
    """``may pass``: when the side to move may pass its turn at will."""
    keep_apart: str | None = None
    """``forbid keeping royals facing along FAMILY``: while a royal piece of the side to move and an
    enemy royal piece face each other (on one line of the direction family with only empty cells
    between), every move but a pass must part them (Janggi's bikjang). A move may bring them face
    to face."""
    material_bonus: dict[str, float] = {}
    """``material bonus ARMY N``: what the result ``material`` adds to the army's material."""
    neutral_move: str | None = None
    """``then move PIECE to an empty cell``: every move ends with the mover moving the neutral piece
    of that kind to another empty cell, or placing one on any empty cell while none is on the board
    (Duck chess). The two parts are one move (one ply, one entry of the record)."""


# ------------------------------------------------------------------ setup


class Place(Node):
    army: str
    piece: str
    cells: CellSet
    facing: list[str] = []


class ShuffleRule(Node):
    """A constraint on shuffled arrays: ``colours`` (the pieces of kind ``piece`` stand on
    cells of both colours) or ``between`` (``piece`` stands between two pieces of kind ``other``)."""

    kind: Literal["colours", "between"]
    piece: str
    other: str | None = None


class ShuffleSpec(Node):
    """Permute the setup's pieces on ``cells``; ``mirror`` cells get the same files' pieces."""

    cells: CellTerm
    mirror: CellTerm | None = None
    rules: list[ShuffleRule] = []


class SetupSpec(Node):
    fen: str | None = None
    places: list[Place] = []
    shuffles: list[ShuffleSpec] = []


# ------------------------------------------------------------------ computer players

# The terms of the computer players' evaluation that an ``ai`` block may weigh, with their meaning
# (the grammar's AI_TERM lists the same names; interpreter.agents.evaluation computes them).
AI_WEIGHTS = {
    "material": "the value of the pieces on the board (their 'value', or an estimate from their mobility)",
    "mobility": "where the pieces stand: more for a cell from which a piece reaches more cells",
    "promotion": "pieces that promote, the more the fewer moves they need to promote",
    "zone": "royal pieces near a zone that an end rule makes their goal (a hill, a goal rank)",
    "hand": "pieces in hand, ready to be dropped",
    "royal": "each royal piece still on the board (in games that go on when one is lost)",
    "checks": "checks given, in games that count them ('count checks'): the more, the fewer are left to give",
    "safety": "royal pieces whose neighbourhood enemy pieces bear on, net of the own pieces that defend it",
    "passed": "passed pawns: pieces that only move towards their promotion and that no enemy one can stop, and their race with the royal pieces",
    "activity": "the cells each piece reaches from where it stands, as the pieces in its way allow",
    "threats": "pieces attacked by an enemy pawn or by an enemy piece of less value, negatively",
    "structure": "pawns with a pawn of their army on their way (doubled) or none beside their file (isolated), negatively",
    "shelter": "royal pieces far from the centre, with pawns of their army around them, while the enemy has pieces",
    "pair": "pieces of a kind bound to classes of cells (a bishop to its colour) on two classes or more: the bishop pair",
}


class AiSpec(Node):
    """The ``ai`` block: a weight per evaluation term of :data:`AI_WEIGHTS` (1 when not given).
    It changes how the computer plays, never the rules."""

    weights: dict[str, float] = {}


class ExampleSpec(Node):
    """An ``example``: a position reached in play from the start, by ``moves`` (in the game's move
    notation, as a player writes them), and the move ``show`` then made in it. The documentation
    draws the position with that move and the position after it, under the rule the move shows
    (castling, en passant, a climb, a drop, ...), or, with ``decision``, among the interpretations:
    an example of what the file decided."""

    name: str
    caption: str
    moves: str = ""
    show: str
    decision: bool = False


# ------------------------------------------------------------------ variant


class VariantSpec(Node):
    """One complete game, after ``extends`` and ``include`` are resolved."""

    name: str
    title: str
    description: str | None = None
    aliases: list[str] = []
    source: str | None = None
    family: str | None = None
    """The group of variants it belongs to, for the documentation site's navigation."""
    notation: Literal["wxf", "shogi", "san"] | None = None
    """``notation wxf`` / ``notation shogi``: the game's traditional move notation, a display choice
    beside SAN (the notation of records); ``notation san`` (or none) declares none. Inherited
    through ``extends`` unless the file states its own."""
    interpretations: list[str] = []
    path: str | None = None
    sources: list[str] = []   # every file read: the file itself, then what it extends and includes
    inherited_via: dict[str, Loc] = Field(default_factory=dict, exclude=True, repr=False)
    """For each file read because of the variant's own file (named by it, or by a file it names), the
    ``extends`` or ``include`` line of the variant's file that led to it: an error in an inherited
    declaration is reported there (see :func:`dsl.errors.inherited_error`)."""
    board: BoardSpec = Field(default_factory=BoardSpec)
    armies: list[ArmySpec] = []
    teams: list[TeamSpec] = []
    turn: list[str] = []
    modes: list[ModeSpec] = []
    pieces: dict[str, PieceSpec] = {}
    castling: CastlingSpec | None = None
    stacking: StackingSpec | None = None
    drops: DropsSpec | None = None
    rules: RulesSpec = Field(default_factory=RulesSpec)
    setup: SetupSpec = Field(default_factory=SetupSpec)
    ai: AiSpec = Field(default_factory=AiSpec)
    examples: list[ExampleSpec] = []
