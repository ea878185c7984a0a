"""Nothing a rules file can say is ignored: every field of the Spec changes the compiled game.

The test walks the pydantic models of :mod:`dsl.spec` (every subclass of
``Node``, found at run time, so a model or a field added later is covered the
day it appears) and needs, for every field a rules file can set, a
:class:`Case`: a rules text and a variation of it that sets the field
otherwise. Both are compiled, and the variation must differ from the base in
what it is for:

- ``game`` (the default): what the compiled game is and does: its board
  (cells, attributes, steps, zones), armies, players, turns, pieces, castling
  rules, starting arrays, end rules, and at each probe position its FEN, its
  legal moves in SAN and its outcome;
- ``drawing``: the picture of the start position;
- ``docs``: the generated rule page (fields that are text for readers);
- ``agents``: the computer players' evaluation of the probe positions.

A variation that the engine refuses as not run (``UnsupportedError``) fails,
unless the field is listed in :data:`REFUSED` with the reason (those cases are
strict xfails: they fail loudly the day they start working). A case marked
``error`` is one where the field is a handle other declarations refer to: the
variation must be refused with a located :class:`RulesSemanticError` (the
reference no longer resolves), which shows the field is read. Each case is
also checked to vary the field it stands for.

Fields no rules file sets (locations, discriminators of a union, the
loader's bookkeeping) are in :data:`NOT_SET` with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args, get_origin

import pytest

from dsl import RulesError, RulesSemanticError, UnsupportedError, load_spec_text
from dsl import spec as S
from interpreter.agents.evaluation import Evaluation
from interpreter.documentation.pages import variant_files
from interpreter.drawing.render import render_position
from interpreter.engine.outcome import outcome
from interpreter.loading import compile_variant, position_from_fen, start_position
from interpreter.loading.positions import starting_arrays
from interpreter.notation.fen import to_fen
from interpreter.notation.san import move_to_san
from test_levels import SPACE  # a game on a board of levels


def _models() -> list[type]:
    found, todo = set(), [S.Node]
    while todo:
        for cls in todo.pop().__subclasses__():
            if cls not in found:
                found.add(cls)
                todo.append(cls)
    models = sorted((c for c in found if c.__module__ == S.__name__), key=lambda c: c.__name__)
    for model in models:   # built on first use (defer_build): built here, their fields' types are resolved
        model.model_rebuild()
    return models


def _discriminator(model: type, name: str) -> bool:
    """A ``kind`` field with a single literal value: it only names the model of a union."""
    annotation = model.model_fields[name].annotation
    return name == "kind" and get_origin(annotation) is Literal and len(get_args(annotation)) == 1


FIELDS = [f"{m.__name__}.{name}" for m in _models() for name in m.model_fields
          if name not in ("loc", "locs") and not _discriminator(m, name)]

NOT_SET = {
    "VariantSpec.path": "where the file was loaded from, set by the loader",
    "VariantSpec.sources": "the files read to load it, set by the loader",
    "VariantSpec.inherited_via": "where errors in inherited declarations are reported, set by the loader",
}

REFUSED: dict[str, str] = {}


@dataclass(frozen=True)
class Case:
    base: str
    changed: str
    shows: str = "game"
    fens: tuple[str, ...] = ()
    error: bool = False


def swap(text: str, old: str, new: str, **options) -> Case:
    """The case of ``text`` against ``text`` with ``old`` (which must occur) replaced by ``new``."""
    assert old in text, f"{old!r} is not in the case's text"
    return Case(text, text.replace(old, new, 1), **options)


def added(text: str, extra: str, **options) -> Case:
    """The case of ``text`` against ``text`` with ``extra`` appended."""
    return Case(text, text + extra, **options)


# A small game: 4x4, kings, a rook and pawns.
MINI = """
variant mini { title "Mini" }
board { grid 4 x 4 }
armies {
  army white "White" { letters upper }
  army black "Black" { letters lower  forward s }
}
piece King { letter K value 0 royal betza "K" }
piece Rook { letter R value 5 betza "R" }
piece Pawn { letter P value 1 betza "fmW" betza "fcF" }
rules {
  forbid self-check
  end mate when in_check and legal_moves == 0: loss
}
setup {
  white King at a1
  white Rook at d1
  white Pawn at b2
  black King at c4
  black Pawn at c3
}
"""
# MINI whose rook is a cannon-style hopper; on HOPS it jumps its pawn on b1 to c1 and takes on d1.
HOPPER = MINI.replace('betza "R"', 'betza "pR"')
HOPS = "3k/4/2K1/RP1p w - - 0 1"
MATE = "k3/2K1/4/R3 b - - 0 1"      # MINI: Black is mated
BARE = "k3/4/4/K3 w - - 0 1"         # MINI: kings only
STALEMATE = "k3/1R2/2K1/4 b - - 0 1"  # MINI: Black cannot move and is not in check


# MINI with an example for its rule page: the position after the moves, and the move shown there.
EXAMPLE = 'example up "The Rook climbs the file." { show "Rd3" }\n'


def zone(expr: str) -> str:
    """MINI with a zone of the cells where ``expr`` holds (the compiled zones show the expression)."""
    return MINI + f"board {{ zone z: where {expr} }}\n"


CHESS = 'variant c { title "C" }\nextends chess\n'
CASTLING = """castling {
  king King, rook Rook
  castle short "O-O": king to file g, rook to file f, side e
  castle long "O-O-O": king to file c, rook to file d, side w
}
"""
CASTLE_FEN = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
FILE_CASTLING = """castling {
  king King, rook Rook
  castle up "O-O": king to rank 3, rook to rank 2, side n
}
setup fen "k7/8/8/8/4R3/8/8/4K3 w e1,e4 - 0 1"
"""
FILE_CASTLE_FEN = "k7/8/8/8/4R3/8/8/4K3 w e1,e4 - 0 1"
LOCKING = 'variant l { title "L" }\nextends locking\n'
HOUSE = 'variant h { title "H" }\nextends crazyhouse\n'
TEAMS = """
variant four { title "Four" }
board { grid 6 x 6 }
armies {
  army white { letters prefix "w" }
  army black { letters prefix "b"  forward s }
  army red { letters prefix "r"  forward e }
  army green { letters prefix "g"  forward w }
  team north: white, red
  team south: black, green
  mode trio "Three" {
    player solo: south
    player one: white
    player three: red
    option solo = south
  }
  mode duel "Two" {
    player one: white, red
    player two: black, green
    turn one, two
  }
  mode free "Four" {
    player one: white
    player two: black
    player three: red
    player four: green
  }
}
piece King { letter K royal betza "K" }
piece Queen { letter Q betza "Q" }
rules {
  forbid self-check
  when no moves: pass
}
setup {
  white King at c1
  black King at d6
  red King at a3
  green King at f4
  white Queen at d1
}
"""
FENCE = """
board { directions lines { all: up (0, 1), down (0, -1) } }
piece Zag { letter Z move zigzag orth and diag range 3 }
piece Hopper { letter H move hop orth }
piece Jumper { letter J move path step orth then step diag }
piece Leaper { letter L move leap (1, 2) all }
"""
PATTERNS8 = (MINI + FENCE.replace("path step orth", "path ride orth range 1")).replace("grid 4 x 4", "grid 8 x 8") + (
    "setup { white King at a1  black King at h7  white Jumper at c2 }\n")
PATTERNS = MINI.replace("grid 4 x 4", "grid 6 x 6") + FENCE + "setup {\n  white King at a1\n  black King at f6\n  white Zag at b1\n  white Hopper at a3\n  white Jumper at c2\n  white Leaper at b3\n  black Pawn at b4\n}\n"
SHUFFLE = CHESS + 'setup fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"\n  shuffle rank 1 mirror rank 8: Bishop on both colours, King between Rook\n'

CASES: dict[str, Case] = {
    # ---------------------------------------------------------------- the variant and its board
    "VariantSpec.name": swap(MINI, "variant mini", "variant midi"),
    "VariantSpec.title": swap(MINI, 'title "Mini"', 'title "Midi"'),
    "VariantSpec.description": added(MINI, 'variant mini { description "A small game." }\n', shows="docs"),
    "VariantSpec.aliases": added(MINI, "variant mini { alias tiny }\n", shows="docs"),
    "VariantSpec.source": added(MINI, 'variant mini { source "a test" }\n', shows="docs"),
    "VariantSpec.interpretations": added(MINI, 'variant mini { interpretation "None needed." }\n', shows="docs"),
    "VariantSpec.board": swap(MINI, "grid 4 x 4", "grid 4 x 5"),
    "VariantSpec.armies": swap(MINI, 'army black "Black"', 'army black "Dark"'),
    "VariantSpec.teams": swap(TEAMS, "  team south: black, green\n", "  team south: black\n  team east: green\n"),
    "VariantSpec.turn": swap(TEAMS, "  team north", "  turn white, red, black, green\n  team north"),
    "VariantSpec.modes": swap(TEAMS, 'mode trio "Three"', 'mode three "Three"'),
    "VariantSpec.pieces": added(MINI, 'piece Knight { letter N betza "N" }\n'),
    "VariantSpec.castling": added(CHESS + 'setup fen "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"\n', "castling { king King, rook Rook "
                                  'castle swap "O-O": swap }\n'),
    "VariantSpec.stacking": added(CHESS, "stacking { height 2  on ground enemy single: capture  on ground own single: climb }\n"),
    "VariantSpec.drops": added(CHESS, "drops { captures to hand  drop Knight }\n", fens=("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1",)),
    "VariantSpec.rules": added(MINI, "rules { end bare when pieces == royals: draw }\n", fens=(BARE,)),
    "VariantSpec.setup": swap(MINI, "white Rook at d1", "white Rook at c1"),
    "VariantSpec.ai": added(MINI, "ai { weight mobility 2 }\n", shows="agents"),
    "VariantSpec.family": added(MINI, 'variant mini { family "Small games" }\n', shows="docs"),
    "VariantSpec.notation": added(MINI, "variant mini { notation wxf }\n", shows="docs"),
    "VariantSpec.examples": added(MINI, EXAMPLE, shows="docs"),
    "ExampleSpec.name": swap(MINI + EXAMPLE + EXAMPLE.replace("Rook", "The Rook"), "example up", "example up2", shows="docs"),
    "ExampleSpec.caption": swap(MINI + EXAMPLE, '"The Rook', '"A Rook', shows="docs"),
    "ExampleSpec.moves": swap(MINI + EXAMPLE, "{ show", '{ moves "Rd2 Kb4"  show', shows="docs"),
    "ExampleSpec.show": swap(MINI + EXAMPLE, 'show "Rd3"', 'show "Rd2"', shows="docs"),
    "ExampleSpec.decision": swap(CHESS + 'example o "Castling." { moves "e4 e5 Nf3 Nc6 Bc4 Bc5"  show "O-O" }\n',
                                 '." {', '." for interpretations {', shows="docs"),
    "AiSpec.weights": swap(MINI + "ai { weight mobility 2 }\n", "mobility 2", "material 2", shows="agents"),
    "BoardSpec.generator": swap(MINI, "grid 4 x 4", "grid 5 x 4"),
    "BoardSpec.cells": added(MINI, "board { cell e9 at (4, 8) }\n"),
    "BoardSpec.removes": added(MINI, "board { remove b3 }\n"),
    "BoardSpec.links": added(MINI, "board { link d1 to d3 as n }\n"),
    "BoardSpec.wrap": added(MINI, "board { wrap files }\n"),
    "BoardSpec.attributes": added(MINI, "board { set type = x on a1 }\n"),
    "BoardSpec.directions": added(MINI, "board { directions hop { all: up2 (0, 2) } }\n"),
    "BoardSpec.zones": added(MINI, "board { zone z: a1 }\n"),
    "BoardSpec.shapes": added(MINI, "board { shape on a1: (0, 0), (1, 0), (0.5, 1) }\n", shows="drawing"),
    "BoardSpec.positions": added(MINI, "board { position (file, 2 * rank) on all }\n", shows="drawing"),
    "GridGen.files": swap(MINI, "grid 4 x 4", "grid 5 x 4"),
    "GridGen.ranks": swap(MINI, "grid 4 x 4", "grid 4 x 5"),
    "GridGen.levels": swap(SPACE, "grid 5 x 5 x 5", "grid 5 x 5 x 6"),
    "RaggedGen.lengths": swap(MINI.replace("grid 4 x 4", "ragged lengths 4, 4, 4, 4"), "4, 4, 4, 4", "4, 4, 4, 5"),
    "HexGen.radius": swap(CHESS.replace("chess", "glinski"), "extends glinski\n", "extends glinski\nboard { hex radius 7 }\n",
                          error=True),
    "CellDecl.name": swap(MINI + "board { cell e9 at (4, 8) }\n", "cell e9", "cell f9"),
    "CellDecl.x": swap(MINI + "board { cell e9 at (4, 8) }\n", "(4, 8)", "(5, 8)"),
    "CellDecl.y": swap(MINI + "board { cell e9 at (4, 8) }\n", "(4, 8)", "(4, 7)"),
    "Link.source": swap(MINI + "board { link d1 to d3 as n }\n", "link d1", "link c1"),
    "Link.target": swap(MINI + "board { link d1 to d3 as n }\n", "to d3", "to d4"),
    "Link.label": swap(MINI + "board { link d1 to d3 as n }\n", "as n", "as e"),
    "Link.edge_kind": swap(MINI + "board { link d1 to d3 as jump kind orth }\n", "kind orth", "kind diag"),
    "SetAttr.attribute": swap(MINI + "board { set type = x on a1 }\n", "set type", "set kind"),
    "SetAttr.value": swap(MINI + "board { set type = x on a1 }\n", "= x", "= y"),
    "SetAttr.cells": swap(MINI + "board { set type = x on a1 }\n", "on a1", "on b1"),
    "DirectionFamily.name": swap(MINI + "board { directions hop { all: up2 (0, 2) } }\n", "directions hop", "directions skip"),
    "DirectionFamily.rows": swap(MINI + "board { directions hop { all: up2 (0, 2) } }\n", "all: up2 (0, 2)", "rank 1: up2 (0, 2)"),
    "DirRow.cells": swap(MINI + "board { directions hop { all: up2 (0, 2) } }\n", "all:", "rank 2:"),
    "DirRow.entries": swap(MINI + "board { directions hop { all: up2 (0, 2) } }\n", "up2 (0, 2)", "up2 (0, 2), up3 (0, 3)"),
    "DirEntry.label": swap(MINI + "board { directions hop { all: up2 (0, 2) } }\n", "up2", "upp"),
    "DirEntry.dx": swap(MINI + "board { directions hop { all: up2 (0, 2) } }\n", "(0, 2)", "(1, 2)"),
    "DirEntry.dy": swap(MINI + "board { directions hop { all: up2 (0, 2) } }\n", "(0, 2)", "(0, 3)"),
    "DirEntry.dz": swap(SPACE + "board { directions hop { all: up2 (0, 0, 2) } }\n", "(0, 0, 2)", "(0, 0, 1)"),
    "DirEntry.edge_kind": swap(MINI + "board { directions hop { all: up2 (0, 2) kind orth } }\n", "kind orth", "kind diag"),
    "ZoneSpec.name": swap(MINI + "board { zone z: a1 }\n", "zone z", "zone y"),
    "ZoneSpec.shared": swap(MINI + "board { zone z: a1 }\n", "zone z: a1", "zone z: a2"),
    "ZoneSpec.per_army": swap(MINI + "board { zone z { white: a1 } }\n", "white: a1", "white: a1  black: d4"),
    "ShapeSpec.cells": swap(MINI + "board { shape on a1: (0, 0), (1, 0), (0.5, 1) }\n", "on a1", "on b1", shows="drawing"),
    "ShapeSpec.points": swap(MINI + "board { shape on a1: (0, 0), (1, 0), (0.5, 1) }\n", "(0.5, 1)", "(0, 1)", shows="drawing"),
    "PositionSpec.cells": swap(MINI + "board { position (file, 2 * rank) on all }\n", "on all", "on a1", shows="drawing"),
    "PositionSpec.x": swap(MINI + "board { position (file, 2 * rank) on all }\n", "(file,", "(2 * file,", shows="drawing"),
    "PositionSpec.y": swap(MINI + "board { position (file, 2 * rank) on all }\n", "2 * rank)", "3 * rank)", shows="drawing"),
    "BoardSpec.drawing": added(MINI, "board { draw plain }\n", shows="drawing"),
    "DrawingSpec.points": added(MINI, "board { draw on points }\n", shows="drawing"),
    "DrawingSpec.plain": added(MINI, "board { draw plain }\n", shows="drawing"),
    "DrawingSpec.facing": added(MINI, "board { draw pieces facing forward }\n", shows="drawing"),
    "DrawingSpec.river": added(MINI, "board { draw river between ranks 2 and 3 }\n", shows="drawing"),
    "DrawingSpec.diagonals": added(MINI, "board { draw diagonals on a1..b2 }\n", shows="drawing"),
    "RiverSpec.below": swap(MINI + "board { draw river between ranks 2 and 3 }\n", "ranks 2 and 3", "ranks 1 and 2",
                            shows="drawing"),
    "RiverSpec.text": swap(MINI + "board { draw river between ranks 2 and 3 }\n", "and 3", 'and 3 "river"',
                           shows="drawing"),
    # ---------------------------------------------------------------- cell sets and expressions
    "CellSet.include": swap(zone("file == 1"), "where file == 1", "a1, b2"),
    "CellSet.exclude": swap(MINI + "board { zone z: rank 1 except a1 }\n", "except a1", "except b1"),
    "CellTerm.kind": swap(MINI + "board { zone z: rank 1 }\n", "rank 1", "file a"),
    "CellTerm.a": swap(MINI + "board { zone z: file a }\n", "file a", "file b"),
    "CellTerm.b": swap(MINI + "board { zone z: a1..b2 }\n", "a1..b2", "a1..c2"),
    "CellTerm.lo": swap(MINI + "board { zone z: ranks 1..3 }\n", "ranks 1..3", "ranks 2..3"),
    "CellTerm.hi": swap(MINI + "board { zone z: ranks 1..3 }\n", "ranks 1..3", "ranks 1..2"),
    "CellTerm.step": swap(MINI + "board { zone z: ranks 1..3 }\n", "ranks 1..3", "ranks 1..3 step 2"),
    "CellTerm.expr": swap(zone("file == 1"), "file == 1", "rank == 1"),
    "Num.value": swap(zone("file == 1"), "file == 1", "file == 2"),
    "Str.value": swap(zone('colour == "dark"'), '"dark"', '"light"'),
    "Ref.path": swap(zone("file == 1"), "file == 1", "rank == 1"),
    "Compare.op": swap(zone("file == 2"), "file == 2", "file < 2"),
    "Compare.left": swap(zone("file == 2"), "file == 2", "rank == 2"),
    "Compare.right": swap(zone("file == 2"), "file == 2", "file == rank"),
    "Arith.op": swap(zone("file + rank == 4"), "file + rank", "file * rank"),
    "Arith.left": swap(zone("file + rank == 4"), "file + rank", "2 + rank"),
    "Arith.right": swap(zone("file + rank == 4"), "file + rank", "file + 2"),
    "Neg.operand": swap(zone("-file == -1"), "-file", "-rank"),
    "Not.operand": swap(zone("not file == 1"), "not file == 1", "not rank == 1"),
    "BoolOp.op": swap(zone("file == 1 and rank == 1"), "file == 1 and rank == 1", "file == 1 or rank == 1"),
    "BoolOp.operands": swap(zone("file == 1 and rank == 1"), "file == 1 and rank == 1", "file == 1 and rank == 2"),
    "Call.name": swap(MINI + "board { zone z: a1 }\nrules { end there when royal_in(z): win }\n", "royal_in", "enemy_royal_in",
                      fens=("k3/4/4/K3 w - - 0 1",)),
    "Call.args": swap(MINI + "board { zone z: a1  zone y: b1 }\nrules { end there when royal_in(z): win }\n", "royal_in(z)",
                      "royal_in(y)", fens=("k3/4/4/K3 w - - 0 1",)),
    # ---------------------------------------------------------------- armies, teams, modes
    "ArmySpec.name": swap(MINI, "army white", "army ivory", error=True),
    "ArmySpec.title": swap(MINI, 'army white "White"', 'army white "Ivory"'),
    "ArmySpec.letter_case": swap(MINI, '{ letters upper }\n  army black "Black" { letters lower',
                                 '{ letters lower }\n  army black "Black" { letters upper'),
    "ArmySpec.prefix": swap(MINI, "letters upper", 'letters prefix "i"'),
    "ArmySpec.forward": swap(MINI, "letters upper }", "letters upper  forward e }"),
    "ArmySpec.colour": swap(MINI, "letters upper }", 'letters upper  colour "#ff0000" }', shows="drawing"),
    "TeamSpec.name": swap(TEAMS, "team south", "team down", error=True),
    "TeamSpec.armies": swap(TEAMS, "team north: white, red", "team north: white"),
    "ModeSpec.name": swap(TEAMS, "mode trio", "mode three"),
    "ModeSpec.title": swap(TEAMS, 'mode trio "Three"', 'mode trio "Triple"', shows="docs"),
    "ModeSpec.players": swap(TEAMS, "player one: white\n    player three: red\n", "player one: white, red\n"),
    "ModeSpec.turn": swap(TEAMS, "    option solo = south\n", "    option solo = south\n    turn solo, one, three\n"),
    "ModeSpec.options": swap(TEAMS, "option solo = south", "option solo = north"),
    # ---------------------------------------------------------------- pieces and patterns
    "PieceSpec.name": swap(MINI, "piece Rook", "piece Tower", error=True),
    "PieceSpec.letter": swap(MINI, "letter R", "letter T"),
    "PieceSpec.value": swap(MINI, "value 5", "value 7"),
    "PieceSpec.glyph": swap(MINI, "letter R value 5", 'letter R value 5 glyph "車"', shows="drawing"),
    "PieceSpec.army_glyphs": swap(MINI, "letter R value 5", 'letter R value 5 glyph { white: "俥" }',
                                  shows="drawing"),
    "PieceSpec.royal": swap(MINI, "letter R value 5", "letter R value 5 royal"),
    "PieceSpec.neutral": swap(MINI + "piece Wall { letter W }\n", "letter W }", "letter W neutral }",
                              fens=("k3/r3/W3/K3 b - - 0 1",)),
    "PieceSpec.description": swap(MINI, "letter R value 5", 'letter R value 5 description "Slides."', shows="docs"),
    "PieceSpec.moves": swap(MINI, 'betza "R"', 'betza "R" betza "N"'),
    "PieceSpec.unmoved_lost_aimed_by": swap(MINI.replace('royal betza "K" }', 'royal betza "K" betza "imN" }'),
                                            'betza "imN" }', 'betza "imN" unmoved lost when aimed by Rook }',
                                            fens=("k3/4/4/K2R w a - 0 1",)),
    "PieceSpec.notation_letter": swap(MINI + "variant mini { notation wxf }\n", "letter R value 5",
                                      "letter R notation letter C value 5", shows="docs"),
    "PieceSpec.notation_glyph": swap(MINI + "variant mini { notation shogi }\n", "letter R value 5",
                                     'letter R notation glyph "飛" value 5', shows="docs"),
    "PieceSpec.diagram_cells": swap(MINI, 'letter R value 5', 'letter R value 5 diagram at a1', shows="docs"),
    "PieceSpec.promotions": swap(MINI, 'betza "fcF" }', 'betza "fcF" promotes in rank 4 to Rook }', fens=("3k/1P2/4/K3 w - - 0 1",)),
    "MoveSpec.pattern": swap(MINI, 'betza "R"', 'betza "B"'),
    "MoveSpec.modality": swap(MINI, 'betza "R"', 'betza "R": quiet', fens=("3k/4/p3/R1K1 w - - 0 1",)),
    "MoveSpec.unmoved": swap(MINI, 'betza "R"', 'betza "R": unmoved', fens=("k3/4/1R2/K3 w - - 0 1",)),
    "MoveSpec.lame": swap(MINI, 'betza "R"', 'move leap (2, 1) all: lame', fens=("3k/4/1P2/RK2 w - - 0 1",)),
    "MoveSpec.en_passant": swap(CHESS, "extends chess\n", "extends chess\npiece Pawn { letter P betza \"fmW\" betza \"fmnD\": from zone pawn_start, sets en passant betza \"fcF\" promotes in zone promotion to Queen }\n",
                                fens=("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1",)),
    "MoveSpec.sets_en_passant": swap(CHESS, "extends chess\n", "extends chess\npiece Pawn { letter P betza \"fmW\" betza \"fmnD\": from zone pawn_start betza \"fcF\": en passant promotes in zone promotion to Queen }\n",
                                     fens=("4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1",)),
    "MoveSpec.once_per_game": swap(MINI, 'betza "R"', 'betza "R" betza "N": once per game'),
    "MoveSpec.royal_only": swap(MINI, 'betza "R"', 'betza "R": royal only', fens=("k3/4/4/K1pR w - - 0 1",)),
    "MoveSpec.commits": swap(MINI.replace("white Pawn at b2", "white Pawn at b2 facing n or e"), 'betza "fmW"',
                             'betza "fmW": commits facing'),
    "MoveSpec.from_cells": swap(MINI, 'betza "R"', 'betza "R": from a2'),
    "MoveSpec.to_cells": swap(MINI, 'betza "R"', 'betza "R": to d2'),
    "MoveSpec.condition": swap(MINI, 'betza "R"', 'betza "R": if to.rank == 1'),
    "MoveSpec.within": swap(MINI, 'betza "R"', 'betza "R": within rank 1'),
    "MoveSpec.hurdle": swap(HOPPER, 'betza "pR"', 'betza "pR": hurdle enemy', fens=(HOPS,)),
    "MoveSpec.takes": swap(HOPPER, 'betza "pR"', 'betza "pR": takes King', fens=(HOPS,)),
    "HurdleSpec.side": swap(HOPPER.replace('betza "pR"', 'betza "pR": hurdle own'), 'hurdle own', 'hurdle enemy', fens=(HOPS,)),
    "HurdleSpec.kinds": swap(HOPPER.replace('betza "pR"', 'betza "pR": hurdle own'), 'hurdle own', 'hurdle own King', fens=(HOPS,)),
    "KindSet.names": swap(HOPPER.replace('betza "pR"', 'betza "pR": takes Pawn'), 'takes Pawn', 'takes King', fens=(HOPS,)),
    "KindSet.negated": swap(HOPPER.replace('betza "pR"', 'betza "pR": takes Pawn'), 'takes Pawn', 'takes not Pawn', fens=(HOPS,)),
    "BetzaPattern.text": swap(MINI, 'betza "R"', 'betza "B"'),
    "StepPattern.dirs": swap(PATTERNS, 'betza "K"', "move step orth"),
    "RidePattern.dirs": swap(MINI, 'betza "R"', "move ride diag", fens=("1k2/4/4/K2R w - - 0 1",)),
    "RidePattern.range": swap(MINI, 'betza "R"', "move ride orth range 2", fens=("k3/4/4/K2R w - - 0 1",)),
    "LeapPattern.offsets": swap(PATTERNS, "leap (1, 2) all", "leap (1, 3) all"),
    "LeapPattern.symmetry": swap(PATTERNS, "leap (1, 2) all", "leap (1, 2) mirrored"),
    "HopPattern.dirs": swap(PATTERNS, "hop orth", "hop diag"),
    "PathPattern.legs": swap(PATTERNS, "path step orth then step diag", "path step orth then step orth"),
    "Leg.mode": swap(PATTERNS8, "path ride orth range 1 then step diag", "path ride orth range 1 then ride diag"),
    "Leg.dirs": swap(PATTERNS, "path step orth then step diag", "path step diag then step diag"),
    "Leg.range": swap(PATTERNS8, "path ride orth range 1 then step diag", "path ride orth then step diag"),
    "ZigzagPattern.first": swap(PATTERNS, "zigzag orth and diag", "zigzag lines and diag"),
    "ZigzagPattern.second": swap(PATTERNS, "zigzag orth and diag", "zigzag orth and lines"),
    "ZigzagPattern.range": swap(PATTERNS, "zigzag orth and diag range 3", "zigzag orth and diag range 1"),
    "PromotionSpec.cells": swap(MINI + 'piece Pawn { letter P betza "fmW" promotes in rank 4 to Rook }\n', "rank 4", "rank 3",
                                fens=("k3/1P2/4/K3 w - - 0 1",)),
    "PromotionSpec.to": swap(MINI + 'piece Pawn { letter P betza "fmW" promotes in rank 4 to Rook }\n', "to Rook", "to Rook, King",
                             fens=("k3/1P2/4/K3 w - - 0 1",)),
    "PromotionSpec.optional": swap(MINI + 'piece Pawn { letter P betza "fmW" promotes in rank 4 to Rook }\n', "to Rook",
                                   "to Rook: optional", fens=("k3/1P2/4/K3 w - - 0 1",)),
    "PromotionSpec.leaving": swap(MINI + 'piece Pawn { letter P betza "fmW" betza "bmW" promotes in rank 3 to Rook }\n',
                                  "to Rook", "to Rook: also leaving", fens=("k3/1P2/4/K3 w - - 0 1",)),
    "PromotionSpec.only_captured": swap(MINI + 'piece Pawn { letter P betza "fmW" promotes in rank 4 to Rook }\n', "to Rook",
                                        "to Rook: only captured", fens=("k3/1P2/4/K2R w - - 0 1",)),
    "PromotionSpec.limits": swap(MINI + 'piece Pawn { letter P betza "fmW" promotes in rank 4 to Rook, King }\n', "to Rook, King",
                                 "to Rook, King: limit King to 1", fens=("k3/1P2/4/K3 w - - 0 1",)),
    "PromotionSpec.on_capture_into": swap(MINI + 'piece Pawn { letter P betza "fmW" betza "fcF" promotes in rank 4 to Rook }\n',
                                          "to Rook", "to Rook: on capture into rank 3", fens=("k3/4/1p2/P2K w - - 0 1",)),
    "PromotionSpec.partner_pieces": swap(TEAMS + 'piece Pawn { letter P betza "fmW" promotes in rank 6 to Queen }\n', "to Queen",
                                         "to Queen: partner pieces", fens=("3,bK,2/1,wP,4/5,gK/rK,5/6/2,wK,3 w - - 0 1",)),
    "PromotionSpec.in_place": swap(MINI + 'piece Pawn { letter P betza "fmW" promotes in rank 3 to Rook }\n', "to Rook",
                                   "to Rook: in place", fens=("k3/1P2/4/K3 w - - 0 1",)),
    "PromotionSpec.not_attacking": swap(MINI + 'piece Pawn { letter P betza "fmW" promotes in rank 3 to Rook: in place }\n',
                                        "in place", "in place, not attacking", fens=("k3/1P1p/4/K3 w - - 0 1",)),
    "PromotionSpec.not_giving_check": swap(MINI + 'piece Pawn { letter P betza "fmW" promotes in rank 3 to Rook: in place }\n',
                                           "in place", "in place, not giving check", fens=("1k2/1P2/4/K3 w - - 0 1",)),
    "PromotionSpec.condition": swap(MINI + 'piece Pawn { letter P betza "fmW" promotes in rank 3 to Rook: in place }\n',
                                    "in place", "in place, if count(Pawn) == 2", fens=("k3/1P2/4/K3 w - - 0 1",)),
    # ---------------------------------------------------------------- castling
    "CastlingSpec.king": swap(CHESS + CASTLING, "king King,", "king Queen,", fens=("r2qk2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1",)),
    "CastlingSpec.rooks": swap(CHESS + CASTLING, "rook Rook\n", "rook Rook | Knight\n",
                               fens=("4k3/8/8/8/8/8/8/NR2K3 w Q - 0 1",)),   # Q: the knight, outermost
    "CastlingSpec.rules": swap(CHESS + CASTLING, "  castle long", "  # castle long", fens=(CASTLE_FEN,)),
    "CastleRule.name": swap(CHESS + CASTLING + "forget castle long\n", "castle long", "castle queenside", fens=(CASTLE_FEN,), error=True),
    "CastleRule.notation": swap(CHESS + CASTLING, '"O-O-O"', '"O-O-O-O"', fens=(CASTLE_FEN,)),
    "CastleRule.king_to_file": swap(CHESS + CASTLING, "king to file g", "king to file h", fens=(CASTLE_FEN,)),
    "CastleRule.rook_to_file": swap(CHESS + CASTLING, "rook to file f", "rook to file g", fens=("r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1",)),
    "CastleRule.king_to_rank": swap(CHESS + FILE_CASTLING, "king to rank 3", "king to rank 4", fens=(FILE_CASTLE_FEN,)),
    "CastleRule.rook_to_rank": swap(CHESS + FILE_CASTLING, "rook to rank 2", "rook to rank 1", fens=(FILE_CASTLE_FEN,)),
    "CastleRule.side": swap(CHESS + CASTLING, "rook to file f, side e", "rook to file f", fens=("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",)),
    "CastleRule.ignore_path": swap(CHESS + CASTLING, "side e\n", "side e, ignore path\n", fens=("4k3/8/8/8/8/8/8/4K1NR w K - 0 1",)),
    "CastleRule.ignore_attacks": swap(CHESS + CASTLING, "side e\n", "side e, ignore attacks\n", fens=("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1",)),
    "CastleRule.swap": swap(CHESS + CASTLING, "king to file g, rook to file f, side e", "swap, side e", fens=(CASTLE_FEN,)),
    "CastleRule.in_cells": swap(CHESS + CASTLING, "side e\n", "side e, in a1\n", fens=(CASTLE_FEN,)),
    "CastleRule.rook_onto_king": swap(LOCKING, "extends locking\n", "extends locking\nforget castle short_lock\n",
                                      fens=("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",)),
    # ---------------------------------------------------------------- stacking
    # A stack target names the height it matches, so the height is read where a target exceeds it.
    "StackingSpec.height": swap(CHESS + "stacking { height 3  on ground enemy single: capture  on ground own/own: climb }\n",
                                "height 3", "height 2", error=True),
    "StackingSpec.upper_blocked_by": swap(LOCKING, "extends locking\n", "extends locking\nstacking { upper blocked by stacks, empty }\n",
                                          fens=("4k3/8/8/8/8/2p5/8/(NR)3K3 w - - 0 1",)),
    "StackingSpec.interactions": swap(LOCKING, "extends locking\n",
                                      "extends locking\nstacking { height 2  on ground enemy single: capture }\n"),
    "Interaction.level": swap(CHESS + "stacking { height 2  on ground enemy single: capture  on ground own single: climb }\n",
                              "on ground own single: climb", "on upper own single: land", fens=("4k3/8/8/8/8/8/8/R3K2N w - - 0 1",)),
    "Interaction.target": swap(CHESS + "stacking { height 2  on ground enemy single: capture  on ground own single: climb }\n",
                               "on ground own single: climb", "on ground own/own: capture-top", fens=("4k3/8/8/8/8/8/8/R3K2N w - - 0 1",)),
    "Interaction.bottom": swap(CHESS + "stacking { height 2  on ground enemy single: capture  on ground own/enemy: capture-top }\n",
                               "own/enemy", "enemy/enemy", fens=("4k3/8/8/8/8/8/4K3/(Rn)6R w - - 0 1",)),
    "Interaction.middle": swap(CHESS + "stacking { height 3  on ground enemy single: capture  on ground enemy/enemy/enemy: capture-all }\n",
                               "enemy/enemy/enemy", "enemy/own/enemy", fens=("4k3/8/8/8/8/8/4K3/(nbr)6R w - - 0 1",)),
    "Interaction.top": swap(CHESS + "stacking { height 2  on ground enemy single: capture  on ground own/enemy: capture-top }\n",
                            "own/enemy", "own/own", fens=("4k3/8/8/8/8/8/4K3/(Rn)6R w - - 0 1",)),
    "Interaction.outcome": swap(CHESS + "stacking { height 2  on ground enemy single: capture  on ground own single: climb }\n",
                                "own single: climb", "own single: capture", fens=("4k3/8/8/8/8/8/8/R3K2N w - - 0 1",)),
    "Interaction.using": swap(CHESS + "stacking { height 2  on ground enemy single: capture  on ground own single: climb }\n",
                              "own single: climb", "own single: climb, using move", fens=("4k3/8/8/8/8/1NN5/1P6/4K3 w - - 0 1",)),
    "Interaction.only": swap(CHESS + "stacking { height 2  on ground enemy single: capture  on ground own single: climb }\n",
                             "own single: climb", "own single: climb, only Knight", fens=("4k3/8/8/8/8/8/8/R3K2N w - - 0 1",)),
    "Interaction.condition": swap(LOCKING, "extends locking\n", "extends locking\nstacking {\n  height 2\n  on ground enemy single: capture\n"
                                  "  on ground own single: climb\n  on upper empty: descend\n  on upper enemy single: capture, if below == \"own\"\n}\n",
                                  fens=("4k3/8/8/8/8/2p5/8/(NR)3K3 w - - 0 1",)),
    # ---------------------------------------------------------------- drops
    "DropsSpec.captures_to_hand": swap(HOUSE, "extends crazyhouse\n", "extends crazyhouse\ndrops { drop Pawn  drop Knight }\n",
                                       fens=("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",)),
    "DropsSpec.demoted": swap(HOUSE, "extends crazyhouse\n", "extends crazyhouse\ndrops { captures to hand  drop Pawn  drop Queen }\n",
                              fens=("4k3/8/8/8/8/8/3q~4/4K3 w - - 0 1",)),
    "DropsSpec.drops": swap(HOUSE, "extends crazyhouse\n", "extends crazyhouse\nforget drop Knight\n", fens=("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1",)),
    "DropRule.piece": swap(CHESS + "drops { captures to hand  drop Knight }\n", "drop Knight", "drop Bishop",
                           fens=("4k3/8/8/8/8/8/8/4K3[NB] w - - 0 1",)),
    "DropRule.not_in": swap(CHESS + "drops { captures to hand  drop Knight }\n", "drop Knight", "drop Knight: not in rank 8",
                            fens=("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1",)),
    "DropRule.no_file_twin": swap(CHESS + "drops { captures to hand  drop Pawn }\n", "drop Pawn", "drop Pawn: not on file with own Pawn",
                                  fens=("4k3/8/8/8/8/8/P7/4K3[P] w - - 0 1",)),
    "DropRule.at_most": swap(CHESS + "drops { captures to hand  drop Pawn }\n", "drop Pawn", "drop Pawn: at most 2 on file",
                             fens=("4k3/8/8/8/8/P7/P7/4K3[P] w - - 0 1",)),
    "DropLimit.count": swap(CHESS + "drops { captures to hand  drop Pawn: at most 2 on file }\n", "most 2", "most 1",
                            fens=("4k3/8/8/8/8/8/P7/4K3[P] w - - 0 1",)),
    "DropLimit.cells": swap(CHESS + "drops { captures to hand  drop Pawn: at most 1 on file }\n", "on file", "in rank 3",
                            fens=("4k3/8/8/8/8/8/P7/4K3[P] w - - 0 1",)),
    "DropRule.no_mate": swap(CHESS + "drops { captures to hand  drop Queen }\n", "drop Queen", "drop Queen: not giving mate",
                             fens=("7k/8/6K1/8/8/8/8/8[Q] w - - 0 1",)),
    "DropRule.condition": swap(CHESS + "drops { captures to hand  drop Knight }\n", "drop Knight", "drop Knight: if to.rank != 8",
                               fens=("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1",)),
    "DropsSpec.must_drop": swap(CHESS + "drops { drop Knight }\n", "drop Knight", "drop Knight  must drop",
                                fens=("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w KQkq - 0 1",)),
    "DropsSpec.both_colours": swap(CHESS + "drops { drop Bishop }\n", "drop Bishop", "drop Bishop  keep Bishop on both colours",
                                   fens=("4k3/8/8/8/8/8/8/2B1K3[B] w - - 0 1",)),
    "DropRule.unmoved_in": swap(CHESS + "drops { drop King  drop Rook: unmoved in a1 }\n", "drop King", "drop King: unmoved in e1",
                                fens=("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1",)),
    "DropsSpec.gates": swap(CHESS + "drops { drop Knight }\n", "drop Knight", "drop Knight  gate Queen in rank 1",
                            fens=("4k3/8/8/8/8/8/8/4K2R[Q] w K - 0 1",)),
    "GateRule.pieces": swap(CHESS + "drops { gate Queen in rank 1 }\n", "gate Queen", "gate Queen, Knight",
                            fens=("4k3/8/8/8/8/8/8/4K2R[QN] w K - 0 1",)),
    "GateRule.cells": swap(CHESS + "drops { gate Queen in rank 1 }\n", "in rank 1", "in file h",
                           fens=("4k3/8/8/8/8/8/8/4K2R[Q] w K - 0 1",)),
    # ---------------------------------------------------------------- rules
    "RulesSpec.forbid": swap(MINI, "  forbid self-check\n", "", fens=("k3/4/4/K2r w - - 0 1",)),
    "RulesSpec.compulsory_capture": swap(MINI, "  forbid self-check\n", "  forbid self-check\n  captures compulsory\n"),
    "RulesSpec.explosion": swap(MINI, "  forbid self-check\n", "  forbid self-check\n  captures explode\n"),
    "RulesSpec.clock_resets": swap(MINI, "  forbid self-check\n", "  forbid self-check\n  clock resets on capture\n",
                                   fens=("k3/4/4/Kr2 w - - 7 9",)),
    "RulesSpec.ends": swap(MINI, "  end mate when", "  end bare when pieces == royals: draw\n  end mate when", fens=(BARE,)),
    "RulesSpec.insufficient": added(MINI + "rules { end dead when insufficient_material: draw }\n",
                                    'rules { insufficient bare "K" vs "K" }\n', fens=(BARE,)),
    "RulesSpec.no_moves": swap(MINI, "  end mate when in_check and legal_moves == 0: loss\n", "  when no moves: pass\n",
                               fens=(MATE,)),
    "RulesSpec.royal_check": swap(MINI, "  forbid self-check\n", "  forbid self-check\n  check when all royals attacked\n",
                                  fens=("k3/4/r3/K2K w - - 0 1",)),
    "RulesSpec.resign": swap(MINI, "  forbid self-check\n", "  forbid self-check\n  when resigning: remove-royal\n",
                             shows="docs"),
    "RulesSpec.points": swap(MINI, "  forbid self-check\n", "  forbid self-check\n  points Rook 5\n"),
    "RulesSpec.neutral_move": swap(MINI.replace("  forbid self-check\n", "") + 'piece Duck { letter "*" neutral }\n',
                                   "rules {\n", "rules {\n  then move Duck to an empty cell\n"),
    "RulesSpec.passing": swap(MINI, "  forbid self-check\n", "  forbid self-check\n  may pass\n"),
    "PassRule.condition": swap(MINI + "rules { may pass }\n", "may pass", "may pass if in_check"),
    "RulesSpec.keep_apart": swap(MINI, "  forbid self-check\n", "  forbid self-check\n  forbid keeping royals facing along orth\n",
                                 fens=("k3/4/4/K2R w - - 0 1",)),
    "RulesSpec.material_bonus": swap(MINI + "rules { end counted when fullmove >= 1: material }\n", "rules { end counted",
                                     "rules { material bonus black 5\n  end counted"),
    "RulesSpec.count_checks": swap(MINI, "  forbid self-check\n", "  forbid self-check\n  count checks to 3\n"),
    "EndRule.name": swap(MINI, "end mate when", "end mated when", fens=(MATE,)),
    "EndRule.title": swap(MINI, "end mate when", 'end mate "checkmate" when', fens=(MATE,)),
    "EndRule.condition": swap(MINI, "when in_check and legal_moves == 0", "when legal_moves == 0", fens=(STALEMATE,)),
    "EndRule.result": swap(MINI, "legal_moves == 0: loss", "legal_moves == 0: draw", fens=(MATE,)),
    "InsufficientRule.name": swap(MINI + 'rules { end dead when insufficient_material: draw  insufficient bare "K" vs "K" }\nforget insufficient bare\n',
                                  "insufficient bare \"K\"", "insufficient kings \"K\"", error=True),
    "InsufficientRule.first": swap(MINI + 'rules { end dead when insufficient_material: draw  insufficient bare "K" vs "K" }\n',
                                   '"K" vs "K"', '"KR" vs "K"', fens=(BARE,)),
    "InsufficientRule.second": swap(MINI + 'rules { end dead when insufficient_material: draw  insufficient bare "K" vs "K" }\n',
                                    '"K" vs "K"', '"K" vs "KR"', fens=(BARE,)),
    "InsufficientRule.condition": swap(MINI + 'rules { end dead when insufficient_material: draw  insufficient bare "K" vs "K" }\n',
                                       '"K" vs "K"', '"K" vs "K" if fullmove > 5', fens=(BARE,)),
    "NoMovesRule.action": swap(MINI + "rules { when no moves: pass }\n", "when no moves: pass", "when no moves: end",
                               fens=(STALEMATE,)),
    "NoMovesRule.condition": swap(MINI + "rules { when no moves: pass }\n", "when no moves: pass", "when no moves: pass if in_check",
                                  fens=(STALEMATE,)),
    # ---------------------------------------------------------------- setup
    "SetupSpec.fen": added(MINI, 'setup fen "k3/4/4/K3 w - - 0 1"\n'),
    "SetupSpec.places": swap(MINI, "  black Pawn at c3\n", ""),
    "SetupSpec.shuffles": swap(SHUFFLE, "\n  shuffle rank 1 mirror rank 8: Bishop on both colours, King between Rook\n", "\n"),
    "Place.army": swap(MINI, "white Rook at d1", "black Rook at d1"),
    "Place.piece": swap(MINI, "white Rook at d1", "white Pawn at d1"),
    "Place.cells": swap(MINI, "white Rook at d1", "white Rook at c1"),
    "Place.facing": swap(MINI, "white Pawn at b2", "white Pawn at b2 facing e"),
    "ShuffleSpec.cells": swap(SHUFFLE, "shuffle rank 1 mirror rank 8", "shuffle a1..d1 mirror a8..d8"),
    "ShuffleSpec.mirror": swap(SHUFFLE, "shuffle rank 1 mirror rank 8", "shuffle rank 1"),
    "ShuffleSpec.rules": swap(SHUFFLE, ": Bishop on both colours, King between Rook", ": King between Rook"),
    "ShuffleRule.kind": swap(SHUFFLE, "Bishop on both colours", "Bishop between Rook"),
    "ShuffleRule.piece": swap(SHUFFLE, "Bishop on both colours", "Knight on both colours"),
    "ShuffleRule.other": swap(SHUFFLE, "King between Rook", "King between Bishop"),
}


def test_every_field_has_a_case():
    """A field without a case is one nothing checks the compiler honours: add a case for it."""
    missing = [f for f in FIELDS if f not in CASES and f not in NOT_SET]
    stale = [f for f in list(CASES) + list(NOT_SET) + list(REFUSED) if f not in FIELDS]
    assert not missing, f"Spec fields without a case in tests/test_spec_fields.py: {', '.join(missing)}"
    assert not stale, f"cases for fields the Spec no longer has: {', '.join(stale)}"


def _nodes(root):
    todo = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, S.Node):
            yield node
            todo.extend(getattr(node, name) for name in type(node).model_fields if name not in ("loc", "locs"))
        elif isinstance(node, dict):
            todo.extend(node.values())
        elif isinstance(node, (list, tuple)):
            todo.extend(node)


def _values(spec: S.VariantSpec, field: str) -> list[str]:
    model, name = field.split(".")
    return [repr(getattr(n, name)) for n in _nodes(spec) if type(n).__name__ == model]


def _spec(text: str, tmp_path) -> S.VariantSpec:
    path = tmp_path / "case.rules"
    path.write_text(text)
    return load_spec_text(text, str(path))


def _game_facts(game, fens: tuple[str, ...]) -> tuple:
    board = game.board
    facts = [game.name, game.title, game.mode, [(a.name, a.title, a.symbol, a.forward) for a in game.armies],
             game.turn_armies, game.partners, sorted(game.players.items()),
             [(k.name, k.letter, k.value, k.royal) for k in game.kinds],
             board.names, board.coords, board.attributes, sorted(board.steps.items()), sorted(board.edge_kinds.items()),
             sorted((name, sorted((str(a), sorted(c)) for a, c in z.items())) for name, z in board.zones.items()),
             [(r.name, r.notation) for r in game.castle_rules + game.castle_locks],
             [(rule.name, rule.title) for rule, _, _ in game.end_rules], starting_arrays(game)]
    for pos in [start_position(game)] + [position_from_fen(game, fen) for fen in fens]:
        legal = pos.legal_moves()
        result = outcome(pos, legal)
        moves = []
        for move in legal:
            san = move_to_san(pos, move, legal=legal)
            pos.push(move)
            moves.append((san, to_fen(pos)))   # what the move does, too
            pos.pop()
        facts.append((to_fen(pos), sorted(moves),
                      None if result is None else (result.rule, result.title, result.result, result.winners)))
    return tuple(repr(f) for f in facts)


def _shown(case: Case, text: str, tmp_path):
    """What the compiled text shows in the case's respect."""
    game = compile_variant(_spec(text, tmp_path))
    if case.shows == "game":
        return _game_facts(game, case.fens)
    if case.shows == "drawing":
        return render_position(start_position(game))
    if case.shows == "docs":
        return variant_files(game, perft_depth=1)["index.md"]
    evaluation = Evaluation(game)
    return [evaluation.army_scores(p) for p in [start_position(game)] + [position_from_fen(game, f) for f in case.fens]]


def _params():
    for field in FIELDS:
        if field in NOT_SET or field not in CASES:
            continue
        marks = [pytest.mark.xfail(reason=REFUSED[field], strict=True, raises=UnsupportedError)] if field in REFUSED else []
        yield pytest.param(field, marks=marks, id=field)


@pytest.mark.parametrize("field", list(_params()))
def test_the_field_changes_the_compiled_game(field, tmp_path):
    case = CASES[field]
    before = _shown(case, case.base, tmp_path)
    if case.error:
        with pytest.raises(RulesSemanticError) as err:
            _shown(case, case.changed, tmp_path)
        assert err.value.loc is not None, f"{field}: the error has no location: {err.value}"
        return
    assert _values(_spec(case.base, tmp_path), field) != _values(_spec(case.changed, tmp_path), field), \
        f"the case of {field} does not vary it"
    try:
        after = _shown(case, case.changed, tmp_path)
    except UnsupportedError:
        raise
    except RulesError as err:
        pytest.fail(f"{field}: the variation does not compile:\n{err.render()}")
    assert before != after, f"{field} is ignored: setting it changes nothing the {case.shows} shows"
