"""Parse tree -> declarations: pieces (movement patterns, their options, promotion) and castling.

The rule methods of these declarations, a base class of :class:`dsl.transformer.ToDecls`
(they use its ``loc`` and ``name`` helpers and its source ``path`` and ``text``).
"""

from __future__ import annotations

from lark import Token, v_args

from . import spec as S
from .declarations import Decl, set_options, source_word
from .errors import RulesSemanticError, clip
from .strings import unquote


class PieceRules:
    """Transformer methods for ``piece`` and ``castling`` declarations; see :class:`~dsl.transformer.ToDecls`."""

    # -------------------------------------------------------------- pieces
    def piece_decl(self, items):
        name, *stmts = items
        piece = S.PieceSpec(name=str(name), loc=self.loc(name))
        for key, value in stmts:
            if key == "move":
                piece.moves.append(value)
            elif key == "promotion":
                piece.promotions.append(value)
            elif key == "army_glyphs":
                piece.army_glyphs = {army: text for army, text, _ in value}
                piece.locs.update({f"glyph {army}": loc for army, _, loc in value})
            elif key == "notation_letter":
                piece.notation_letter, piece.locs["notation letter"] = value
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

    def notation_letter(self, items):
        return ("notation_letter", (self.letter(items)[1], self.loc(items[0])))

    def notation_glyph(self, items):
        return ("notation_glyph", self._glyph(items[0]))

    def _glyph(self, token) -> str:
        """The text of a glyph: one to three characters, none of them a control character."""
        text = unquote(token)
        if not 1 <= len(text) <= 3 or any(not ch.isprintable() or ch.isspace() for ch in text):
            raise RulesSemanticError(f"a glyph is one to three visible characters, not {clip(text)!r}", self.loc(token),
                                     expected='a short text such as "車" or "成銀"')
        return text

    def glyph_all(self, items):
        return ("glyph", self._glyph(items[0]))

    def glyph_per_army(self, items):
        return ("army_glyphs", items)

    def army_glyph(self, items):
        army, text = items
        return (str(army), self._glyph(text), self.loc(army))

    def royal(self, items):
        return ("royal", True)

    def neutral(self, items):
        return ("neutral", True)

    def unmoved_lost(self, items):
        return ("unmoved_lost_aimed_by", items[0])

    def piece_diagram(self, items):
        return ("diagram_cells", [(str(t), self.loc(t)) for t in items])

    def _move(self, pattern, opts, loc):
        return ("move", set_options(S.MoveSpec(pattern=pattern, loc=loc), opts))

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
        mode = source_word(self.text, meta)
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

    def opt_within(self, items):
        return ("within", items[0])

    def opt_if(self, items):
        return ("condition", items[0])

    def opt_hurdle(self, items):
        return ("hurdle", items[0])

    def opt_takes(self, items):
        return ("takes", items[0])

    @v_args(meta=True)
    def hurdle(self, meta, items):
        side = next((str(t) for t in items if isinstance(t, Token)), "any")
        kinds = next((k for k in items if isinstance(k, S.KindSet)), None)
        return S.HurdleSpec(side=side, kinds=kinds, loc=self.loc(meta))

    @v_args(meta=True)
    def kinds_only(self, meta, items):
        return self._kinds(meta, items, False)

    @v_args(meta=True)
    def kinds_except(self, meta, items):
        return self._kinds(meta, items, True)

    def _kinds(self, meta, names, negated: bool) -> S.KindSet:
        kinds = S.KindSet(names=[str(t) for t in names], negated=negated, loc=self.loc(meta))
        kinds.locs.update({str(t): self.loc(t) for t in names})
        return kinds

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

    def promo_in_place(self, items):
        return ("in_place", "moving" if items else "standing")

    def promo_not_attacking(self, items):
        return ("not_attacking", True)

    def promo_not_checking(self, items):
        return ("not_giving_check", True)

    def promo_if(self, items):
        return ("condition", items[0])

    def promo_limit(self, items):
        return ("limit", (str(items[0]), int(items[1]), self.loc(items[0])))

    # -------------------------------------------------------------- castling
    def castling_decl(self, items):
        king, rooks, *rules = items
        castling = S.CastlingSpec(king=str(king), rooks=[str(r) for r in rooks], rules=rules, loc=self.loc(king))
        castling.locs.update({"king": self.loc(king), **{f"rooks.{i}": self.loc(r) for i, r in enumerate(rooks)}})
        return Decl("castling", castling, castling.loc)

    def castle_rooks(self, items):
        return list(items)

    def castle_rule(self, items):
        name, notation, *parts = items
        return set_options(S.CastleRule(name=str(name), notation=unquote(notation), loc=self.loc(name)), parts)

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
