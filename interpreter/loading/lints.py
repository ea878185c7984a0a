"""What ``rules check`` warns about in a game that compiles: what can never happen, and games
without an end.

Each finding is a :class:`Lint`: a message, the place in the rules file it
is about, and a hint. None of them is an error (the game runs as written);
each is something a designer almost never means:

- **a first-move pattern no piece can use**: no piece of the kind holds its
  first-move right in the start position (an inherited ``setup fen`` whose
  castling field was written before the piece had such a pattern; a kind
  that only enters the game later, by promotion or drop, when it has moved);
- **a castling rule no king can use**: no king and rook of any army hold
  its right at the start;
- **a game that can go on for ever**: no end rule looks at repetitions,
  the clock or the move number, and moves need not make progress
  (:func:`~interpreter.compiler.progress.always_progresses`: games whose
  pieces only advance end by themselves);
- **an end rule's title that reads as a clause**: the title completes the
  result's sentence, "White wins by TITLE" or "draw by TITLE", so it is a noun
  phrase ("capture of the lion", "reaching the goal"). A title with a finite
  verb ("the lion was captured", "the king reached the goal") makes a broken
  sentence. The test is a heuristic over the words: a form of *be* or *have*,
  or, in a title that starts with a determiner ("the king ..."), a word in
  -ed or a common irregular past (held, lost, won ...) after the noun. It can
  miss a clause (a rarer verb) and never stops a game;
- **an end rule that can never end the game**: an earlier rule's condition is
  a part of its own (every term of the earlier ``and`` is one of its terms),
  so the earlier rule, tried first, always ends the game before it. The usual
  cause is an inherited rule: a new rule is added after the inherited ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from dsl.errors import Loc
from dsl.spec import BoolOp, EndRule, Expr

from interpreter.compiler.end_rules import BOUNDING_NAMES, can_go_on_forever
from interpreter.compiler.game import Game
from interpreter.compiler.progress import always_progresses
from interpreter.compiler.rights import first_move
from interpreter.engine.position import Position
from interpreter.engine.rights import castling_partners, ground, marked_cells
from interpreter.notation.fen import castling_field

from .arrays import reset_unmoved
from .positions import start_position


@dataclass(frozen=True)
class Lint:
    """One warning: ``message``, the place it is about (None: the whole variant) and a ``hint``."""

    message: str
    loc: Loc | None = None
    hint: str | None = None

    def render(self) -> str:
        """``path:line:col: warning: message (hint: ...)``, as ``rules check`` prints it."""
        where = f"{self.loc}: " if self.loc is not None else ""
        return f"{where}warning: {self.message}" + (f" (hint: {self.hint})" if self.hint else "")


def lints(game: Game) -> list[Lint]:
    """Every warning about ``game`` (in its play mode), in the order of the module docstring."""
    start = start_position(game)
    found = _unused_first_moves(game, start) + _unused_castlings(game, start)
    if can_go_on_forever(game.spec.rules.ends) and not always_progresses(game):
        found.append(Lint("a game can go on forever: no end rule looks at " + ", ".join(BOUNDING_NAMES[:-1])
                          + f" or {BOUNDING_NAMES[-1]}, and pieces can move back and forth",
                          game.variant_loc, "e.g. 'end repetition when repetitions >= 3: draw', or "
                                            "'include orthodox' for the usual draw rules"))
    found += [Lint(f"the title of end rule '{rule.name}' reads as a clause: results will say "
                   f"'White wins by {rule.title}'", rule.loc,
                   "write the title as a noun phrase that completes 'White wins by ...' and 'draw by ...', "
                   "such as 'capture of the lion' or 'reaching the goal'")
              for rule in game.spec.rules.ends if rule.title and reads_as_clause(rule.title)]
    found += [Lint(f"end rule '{rule.name}' can never end the game: end rule '{earlier.name}', tried before it, "
                   "holds whenever it does", rule.loc,
                   f"declare '{rule.name}' before '{earlier.name}' (after 'forget end {earlier.name}' when "
                   "that rule is inherited)")
              for rule, earlier in shadowed_ends(game.spec.rules.ends)]
    return found


def _terms(condition: Expr) -> list[tuple]:
    """The terms of ``condition`` read as an ``and`` of them (nested ``and``s flattened), each as
    its shape (without source locations), so that equal terms compare equal."""
    if isinstance(condition, BoolOp) and condition.op == "and":
        return [term for operand in condition.operands for term in _terms(operand)]
    return [condition.shape()]


def shadowed_ends(ends: list[EndRule]) -> list[tuple[EndRule, EndRule]]:
    """Each end rule that can never fire, with the first earlier rule whose terms are all among
    its own (that rule holds whenever it does, and is tried first)."""
    found = []
    for i, rule in enumerate(ends):
        terms = _terms(rule.condition)
        earlier = next((e for e in ends[:i] if all(t in terms for t in _terms(e.condition))), None)
        if earlier is not None:
            found.append((rule, earlier))
    return found


# Words that make a title a clause wherever they stand; the words that open a noun phrase, after
# which a past form (in -ed, or one of _PAST) not right after the determiner (where it is an
# adjective: "the promoted pawn") is a verb.
_FINITE = {"is", "are", "was", "were", "has", "have", "had", "gets", "got"}
_DETERMINERS = {"the", "a", "an", "both", "each", "every", "his", "her", "its", "their", "all", "no"}
_PAST = {"held", "lost", "won", "took", "made", "fell", "broke", "caught", "came", "went", "ran", "got", "left"}


def reads_as_clause(title: str) -> bool:
    """Whether an end rule's ``title`` looks like a clause rather than a noun phrase (see the
    module docstring: a heuristic over its words)."""
    words = [w.strip(".,;:!?'\"()") for w in title.lower().split()]
    if any(w in _FINITE for w in words):
        return True
    if not words or words[0] not in _DETERMINERS:
        return False
    return any((w.endswith("ed") or w in _PAST) and words[i - 1] not in _DETERMINERS
               for i, w in enumerate(words[2:], 2))


def _every_right(start: Position) -> str:
    """The castling field ``start`` would have with every piece whose having moved matters unmoved."""
    full = start.copy()
    reset_unmoved(start.game, full)
    return castling_field(full)


def _setup_says(game: Game, start: Position) -> str:
    """Why the start gives no right, as a clause: what the setup's castling field says."""
    if game.setup.fen is not None:
        return f"the setup's FEN has the castling field '{castling_field(start)}'"
    return "the setup places no such piece"


def _unused_first_moves(game: Game, start: Position) -> list[Lint]:
    """A lint per kind with first-move patterns of which no piece holds the right at the start."""
    found: list[Lint] = []
    for kind in game.kinds:
        codes = [game.code(kind.index, a.index) for a in game.armies]
        if not any(game.own_mark[c] for c in codes):
            continue
        if any(ground(start, cell) in codes for cell in marked_cells(start.unmoved)):
            continue
        pattern = next((m for m in kind.spec.moves if first_move(m)), None)
        on_board = any(ground(start, cell) in codes for cell in range(game.n))
        if on_board:
            why = _setup_says(game, start)
            hint = f"write the rights in the setup's FEN: '{_every_right(start)}' gives them to every {kind.name}"
        else:
            why = f"no {kind.name} stands on the board at the start, and one that enters later has moved"
            hint = None
        found.append(Lint(f"the {kind.name}'s first-move pattern can never be used: no {kind.name} has its "
                          f"first-move right at the start ({why})", pattern.loc if pattern else kind.spec.loc, hint))
    return found


def _unused_castlings(game: Game, start: Position) -> list[Lint]:
    """A lint per castling rule that no king of the start position may still use (none where a dropped
    king may gain the right: ``unmoved in``)."""
    found: list[Lint] = []
    if not game.castling_kinds or any(code > 0 and game.drop_marks[code] is not None for code in game.castle_king_codes):
        return found
    spec_rules = {rule.name: rule for rule in game.spec.castling.rules} if game.spec.castling else {}
    kings = [(cell, game.code_army[ground(start, cell)]) for cell in marked_cells(start.unmoved)
             if ground(start, cell) in game.castle_king_codes]
    for rule in game.castle_rules + game.castle_locks:
        if any(castling_partners(start, cell, army, start.unmoved, [rule]) for cell, army in kings):
            continue
        spec = spec_rules.get(rule.name)
        found.append(Lint(f"castling '{rule.name}' can never be made: no king and rook hold its right at the start "
                          f"({_setup_says(game, start)})", spec.loc if spec else None,
                          f"'{_every_right(start)}' gives the right to every unmoved king and rook"))
    return found
