"""What the JSON API says of a game: its variant and seats, a position, its legal moves, its state.

Everything is data a page can draw without knowing the game: cells by name,
the board as the project's own SVG (every cell a ``<polygon data-cell=NAME>``),
pieces in hand with their pictures, and each legal move with its SAN, its
from-to form, its cells and what kind of move it is (a capture, a drop, a
promotion and to what). Moves that share an origin and a destination (a
promotion choice, a climb against a capture, a facing) carry a ``label``
and a ``picture`` so that the page can ask which one is meant; a move with a
second part (a neutral piece moved after it) names that part's cell as
``second``, so that the page can ask for it as a second click on the board.
"""

from __future__ import annotations

import math

from dsl.errors import Loc

from interpreter.compiler.game import Game
from interpreter.drawing.piece_art import image_name
from interpreter.drawing.render import Diagram, army_colours, diagram_of, piece_image, render_pieces, render_svg
from interpreter.engine.attacks import royal_cells
from interpreter.engine.neutral import base_move
from interpreter.engine.outcome import Outcome
from interpreter.engine.position import Position
from interpreter.loading.lints import Lint
from interpreter.loading.records import result_token
from interpreter.notation.fen import to_fen
from interpreter.notation.san import from_to_text, san_text
from interpreter.notation.terms import captures, inner
from interpreter.notation.traditional import notations

from .seats import KINDS, NO_ENGINES, Engines
from .sessions import Session

OUTCOME_WORDS = {"capture": "capture", "capture-top": "capture the top piece", "capture-bottom": "capture the piece below",
                 "capture-both": "capture both pieces", "capture-all": "capture the whole stack",
                 "climb": "climb on top", "land": "land on top", "descend": "step down", "move": "move"}
"""Words for the outcomes of a stacking game's moves (``st``), shown by the move chooser."""
SPECIAL_WORDS = {"castle": "castle", "castlock": "castle and lock", "ep": "en passant", "sep": "take it and put it under",
                 "ep_set": "double step", "drop": "drop", "once": "once-per-game move", "pass": "pass",
                 "promote": "promotion as a move",
                 "remove": "the king leaves the board", "out": "out of the game"}


def location_view(loc: Loc | None) -> dict | None:
    """A place in a rules text as the API gives it: ``{"path", "line", "column", "end_column"}`` (1-based,
    the end exclusive and null when not known); None for no place."""
    if loc is None:
        return None
    return {"path": loc.path, "line": loc.line, "column": loc.column, "end_column": loc.end_column}


def lint_view(lint: Lint) -> dict:
    """A warning of ``rules check``: ``{"warning", "message", "hint", "location"}``, ``warning`` the line
    the command prints (its place, the message and the hint), ``location`` as :func:`location_view`."""
    return {"warning": lint.render(), "message": lint.message, "hint": lint.hint, "location": location_view(lint.loc)}


def variant_view(game: Game, start: Position, engines: Engines = NO_ENGINES) -> dict:
    """The game's names, modes, teams, armies (with the colour their pieces are drawn in) and pieces
    (:func:`pieces_view`); ``rotations`` says how far (degrees, clockwise) to turn the picture to
    bring each army to the bottom."""
    spec = game.spec
    colours = army_colours(game)
    return {
        "name": game.name, "title": game.title, "mode": game.mode,
        "modes": [{"name": m.name, "title": m.title or m.name, "options": dict(m.options)} for m in spec.modes],
        "teams": [{"name": t.name, "armies": list(t.armies)} for t in spec.teams],
        "armies": [{"name": a.name, "title": a.title, "symbol": a.symbol, "colour": colours[a.index]}
                   for a in game.armies],
        "pieces": pieces_view(game),
        "turns": [game.armies[a].name for a in game.turn_order],
        "rotations": rotations(game, start),
        "cells": list(game.board.names),
        "drawing": drawing_view(game),
        "seat_kinds": {**KINDS, **engines.kinds(game)},
        "notations": [{"name": key, "title": title} for key, title in notations(game)],
    }


def pieces_view(game: Game) -> list[dict]:
    """Each kind of piece of the game, for the page's legend: its name, letter, ``description``
    (None when the rules file gives none), a picture of it in the first army that has it (a
    neutral piece in its own colour) and whether that picture is ``lettered``: a disc with the
    piece's letter or glyph, which tells nothing of the piece to one who does not know it. Kinds no
    army nor neutral piece has are left out."""
    first: dict[int, int] = {}
    for code in range(1, len(game.code_kind)):
        first.setdefault(game.code_kind[code], code)
    out = []
    for kind in game.kinds:
        if kind.index in first:
            image = piece_image(game, first[kind.index])
            out.append({"name": kind.name, "letter": kind.letter, "description": kind.spec.description,
                        "picture": render_pieces(game, [image]),
                        "lettered": bool(image.glyph) or image_name(kind.name) is None})
    return out


def drawing_view(game: Game) -> dict:
    """How the board is drawn (its ``draw`` statements), for the page: ``points`` (pieces on the
    crossings of lines: the page marks a cell by a disc on its point rather than by its whole
    square), ``plain``, ``facing`` (pieces face their army's forward direction: the page turns them
    with the board instead of keeping them upright), ``river`` (the river's text, or None without a
    river) and ``diagonals`` (how many lines the palaces add). The SVG already shows them all."""
    drawing = game.board.drawing
    return {"points": drawing.points, "plain": drawing.plain, "facing": drawing.facing,
            "river": drawing.river[1] if drawing.river else None, "diagonals": len(drawing.diagonals)}


def rotations(game: Game, start: Position) -> dict[str, int]:
    """For each army, how far to turn the picture (0, 90, 180 or 270 degrees clockwise) to bring its
    pieces where the first army's are drawn (the bottom, as rules files draw boards).

    The angle is the one between the directions from the board's middle to each army's pieces
    at the start, rounded to a quarter turn. With two armies only a half turn is offered, when
    they face each other (more than 135 degrees apart; Rocket Chess's armies, side by side at
    the base of the pyramid, are not turned). An army without pieces gets 0.
    """
    centres = game.board.centres
    mid_x = sum(x for x, _ in centres) / len(centres)
    mid_y = sum(y for _, y in centres) / len(centres)

    def direction(army: int) -> float | None:
        """The angle (degrees, in the picture, whose y grows downwards) from the middle to the army."""
        cells = start.cells_of[army]
        if not cells:
            return None
        dx = sum(centres[c][0] for c in cells) / len(cells) - mid_x
        dy = sum(centres[c][1] for c in cells) / len(cells) - mid_y
        return math.degrees(math.atan2(-dy, dx)) if abs(dx) > 1e-9 or abs(dy) > 1e-9 else None

    first = direction(0)
    out = {}
    for army in game.armies:
        own = direction(army.index)
        if first is None or own is None:
            out[army.name] = 0
            continue
        turn = (first - own) % 360  # turning the picture clockwise by this brings the army there
        if len(game.armies) == 2:
            out[army.name] = 180 if 135 < turn < 225 else 0
        else:
            out[army.name] = round(turn / 90) % 4 * 90
    return out


def position_view(game: Game, pos: Position, last: tuple | None) -> dict:
    """A position: its FEN, the board as SVG (hands drawn by the page), the pieces in hand, the last
    move's cells, the cells of royal pieces in check (not those of armies out of the game) and, in
    games that score, each army's score and whether it is out."""
    names = game.board.names
    diagram = diagram_of(pos)
    svg = render_svg(game, Diagram(stacks=diagram.stacks), title=game.title)
    checked = [names[c] for a in range(len(game.armies))
               if not (pos.out >> a) & 1 and pos.in_check(a) for c in royal_cells(pos, a)]
    scores = {army.name: {"score": pos.scores[army.index], "out": bool((pos.out >> army.index) & 1)}
              for army in game.armies} if game.scoring else {}
    return {
        "fen": to_fen(pos), "svg": svg, "hands": hands_view(game, pos), "check": checked,
        "last": None if last is None else {"from": names[last[0]] if last[0] >= 0 else None,
                                           "to": names[last[1]] if last[1] >= 0 else None},
        "to_move": [game.armies[a].name for a in pos.movers], "in_check": pos.in_check(), "scores": scores,
    }


def hands_view(game: Game, pos: Position) -> dict[str, list[dict]]:
    """Pieces in hand per army (games with drops), each kind once with its count and picture."""
    if game.spec.drops is None:
        return {}
    hands: dict[str, list[dict]] = {game.armies[a].name: [] for a in game.turn_order}
    for code, count in enumerate(pos.hands):
        if code and count:
            image = piece_image(game, code)
            hands[game.armies[image.army].name].append(
                {"code": code, "piece": image.name, "count": count, "picture": render_pieces(game, [image])})
    return hands


def legal_view(game: Game, pos: Position, legal: list) -> list[dict]:
    """The legal moves (see the module docstring), sorted by cells and promotion."""
    names = game.board.names
    inner_legal = [inner(m) for m in legal]
    pairs: dict[tuple[int, int], int] = {}
    for move in legal:
        pairs[move[:2]] = pairs.get(move[:2], 0) + 1
    out = []
    for move in sorted(legal, key=lambda m: (m[0], m[1], m[2], repr(m[3]))):
        plain = inner(move)
        special = plain[3][0] if plain[3] is not None else None
        row = {
            "san": san_text(pos, plain, inner_legal), "uci": from_to_text(pos, plain, inner_legal),
            "from": names[move[0]] if move[0] >= 0 else None, "to": names[move[1]] if move[1] >= 0 else None,
            "capture": captures(pos, plain), "special": special,
        }
        if special == "drop":
            row["drop"] = move[2]
        if special == "then":
            row["second"] = names[plain[3][2]]
        if pairs[move[:2]] > 1 or special == "drop":
            row["label"], row["picture"] = _reading(game, pos, base_move(plain))
        out.append(row)
    return out


def _reading(game: Game, pos: Position, move: tuple) -> tuple[str, str | None]:
    """Words for one of several moves between the same cells, and a picture of the piece it leaves
    there (the promoted piece, the piece dropped), for the page's chooser."""
    frm, to, promo, special = move
    words = []
    if special is not None:
        tag = special[0]
        words.append(OUTCOME_WORDS.get(special[1], special[1]) if tag == "st" else SPECIAL_WORDS.get(tag, tag))
    picture = None
    if promo:
        kind = game.kinds[game.code_kind[promo]]
        facing = game.code_symbol[promo].partition(">")[2]
        if special is None or special[0] != "drop":
            words.append(f"become {kind.name}" if not facing else f"become {kind.name} facing {facing}")
        elif facing:
            words.append(f"facing {facing}")
        picture = render_pieces(game, [piece_image(game, promo)])
    elif not words and captures(pos, move):
        words.append("capture")
    return ", ".join(words) or "move", picture


def result_view(game: Game, result: Outcome | None) -> dict | None:
    """The end of the game in words, with the rule that ended it, or None while it goes on."""
    if result is None:
        return None
    return {"rule": result.rule, "title": result.title, "text": result.describe(game),
            "winners": [game.armies[a].name for a in result.winners], "token": result_token(game, result)}


def state_view(session: Session, ident: str) -> dict:
    """Everything the page shows of a session (see docs/serve.md for the keys); call it under the
    session's lock."""
    game, pos = session.game, session.pos
    legal = pos.legal_moves()
    result = session.result(legal)
    thinking = session.thinking
    plies = session.plies
    state = {
        "id": ident, "version": session.version, "variant": variant_view(game, session.start, session.engines),
        "options": session.source.options, "seats": [seat.view(game) for seat in session.seats],
        "start_fen": session.start_fen, "start_turn": session.start.turn, "start_fullmove": session.start.fullmove,
        "ply": len(plies),
        "moves": [{"san": p.san, "army": game.armies[p.army].name, "forced": p.forced, "notation": p.notation}
                  for p in plies],
        **position_view(game, pos, plies[-1].move if plies else None),
        "legal": legal_view(game, pos, legal),
        "result": result_view(game, result),
        "thinking": None if thinking is None else _thinking_view(game, thinking),
        "failure": session.failure,
        "record": session.record(result),
        "clock": session.clock.view() if session.clock is not None else None,
        "draw_offers": sorted(session.offers), "decided": session.decision is not None,
        "cells_of": {army.name: sorted(game.board.names[c] for c in pos.cells_of[army.index]) for army in game.armies},
    }
    return state


def _thinking_view(game: Game, thinking) -> dict:
    info = thinking.info
    return {"army": game.armies[thinking.army].name, "depth": info.depth if info else 0,
            "score": info.score_text() if info else None, "nodes": info.nodes if info else 0}
