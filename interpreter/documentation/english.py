"""Plain English for every node of the Spec.

:class:`English` renders any :mod:`dsl.spec` node as English text: a
method ``_NodeName`` per model class, found by :meth:`English.render`.
Expressions become clauses ("the side to move is in check and has no
legal move"), cell sets noun phrases, pieces and rules sentences.
:meth:`English.sections` turns a whole variant into titled sections of
paragraphs, the rules text of the generated documentation.

The text is plain English with two Markdown conventions the document
writers understand: names from the rules file in backticks, and nothing
else. A test walks every Spec model, every literal value and every
optional field, and fails on a missing rendering or on placeholder text.
"""

from __future__ import annotations

from dsl import spec as S
from dsl.betza import parse_betza

from .phrases import (
    AI_TERMS, ARITHMETIC, BLOCKERS, CALLS, CELL_PROPERTIES, CLAUSE_NAMES, COMPARISONS, FORBIDDEN, NEGATED, NO_MOVES,
    NUMBER_CALLS, ONLY_ROYALS, OUTCOMES, REPETITION, RESULTS, SIDES, TEAM_RESULTS, VALUE_CLAUSES, VALUE_NAMES,
    ZERO_CLAUSES, article, num, ordinal, plural, pretty, sentence,
)
from interpreter.compiler.end_rules import trial_order

from .english_board import BoardEnglish
from .english_moves import (
    DIRECTION_WORDS, atom_options, betza_motion, directions_phrase, join, number, offsets_phrase,
)

CHECKMATED = "the side to move is checkmated (in check, with no legal move)"


def _is_check(node) -> bool:
    return isinstance(node, S.Ref) and node.path == ["in_check"]


def _no_moves(node) -> bool:
    return (isinstance(node, S.Compare) and isinstance(node.left, S.Ref) and node.left.path == ["legal_moves"]
            and isinstance(node.right, S.Num) and node.right.value == 0 and node.op in ("==", "<="))


def _mentions_mate(node) -> bool:
    """Does a condition require the side to move to be in check with no legal move (a mate)?"""
    if isinstance(node, S.BoolOp) and node.op == "and":
        return any(_is_check(o) for o in node.operands) and any(_no_moves(o) for o in node.operands)
    return False


# Words a shared opening of clauses may not end on: the clause's own words start there.
_OPEN_ENDINGS = {"no", "a", "an", "the", "its", "their", "not", "at", "on", "in", "of", "to", "more", "less", "than"}


def _merged_clauses(parts: list[str]) -> list[str]:
    """Clauses joined by one ``and``/``or``, with the words they all open with said once, and the
    words they all end with said at the end only: "the enemy armies have no King left, the enemy
    armies have no Queen left" becomes "the enemy armies have no King, no Queen left". Else each
    clause that repeats the subject of the one before (``the side to move``, then ``is`` or
    ``has``) drops it: "the side to move is in check and has no legal move"."""
    words = [p.split() for p in parts]
    if len(parts) > 1 and not any(p.startswith("(") for p in parts):
        n = 0
        while all(len(w) > n + 1 and w[n] == words[0][n] for w in words):
            n += 1
        while n and words[0][n - 1] in _OPEN_ENDINGS:
            n -= 1
        if n >= 2:
            tail = 0
            while all(len(w) > n + tail + 1 and w[-1 - tail] == words[0][-1 - tail] for w in words):
                tail += 1
            body = [" ".join(w[n:len(w) - tail]) for w in words[:-1]] + [" ".join(words[-1][n:])]
            return [" ".join(words[0][:n]) + " " + body[0]] + body[1:]
    subject = "the side to move "
    out = list(parts)
    for i in range(1, len(parts)):
        if parts[i - 1].startswith(subject) and parts[i].startswith((subject + "is ", subject + "has ")):
            out[i] = parts[i][len(subject):]
    return out


def _per_side(node) -> int | None:
    """N when ``node`` is ``N * sides`` or ``sides * N`` (a clock limit counted in moves of each side)."""
    if not isinstance(node, S.Arith) or node.op != "*":
        return None
    for number, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(number, S.Num) and isinstance(other, S.Ref) and other.path == ["sides"]:
            return number.value
    return None


class English(BoardEnglish):
    """Renders Spec nodes as English; ``spec`` (the variant) supplies names, letters and zones."""

    def __init__(self, spec: S.VariantSpec | None = None, picture=None) -> None:
        """``picture``: for a direction name, where it points in the drawn board ("up and to the
        left"), or None where that is what the name says; without it directions are named only."""
        self.spec = spec or S.VariantSpec(name="game", title="Game")
        self.picture = picture
        self.titles = {a.name: a.title for a in self.spec.armies}
        self.letters = {(p.letter or p.name[0]).upper(): p.name for p in self.spec.pieces.values()}
        self.families = {f.name for f in self.spec.board.directions}

    # ------------------------------------------------------------ dispatch
    def render(self, node) -> str:
        """The English of any Spec node (a list renders its items joined with "and")."""
        if isinstance(node, list):
            return join([self.render(n) for n in node])
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise TypeError(f"no English rendering for {type(node).__name__}")
        return method(node)

    def army(self, name: str) -> str:
        return self.titles.get(name, name.capitalize())

    def piece(self, name: str, count: int = 1) -> str:
        return name if count == 1 else plural(name)

    # ------------------------------------------------------------ expressions
    def value(self, node) -> str:
        """An expression as a noun phrase (its value)."""
        if isinstance(node, S.Ref):
            return self._ref_value(node.path)
        if isinstance(node, (S.Num, S.Str, S.Arith, S.Neg)):
            return self.render(node)
        if isinstance(node, S.Call) and node.name in NUMBER_CALLS:
            first = self._argument(node.args[0]) if node.args else "pieces"
            return NUMBER_CALLS[node.name].format(arg=first, args=plural(first))
        return f"whether {self.render(node)}"

    def _ref_value(self, path: list[str]) -> str:
        if len(path) == 1:
            name = path[0]
            if name in VALUE_NAMES:
                return VALUE_NAMES[name]
            if name in CLAUSE_NAMES:
                return f"whether {CLAUSE_NAMES[name][0]}"
            return f"the cell's `{name}` attribute"
        cell = {"from": "the start cell", "to": "the destination cell"}.get(path[0], f"`{path[0]}`")
        prop = CELL_PROPERTIES.get(path[-1], f"`{path[-1]}` attribute")
        return f"the {prop} of {cell}"

    def _Num(self, node: S.Num) -> str:
        return str(node.value)

    def _Str(self, node: S.Str) -> str:
        return f'"{node.value}"'

    def _Ref(self, node: S.Ref) -> str:
        if len(node.path) == 1 and node.path[0] in CLAUSE_NAMES:
            return CLAUSE_NAMES[node.path[0]][0]
        return f"{self._ref_value(node.path)} holds"

    def _Call(self, node: S.Call) -> str:
        return self._call(node, negated=False)

    def _call(self, node: S.Call, negated: bool) -> str:
        args = [self._argument(a) for a in node.args]
        if node.name not in CALLS:
            return f"`{node.name}({', '.join(args)})` {'does not hold' if negated else 'holds'}"
        first = args[0] if args else "it"
        template = CALLS[node.name][1 if negated else 0]
        return template.format(arg=first, args=plural(first))

    def _argument(self, node) -> str:
        if isinstance(node, S.Ref) and len(node.path) == 1:
            return pretty(node.path[0])
        return self.value(node)

    def _Not(self, node: S.Not) -> str:
        inner = node.operand
        if isinstance(inner, S.Ref) and len(inner.path) == 1 and inner.path[0] in CLAUSE_NAMES:
            return CLAUSE_NAMES[inner.path[0]][1]
        if isinstance(inner, S.Compare):
            return self._Compare(inner.model_copy(update={"op": NEGATED[inner.op]}))
        if isinstance(inner, S.Call):
            return self._call(inner, negated=True)
        return f"it is not the case that {self.render(inner)}"

    def _BoolOp(self, node: S.BoolOp) -> str:
        operands = list(node.operands)
        parts = []
        if node.op == "and" and any(_is_check(o) for o in operands) and any(_no_moves(o) for o in operands):
            operands = [o for o in operands if not _is_check(o) and not _no_moves(o)]
            parts.append(CHECKMATED)                        # in check and no legal move: one word for it
        parts += [f"({self.render(o)})" if isinstance(o, S.BoolOp) else self.render(o) for o in operands]
        return join(_merged_clauses(parts), node.op)

    def _Compare(self, node: S.Compare) -> str:
        left, right, op = node.left, node.right, node.op
        if isinstance(left, S.Ref) and len(left.path) == 1 and isinstance(right, S.Str) and op in ("==", "!=") \
                and (left.path[0], right.value) in VALUE_CLAUSES:
            clause = VALUE_CLAUSES[left.path[0], right.value][0 if op == "==" else 1]
            return clause.format(royal=self.royal_name())
        if isinstance(left, S.Ref) and len(left.path) == 1 and op == "==":
            if isinstance(right, S.Num) and right.value == 0 and left.path[0] in ZERO_CLAUSES:
                return ZERO_CLAUSES[left.path[0]]
            if isinstance(right, S.Ref) and (left.path[0], right.path[-1]) in ONLY_ROYALS:
                return ONLY_ROYALS[left.path[0], right.path[-1]]
        if isinstance(left, S.Ref) and left.path == ["legal_moves"] and isinstance(right, S.Num) and right.value == 0:
            if op in ("==", "<="):
                return "the side to move has no legal move"
            if op in ("!=", ">"):
                return "the side to move has a legal move"
        if isinstance(left, S.Call) and left.name in NUMBER_CALLS and isinstance(right, S.Num) and right.value == 0 \
                and op in ("==", "<=", "!=", ">"):
            return self._call(left, negated=op in ("==", "<="))   # "the side to move has no Queen left"
        if isinstance(left, S.Ref) and left.path == ["clock"] and _per_side(right) is not None:
            # clock >= 50 * sides: "50 moves by each side", whatever the number of sides.
            return f"{self.value(left)} {COMPARISONS[op]} {_per_side(right)} moves by each side"
        text = f"{self.value(left)} {COMPARISONS[op]} {self.value(right)}"
        if isinstance(left, S.Ref) and left.path == ["clock"] and isinstance(right, S.Num):
            # Moves by each side, when every mode has the same number of turns in a round.
            default = len(self.spec.turn or self.spec.armies) or 1
            rounds = {len(m.turn) if m.turn else default for m in self.spec.modes} or {default}
            sides = rounds.pop() if len(rounds) == 1 else 0
            text += f" plies ({right.value // sides} moves by each army)" if sides and right.value % sides == 0 \
                else " plies"
        if isinstance(left, S.Ref) and left.path == ["repetitions"] and isinstance(right, S.Num):
            text += " (this occurrence included)"
        return text

    def _Arith(self, node: S.Arith) -> str:
        return ARITHMETIC[node.op].format(self.value(node.left), self.value(node.right))

    def _Neg(self, node: S.Neg) -> str:
        return f"minus {self.value(node.operand)}"

    # ------------------------------------------------------------ cells
    def _CellTerm(self, term: S.CellTerm) -> str:
        kind = term.kind
        if kind == "named":
            return f"`{term.a}`"
        if kind == "rect":
            return f"the rectangle from `{term.a}` to `{term.b}`"
        if kind == "rank":
            return f"rank {term.lo}"
        if kind == "ranks":
            every = f", every {ordinal(term.step)} rank" if term.step > 1 else ""
            return f"ranks {term.lo} to {term.hi}{every}"
        if kind == "file":
            return f"file `{term.a}`"
        if kind == "files":
            return f"files `{term.a}` to `{term.b}`"
        if kind == "type":
            return f"the cells of type `{term.a}`"
        if kind == "zone":
            zone = self.spec.board.zones.get(term.a)
            if zone is not None and zone.shared is None:
                return f"its army's {pretty(term.a)} zone"
            return f"the {pretty(term.a)} zone"
        if kind == "all":
            return "every cell"
        return f"the cells where {self.render(term.expr) if term.expr is not None else 'a condition holds'}"

    def _CellSet(self, cells: S.CellSet) -> str:
        text = join([self.render(t) for t in cells.include])
        if cells.exclude:
            text += " except " + join([self.render(t) for t in cells.exclude])
        return text

    # ------------------------------------------------------------ armies
    def _ArmySpec(self, army: S.ArmySpec) -> str:
        facts = []
        if army.letter_case:
            facts.append(f"its pieces are written in {army.letter_case} case")
        if army.prefix:
            facts.append(f"its pieces are written with the prefix `{army.prefix}` (as in `{army.prefix}K`)")
        forward = f"its forward direction is {DIRECTION_WORDS.get(army.forward or 'n', army.forward)}"
        if any(p.facing and p.army == army.name for p in self.spec.setup.places):
            forward += " (for the pieces the setup places without a facing of their own)"
        facts.append(forward)
        if army.colour:
            facts.append(f"its pieces are drawn in `{army.colour}`")
        return f"{army.title}: " + join(facts)

    def forward_pieces(self, army: S.ArmySpec) -> list[str]:
        """The pieces whose moves the army's forward direction decides: those that move by
        forward-relative directions, unless the setup gives each of them of this army a facing of
        its own (then its forward direction decides nothing); in declaration order."""
        relative = []
        for piece in self.spec.pieces.values():
            for move in piece.moves:
                if isinstance(move.pattern, S.BetzaPattern):
                    turned = any({(x, -y) for x, y in a.vectors} != set(a.vectors) for a in parse_betza(move.pattern.text))
                else:
                    turned = bool(set(getattr(move.pattern, "dirs", ()) or ()) & {"forward", "backward", "left", "right"})
                if turned:
                    relative.append(piece.name)
                    break
        places = [p for p in self.spec.setup.places if p.army == army.name and p.piece in relative]
        return relative if not places or any(not p.facing for p in places) else []

    def army_summary(self, army: S.ArmySpec) -> str:
        """An army as a player needs it: how its pieces are written, and which way is forward when
        that decides a move (named in the pictures too when they are drawn turned): "White's
        pieces are written in upper case, and forward, for its Pawns, is north"."""
        facts = []
        if army.letter_case:
            facts.append(f"are written in {army.letter_case} case")
        if army.prefix:
            facts.append(f"are written with the prefix `{army.prefix}` (as in `{army.prefix}K`)")
        pieces = self.forward_pieces(army)
        named = join([plural(p) for p in pieces]) if len(pieces) <= 3 else "pieces whose moves depend on it"
        forward = f"forward, for its {named}, is {self.facing([army.forward or 'n'])}"
        if not facts and not pieces:
            return ""
        if not facts:
            return sentence(f"For {army.title}, {forward}")
        return sentence(f"{army.title}'s pieces {join(facts)}" + (f", and {forward}" if pieces else ""))

    def modes_summary(self) -> str:
        """The play modes, a sentence each: "In `4p` (4 players), player `south` plays White, ..."."""
        out = []
        for mode in self.spec.modes:
            facts = [f"player `{p}` plays {join([self.army(a) for a in armies])}"
                     for p, armies in mode.players.items()] or ["each army has its own player"]
            if mode.turn:
                facts.append(f"the turn order is {join([self.army(a) for a in mode.turn])}")
            facts += [f"the setting `{k}` is `{v}` unless changed" for k, v in mode.options.items()]
            title = f" ({mode.title})" if mode.title else ""
            out.append(sentence(f"In `{mode.name}`{title}, " + join(facts)))
        return " ".join(out)

    def _TeamSpec(self, team: S.TeamSpec) -> str:
        return f"{join([self.army(a) for a in team.armies])} play together as the team `{team.name}`"

    def _ModeSpec(self, mode: S.ModeSpec) -> str:
        facts = [f"player `{p}` plays {join([self.army(a) for a in armies])}" for p, armies in mode.players.items()]
        if not mode.players:
            facts.append("each army has its own player")
        if mode.turn:
            facts.append(f"the turn order is {join([self.army(a) for a in mode.turn])}")
        facts += [f"the setting `{k}` is `{v}` unless changed" for k, v in mode.options.items()]
        title = f" ({mode.title})" if mode.title else ""
        return f"the mode `{mode.name}`{title}: " + "; ".join(facts)

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
        return offsets_phrase(pattern.offsets, pattern.symmetry)

    def _HopPattern(self, pattern: S.HopPattern) -> str:
        return (f"hops {directions_phrase(pattern.dirs, self.families)} along a line: it must jump over "
                "exactly one piece (the hurdle), then goes to any empty cell beyond it or captures the "
                "first piece beyond it")

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
        if move.once_per_game:
            out.append("only once per game")
        if move.royal_only:
            out.append("it captures only royal pieces this way (a threat that matters for check)")
        if move.condition is not None:
            out.append(f"only if {self.render(move.condition)}")
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
        choices = join([article(p) for p in promo.to], "or")
        must = "may promote" if promo.optional else "must promote"
        text = f"on arriving in {self.render(promo.cells)} it {must} to {choices} of its army"
        if len(promo.to) > 1:
            text += ", as its player chooses"
        if promo.optional:
            text += ", or stay as it is"
        if promo.leaving:
            text += f"; it may also promote on a move that starts in {self.render(promo.cells)}"
        if promo.only_captured:
            text += "; it may only choose a kind of which its army has fewer pieces on the board than in the setup"
        for name, limit in promo.limits.items():
            text += f"; it may choose {article(name)} only while its army has fewer than {limit} on the board"
        if promo.on_capture_into is not None:
            text += (f"; it also promotes when a capture takes it into {self.render(promo.on_capture_into)} "
                     "from outside it")
        if promo.partner_pieces:
            text += "; the choices include the same kinds of a partner's army, and a piece so chosen joins that army"
        return text

    def _PieceSpec(self, piece: S.PieceSpec) -> str:
        facts = [f"letter `{(piece.letter or piece.name[0]).upper()}`"]
        if piece.value is not None:
            facts.append(f"value {num(piece.value)}")
        text = f"The {piece.name} ({', '.join(facts)})"
        text += "."
        if piece.royal:
            text += " " + self.royal_sentence(piece)
        if piece.description:
            text += " " + sentence(piece.description)
        text += "".join(" " + self.render(m) for m in piece.moves) or " It has no moves of its own."
        text += "".join(" " + sentence(self.render(p)) for p in piece.promotions)
        return text

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
        if rule.side:
            where = sides.get(rule.side, "on the " + rule.side + " side of the {0}").format(king)
            line = "file" if rule.side in ("n", "s") else "rank"
            terms.append(f"the {rook} stands {where}, on its {line}")
        if rule.in_cells is not None:
            terms.append(f"the {rook} stands in {self.render(rule.in_cells)}")
        if rule.ignore_path:
            terms.append("whatever stands between them")
        if rule.ignore_attacks:
            terms.append(f"even if the {king} is in check or passes over an attacked cell")
        return f"`{rule.notation}` ({pretty(rule.name)}): " + "; ".join(terms)

    def _CastlingSpec(self, castling: S.CastlingSpec) -> str:
        king, rook = castling.king, castling.rook
        rules = [sentence(self._CastleRule(r, king, rook)) for r in castling.rules]
        ways = f"in {number(len(rules))} way{'s' if len(rules) != 1 else ''}" if rules else "in no way yet"
        return (f"The {king} castles with a {rook} {ways}, as one move. Unless a rule says otherwise, neither "
                f"may have moved, the cells between them and their destinations must be empty, and the {king} "
                f"may not be in check, pass over an attacked cell or end in check. " + " ".join(rules)).strip()

    # ------------------------------------------------------------ stacking and drops
    def _target(self, inter: S.Interaction) -> str:
        if inter.target == "empty":
            return "an empty cell"
        if inter.target == "single":
            return f"{SIDES[inter.top or 'any']} lone piece".replace("any lone", "a lone")
        bottom, top = (SIDES[s or "any"].replace("any", "any piece").replace("its own", "its own piece")
                       .replace("an enemy", "an enemy piece") for s in (inter.bottom, inter.top))
        return f"a stack with {bottom} at the bottom and {top} on top"

    def _Interaction(self, inter: S.Interaction) -> str:
        who = f"a {join(inter.only, 'or')}" if inter.only else "a piece"
        level = "standing alone (at ground level)" if inter.level == "ground" else "on top of a stack (upper level)"
        using = {("capture",): ", with a capturing move", ("move",): ", with a non-capturing move",
                 ("capture", "move"): ", with any of its moves"}.get(tuple(sorted(inter.using)), "")
        condition = f", if {self.render(inter.condition)}" if inter.condition is not None else ""
        outcome = OUTCOMES.get(inter.outcome, f"has the outcome `{inter.outcome}`")
        return f"{who} {level} that moves onto {self._target(inter)}{using}{condition} {outcome}"

    def _StackingSpec(self, stacking: S.StackingSpec) -> str:
        if stacking.height <= 1:
            text = "A cell holds at most one piece."
        else:
            text = (f"A cell may hold a stack of up to {number(stacking.height)} pieces. Only the top piece moves; "
                    "the pieces under it are locked: they neither move nor attack.")
        blockers = stacking.upper_blocked_by or ["stacks", "singles"]
        text += f" A piece on top of a stack is blocked by {join([BLOCKERS[b] for b in blockers], 'and')}."
        groups: dict[str, list[str]] = {}    # one sentence per mover and level: "A piece standing alone ..."
        for inter in stacking.interactions:
            rendered = self.render(inter)
            head, _, rest = rendered.partition(" that moves onto ")
            groups.setdefault(head, []).append(rest)
        for head, cases in groups.items():
            text += " " + sentence(f"{head} that moves onto " + "; onto ".join(cases))
        return text

    def _DropRule(self, drop: S.DropRule) -> str:
        text = f"a {drop.piece} in hand may be dropped on any empty cell"
        if drop.not_in:
            text += " except " + join([self.render(t) for t in drop.not_in], "or")
        if drop.no_file_twin:
            text += f", but not on a file that already holds a {drop.no_file_twin} of its army"
        if drop.no_mate:
            text += ", and not to give checkmate"
        if drop.condition is not None:
            text += f", and only if {self.render(drop.condition)}"
        return text

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
        text += " Pieces without a drop rule stay in hand" + (" until they enter by gating." if drops.gates else ".")
        if self._counts_pieces():
            text += " Where a rule counts the pieces of a kind an army has, those in its hand count too."
        return text

    def _counts_pieces(self) -> bool:
        """Does a rule of the variant count pieces of a kind (``count(P)``, ``enemy_count(P)``)?"""
        def calls(node) -> bool:
            if isinstance(node, S.Call) and node.name in NUMBER_CALLS:
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

    # ------------------------------------------------------------ rules
    def result(self, result: str) -> str:
        """What a result means for the side to move (its partners share it in a game with teams)."""
        return (TEAM_RESULTS if self.spec.teams else RESULTS)[result]

    def _EndRule(self, rule: S.EndRule) -> str:
        title = rule.title or pretty(rule.name)
        result, condition = self.result(rule.result), self.render(rule.condition)
        subject = "the side to move "
        if result.startswith(subject) and condition.startswith(subject):   # "... loses when it is checkmated"
            condition = "it " + condition[len(subject):]
        condition = condition.replace("the side to move's ", "its ")
        return f"**{title[0].upper() + title[1:]}**: {result} when {condition}"

    def royal_name(self) -> str:
        """The name of the royal piece when the game has one kind of it, else "royal piece"."""
        royal = [p.name for p in self.spec.pieces.values() if p.royal]
        return royal[0] if len(royal) == 1 else "royal piece"

    def royal_sentence(self, piece: S.PieceSpec) -> str:
        """What being royal means in this game, from its rules (no word that the rules make false):
        whether it may be left in check, whether it is captured, how mate ends the game."""
        if not piece.royal:
            return ""
        rules = self.spec.rules
        facts = []
        if "self-check" in rules.forbid:
            facts.append("a move may not leave it in check")
        elif "giving-check" in rules.forbid:
            facts.append("no move may attack it")
        if "royal-capture" in rules.forbid:
            facts.append("it is never captured")
        mates = [r for r in rules.ends if _mentions_mate(r.condition)]
        if any(r.result == "loss" for r in mates):
            facts.append("its army loses when it is checkmated (see how the game ends)")
        elif any(r.result == "win" for r in mates):
            facts.append("its army wins when it is checkmated (see how the game ends)")
        if any(m.action == "remove-royal" for m in rules.no_moves):
            facts.append("when it is checkmated it is removed from the board, as its army's move")
        if not facts:
            facts.append("an enemy piece attacking it gives check, which the end rules may count")
        return sentence(f"The {piece.name} is royal: " + join(facts))

    def signature(self, text: str) -> str:
        """A material signature (``KB*``) in words: a King and any number of Bishops."""
        parts = []
        i = 0
        while i < len(text):
            letter = text[i]
            name = self.letters.get(letter.upper(), f"piece `{letter}`")
            if i + 1 < len(text) and text[i + 1] == "*":
                parts.append(f"any number of {plural(name)}")
                i += 2
            else:
                parts.append(article(name))
                i += 1
        return join(parts) or "nothing"

    def _InsufficientRule(self, rule: S.InsufficientRule) -> str:
        text = f"{self.signature(rule.first)} against {self.signature(rule.second)}"
        if rule.condition is not None:
            text += f", when {self.render(rule.condition)}"
        return text

    def _NoMovesRule(self, rule: S.NoMovesRule) -> str:
        condition = f" and {self.render(rule.condition)}" if rule.condition is not None else ""
        return f"when the side to move has no legal move{condition}, {NO_MOVES[rule.action]}"

    def _clock(self, events: list[str]) -> str:
        if not events:
            return "The halfmove clock counts every ply (a move by one army); nothing resets it."
        words = [e if e in ("capture", "promotion") else f"{e} move" for e in events]
        return (f"The halfmove clock counts the plies (moves by one army) since the last {join(words, 'or')}, "
                "and starts again from zero after one.")

    def rule_sections(self, rules: S.RulesSpec) -> list[tuple[str, list[str]]]:
        """The rules block as titled sections: legality, the end of the game, clock and repetition, material."""
        royal = [p.name for p in self.spec.pieces.values() if p.royal]
        legality = [sentence(f"The {join(royal, 'and')} {'is' if len(royal) == 1 else 'are'} royal: "
                             "a royal piece attacked by an enemy piece is in check")] if royal else []
        if rules.royal_check == "all":
            legality.append("An army with several royal pieces is in check only when all of them are attacked at "
                            "once: a move may leave one of them attacked, and it may be captured.")
        legality += [FORBIDDEN[f] for f in rules.forbid]
        explosion = rules.explosion
        if explosion is not None:
            spared = f", except {join([plural(p) for p in explosion], 'and')}" if explosion else ""
            legality.append(f"Captures explode: the capturing piece, the captured piece and every piece on a cell "
                            f"next to the capture are removed{spared}.")
        if rules.compulsory_capture:
            legality.append("Capturing is compulsory: when the side to move can capture (en passant included), "
                            "it must make a capturing move.")
        if not legality:
            legality.append("No move is forbidden for the sake of a royal piece.")
        ending = ["At the start of every turn the end rules are tried in this order; the first that holds "
                  "ends the game."] if rules.ends else ["No end rule is given."]
        ending += [sentence(self.render(r)) for r in trial_order(rules.ends)]
        if rules.no_moves:     # one sentence: the first rule that applies decides
            cases = []
            for rule in rules.no_moves:
                condition = self.render(rule.condition).replace("the side to move ", "it ") \
                    if rule.condition is not None else ""
                case = f"if {condition}, {NO_MOVES[rule.action]}" if condition else NO_MOVES[rule.action]
                cases.append(case)
            ending.append(sentence("When the side to move has no legal move, " + "; otherwise, ".join(cases)))
        if rules.resign == "remove-royal":
            ending.append("A player who resigns does not end the game: the royal pieces of the armies it moves "
                          "leave the board as its move, and the armies play on for their partners (an army "
                          "without a royal piece left loses by resigning).")
        counting = [self._clock(rules.clock_resets), REPETITION]
        checks = rules.count_checks
        if checks is not None:
            counting.append(f"Every check an army gives is counted; the target is {checks} checks."
                            if checks else "Every check an army gives is counted.")
        sections = [("Check and legality", legality), ("End of the game", ending),
                    ("Clock and repetition", counting)]
        if rules.insufficient:
            sections.append(("Insufficient material", [
                "The material is insufficient to win when the pieces on the board are, for the two sides "
                "in either order, " + "; ".join(self.render(r) for r in rules.insufficient) + "."]))
        return sections

    def _RulesSpec(self, rules: S.RulesSpec) -> str:
        return " ".join(p for _, paragraphs in self.rule_sections(rules) for p in paragraphs)

    # ------------------------------------------------------------ setup and variant
    def facing(self, directions: list[str]) -> str:
        """Directions a piece faces, named on the board and, where the pictures are turned, in them:
        "east (up and to the left in the pictures)"."""
        words = []
        for d in directions:
            seen = self.picture(d) if self.picture else None
            words.append(DIRECTION_WORDS.get(d, d) + (f" ({seen} in the pictures)" if seen else ""))
        return join(words, "or")

    def _Place(self, place: S.Place) -> str:
        facing = f", facing {self.facing(place.facing)}" if place.facing else ""
        single = len(place.cells.include) == 1 and place.cells.include[0].kind == "named" and not place.cells.exclude
        pieces = place.piece if single else plural(place.piece)
        return f"{self.army(place.army)} {pieces} on {self.render(place.cells)}{facing}"

    def setup_summary(self) -> str:
        """The start position army by army: "White: King on `e1`; Pawns on rank 2." (one sentence each)."""
        setup = self.spec.setup
        if setup.fen is not None or not setup.places:
            return self.render(setup)
        by_army: dict[str, list[str]] = {}
        for place in setup.places:
            single = len(place.cells.include) == 1 and place.cells.include[0].kind == "named" \
                and not place.cells.exclude
            facing = f", facing {self.facing(place.facing)}" if place.facing else ""
            by_army.setdefault(place.army, []).append(
                f"{place.piece if single else plural(place.piece)} on {self._compact(place.cells)}{facing}")
        text = " ".join(sentence(f"{self.army(army)}: " + "; ".join(items)) for army, items in by_army.items())
        for shuffle in setup.shuffles:
            text += " " + sentence(f"For a shuffled start, {self.render(shuffle)}; the position above is the "
                                   "default array")
        return text

    def _ShuffleRule(self, rule: S.ShuffleRule) -> str:
        if rule.kind == "colours":
            return f"the {plural(rule.piece)} stand on cells of both colours"
        return f"the {rule.piece} stands between the outermost {plural(rule.other or rule.piece)}, by file"

    def _ShuffleSpec(self, shuffle: S.ShuffleSpec) -> str:
        text = f"the pieces on {self.render(shuffle.cells)} may be shuffled into any arrangement"
        if shuffle.rules:
            text += " in which " + join([self.render(r) for r in shuffle.rules])
        if shuffle.mirror is not None:
            text += f"; {self.render(shuffle.mirror)} then gets the same pieces, file by file"
        return text

    def _SetupSpec(self, setup: S.SetupSpec) -> str:
        if setup.fen is not None:
            text = f"The game starts from the position `{setup.fen}` (FEN)."
        elif setup.places:
            text = "The game starts with " + "; ".join(self.render(p) for p in setup.places) + "."
        else:
            text = "The game has no start position yet."
        for shuffle in setup.shuffles:
            text += " " + sentence(f"For a shuffled start, {self.render(shuffle)}; the position above is the "
                                   "default array")
        return text

    def turn_order(self) -> str:
        """Who moves first and how turns go round."""
        order = [self.army(a) for a in (self.spec.turn or [a.name for a in self.spec.armies])]
        if not order:
            return "No army takes turns yet."
        if len(order) == 2:
            return f"{order[0]} moves first; then {order[1]} and {order[0]} take turns, one move each."
        return f"{order[0]} moves first, then {join(order[1:])}, in this order, one move each, round and round."

    def en_passant(self) -> str:
        """A paragraph on en passant when some move sets or takes it, naming the pieces; else ''."""
        pieces = self.spec.pieces.values()
        setters = [p.name for p in pieces if any(m.sets_en_passant for m in p.moves)]
        takers = [p.name for p in pieces if any(m.en_passant for m in p.moves)]
        if not setters and not takers:
            return ""
        setters_text = join([article(n) for n in setters], "or") or "no piece"
        takers_text = join([plural(n) for n in takers], "and") or "no piece"
        return (f"When {setters_text} makes a move marked as setting en passant (see its moves), the cells "
                "it passed over become en passant targets until the next army has moved. If that army is an "
                f"enemy, its {takers_text} may capture en passant: move to a target cell, as if to capture there, "
                "and capture the piece that passed over it.")

    def _VariantSpec(self, spec: S.VariantSpec) -> str:
        english = English(spec) if spec is not self.spec else self
        return "\n\n".join(f"{title}\n\n" + "\n\n".join(paragraphs) for title, paragraphs in english.sections())

    def special_sections(self) -> list[tuple[str, list[str]]]:
        """The special moves, each ``(title, paragraphs)``: castling, en passant, promotion, stacking,
        drops, facings and once-per-game privileges, those the game has, in that order."""
        spec = self.spec
        sections = []
        if spec.castling is not None:
            sections.append(("Castling", [self.render(spec.castling)]))
        en_passant = self.en_passant()
        if en_passant:
            sections.append(("En passant", [en_passant]))
        promoting = [p for p in spec.pieces.values() if p.promotions]
        if promoting:
            sections.append(("Promotion", [sentence(f"The {p.name}: " + "; ".join(self.render(r) for r in p.promotions))
                                           for p in promoting]))
        if spec.stacking is not None:
            sections.append(("Stacking", [self.render(spec.stacking)]))
        if spec.drops is not None:
            sections.append(("Drops", [self.render(spec.drops)]))
        if any(p.facing for p in spec.setup.places):
            sections.append(("Facings", [
                "Some pieces start facing a direction of their own, as the setup says: their forward is that "
                "direction. A piece that faces two ways moves as if it faced either, and a move of it marked "
                "as committing keeps only the directions for which that move was a forward one."]))
        privileged = [p.name for p in spec.pieces.values() if any(m.once_per_game for m in p.moves)]
        if privileged:
            sections.append(("Privileges", [sentence(
                f"The {join(privileged)} {'has' if len(privileged) == 1 else 'have'} a move that each of "
                "them may make only once in a game (marked in its moves); position notation records who "
                "still may")]))
        return sections

    def technical_sections(self) -> list[tuple[str, list[str]]]:
        """How the game is built, for the last part of a page: the board's construction (its direction
        tables and drawing coordinates) and the armies as the rules file declares them."""
        spec = self.spec
        return [("The board's construction", [self.render(spec.board)]),
                ("Armies", [sentence(self.render(a)) for a in spec.armies])]

    def sections(self) -> list[tuple[str, list[str]]]:
        """The whole variant in English: ``(title, paragraphs)`` per section, in the order of a
        rulebook: the game, the board, the pieces, the special moves, the end, the decisions,
        and last the technical details."""
        spec = self.spec
        intro = [sentence(spec.title)]
        if spec.description:
            intro.append(sentence(spec.description))
        if spec.source:
            intro.append(sentence(f"Source: {spec.source}"))
        if spec.family:
            intro.append(sentence(f"Family of variants: {spec.family}"))
        if spec.aliases:
            intro.append(sentence(f"Also called {join([f'`{a}`' for a in spec.aliases], 'or')}"))
        players = [self.army_summary(a) for a in spec.armies]
        players += [sentence(self.render(t)) for t in spec.teams]
        players.append(self.turn_order())
        players.append(self.modes_summary())
        players.append(self.setup_summary())
        sections = [("About", intro), ("The game", [p for p in players if p]),
                    ("The board", [self.board_summary()]),
                    ("Pieces", [self.render(p) for p in spec.pieces.values()])]
        sections += self.special_sections()
        sections += self.rule_sections(spec.rules)
        if spec.ai.weights:
            sections.append(("Computer players", [self.render(spec.ai)]))
        if spec.interpretations:
            sections.append(("Interpretations", [sentence(i) for i in spec.interpretations]))
        sections += self.technical_sections()
        return sections
