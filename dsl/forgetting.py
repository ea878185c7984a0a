"""``forget``: remove an inherited declaration from the declarations merged so far.

Every declaration a variant can inherit can be forgotten:

- named ones, by name: ``forget piece X`` (and ``castle``, ``end``, ``zone``,
  ``drop``, ``insufficient``, ``directions``, ``team``, ``mode``);
- a legality rule: ``forget forbid self-check``;
- a whole block or setting: ``forget castling``, ``stacking``, ``drops``,
  ``clock`` (no event resets the halfmove clock any more), ``check`` (back to
  check when any royal piece is attacked), ``shuffle`` (the
  setup's random arrays), ``captures compulsory``, ``captures explode``,
  ``count checks``, ``when no moves``, ``when resigning`` (back to: resigning loses),
  ``points`` (no move scores), ``then move`` (no neutral piece is moved after each move),
  ``drawing`` (the board's ``draw`` statements: back to squares, chequered, upright pieces, no river
  or diagonals), ``ai`` (the computer's weights: back to 1 each).

Forgetting something that was not inherited is an error at the ``forget``
line, with the inherited names (and a suggestion for a misspelt one); a zone
or direction family that a later ``board`` with a generator dropped (it starts
a new board) is named as such, with the place of that board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import spec as S
from .errors import Loc, RulesSemanticError, suggest

if TYPE_CHECKING:
    from .loader import _Builder


def forget(builder: _Builder, what: str, name: str | None, loc: Loc | None) -> None:
    """Apply ``forget WHAT [NAME]`` (see the module docstring) to the builder's declarations."""
    if name is not None:
        _forget_named(builder, what, name, loc)
        return
    rules = builder.rules
    settings: dict[str, tuple[Any, Any]] = {
        # what -> (is it inherited?, how to forget it)
        "castling": (builder.castling is not None, lambda: setattr(builder, "castling", None)),
        "stacking": (builder.stacking is not None, lambda: setattr(builder, "stacking", None)),
        "drops": (builder.drops is not None, lambda: setattr(builder, "drops", None)),
        "clock": (bool(rules.clock_resets), lambda: setattr(rules, "clock_resets", [])),
        "check": (rules.royal_check != "any", lambda: setattr(rules, "royal_check", "any")),
        "shuffle": (bool(builder.setup.shuffles), lambda: setattr(builder.setup, "shuffles", [])),
        "captures compulsory": (rules.compulsory_capture, lambda: setattr(rules, "compulsory_capture", False)),
        "captures explode": (rules.explosion is not None, lambda: setattr(rules, "explosion", None)),
        "count checks": (rules.count_checks is not None, lambda: setattr(rules, "count_checks", None)),
        "when no moves": (bool(rules.no_moves), lambda: setattr(rules, "no_moves", [])),
        "when resigning": (rules.resign != "lose", lambda: setattr(rules, "resign", "lose")),
        "points": (bool(rules.points), lambda: setattr(rules, "points", {})),
        "then move": (rules.neutral_move is not None, lambda: setattr(rules, "neutral_move", None)),
        "drawing": (builder.board.drawing.model_dump() != S.DrawingSpec().model_dump(),
                    lambda: setattr(builder.board, "drawing", S.DrawingSpec())),
        "ai": (bool(builder.ai.weights), lambda: setattr(builder, "ai", S.AiSpec())),
    }
    inherited, drop = settings[what]
    if not inherited:
        raise RulesSemanticError(f"cannot forget {what}: nothing of it was inherited", loc,
                                 hint="leave out this 'forget' line")
    drop()


def _forget_named(builder: _Builder, what: str, name: str, loc: Loc | None) -> None:
    board, rules = builder.board, builder.rules
    if what in ("piece", "zone"):
        table = builder.pieces if what == "piece" else board.zones
        _check(what, name, list(table), loc, dropped=builder.dropped.get((what, name)))
        del table[name]
    elif what == "forbid":
        _check("legality rule", name, rules.forbid, loc, keyword="forbid")
        rules.forbid = [f for f in rules.forbid if f != name]
    elif what == "castle":
        castle_rules = builder.castling.rules if builder.castling else []
        _check(what, name, [r.name for r in castle_rules], loc)
        builder.castling.rules = [r for r in castle_rules if r.name != name]
    elif what == "drop":
        drops = builder.drops.drops if builder.drops else []
        _check(what, name, [d.piece for d in drops], loc)
        builder.drops.drops = [d for d in drops if d.piece != name]
    else:
        owner, field = {
            "end": (rules, "ends"), "insufficient": (rules, "insufficient"),
            "directions": (board, "directions"), "team": (builder, "teams"), "mode": (builder, "modes"),
        }[what]
        items = getattr(owner, field)
        _check(what, name, [item.name for item in items], loc, dropped=builder.dropped.get((what, name)))
        setattr(owner, field, [item for item in items if item.name != name])


def _check(what: str, name: str, names: list[str], loc: Loc | None, keyword: str | None = None,
           dropped: Loc | None = None) -> None:
    """Raise the error for forgetting ``name`` when it is not among the inherited ``names``.

    ``dropped``: the board declaration that dropped ``name`` with the board it replaced, if one did.
    """
    if name in names:
        return
    if dropped is not None:
        raise RulesSemanticError(
            f"cannot forget {what} '{name}': the new board at {dropped} dropped it already", loc,
            expected=f"an inherited {what} of the new board ({', '.join(sorted(names)) or 'none'})",
            hint="a 'board' block with 'grid', 'ragged' or 'hex' starts a new board without the old board's "
                 "zones and directions: leave out this 'forget' line")
    guess = suggest(name, names)
    shown = ", ".join(sorted(names)) or "none"
    raise RulesSemanticError(
        f"cannot forget {keyword or what} '{name}': nothing of that name was inherited", loc,
        expected=f"an inherited {what} ({shown})",
        hint=f"did you mean '{guess}'?" if guess else None,
    )
