"""Parse tree -> declarations.

:class:`ToDecls` turns the parse tree of one file into a list of
:class:`Decl` (one per top-level declaration, in order). The resolver
(:mod:`dsl.loader`) merges the declarations of a file and of what it
extends or includes into one :class:`~dsl.spec.VariantSpec`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer_NonRecursive, v_args

from . import limits as L
from . import spec as S
from .colours import is_colour
from .errors import Loc, RulesSemanticError, clip
from .strings import unquote


@dataclass
class Decl:
    """One top-level declaration: its ``kind`` (the keyword), payload and location."""

    kind: str
    value: Any
    loc: Loc
    extra: dict = field(default_factory=dict)


class ToDecls(Transformer_NonRecursive):
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

    # -------------------------------------------------------------- board
    def board_decl(self, items):
        return Decl("board", list(items), None)

    @v_args(meta=True)
    def grid(self, meta, items):
        return ("generator", S.GridGen(files=int(items[0]), ranks=int(items[1]), loc=self.loc(meta)))

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

    def directions(self, items):
        name, *rows = items
        return ("directions", S.DirectionFamily(name=str(name), rows=rows, loc=self.loc(name)))

    def dir_row(self, items):
        cells, *entries = items
        return S.DirRow(cells=cells, entries=entries, loc=cells.loc)

    def dir_entry(self, items):
        label, (dx, dy), *kind = items
        return S.DirEntry(label=str(label), dx=int(dx), dy=int(dy),
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

    # -------------------------------------------------------------- pieces
    def piece_decl(self, items):
        name, *stmts = items
        piece = S.PieceSpec(name=str(name), loc=self.loc(name))
        for key, value in stmts:
            if key == "move":
                piece.moves.append(value)
            elif key == "promotion":
                piece.promotions.append(value)
            elif key == "diagram_cells":
                piece.diagram_cells = [name for name, _ in value]
                piece.locs.update({f"diagram {name}": loc for name, loc in value})
            else:
                setattr(piece, key, value)
        return Decl("piece", piece, piece.loc)

    def letter(self, items):
        token = items[0]
        return ("letter", unquote(token) if token.type == "STRING" else str(token))

    def value(self, items):
        return ("value", float(items[0]))

    def royal(self, items):
        return ("royal", True)

    def piece_diagram(self, items):
        return ("diagram_cells", [(str(t), self.loc(t)) for t in items])

    def _move(self, pattern, opts, loc):
        move = S.MoveSpec(pattern=pattern, loc=loc)
        for key, value in opts:
            setattr(move, key, value)
        return ("move", move)

    def betza(self, items):
        text, *opts = items
        loc = self.loc(text)
        pattern = S.BetzaPattern(text=unquote(text), loc=loc)
        return self._move(pattern, opts, loc)

    @v_args(meta=True)
    def move(self, meta, items):
        pattern, *opts = items
        return self._move(pattern, opts, self.loc(meta))

    def dirs(self, items):
        return [str(t) for t in items]

    @v_args(meta=True)
    def pat_step(self, meta, items):
        return S.StepPattern(dirs=items[0], loc=self.loc(meta))

    @v_args(meta=True)
    def pat_ride(self, meta, items):
        return S.RidePattern(dirs=items[0], range=int(items[1]) if len(items) > 1 else None, loc=self.loc(meta))

    @v_args(meta=True)
    def pat_leap(self, meta, items):
        symmetry = "none"
        if items and isinstance(items[-1], Token):
            symmetry = str(items.pop())
        return S.LeapPattern(offsets=list(items), symmetry=symmetry, loc=self.loc(meta))

    @v_args(meta=True)
    def pat_hop(self, meta, items):
        return S.HopPattern(dirs=items[0], loc=self.loc(meta))

    @v_args(meta=True)
    def pat_path(self, meta, items):
        return S.PathPattern(legs=list(items), loc=self.loc(meta))

    @v_args(meta=True)
    def leg(self, meta, items):
        mode = _source_word(self.text, meta)
        return S.Leg(mode=mode, dirs=items[0], range=int(items[1]) if len(items) > 1 else None, loc=self.loc(meta))

    @v_args(meta=True)
    def pat_zigzag(self, meta, items):
        return S.ZigzagPattern(first=items[0], second=items[1],
                               range=int(items[2]) if len(items) > 2 else None, loc=self.loc(meta))

    def opt_modality(self, items):
        return ("modality", str(items[0]))

    def opt_royal_only(self, items):
        return ("royal_only", True)

    def opt_unmoved(self, items):
        return ("unmoved", True)

    def opt_lame(self, items):
        return ("lame", True)

    def opt_en_passant(self, items):
        return ("en_passant", True)

    def opt_sets_en_passant(self, items):
        return ("sets_en_passant", True)

    def opt_once(self, items):
        return ("once_per_game", True)

    def opt_commits(self, items):
        return ("commits", str(items[0]))

    def opt_from(self, items):
        return ("from_cells", items[0])

    def opt_to(self, items):
        return ("to_cells", items[0])

    def opt_if(self, items):
        return ("condition", items[0])

    @v_args(meta=True)
    def promotes(self, meta, items):
        cells, *rest = items
        names = [t for t in rest if isinstance(t, Token)]
        opts = [t for t in rest if not isinstance(t, Token)]
        promo = S.PromotionSpec(cells=cells, to=[str(t) for t in names], loc=self.loc(meta))
        promo_locs = {str(t): self.loc(t) for t in names}
        for key, value in opts:
            if key == "limit":
                name, count, loc = value
                promo.limits[name] = count
                promo_locs.setdefault(name, loc)
            else:
                setattr(promo, key, value)
        promo.locs.update(promo_locs)
        return ("promotion", promo)

    def promo_only_captured(self, items):
        return ("only_captured", True)

    def promo_leaving(self, items):
        return ("leaving", True)

    def promo_optional(self, items):
        return ("optional", True)

    def promo_on_capture(self, items):
        return ("on_capture_into", items[0])

    def promo_partner(self, items):
        return ("partner_pieces", True)

    def promo_limit(self, items):
        return ("limit", (str(items[0]), int(items[1]), self.loc(items[0])))

    # -------------------------------------------------------------- castling
    def castling_decl(self, items):
        king, rook, *rules = items
        castling = S.CastlingSpec(king=str(king), rook=str(rook), rules=rules, loc=self.loc(king))
        castling.locs.update({"king": self.loc(king), "rook": self.loc(rook)})
        return Decl("castling", castling, castling.loc)

    def castle_rule(self, items):
        name, notation, *parts = items
        rule = S.CastleRule(name=str(name), notation=unquote(notation), loc=self.loc(name))
        for key, value in parts:
            setattr(rule, key, value)
        return rule

    def king_to_file(self, items):
        return ("king_to_file", str(items[0]))

    def rook_to_file(self, items):
        return ("rook_to_file", str(items[0]))

    def king_to_rank(self, items):
        return ("king_to_rank", int(items[0]))

    def rook_to_rank(self, items):
        return ("rook_to_rank", int(items[0]))

    def rook_onto_king(self, items):
        return ("rook_onto_king", True)

    def swap(self, items):
        return ("swap", True)

    def side(self, items):
        return ("side", str(items[0]))

    def castle_in(self, items):
        return ("in_cells", items[0])

    def ignore(self, items):
        return ("ignore_path" if str(items[0]) == "path" else "ignore_attacks", True)

    # -------------------------------------------------------------- stacking
    @v_args(meta=True)
    def stacking_decl(self, meta, items):
        fields: dict = {"interactions": []}
        for key, value in items:
            if key == "interaction":
                fields["interactions"].append(value)
            else:
                fields[key] = value
        if not fields["interactions"]:
            del fields["interactions"]
        stacking = S.StackingSpec(loc=self.loc(meta), **fields)
        return Decl("stacking", stacking, stacking.loc)

    def stack_height(self, items):
        return ("height", int(items[0]))

    def stack_blocking(self, items):
        return ("upper_blocked_by", [str(t) for t in items])

    def interaction(self, items):
        level, target, outcome, *opts = items
        inter = S.Interaction(level=str(level), outcome=str(outcome), loc=self.loc(level), **target)
        for key, value in opts:
            if key == "using":
                inter.using.append(value)
            else:
                setattr(inter, key, value)
        return ("interaction", inter)

    def target_empty(self, items):
        return {"target": "empty"}

    def target_single(self, items):
        return {"target": "single", "top": str(items[0])}

    def target_stack(self, items):
        return {"target": "stack", "bottom": str(items[0]), "top": str(items[1])}

    def using(self, items):
        return ("using", str(items[0]))

    def only(self, items):
        return ("only", [str(t) for t in items])

    def inter_if(self, items):
        return ("condition", items[0])

    # -------------------------------------------------------------- drops
    def drops_decl(self, items):
        drops = S.DropsSpec()
        for key, value in items:
            if key == "drop":
                drops.drops.append(value)
            elif key == "gate":
                drops.gates.append(value)
            else:
                drops.captures_to_hand = True
                drops.demoted = value
        return Decl("drops", drops, None)

    @v_args(meta=True)
    def hand_rule(self, meta, items):
        return ("hand", "demoted" in _source_text(self.text, meta))

    def drop_rule(self, items):
        piece, *opts = items
        rule = S.DropRule(piece=str(piece), loc=self.loc(piece))
        for key, value in opts:
            if key == "not_in":
                rule.not_in.append(value)
            else:
                setattr(rule, key, value)
        return ("drop", rule)

    def gate_rule(self, items):
        *pieces, cells = items
        rule = S.GateRule(pieces=[str(p) for p in pieces], cells=cells, loc=self.loc(pieces[0]))
        rule.locs.update({str(p): self.loc(p) for p in pieces})
        return ("gate", rule)

    def drop_not_in(self, items):
        return ("not_in", items[0])

    def drop_no_file_twin(self, items):
        return ("no_file_twin", str(items[0]))

    def drop_no_mate(self, items):
        return ("no_mate", True)

    def drop_if(self, items):
        return ("condition", items[0])

    # -------------------------------------------------------------- rules
    def rules_decl(self, items):
        return Decl("rules", list(items), None)

    def legality(self, items):
        return ("forbid", str(items[0]), self.loc(items[0]))

    def clock(self, items):
        return ("clock", [str(t) for t in items], self.loc(items[0]))

    def no_moves(self, items):
        action, *cond = items
        return ("no_moves", S.NoMovesRule(action=str(action), condition=cond[0] if cond else None,
                                          loc=self.loc(action)), None)

    def resigning(self, items):
        return ("resign", str(items[0]), self.loc(items[0]))

    def explosion(self, items):
        return ("explosion", [str(t) for t in items], self.loc(items[0]) if items else None)

    def compulsory(self, items):
        return ("compulsory_capture", True, None)

    def count(self, items):
        return ("count_checks", int(items[0]) if items else 0, None)

    def royal_check(self, items):
        return ("royal_check", str(items[0]), self.loc(items[0]))

    def end_rule(self, items):
        name, *rest = items
        title = unquote(rest.pop(0)) if isinstance(rest[0], Token) and rest[0].type == "STRING" else None
        condition, result = rest
        return ("end", S.EndRule(name=str(name), title=title, condition=condition, result=str(result),
                                 loc=self.loc(name)), None)

    def insufficient(self, items):
        name, first, second, *cond = items
        return ("insufficient", S.InsufficientRule(
            name=str(name), first=unquote(first), second=unquote(second),
            condition=cond[0] if cond else None, loc=self.loc(first)), None)

    # -------------------------------------------------------------- computer players
    def ai_decl(self, items):
        ai = S.AiSpec()
        for name, value, loc in items:
            ai.weights[name] = value
            ai.locs[name] = loc
        return Decl("ai", ai, None)

    def example_decl(self, items):
        name, caption, *texts = items
        decision = bool(texts) and texts[0] == "for_interpretations"
        texts = texts[1:] if decision else texts
        moves, show = (texts if len(texts) == 2 else [None, texts[0]])
        example = S.ExampleSpec(name=str(name), caption=unquote(caption), moves=unquote(moves) if moves else "",
                                show=unquote(show), decision=decision, loc=self.loc(name))
        example.locs.update({"show": self.loc(show), **({"moves": self.loc(moves)} if moves else {})})
        return Decl("example", example, example.loc)

    def example_for(self, items):
        return "for_interpretations"

    def ai_weight(self, items):
        term, value = items
        return (str(term), float(value), self.loc(term))

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

    def place(self, items):
        army, piece, cells, *facing = items
        return S.Place(army=str(army), piece=str(piece), cells=cells, facing=[str(f) for f in facing],
                       loc=self.loc(army))

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


def _source_text(text: str, meta) -> str:
    return text[meta.start_pos:meta.end_pos]


def _source_word(text: str, meta) -> str:
    return _source_text(text, meta).split()[0]
