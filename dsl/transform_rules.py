"""Parse tree -> declarations: stacking, drops and gating, the rules of the game's end and the
``ai`` block.

The rule methods of these declarations, a base class of :class:`dsl.transformer.ToDecls`
(they use its ``loc`` and ``name`` helpers and its source ``path`` and ``text``).
"""

from __future__ import annotations

from lark import Token, v_args

from . import spec as S
from .declarations import Decl, set_options, source_text
from .errors import RulesSemanticError
from .strings import unquote


class GameRules:
    """Transformer methods for ``stacking``, ``drops``, ``rules`` and ``ai`` declarations; see
    :class:`~dsl.transformer.ToDecls`."""

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
        return ("interaction", set_options(inter, opts, lists=("using",)))

    def target_empty(self, items):
        return {"target": "empty"}

    def target_single(self, items):
        return {"target": "single", "top": str(items[0])}

    def target_stack(self, items):
        sides = [str(t) for t in items]
        return {"target": "stack", "bottom": sides[0], "middle": sides[1:-1], "top": sides[-1]}

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
            elif key == "must_drop":
                drops.must_drop = True
                drops.locs["must drop"] = value
            elif key == "both_colours":
                drops.both_colours.append(value[0])
                drops.locs[f"both colours {value[0]}"] = value[1]
            else:
                drops.captures_to_hand = True
                drops.demoted = value
        return Decl("drops", drops, None)

    @v_args(meta=True)
    def hand_rule(self, meta, items):
        return ("hand", "demoted" in source_text(self.text, meta))

    def drop_rule(self, items):
        piece, *opts = items
        return ("drop", set_options(S.DropRule(piece=str(piece), loc=self.loc(piece)), opts,
                                    lists=("not_in", "at_most")))

    def gate_rule(self, items):
        *pieces, cells = items
        rule = S.GateRule(pieces=[str(p) for p in pieces], cells=cells, loc=self.loc(pieces[0]))
        rule.locs.update({str(p): self.loc(p) for p in pieces})
        return ("gate", rule)

    @v_args(meta=True)
    def must_drop(self, meta, items):
        return ("must_drop", self.loc(meta))

    def both_colours(self, items):
        return ("both_colours", (str(items[0]), self.loc(items[0])))

    def drop_unmoved_in(self, items):
        return ("unmoved_in", items[0])

    def drop_not_in(self, items):
        return ("not_in", items[0])

    def drop_no_file_twin(self, items):
        return ("no_file_twin", str(items[0]))

    def drop_at_most_file(self, items):
        return ("at_most", S.DropLimit(count=int(items[0]), loc=self.loc(items[0])))

    def drop_at_most_in(self, items):
        return ("at_most", S.DropLimit(count=int(items[0]), cells=items[1], loc=self.loc(items[0])))

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

    def passing(self, items):
        return ("passing", S.PassRule(condition=items[0] if items else None), None)

    def keep_apart(self, items):
        return ("keep_apart", str(items[0]), self.loc(items[0]))

    def material_bonus(self, items):
        return ("material_bonus", {str(items[0]): float(items[1])}, self.loc(items[0]))

    def resigning(self, items):
        return ("resign", str(items[0]), self.loc(items[0]))

    def points(self, items):
        seen: set[str] = set()
        for name, _ in items:
            if str(name) in seen:
                raise RulesSemanticError(f"'points' names {str(name)!r} twice", self.loc(name),
                                         hint="give each piece kind (or checkmate, stalemate) one value")
            seen.add(str(name))
        return ("points", {str(n): int(v) for n, v in items}, {str(n): self.loc(n) for n, _ in items})

    def point_entry(self, items):
        return (items[0], items[1])

    def explosion(self, items):
        return ("explosion", [str(t) for t in items], self.loc(items[0]) if items else None)

    def compulsory(self, items):
        return ("compulsory_capture", True, None)

    def count(self, items):
        return ("count_checks", int(items[0]) if items else 0, None)

    def neutral_move(self, items):
        return ("neutral_move", str(items[0]), self.loc(items[0]))

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
