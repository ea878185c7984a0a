"""Plain English for pieces and what they do: movement patterns and their options,
promotion, castling, stacking, drops and gating, authored examples and the ``ai`` block.

Part of :class:`interpreter.documentation.english.English` (a base class of it, like
:class:`~interpreter.documentation.english_board.BoardEnglish`: the methods use its
``render``, ``value``, ``army`` and ``piece``). One ``_NodeName`` method per Spec model
of these declarations, found by :meth:`English.render`.
"""

from __future__ import annotations

from dsl import spec as S
from dsl.betza import parse_betza

from .english_moves import atom_options, betza_motion, directions_phrase, hex_steps_phrase, join, number, offsets_phrase
from .phrases import AI_TERMS, BLOCKERS, OUTCOMES, SIDES, article, num, plural, pretty, sentence


class PieceEnglish:
    """The renderings of pieces, castling, stacking and drops; a base class of
    :class:`~interpreter.documentation.english.English`."""

    # ------------------------------------------------------------ movement
    def motions(self, pattern) -> list[tuple[str, str | None, list[str]]]:
        """``(motion, modality or None, options)`` per part of a pattern (a Betza string may have several)."""
        if isinstance(pattern, S.BetzaPattern):
            return [(betza_motion(a), a.modality, atom_options(a)) for a in parse_betza(pattern.text)]
        return [(self.render(pattern), None, [])]

    def _BetzaPattern(self, pattern: S.BetzaPattern) -> str:
        return join([m for m, _, _ in self.motions(pattern)], "or")

    def _StepPattern(self, pattern: S.StepPattern) -> str:
        return f"steps one cell {directions_phrase(pattern.dirs, self.families)}"

    def _RidePattern(self, pattern: S.RidePattern) -> str:
        limit = f"up to {number(pattern.range)}" if pattern.range else "any number of"
        return f"slides {limit} cells {directions_phrase(pattern.dirs, self.families)}, over empty cells"

    def _LeapPattern(self, pattern: S.LeapPattern) -> str:
        board = self.spec.board
        if isinstance(board.generator, S.HexGen) and pattern.symmetry == "none":
            steps = hex_steps_phrase(pattern.offsets)
            if steps is not None:
                return steps
            return offsets_phrase(pattern.offsets, pattern.symmetry, "files to the right, half-cells forward")
        return offsets_phrase(pattern.offsets, pattern.symmetry)

    def _HopPattern(self, pattern: S.HopPattern) -> str:
        return (f"hops {directions_phrase(pattern.dirs, self.families)} along a line: it must jump over "
                "exactly one piece (the hurdle), then goes to any empty cell beyond it or captures the "
                "first piece beyond it")

    def _KindSet(self, kinds: S.KindSet) -> str:
        names = join([article(n) for n in kinds.names], "or")
        return f"any piece but {names}" if kinds.negated else names

    def _HurdleSpec(self, hurdle: S.HurdleSpec) -> str:
        """What a hopper may jump over: "the piece it jumps over must be an enemy piece"."""
        if hurdle.kinds is None:
            return {"any": "it may jump over any piece",
                    "own": "the piece it jumps over must be a piece of its own side",
                    "enemy": "the piece it jumps over must be an enemy piece"}[hurdle.side]
        owner = {"own": ", of its own side", "enemy": ", of the enemy", "any": ""}[hurdle.side]
        return f"the piece it jumps over must be {self.render(hurdle.kinds)}{owner}"

    def _Leg(self, leg: S.Leg) -> str:
        where = directions_phrase(leg.dirs, self.families)
        if leg.mode == "step":
            return f"one step {where}"
        limit = f"up to {number(leg.range)}" if leg.range else "any number of"
        return f"a slide of {limit} cells {where}"

    def _PathPattern(self, pattern: S.PathPattern) -> str:
        return "moves in legs: " + ", then ".join(self.render(leg) for leg in pattern.legs)

    def _ZigzagPattern(self, pattern: S.ZigzagPattern) -> str:
        limit = f", up to {number(pattern.range)} steps" if pattern.range else ""
        return (f"zig-zags, one step {directions_phrase(pattern.first, self.families)} and one step "
                f"{directions_phrase(pattern.second, self.families)} in turn, keeping the same two directions, "
                f"over empty cells{limit}")

    def _modality(self, *modalities: str | None) -> str:
        kinds = {m for m in modalities if m and m != "both"}
        if len(kinds) > 1:
            return "never (it cannot be both move-only and capture-only)"
        kind = kinds.pop() if kinds else "both"
        return {"both": "to an empty cell or to capture",
                "quiet": "only to an empty cell (no capture)",
                "capture": "only to capture"}[kind]

    def move_options(self, move: S.MoveSpec) -> list[str]:
        """The options of a move after its pattern, as phrases."""
        out = []
        if move.unmoved:
            out.append("only as the piece's first move")
        if move.lame:
            out.append("only if the cells it passes over are empty")
        if move.from_cells is not None:
            out.append(f"only from {self.render(move.from_cells)}")
        if move.to_cells is not None:
            out.append(f"only to {self.render(move.to_cells)}")
        if move.within is not None:
            out.append(f"only along lines that stay within {self.render(move.within)}")
        if move.once_per_game:
            out.append("only once per game")
        if move.royal_only:
            out.append("it captures only royal pieces this way (a threat that matters for check)")
        if move.condition is not None:
            out.append(f"only if {self.render(move.condition)}")
        if move.hurdle is not None:
            out.append(self.render(move.hurdle))
        if move.takes is not None:
            out.append(f"it captures {'' if move.takes.negated else 'only '}{self.render(move.takes)} by hopping")
        upper = (isinstance(move.condition, S.Compare) and isinstance(move.condition.left, S.Ref)
                 and move.condition.left.path == ["level"] and isinstance(move.condition.right, S.Str)
                 and move.condition.right.value == "upper")
        if move.en_passant and upper:
            out.append("en passant from the top of a stack lands on the cell an enemy piece has just passed over "
                       "and puts that piece back there, under it (an overlay en passant, not a capture)")
        elif move.en_passant:
            out.append("it may also capture en passant: move to the cell an enemy piece has just passed "
                       "over and capture that piece")
        if move.sets_en_passant:
            out.append("an enemy may capture it en passant on the cells it passed over, on the next turn only")
        if move.commits:
            out.append(f"its `{move.commits}` is narrowed to the directions for which this was a forward move")
        return out

    def _MoveSpec(self, move: S.MoveSpec) -> str:
        parts = []
        for motion, modality, options in self.motions(move.pattern):
            clauses = [f"{motion}, {self._modality(modality, move.modality)}", *options, *self.move_options(move)]
            parts.append(sentence("; ".join(clauses)))
        return " ".join(parts)

    def _PromotionSpec(self, promo: S.PromotionSpec) -> str:
        if promo.in_place is not None:
            return self._promotion_in_place(promo)
        choices = join([article(p) for p in promo.to], "or")
        must = "may promote" if promo.optional else "must promote"
        if len(promo.to) > 1:
            text = f"on arriving {self.on(promo.cells)} it {must} to a piece of its army, as its player chooses: {choices}"
        else:
            text = f"on arriving {self.on(promo.cells)} it {must} to {choices} of its army"
        if promo.optional:
            text += ", or stay as it is"
        if promo.leaving:
            text += "; it may also promote on a move that starts there"
        if promo.only_captured:
            text += "; it may only choose a kind of which its army has fewer pieces on the board than in the setup"
        text += self._promotion_limits(promo)
        if promo.on_capture_into is not None:
            text += (f"; it also promotes when a capture takes it into {self.render(promo.on_capture_into)} "
                     "from outside it")
        if promo.partner_pieces:
            text += "; the choices include the same kinds of a partner's army, and a piece so chosen joins that army"
        return text

    @staticmethod
    def _promotion_limits(promo: S.PromotionSpec) -> str:
        """The clauses of a promotion's ``limit P to N`` options."""
        return "".join(f"; it may choose {article(name)} only while its army has "
                       f"{f'no {name}' if limit == 1 else f'fewer than {limit}'} on the board"
                       for name, limit in promo.limits.items())

    def _promotion_in_place(self, promo: S.PromotionSpec) -> str:
        """A promotion made as a move of its own (``in place``)."""
        choices = join([article(p) for p in promo.to], "or")
        text = (f"instead of moving, standing {self.on(promo.cells)}, it may promote to {choices} of its army, "
                "as a move of its own")
        if promo.in_place == "moving":
            text += (", either where it stands or with one move of the new piece that captures nothing, "
                     "to an empty cell")
        else:
            text += ", where it stands"
        if promo.condition is not None:
            text += f"; only if {self.render(promo.condition)}"
        text += self._promotion_limits(promo)
        if promo.not_attacking:
            text += "; not when the new piece would attack an enemy piece"
        if promo.not_giving_check:
            text += "; not when the promotion gives check"
        return text

    def _PieceSpec(self, piece: S.PieceSpec) -> str:
        facts = [f"letter `{(piece.letter or piece.name[0]).upper()}`"]
        if piece.value is not None:
            facts.append(f"value {num(piece.value)}")
        if piece.notation_letter:
            facts.append(f"`{piece.notation_letter}` in the game's traditional notation")
        if piece.notation_glyph:
            facts.append(f"`{piece.notation_glyph}` in the Japanese notation")
        text = f"The {piece.name} ({', '.join(facts)})"
        text += "."
        if piece.royal:
            text += " " + self.royal_sentence(piece)
        if piece.neutral:
            text += " " + self.neutral_sentence(piece)
        if piece.description:
            text += " " + sentence(piece.description)
        text += "".join(" " + self.render(m) for m in piece.moves) or ("" if piece.neutral else " It has no moves of its own.")
        text += "".join(" " + sentence(self.render(p)) for p in piece.promotions)
        if piece.unmoved_lost_aimed_by is not None:
            text += " " + self.aimed_loss_sentence(piece)
        return text

    def aimed_loss_sentence(self, piece: S.PieceSpec) -> str:
        """``unmoved lost when aimed by KINDS`` as a sentence: "The King loses its first moves, ..."."""
        assert piece.unmoved_lost_aimed_by is not None
        return sentence(f"The {piece.name} loses its first moves, as if it had moved, as soon as "
                        f"{self.render(piece.unmoved_lost_aimed_by)} of the enemy ends a move on a cell from which "
                        "it could capture it on an empty board, whatever stands between them")

    # ------------------------------------------------------------ castling
    def _CastleRule(self, rule: S.CastleRule, king: str = "king", rook: str = "rook") -> str:
        if rule.swap:
            moves = (f"the {king} and the {rook} exchange their cells, whatever stands between them and whether "
                     f"or not the cells between are attacked (only check before and after counts)")
        elif rule.rook_onto_king:
            to_file = f" to file `{rule.king_to_file}`" if rule.king_to_file else ""
            moves = f"the {king} moves{to_file} and the {rook} climbs onto it, forming a stack"
        elif rule.king_to_rank is not None or rule.rook_to_rank is not None:
            moves = join([f"the {king} moves to rank {rule.king_to_rank}" if rule.king_to_rank else "",
                          f"the {rook} to rank {rule.rook_to_rank}" if rule.rook_to_rank else ""])
        else:
            moves = join([f"the {king} moves to file `{rule.king_to_file}`" if rule.king_to_file else "",
                          f"the {rook} to file `{rule.rook_to_file}`" if rule.rook_to_file else ""])
        terms = [moves or f"the {king} and the {rook} castle"]
        sides = {"e": "on the east side of the {0} (towards higher files)",
                 "w": "on the west side of the {0} (towards lower files)",
                 "n": "on the north side of the {0} (towards higher ranks)",
                 "s": "on the south side of the {0} (towards lower ranks)"}
        stands = [self.on(rule.in_cells)] if rule.in_cells is not None else []   # one clause: where the rook is
        if rule.side:
            where = sides.get(rule.side, "on the " + rule.side + " side of the {0}").format(king)
            line = "file" if rule.side in ("n", "s") else "rank"
            stands.append(f"{where}, on its {line}")
        if stands:
            terms.append(f"the {rook} stands " + ", ".join(stands))
        if rule.ignore_path:
            terms.append("whatever stands between them")
        if rule.ignore_attacks:
            terms.append(f"even if the {king} is in check or passes over an attacked cell")
        return f"`{rule.notation}` ({pretty(rule.name)}): " + "; ".join(terms)

    def _CastlingSpec(self, castling: S.CastlingSpec) -> str:
        king, rook = castling.king, " or ".join(castling.rooks)
        rules = [sentence(self._CastleRule(r, king, rook)) for r in castling.rules]
        ways = f"in {number(len(rules))} way{'s' if len(rules) != 1 else ''}" if rules else "in no way yet"
        return (f"The {king} castles with a {' or a '.join(castling.rooks)} {ways}, as one move. Unless a rule says otherwise, neither "
                f"may have moved, the cells between them and their destinations must be empty, and the {king} "
                f"may not be in check, pass over an attacked cell or end in check. " + " ".join(rules)).strip()

    # ------------------------------------------------------------ stacking and drops
    def _target(self, inter: S.Interaction) -> str:
        if inter.target == "empty":
            return "an empty cell"
        if inter.target == "single":
            return f"{SIDES[inter.top or 'any']} lone piece".replace("any lone", "a lone")
        bottom, *middle, top = (SIDES[s or "any"].replace("any", "any piece").replace("its own", "its own piece")
                                .replace("an enemy", "an enemy piece") for s in (inter.bottom, *inter.middle, inter.top))
        if middle:
            return (f"a stack of {number(2 + len(middle))} with {bottom} at the bottom, "
                    f"{join(middle, 'then')} above it and {top} on top")
        if bottom == top:        # "a stack of two enemy pieces"
            return f"a stack of two {top.split(' ', 1)[1].replace('piece', 'pieces')}" if top != "any piece" \
                else "a stack"
        return f"a stack with {top} on top of {bottom}"

    def _interaction_parts(self, inter: S.Interaction) -> tuple[str, str, str]:
        """An interaction's sentence in three parts: who moves from where ("a piece standing alone (at
        ground level)"), onto what (the target) and what happens (how, if what, the outcome)."""
        who = f"a {join(inter.only, 'or')}" if inter.only else "a piece"
        level = "standing alone (at ground level)" if inter.level == "ground" else "on top of a stack (upper level)"
        using = {("capture",): ", with a capturing move", ("move",): ", with a non-capturing move",
                 ("capture", "move"): ", with any of its moves"}.get(tuple(sorted(inter.using)), "")
        condition = f", if {self.render(inter.condition)}," if inter.condition is not None else ""
        outcome = OUTCOMES.get(inter.outcome, f"has the outcome `{inter.outcome}`")
        return f"{who} {level}", self._target(inter), f"{using}{condition} {outcome}"

    def _Interaction(self, inter: S.Interaction) -> str:
        head, target, result = self._interaction_parts(inter)
        return f"{head} that moves onto {target}{result}"

    def _StackingSpec(self, stacking: S.StackingSpec) -> str:
        if stacking.height <= 1:
            text = "A cell holds at most one piece."
        else:
            text = (f"A cell may hold a stack of up to {number(stacking.height)} pieces. Only the top piece moves; "
                    "the pieces under it are locked: they neither move nor attack.")
        blockers = stacking.upper_blocked_by or ["stacks", "singles"]
        text += f" A piece on top of a stack is blocked by {join([BLOCKERS[b] for b in blockers], 'and')}."
        # One sentence per mover and level ("A piece standing alone ..."); targets with the same
        # result are joined ("onto its own lone piece or a stack of two own pieces, ... climbs").
        groups: dict[str, dict[str, list[str]]] = {}
        for inter in stacking.interactions:
            head, target, result = self._interaction_parts(inter)
            groups.setdefault(head, {}).setdefault(result, []).append(target)
        for head, cases in groups.items():
            onto = "; onto ".join(join(targets, "or") + result for result, targets in cases.items())
            text += " " + sentence(f"{head} that moves onto {onto}")
        return text

    def _DropRule(self, drop: S.DropRule) -> str:
        only = (self.zone_complement(drop.not_in[0].a)
                if len(drop.not_in) == 1 and drop.not_in[0].kind == "zone" else None)
        if only is not None:    # not in a zone of every cell but a few: only on those
            text = f"{article(drop.piece)} in hand may be dropped only on an empty cell of {only}"
        else:
            text = f"{article(drop.piece)} in hand may be dropped on any empty cell"
        if drop.not_in and only is None:
            text += " except " + join([self.render(t) for t in drop.not_in], "or")
        barred = [f"on a file that already holds a {drop.no_file_twin} of its army"] if drop.no_file_twin else []
        barred += [self.render(limit) for limit in drop.at_most]
        if barred:
            text += ", but not " + ", nor ".join(barred)
        if drop.no_mate:
            text += ", and not to give checkmate"
        if drop.condition is not None:
            text += f", and only if {self.render(drop.condition)}"
        if drop.unmoved_in is not None:
            text += (f"; dropped {self.on(drop.unmoved_in)} it counts as unmoved (it may make its first moves and "
                     "castle; a castling partner standing on its own such cell regains that right with it)")
        return text

    def _DropLimit(self, limit: S.DropLimit) -> str:
        pieces = f"{limit.count} {'piece' if limit.count == 1 else 'pieces'} of that kind"
        if limit.cells is None:
            return f"on a file where its army already has {pieces}"
        return f"{self.on(limit.cells)} while its army already has {pieces} there"

    def _GateRule(self, gate: S.GateRule) -> str:
        return (f"when a piece leaves {self.render(gate.cells)} on its first move, {article(join(gate.pieces, 'or'))} "
                "from the hand may enter on the cell it has just left, as part of the same move (gating); a cell "
                "can be gated on only while nothing has moved from or to it, and a castling may gate on the "
                "king's or the rook's cell")

    def _DropsSpec(self, drops: S.DropsSpec) -> str:
        if drops.captures_to_hand:
            text = "A captured piece goes to the hand of the army that captured it, and changes sides."
        else:
            text = "Captured pieces leave the game."
        if drops.demoted:
            text += " If it had promoted, it goes back to the kind it promoted from."
        if drops.drops:
            text += " Instead of moving, a player may drop a piece from its hand."
            text += "".join(" " + sentence(self.render(d)) for d in drops.drops)
        text += "".join(" " + sentence(self.render(g)) for g in drops.gates)
        if drops.must_drop:
            text += (" While a player has a legal drop it must drop: it moves a piece only when it can drop "
                     "nothing (the pieces in hand are placed first).")
        text += "".join(f" An army's {plural(name)}, on the board and in hand, must end half on dark and half on light "
                        f"cells: a {name} may not be dropped on a colour that already holds its half, nor another "
                        f"piece on the last free cell of a colour its {plural(name)} still need."
                        for name in drops.both_colours)
        text += " Pieces without a drop rule stay in hand" + (" until they enter by gating." if drops.gates else ".")
        if self._counts_pieces():
            text += " Where a rule counts the pieces of a kind an army has, those in its hand count too."
        return text

    def _counts_pieces(self) -> bool:
        """Does a rule of the variant count pieces of a kind (``count(P)``, ``enemy_count(P)``)?"""
        def calls(node) -> bool:
            if isinstance(node, S.Call) and node.name in ("count", "enemy_count"):
                return True
            return any(calls(c) for v in node.__dict__.values() for c in (v if isinstance(v, list) else [v])
                       if isinstance(c, S.Node))
        rules = [e.condition for e in self.spec.rules.ends]
        rules += [d.condition for d in (self.spec.drops.drops if self.spec.drops else []) if d.condition is not None]
        return any(calls(c) for c in rules)

    def _ExampleSpec(self, example: S.ExampleSpec) -> str:
        where = f"after `{example.moves}`" if example.moves else "in the start position"
        role = " (an example of a decision)" if example.decision else ""
        return f"{sentence(example.caption)} The position {where}, and the move `{example.show}` made there{role}."

    def _AiSpec(self, ai: S.AiSpec) -> str:
        if not ai.weights:
            return "The computer players weigh every term of their evaluation alike."
        weights = join([f"{AI_TERMS.get(name, name)} by {num(value)}" for name, value in ai.weights.items()])
        return f"The computer players weigh {weights} (1 is the usual weight); the rules are the same."
