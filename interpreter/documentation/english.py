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

The renderings are grouped by the part of the Spec they describe: the board
(:mod:`.english_board`), pieces, castling, stacking and drops
(:mod:`.english_pieces`) and the end of the game (:mod:`.english_rules`) are
base classes of :class:`English`; expressions, cells, armies, setup and the
assembly of sections stay here.
"""

from __future__ import annotations

from dsl import spec as S
from dsl.betza import parse_betza

from interpreter.compiler.end_rules import is_check

from .english_board import BoardEnglish
from .english_moves import DIRECTION_WORDS, join
from .english_pieces import PieceEnglish
from .english_rules import RulesEnglish, no_moves
from .phrases import (
    ARITHMETIC, BOTH_SIDES, CALLS, CELL_PROPERTIES, CLAUSE_NAMES, COMPARISONS, NEGATED, NUMBER_CALLS, ONLY_ROYALS, VALUE_CLAUSES,
    VALUE_NAMES, ZERO_CLAUSES, article, ordinal, plural, pretty, sentence,
)

CHECKMATED = "the side to move is checkmated (in check, with no legal move)"
NOTATIONS = {   # a 'notation' declaration in words
    "wxf": "Besides SAN, moves can be shown in WXF notation, the World Xiangqi Federation's",
    "shogi": "Besides SAN, moves can be shown in the Western (Hodges) and the Japanese shogi notations",
    "san": "Moves are written in SAN only: the game declares no traditional notation",
}


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


class English(PieceEnglish, RulesEnglish, BoardEnglish):
    """Renders Spec nodes as English; ``spec`` (the variant) supplies names, letters and zones."""

    def __init__(self, spec: S.VariantSpec | None = None, picture=None) -> None:
        """``picture``: for a direction name, where it points in the drawn board ("up and to the
        left"), or None where that is what the name says; without it directions are named only."""
        self.spec = spec or S.VariantSpec(name="game", title="Game")
        self.picture = picture
        self.titles = {a.name: a.title for a in self.spec.armies}
        self.letters = {(p.letter or p.name[0]).upper(): p.name for p in self.spec.pieces.values()}
        self.families = {f.name for f in self.spec.board.directions}
        self.cell_formula = False
        """Rendering a ``where`` formula, whose names are all cell properties (``level`` too: a board's level)."""

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
            return NUMBER_CALLS[node.name].format(**self._call_words(node, NUMBER_CALLS[node.name]))
        return f"whether {self.render(node)}"

    def _ref_value(self, path: list[str]) -> str:
        if len(path) == 1:
            name = path[0]
            if self.cell_formula:
                return f"the cell's {CELL_PROPERTIES.get(name, f'`{name}` attribute')}"
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
        if node.name not in CALLS:
            args = [self._argument(a) for a in node.args]
            return f"`{node.name}({', '.join(args)})` {'does not hold' if negated else 'holds'}"
        template = CALLS[node.name][1 if negated else 0]
        text = template.format(**self._call_words(node, template))
        return text.replace("royal piece", self.royal_name()) if "{zone}" in template else text

    def _call_words(self, node: S.Call, template: str) -> dict[str, str]:
        """The words a call's template is filled with: ``arg``/``args`` (its first argument, singular and
        plural), ``zone`` (a zone first argument with its cells, when the template names it),
        ``piece``/``a_piece``/``pieces`` (the piece kinds after a zone, "piece" without any)."""
        args = [self._argument(a) for a in node.args]
        first = args[0] if args else "it"
        zone = ""
        if "{zone}" in template:
            name = node.args[0].path[0] if node.args and isinstance(node.args[0], S.Ref) else first
            zone = self.on(S.CellSet(include=[S.CellTerm(kind="zone", a=name)]))
        kinds = [a.path[0] for a in node.args[1:] if isinstance(a, S.Ref)] or ["piece"]
        return {"arg": first, "args": plural(first), "zone": zone, "piece": join(kinds, "or"),
                "a_piece": article(join(kinds, "or")), "pieces": join([plural(k) for k in kinds], "or")}

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

    def _both_sides(self, a, b) -> str | None:
        """One clause for a condition said of the side to move and of its enemies alike ("nothing but
        Kings is left on the board", "a King of each side stands in ..."), or None."""
        own_enemy = {(o, e) for (o, e) in BOTH_SIDES}
        for first, second in ((a, b), (b, a)):
            if isinstance(first, S.Compare) and isinstance(second, S.Compare) and first.op == second.op == "==":
                key = tuple(x.path[0] if isinstance(x, S.Ref) and len(x.path) == 1 else None
                            for x in (first.left, first.right, second.left, second.right))
                if ((key[0], key[2]) in own_enemy and (key[1], key[3]) in own_enemy
                        and (key[0], key[1]) in ONLY_ROYALS):
                    royal = self.royal_name()
                    return f"nothing but {plural(royal)} is left on the board"
            if isinstance(first, S.Call) and isinstance(second, S.Call) and \
                    (first.name, second.name) in own_enemy and \
                    [self._argument(x) for x in first.args] == [self._argument(x) for x in second.args]:
                return self._call(first, False).replace(" of the side to move ", " of each side ", 1)
        return None

    def _BoolOp(self, node: S.BoolOp) -> str:
        operands = list(node.operands)
        parts = []
        if node.op == "and" and any(is_check(o) for o in operands) and any(no_moves(o) for o in operands):
            operands = [o for o in operands if not is_check(o) and not no_moves(o)]
            parts.append(CHECKMATED)                        # in check and no legal move: one word for it
        if node.op == "and" and len(operands) == 2 and not parts:
            both = self._both_sides(*operands)
            if both is not None:
                return both
        exceptions = []
        if node.op == "and":     # "A and not (B and C)": "A, unless B and C"
            exceptions = [o.operand for o in operands if isinstance(o, S.Not) and isinstance(o.operand, S.BoolOp)]
            operands = [o for o in operands if not (isinstance(o, S.Not) and isinstance(o.operand, S.BoolOp))]
            if not operands and not parts:
                operands, exceptions = [S.Not(operand=e) for e in exceptions], []
        parts += [f"({self.render(o)})" if isinstance(o, S.BoolOp) else self.render(o) for o in operands]
        text = join(_merged_clauses(parts), node.op)
        return text + "".join(f", unless {self.render(e)}" for e in exceptions)

    def _Compare(self, node: S.Compare) -> str:
        left, right, op = node.left, node.right, node.op
        if isinstance(left, S.Ref) and len(left.path) == 1 and isinstance(right, S.Str) and op in ("==", "!=") \
                and (left.path[0], right.value) in VALUE_CLAUSES:
            clause = VALUE_CLAUSES[left.path[0], right.value][0 if op == "==" else 1]
            return clause.format(royal=self.royal_name())
        if isinstance(left, S.Ref) and left.path == ["army"] and isinstance(right, S.Str) and op in ("==", "!="):
            return f"{self.army(right.value)} {'is' if op == '==' else 'is not'} to move"
        if isinstance(left, S.Ref) and len(left.path) == 1 and op == "==":
            if isinstance(right, S.Num) and right.value == 0 and left.path[0] in ZERO_CLAUSES:
                return ZERO_CLAUSES[left.path[0]]
            if isinstance(right, S.Ref) and (left.path[0], right.path[-1]) in ONLY_ROYALS:
                return ONLY_ROYALS[left.path[0], right.path[-1]]
        if isinstance(left, S.Ref) and isinstance(right, S.Ref) and op in (">", "!=") and len(left.path) == 1 \
                and (left.path[0], right.path[-1]) in ONLY_ROYALS:    # "has a piece left besides its King"
            return ONLY_ROYALS[left.path[0], right.path[-1]].replace("nothing left but", "a piece left besides")
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
                return self.zone_cells(term.a)
            return f"the {pretty(term.a)} zone" + (f" ({self.zone_cells(term.a)})" if zone is not None else "")
        if kind == "all":
            return "every cell"
        if term.expr is None:
            return "the cells where a condition holds"
        self.cell_formula = True
        try:
            return f"the cells where {self.render(term.expr)}"
        finally:
            self.cell_formula = False

    def _CellSet(self, cells: S.CellSet) -> str:
        text = join(self._cell_terms(cells.include))
        if cells.exclude:
            text += " except " + join(self._cell_terms(cells.exclude))
        return text

    def _cell_terms(self, terms: list[S.CellTerm]) -> list[str]:
        """The terms of a cell set in words; rectangles in a row are named together ("the rectangles
        `a1`–`c3` and `l1`–`n3`"), so that a long list does not repeat "the rectangle from"."""
        parts: list[str] = []
        run: list[S.CellTerm] = []
        for term in [*terms, None]:
            if term is not None and term.kind == "rect":
                run.append(term)
                continue
            if len(run) > 1:
                parts.append("the rectangles " + join([f"`{t.a}`–`{t.b}`" for t in run]))
            elif run:
                parts.append(self.render(run[0]))
            run = []
            if term is not None:
                parts.append(self.render(term))
        return parts

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
            teams = {t.name: t for t in self.spec.teams}
            plays = [f"player `{p}` plays " + join([
                f"the team {self.army(a)} ({join([self.army(x) for x in teams[a].armies])})" if a in teams
                else self.army(a) for a in armies]) for p, armies in mode.players.items()]
            facts = [join(plays) or "each army has its own player"]
            if mode.turn:
                facts.append(self.mode_turns(mode.turn))
            facts += [f"the option `{k}` is `{v}` unless the players choose otherwise" for k, v in mode.options.items()]
            title = f" ({mode.title})" if mode.title else ""
            out.append(sentence(f"In `{mode.name}`{title}, " + "; ".join(facts)))
        return " ".join(out)

    def mode_turns(self, turn: list[str]) -> str:
        """A mode's own turn order as a player says it: "the turn goes to Light (White and Tan), then
        to Dark (Black and Brown), and round again; a team's turn is one move with a piece of any of
        its armies"."""
        teams = {t.name: t for t in self.spec.teams}
        names = [f"{self.army(a)} ({join([self.army(x) for x in teams[a].armies])})" if a in teams
                 else self.army(a) for a in turn]
        text = f"the turn goes to {names[0]}" + "".join(f", then to {n}" for n in names[1:]) + ", and round again"
        if any(a in teams for a in turn):
            text += "; a team's turn is one move with a piece of any of its armies"
        return text

    def _TeamSpec(self, team: S.TeamSpec) -> str:
        return f"{join([self.army(a) for a in team.armies])} play together as the team `{team.name}`"

    def _ModeSpec(self, mode: S.ModeSpec) -> str:
        facts = [f"player `{p}` plays {join([self.army(a) for a in armies])}" for p, armies in mode.players.items()]
        if not mode.players:
            facts.append("each army has its own player")
        if mode.turn:
            facts.append(self.mode_turns(mode.turn))
        facts += [f"the setting `{k}` is `{v}` unless changed" for k, v in mode.options.items()]
        title = f" ({mode.title})" if mode.title else ""
        return f"the mode `{mode.name}`{title}: " + "; ".join(facts)

    # ------------------------------------------------------------ setup and variant
    def facing(self, directions: list[str], pictured: bool = True) -> str:
        """Directions a piece faces, named on the board and, where the pictures are turned and
        ``pictured``, in them: "east (up and to the left in the pictures)"."""
        words = []
        for d in directions:
            seen = self.picture(d) if self.picture and pictured else None
            words.append(DIRECTION_WORDS.get(d, d) + (f" ({seen} in the pictures)" if seen else ""))
        return join(words, "or")

    def facings_in_pictures(self, directions: list[str]) -> str:
        """One sentence for the facings of a list, said once: "In the pictures, east points up and to
        the left, ..." ('' when the pictures are not turned)."""
        seen = [(d, self.picture(d)) for d in dict.fromkeys(directions)] if self.picture else []
        seen = [(d, where) for d, where in seen if where]
        if not seen:
            return ""
        words = [f"{DIRECTION_WORDS.get(d, d)}{' points' if i == 0 else ''} {where}" for i, (d, where) in enumerate(seen)]
        return sentence("In the pictures, " + join(words))

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
            facing = f", facing {self.facing(place.facing, pictured=False)}" if place.facing else ""
            by_army.setdefault(place.army, []).append(
                f"{place.piece if single else plural(place.piece)} on {self._compact(place.cells)}{facing}")
        text = " ".join(sentence(f"{self.army(army)}: " + "; ".join(items)) for army, items in by_army.items())
        facings = self.facings_in_pictures([d for p in setup.places for d in p.facing])
        text += " " + facings if facings else ""
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
        second = (" " + self.neutral_move_sentence(self.spec.rules.neutral_move)) if self.spec.rules.neutral_move else ""
        if len(order) == 2:
            return f"{order[0]} moves first; then {order[1]} and {order[0]} take turns, one move each." + second
        return f"{order[0]} moves first, then {join(order[1:])}, in this order, one move each, round and round." + second

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
        drops, facings, first moves lost to an aim and once-per-game privileges, those the game has, in that
        order."""
        spec = self.spec
        sections = []
        if spec.castling is not None:    # a game that forgets every way of castling says so
            sections.append(("Castling", [self.render(spec.castling) if spec.castling.rules
                                          else "There is no castling."]))
        en_passant = self.en_passant()
        if en_passant:
            sections.append(("En passant", [en_passant]))
        promoting = [p for p in spec.pieces.values() if p.promotions]
        if promoting:
            sections.append(("Promotion", [self.promotion_text(p) for p in promoting]))
        if spec.stacking is not None:
            sections.append(("Stacking", [self.render(spec.stacking)]))
        if spec.drops is not None:
            sections.append(("Drops", [self.render(spec.drops)]))
        if any(p.facing for p in spec.setup.places):
            sections.append(("Facings", [
                "Some pieces start facing a direction of their own, as the setup says: their forward is that "
                "direction. A piece that faces two ways moves as if it faced either, and a move of it marked "
                "as committing keeps only the directions for which that move was a forward one."]))
        losing = [p for p in spec.pieces.values() if p.unmoved_lost_aimed_by is not None]
        if losing:
            sections.append(("First moves", [self.aimed_loss_sentence(p) for p in losing]))
        privileged = [p.name for p in spec.pieces.values() if any(m.once_per_game for m in p.moves)]
        if privileged:
            one = len(privileged) == 1
            sections.append(("Privileges", [sentence(
                f"The {join(privileged)} {'has a move it' if one else 'each have a move they'} may make only "
                f"once in a game (marked in {'its' if one else 'their'} moves); the position notation records "
                f"which {join([plural(p) for p in privileged])} still may")]))
        return sections

    def promotion_text(self, piece: S.PieceSpec) -> str:
        """A piece's promotion rules in one sentence; a rule with the choices and limits of the one
        before says "the same pieces as above" instead of listing them again."""
        texts, before = [], None
        for rule in piece.promotions:
            text = self.render(rule)
            if before is not None and rule.in_place is None and (rule.to, rule.only_captured, rule.limits) == \
                    (before.to, before.only_captured, before.limits):
                text = text.replace(join([article(p) for p in rule.to], "or"), "the same pieces as above")
                text = text.replace("; it may only choose a kind of which its army has fewer pieces on the board "
                                    "than in the setup", ", with the same limit")
            texts.append(text)
            before = rule
        if any(rule.in_place is not None for rule in piece.promotions):   # long rules: a sentence each
            return " ".join(sentence(f"The {piece.name}{' also' if i else ''}: " + text) for i, text in enumerate(texts))
        return sentence(f"The {piece.name}: " + "; ".join(texts))

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
        if spec.notation:
            intro.append(sentence(NOTATIONS[spec.notation]))
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
