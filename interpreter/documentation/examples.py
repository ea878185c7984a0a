"""Example positions for the rule pages: special moves shown in positions reached in play.

Every special move a game has (castling, en passant, promotion, stacking,
drops, facings, once-per-game privileges) gets an example on its page: a
position reached from the start by legal moves, the move made there, and
the position after it. An author gives one with ``example`` in the rules
file (the moves from the start and the move shown, as players write them:
:func:`authored_examples`); for a special move without one, :func:`found_examples`
plays seeded random games until that kind of move is legal, so the
example is a real position of the game all the same.

The search is deterministic: a fixed seed per game, and the legal moves
sorted by their cells (not by the engine's order of generation), so the
pages do not change when the move generator does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dsl import MoveError, RulesSemanticError

from interpreter.compiler.game import Game
from interpreter.engine.neutral import base_move
from interpreter.engine.outcome import legal_moves, outcome
from interpreter.engine.position import Position
from interpreter.loading import start_position
from interpreter.notation.reading import moves_from_text, parse_move
from interpreter.notation.san import move_to_san

TOPICS = ("castling", "en passant", "promotion", "stacking", "drops", "facings", "privileges", "ending")
"""The kinds of special move, in the order the pages treat them; ``ending`` is a forced move of the
end of a game (a pass, a mated king removed)."""

SEARCH_GAMES = 16
SEARCH_PLIES = 90
LONG_PLIES = 400
LONG_HISTORY = 30  # plies: a longer history is not listed


@dataclass
class Example:
    """A move made in a position reached in play: ``history`` (SAN) from the start to ``before``."""

    topic: str | None
    caption: str
    history: list[str]
    before: Position
    move: tuple
    san: str
    after: Position
    authored: bool = False


def topic_of(pos: Position, move: tuple) -> str | None:
    """Which kind of special move ``move`` is in ``pos`` (one of :data:`TOPICS`), or None; a move with a
    neutral piece's second part (Duck chess) is of the kind of the move it is made with."""
    game = pos.game
    move = base_move(move)
    tag = move[3][0] if move[3] is not None else None
    if tag in ("castle", "castlock"):
        return "castling"
    if tag == "sep" or tag == "st":
        return "promotion" if move[2] else "stacking"
    if tag == "ep":
        return "en passant"
    if tag == "drop":
        return "drops"
    if tag in ("pass", "remove", "rescue"):
        return "ending"
    if move[2]:
        return "promotion"
    if tag == "once":
        return "privileges"
    code = pos.board[move[0]] if move[0] >= 0 else 0
    if code and game.commits[code] and (move[0] * game.n + move[1]) in game.commits[code]:
        return "facings"
    return None


def _sorted_moves(pos: Position) -> list[tuple]:
    """The legal moves in an order of their own (by cells and effect), not the generator's."""
    return sorted(legal_moves(pos), key=lambda m: (m[0], m[1], m[2], repr(m[3])))


def _example(topic, caption, history, pos, move, legal, authored=False) -> Example:
    san = move_to_san(pos, move, legal)
    after = pos.copy()
    after.push(move)
    return Example(topic, caption, list(history), pos.copy(), move, san, after, authored)


def authored_examples(game: Game) -> list[Example]:
    """The rules file's ``example`` declarations, played from the start; a move that cannot be
    played is reported at the example, with the notation's own message. An inherited example
    that is no game of this variant (another array, other pieces) is left out."""
    out = []
    for spec in game.spec.examples:
        pos = start_position(game)
        try:
            played = moves_from_text(pos, spec.moves) if spec.moves else []
            legal = legal_moves(pos)
            move = parse_move(pos, spec.show, legal)
        except MoveError as err:   # point at the example, with the notation's words
            if spec.loc is not None and game.spec.path and spec.loc.path != game.spec.path:
                continue               # inherited, and not a game of this variant: another example will do
            raise RulesSemanticError(f"example {spec.name!r}: {err.message}", spec.locs.get("moves", spec.loc),
                                     hint="write the moves from the start as a player would, e.g. e4 e5 Nf3") from None
        history = _history(game, played)
        topic = None if spec.decision else topic_of(pos, move)
        out.append(_example(topic, spec.caption, history, pos, move, legal, authored=True))
    return out


def _history(game: Game, moves: list[tuple]) -> list[str]:
    pos = start_position(game)
    out = []
    for move in moves:
        out.append(move_to_san(pos, move))
        pos.push(move)
    return out


def wanted_topics(game: Game) -> list[str]:
    """The kinds of special move the rules of ``game`` have (see :data:`TOPICS`)."""
    spec = game.spec
    moves = [m for p in spec.pieces.values() for m in p.moves]
    found = set()
    if spec.castling is not None and spec.castling.rules:
        found.add("castling")
    if any(m.sets_en_passant for m in moves):
        found.add("en passant")
    if any(p.promotions for p in spec.pieces.values()):
        found.add("promotion")
    if spec.stacking is not None and spec.stacking.height > 1:
        found.add("stacking")
    if spec.drops is not None:
        found.add("drops")
    if any(game.commits):
        found.add("facings")
    if any(m.once_per_game for m in moves):
        found.add("privileges")
    return [t for t in TOPICS if t in found]


def found_examples(game: Game, topics: list[str], games: int = SEARCH_GAMES,
                   plies: int = SEARCH_PLIES) -> dict[str, Example]:
    """For each of ``topics``, the first position of seeded random games in which a move of that
    kind is legal (games favour moves that capture or promote, and moves of pieces that can
    promote, so that promotions come within reach); topics never reached are left out."""
    rng = random.Random(f"examples of {game.name}")
    found: dict[str, Example] = {}
    promoting = {c for c in range(1, game.ncodes) if game.promotions[c]}
    for _ in range(games):
        pos = start_position(game)
        history: list[str] = []
        for _ in range(plies):
            legal = _sorted_moves(pos)
            if not legal or outcome(pos, legal) is not None:
                break
            for move in legal:
                topic = topic_of(pos, move)
                if topic in topics and topic not in found:
                    found[topic] = _example(topic, "", history, pos, move, legal)
            if all(t in found for t in topics):
                return found
            keen = [m for m in legal if m[2] or (m[0] >= 0 and pos.board[m[0]] in promoting)]
            move = rng.choice(keen if keen and "promotion" not in found and rng.random() < 0.6 else legal)
            history.append(move_to_san(pos, move, legal))
            pos.push(move)
    return found


def examples_by_topic(game: Game) -> tuple[dict[str, list[Example]], list[Example]]:
    """``({topic: examples}, others)``: the authored examples under the kind of move they show, each
    special move the game has that no author example shows with one found in play, and apart the
    authored examples of decisions (``for interpretations``) and of ordinary moves."""
    by_topic: dict[str, list[Example]] = {}
    others = []
    for example in authored_examples(game):
        if example.topic is None:
            others.append(example)
        else:
            by_topic.setdefault(example.topic, []).append(example)
    missing = [t for t in wanted_topics(game) if t not in by_topic]
    if missing:
        for topic, example in found_examples(game, missing).items():
            by_topic[topic] = [example]
    missing = [t for t in missing if t not in by_topic]
    if missing:           # a move that takes a long game to come (a promotion on a big board)
        for topic, example in found_examples(game, missing, games=4, plies=LONG_PLIES).items():
            by_topic[topic] = [example]
    return {t: by_topic[t] for t in TOPICS if t in by_topic}, others


def history_text(game: Game, history: list[str]) -> str:
    """The moves from the start, numbered as players write them when two armies alternate."""
    if not history:
        return "in the start position"
    if len(history) > LONG_HISTORY:
        return f"after {len(history)} moves of a game played at random from the start"
    if len(game.turn_order) == 2:
        words = []
        for i, san in enumerate(history):
            words.append(f"{i // 2 + 1}. {san}" if i % 2 == 0 else san)
        return "after " + " ".join(words)
    return "after " + ", ".join(history)

