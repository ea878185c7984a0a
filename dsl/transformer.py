"""Parse tree -> declarations.

:class:`ToDecls` turns the parse tree of one file into a list of
:class:`Decl` (one per top-level declaration, in order). The resolver
(:mod:`dsl.loader`) merges the declarations of a file and of what it
extends or includes into one :class:`~dsl.spec.VariantSpec`.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer_NonRecursive, v_args

from . import limits as L
from . import spec as S
from .colours import is_colour
from .declarations import Decl
from .errors import Loc, RulesSemanticError, clip
from .strings import unquote
from .transform_pieces import PieceRules
from .transform_rules import GameRules


class ToDecls(PieceRules, GameRules, Transformer_NonRecursive):
    """Transformer for one file; ``path`` and ``text`` are kept for locations.

    Non-recursive, so that a deeply nested expression cannot exhaust the
    Python stack; expressions are bounded in depth and size as they are built.
    """

    def __init__(self, path: str, text: str) -> None:
        super().__init__()
        self.path = path
        self.text = text
        self._sizes: dict[int, tuple[int, int, Any]] = {}  # id of an expression node -> (depth, size, node)

    # -------------------------------------------------------------- helpers
    def loc(self, item: Any) -> Loc | None:
        if isinstance(item, Token):
            return Loc(self.path, item.line, item.column, item.end_column, self.text)
        meta = getattr(item, "meta", item)
        if getattr(meta, "empty", True) and not hasattr(meta, "line"):
            return None
        end = meta.end_column if meta.end_line == meta.line else None
        return Loc(self.path, meta.line, meta.column, end, self.text)

    def name(self, token: Token) -> tuple[str, Loc]:
        return str(token), self.loc(token)

    # -------------------------------------------------------------- top level
    def start(self, items):
        return list(items)

    @v_args(meta=True)
    def variant_decl(self, meta, items):
        name, *fields = items
        return Decl("variant", {"name": str(name), "fields": fields}, self.loc(name))

    def title(self, items):
        return ("title", unquote(items[0]))

    def description(self, items):
        return ("description", unquote(items[0]))

    def aliases(self, items):
        return ("aliases", [str(t) for t in items])

    def source(self, items):
        return ("source", unquote(items[0]))

    def interpretation(self, items):
        return ("interpretation", unquote(items[0]))

    def family(self, items):
        return ("family", unquote(items[0]))

    def notation(self, items):
        return ("notation", (str(items[0]), self.loc(items[0])))

    def _ref_decl(self, kind, items):
        token = items[0]
        ref = unquote(token) if token.type == "STRING" else str(token)
        return Decl(kind, ref, self.loc(token), {"is_path": token.type == "STRING"})

    def extends_decl(self, items):
        return self._ref_decl("extends", items)

    def include_decl(self, items):
        return self._ref_decl("include", items)

    # forget: Decl("forget", (what, name or None)); ``what`` is the construct's words, e.g.
    # "piece", "forbid", "captures compulsory", "when no moves".
    @v_args(meta=True)
    def forget_named(self, meta, items):
        what, name = items
        return Decl("forget", (what, str(name)), self.loc(name))

    def forget_mode(self, items):
        return Decl("forget", ("mode", str(items[0])), self.loc(items[0]))

    def forget_forbid(self, items):
        return Decl("forget", ("forbid", str(items[0])), self.loc(items[0]))

    @v_args(meta=True)
    def forget_whole(self, meta, items):
        return Decl("forget", (items[0], None), self.loc(meta))

    @v_args(meta=True)
    def forget_captures(self, meta, items):
        return Decl("forget", (f"captures {items[0]}", None), self.loc(meta))

    @v_args(meta=True)
    def forget_count_checks(self, meta, items):
        return Decl("forget", ("count checks", None), self.loc(meta))

    @v_args(meta=True)
    def forget_no_moves(self, meta, items):
        return Decl("forget", ("when no moves", None), self.loc(meta))

    @v_args(meta=True)
    def forget_resigning(self, meta, items):
        return Decl("forget", ("when resigning", None), self.loc(meta))

    @v_args(meta=True)
    def forget_neutral_move(self, meta, items):
        return Decl("forget", ("then move", None), self.loc(meta))

    def forgettable(self, items):
        return str(items[0])

    forget_block = forgettable
    captures_rule = forgettable

    # -------------------------------------------------------------- cell sets
    def cellset(self, items):
        include = items[0]
        exclude = items[1] if len(items) > 1 else []
        return S.CellSet(include=include, exclude=exclude, loc=include[0].loc)

    def cellterms(self, items):
        return list(items)

    @v_args(meta=True)
    def cell_named(self, meta, items):
        return S.CellTerm(kind="named", a=str(items[0]), loc=self.loc(items[0]))

    @v_args(meta=True)
    def cell_rect(self, meta, items):
        return S.CellTerm(kind="rect", a=str(items[0]), b=str(items[1]), loc=self.loc(meta))

    @v_args(meta=True)
    def cell_rank(self, meta, items):
        n = int(items[0])
        return S.CellTerm(kind="rank", lo=n, hi=n, loc=self.loc(meta))

    @v_args(meta=True)
    def cell_ranks(self, meta, items):
        step = int(items[2]) if len(items) > 2 else 1
        return S.CellTerm(kind="ranks", lo=int(items[0]), hi=int(items[1]), step=step, loc=self.loc(meta))

    @v_args(meta=True)
    def cell_file(self, meta, items):
        return S.CellTerm(kind="file", a=str(items[0]), b=str(items[0]), loc=self.loc(meta))

    @v_args(meta=True)
    def cell_files(self, meta, items):
        return S.CellTerm(kind="files", a=str(items[0]), b=str(items[1]), loc=self.loc(meta))

    @v_args(meta=True)
    def cell_type(self, meta, items):
        return S.CellTerm(kind="type", a=str(items[0]), loc=self.loc(items[0]))

    @v_args(meta=True)
    def cell_zone(self, meta, items):
        return S.CellTerm(kind="zone", a=str(items[0]), loc=self.loc(items[0]))

    @v_args(meta=True)
    def cell_all(self, meta, items):
        return S.CellTerm(kind="all", loc=self.loc(meta))

    @v_args(meta=True)
    def cell_where(self, meta, items):
        return S.CellTerm(kind="where", expr=items[0], loc=self.loc(meta))

    def vector(self, items):
        values = [float(t) for t in items]
        if all(v.is_integer() for v in values):
            return (int(values[0]), int(values[1]))
        return (values[0], values[1])

    def vector3(self, items):
        values = [float(t) for t in items]
        if not all(v.is_integer() for v in values):
            raise RulesSemanticError("a step (files, ranks, levels) is three whole numbers", self.loc(items[0]),
                                     expected="such as (2, 1, 0)")
        return (int(values[0]), int(values[1]), int(values[2]))

    # -------------------------------------------------------------- board
    @v_args(meta=True)
    def board_decl(self, meta, items):
        return Decl("board", list(items), self.loc(meta))

    @v_args(meta=True)
    def grid(self, meta, items):
        levels = int(items[2]) if len(items) > 2 else 1
        return ("generator", S.GridGen(files=int(items[0]), ranks=int(items[1]), levels=levels, loc=self.loc(meta)))

    @v_args(meta=True)
    def ragged(self, meta, items):
        return ("generator", S.RaggedGen(lengths=[int(t) for t in items], loc=self.loc(meta)))

    @v_args(meta=True)
    def hex(self, meta, items):
        return ("generator", S.HexGen(radius=int(items[0]), loc=self.loc(meta)))

    def cell_decl(self, items):
        name, (x, y) = items
        return ("cell", S.CellDecl(name=str(name), x=x, y=y, loc=self.loc(name)))

    def remove(self, items):
        return ("remove", items[0])

    @v_args(meta=True)
    def link(self, meta, items):
        kind = str(items[3]) if len(items) > 3 else None
        link = S.Link(source=str(items[0]), target=str(items[1]), label=str(items[2]), edge_kind=kind,
                      loc=self.loc(meta))
        link.locs.update({str(items[0]): self.loc(items[0]), str(items[1]): self.loc(items[1])})
        return ("link", link)

    @v_args(meta=True)
    def wrap(self, meta, items):
        return ("wrap", ([str(t) for t in items], self.loc(meta)))

    def wrap_axis(self, items):
        return str(items[0])

    def set_attr(self, items):
        attr, value, cells = items
        v: str | int = int(value) if value.type == "INT" else (unquote(value) if value.type == "STRING" else str(value))
        return ("attribute", S.SetAttr(attribute=str(attr), value=v, cells=cells, loc=self.loc(attr)))

    @v_args(meta=True)
    def position(self, meta, items):
        x, y, cells = items
        return ("position", S.PositionSpec(cells=cells, x=x, y=y, loc=self.loc(meta)))

    @v_args(meta=True)
    def shape(self, meta, items):
        cells, *points = items
        return ("shape", S.ShapeSpec(cells=cells, points=points, loc=self.loc(meta)))

    @v_args(meta=True)
    def draw_points(self, meta, items):
        return ("draw", ("points", True, self.loc(meta)))

    @v_args(meta=True)
    def draw_plain(self, meta, items):
        return ("draw", ("plain", True, self.loc(meta)))

    @v_args(meta=True)
    def draw_facing(self, meta, items):
        return ("draw", ("facing", True, self.loc(meta)))

    @v_args(meta=True)
    def draw_river(self, meta, items):
        below, above, *text = items
        if int(above) != int(below) + 1:
            raise RulesSemanticError(f"a river runs between two neighbouring ranks, not {below} and {above}",
                                     self.loc(above), expected=f"ranks {below} and {int(below) + 1}")
        river = S.RiverSpec(below=int(below), text=unquote(text[0]) if text else "", loc=self.loc(meta))
        return ("draw", ("river", river, river.loc))

    @v_args(meta=True)
    def draw_diagonals(self, meta, items):
        return ("draw", ("diagonals", items[0], self.loc(meta)))

    def directions(self, items):
        name, *rows = items
        return ("directions", S.DirectionFamily(name=str(name), rows=rows, loc=self.loc(name)))

    def dir_row(self, items):
        cells, *entries = items
        return S.DirRow(cells=cells, entries=entries, loc=cells.loc)

    def dir_entry(self, items):
        label, (dx, dy, *dz), *kind = items
        return S.DirEntry(label=str(label), dx=int(dx), dy=int(dy), dz=dz[0] if dz else 0,
                          edge_kind=str(kind[0]) if kind else None, loc=self.loc(label))

    def zone_shared(self, items):
        name, cells = items
        return ("zone", S.ZoneSpec(name=str(name), shared=cells, loc=self.loc(name)))

    def zone_per_army(self, items):
        name, *rows = items
        return ("zone", S.ZoneSpec(name=str(name), per_army=dict(rows), loc=self.loc(name)))

    def army_cells(self, items):
        army, cells = items
        cells.loc = cells.loc or self.loc(army)
        return (str(army), cells)

    # -------------------------------------------------------------- armies
    def armies_decl(self, items):
        return Decl("armies", list(items), None)

    def army(self, items):
        name, *rest = items
        title = unquote(rest.pop(0)) if rest and isinstance(rest[0], Token) and rest[0].type == "STRING" else str(name).capitalize()
        fields = {key: value for key, value, _ in rest}
        army = S.ArmySpec(name=str(name), title=title, loc=self.loc(name), **fields)
        army.locs.update({key: loc for key, _, loc in rest})
        return ("army", army)

    def letters_case(self, items):
        return ("letter_case", str(items[0]), self.loc(items[0]))

    def letters_prefix(self, items):
        prefix = unquote(items[0])
        if not (prefix.isascii() and prefix.isalpha() and len(prefix) <= 3):
            raise RulesSemanticError(f"the prefix {prefix!r} is not one to three letters", self.loc(items[0]),
                                     expected='letters such as "w" (positions write its pieces wK, wQ ...)')
        return ("prefix", prefix, self.loc(items[0]))

    def army_forward(self, items):
        return ("forward", str(items[0]), self.loc(items[0]))

    def army_colour(self, items):
        colour = unquote(items[0])
        if not is_colour(colour):
            raise RulesSemanticError(f"{clip(colour)!r} is not a colour", self.loc(items[0]),
                                     expected='"#rgb", "#rrggbb" or a CSS colour name such as "gold"')
        return ("colour", colour, self.loc(items[0]))

    def team(self, items):
        name, *armies = items
        return ("team", S.TeamSpec(name=str(name), armies=[str(a) for a in armies], loc=self.loc(name)))

    def turn(self, items):
        return ("turn", [str(a) for a in items], self.loc(items[0]))

    def mode(self, items):
        name, *rest = items
        title = unquote(rest.pop(0)) if rest and isinstance(rest[0], Token) else None
        mode = S.ModeSpec(name=str(name), title=title, loc=self.loc(name))
        for stmt in rest:
            if stmt[0] == "player":
                mode.players[stmt[1]] = stmt[2]
            elif stmt[0] == "turn":
                mode.turn = stmt[1]
            else:
                mode.options[stmt[1]] = stmt[2]
        return ("mode", mode)

    def player(self, items):
        name, *armies = items
        return ("player", str(name), [str(a) for a in armies])

    def mode_option(self, items):
        return ("option", str(items[0]), str(items[1]))

    # -------------------------------------------------------------- setup
    def setup_fen(self, items):
        fen, *shuffles = items
        return Decl("setup", S.SetupSpec(fen=unquote(fen), shuffles=shuffles, loc=self.loc(fen)), self.loc(fen))

    def setup_places(self, items):
        places = [i for i in items if isinstance(i, S.Place)]
        shuffles = [i for i in items if isinstance(i, S.ShuffleSpec)]
        return Decl("setup", S.SetupSpec(places=places, shuffles=shuffles), None)

    @v_args(meta=True)
    def shuffle(self, meta, items):
        cells, *rest = items
        mirror = rest.pop(0) if rest and isinstance(rest[0], S.CellTerm) else None
        return S.ShuffleSpec(cells=cells, mirror=mirror, rules=rest, loc=self.loc(meta))

    def shuffle_colours(self, items):
        return S.ShuffleRule(kind="colours", piece=str(items[0]), loc=self.loc(items[0]))

    def shuffle_between(self, items):
        return S.ShuffleRule(kind="between", piece=str(items[0]), other=str(items[1]), loc=self.loc(items[0]))

    @v_args(meta=True)
    def place(self, meta, items):
        """``ARMY PIECE at CELLS [facing ...]``: located at the whole placement, its army and piece names too."""
        army, piece, cells, *facing = items
        return S.Place(army=str(army), piece=str(piece), cells=cells, facing=[str(f) for f in facing],
                       loc=self.loc(meta), locs={"army": self.loc(army), "piece": self.loc(piece)})

    # -------------------------------------------------------------- expressions
    #
    # Every expression node is measured as it is built (depth and size, from its
    # children's), so that one that is too deep or too large stops at once, before
    # anything walks it recursively.
    def _measured(self, node: Any, children: list, own: int = 1) -> Any:
        sizes = [self._sizes[id(c)] for c in children]
        depth = 1 + max((d for d, _, _ in sizes), default=0)
        size = own + sum(n for _, n, _ in sizes)
        if depth > L.EXPRESSION_DEPTH.value:
            raise L.EXPRESSION_DEPTH.error(f"this expression has more than {L.EXPRESSION_DEPTH.value} levels", node.loc)
        L.EXPRESSION_SIZE.check(size, node.loc, "this expression")
        self._sizes[id(node)] = (depth, size, node)  # the node is kept so that its id is not reused
        return node

    @v_args(meta=True)
    def or_(self, meta, items):
        if len(items) == 1:
            return items[0]
        return self._measured(S.BoolOp(op="or", operands=items, loc=self.loc(meta)), items)

    @v_args(meta=True)
    def and_(self, meta, items):
        if len(items) == 1:
            return items[0]
        return self._measured(S.BoolOp(op="and", operands=items, loc=self.loc(meta)), items)

    @v_args(meta=True)
    def not_(self, meta, items):
        return self._measured(S.Not(operand=items[0], loc=self.loc(meta)), items)

    @v_args(meta=True)
    def compare(self, meta, items):
        if len(items) == 1:
            return items[0]
        left, op, right = items
        return self._measured(S.Compare(op=str(op), left=left, right=right, loc=self.loc(meta)), [left, right])

    @v_args(meta=True)
    def arith(self, meta, items):
        result = items[0]
        for i in range(1, len(items), 2):
            operands = [result, items[i + 1]]
            result = self._measured(S.Arith(op=str(items[i]), left=result, right=items[i + 1], loc=self.loc(meta)),
                                    operands)
        return result

    @v_args(meta=True)
    def neg(self, meta, items):
        return self._measured(S.Neg(operand=items[0], loc=self.loc(meta)), items)

    def number(self, items):
        return self._measured(S.Num(value=int(items[0]), loc=self.loc(items[0])), [])

    def string(self, items):
        return self._measured(S.Str(value=unquote(items[0]), loc=self.loc(items[0])), [])

    def ref(self, items):
        return self._measured(S.Ref(path=[str(t) for t in items], loc=self.loc(items[0])), [], len(items))

    def call(self, items):
        name, *args = items
        args = [a for a in args if a is not None]
        return self._measured(S.Call(name=str(name), args=args, loc=self.loc(name)), args)
