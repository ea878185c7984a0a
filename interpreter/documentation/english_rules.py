"""Plain English for how a game ends: end rules and their results, royal pieces,
insufficient material, positions with no legal move and the halfmove clock.

Part of :class:`interpreter.documentation.english.English` (a base class of it, like
:class:`~interpreter.documentation.english_board.BoardEnglish`: the methods use its
``render``, ``value``, ``army`` and ``piece``). :meth:`RulesEnglish.rule_sections` gives
the titled sections of a variant's rules, immediate ends first in the engine's order of trial.
"""

from __future__ import annotations

from dsl import spec as S

from interpreter.compiler.end_rules import is_mate, trial_order

from .english_moves import join
from .phrases import FORBIDDEN, NO_MOVES, REPETITION, RESULTS, TEAM_RESULTS, article, plural, pretty, sentence


def no_moves(node) -> bool:
    """Is the clause ``legal_moves == 0`` (or ``<= 0``): the side to move has no legal move?"""
    return (isinstance(node, S.Compare) and isinstance(node.left, S.Ref) and node.left.path == ["legal_moves"]
            and isinstance(node.right, S.Num) and node.right.value == 0 and node.op in ("==", "<="))


class RulesEnglish:
    """The renderings of the rules section; a base class of
    :class:`~interpreter.documentation.english.English`."""

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

    def neutral_sentence(self, piece: S.PieceSpec) -> str:
        """What being neutral means, and which rule moves the piece; '' for a piece of the armies."""
        if not piece.neutral:
            return ""
        text = ("It is neutral: it belongs to no army, blocks every move as a piece of one's own would "
                "(a leaper may jump over it) and is never captured.")
        if self.spec.rules.neutral_move == piece.name:
            text += (" It has no moves of its own: the player who has just moved moves it to another empty cell, "
                     "as the second part of every move.")
        else:
            text += " It never moves."
        return text

    def neutral_move_sentence(self, name: str | None) -> str:
        """The second part of every move (``then move NAME``), or '' for ``None``."""
        if name is None:
            return ""
        return (f"Every move has a second part: the player who made it then moves the {name} to another cell "
                f"that is empty after the move, or places one on any empty cell while none is on the board; "
                f"the two parts are one move.")

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
        mates = [r for r in rules.ends if is_mate(r.condition)]
        if any(r.result == "loss" for r in mates):
            facts.append("its army loses when it is checkmated (see how the game ends)")
        elif any(r.result == "win" for r in mates):
            facts.append("its army wins when it is checkmated (see how the game ends)")
        if any(m.action == "remove-royal" for m in rules.no_moves):
            facts.append("when it is checkmated it is removed from the board, as its army's move")
        if not facts:
            facts.append("an enemy piece attacking it gives check, which the end rules may count")
        return sentence(f"The {piece.name} is royal: " + join(facts))

    def points_sentence(self, points: dict[str, int]) -> str:
        """What scores: the points of each piece captured, and of a checkmate or stalemate given."""
        pieces = [f"{value} for {article(name)}" for name, value in points.items() if name not in ("checkmate", "stalemate")]
        events = [f"{value} for a {name}" for name, value in points.items() if name in ("checkmate", "stalemate")]
        text = "Every army keeps a score. "
        if pieces:
            text += (f"Capturing a piece scores for the capturing army: {join(pieces)} (any other kind, and a "
                     "piece of an army out of the game, score nothing). ")
        if events:
            text += (f"Putting an army out of the game scores {join(events)}: a checkmate (its royal piece attacked) "
                     "for the army attacking it that moved last before it, a stalemate for the army in play "
                     "that moved last before it.")
        return text.strip()

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

    def _PassRule(self, rule: S.PassRule) -> str:
        condition = f" when {self.render(rule.condition)}" if rule.condition is not None else ""
        return f"the side to move may pass its turn instead of moving{condition}"

    def _NoMovesRule(self, rule: S.NoMovesRule) -> str:
        condition = f" and {self.render(rule.condition)}" if rule.condition is not None else ""
        return f"when the side to move has no legal move{condition}, {NO_MOVES[rule.action]}"

    def material_sentence(self, bonus: dict[str, float]) -> str:
        """How the result ``material`` counts: the pieces' values, and each army's bonus."""
        values = [f"{p.name} {p.value:g}" for p in self.spec.pieces.values() if p.value]
        titles = {a.name: a.title for a in self.spec.armies}
        extra = [f"{titles.get(name, name)} adds {value:g}" for name, value in bonus.items()]
        return sentence("Counting material adds up the values of each side's pieces on the board ("
                        + join(values, "and") + ")" + (f"; {join(extra, 'and')}" if extra else "")
                        + "; the higher total wins, and equal totals draw")

    def _clock(self, events: list[str]) -> str:
        if not events:
            return "The halfmove clock counts every ply (a move by one army); nothing resets it."
        words = [e if e in ("capture", "promotion", "drop") else f"{e} move" for e in events]
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
        if rules.keep_apart is not None:
            legality.append(f"While a royal piece of the side to move faces an enemy royal piece along a line of "
                            f"'{rules.keep_apart}' steps, with only empty cells between, every move but a pass must "
                            f"part them; a move may bring them face to face.")
        if rules.passing is not None:
            legality.append(sentence(self.render(rules.passing)))
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
        elif rules.resign == "eliminate":
            ending.append("A player who resigns is out of the game, as an army without a legal move is, and "
                          "nobody scores for it; the others play on (with no other army in play, resigning loses).")
        if rules.points:
            ending.append(self.points_sentence(rules.points))
        if rules.material_bonus or any(rule.result == "material" for rule in rules.ends):
            ending.append(self.material_sentence(rules.material_bonus))
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
        text = " ".join(p for _, paragraphs in self.rule_sections(rules) for p in paragraphs)
        return text + (" " + self.neutral_move_sentence(rules.neutral_move) if rules.neutral_move else "")
