"""The terminal game loop: any variant, a human or an agent in each seat.

A human types a move in SAN (``Nf3``, ``exd5``, ``O-O``, ``e8=Q``) or from-to
form (``g1f3``, ``e7e8q``), or a command: ``moves`` (list legal moves),
``undo`` (take back the last move of each side), ``fen``, ``resign``,
``help`` or ``quit``. A rejected move is explained (unreadable, longer than
any move, or why it is illegal) and the game goes on. A forced move (a pass, a mated king
leaving the board) is played for whoever must play it. While the computer
thinks, its search is shown as it deepens (see :mod:`interpreter.cli.thinking`).
Resigning ends the game (the side that resigns loses), unless the variant
declares ``when resigning: remove-royal``: the king then leaves the board as
the army's move and the army plays on for its partners (Superchess), or
``when resigning: eliminate``: the army is out of the game, its pieces stay on
the board, inert, and the others play on (four-player Free-for-all); such a
resignation is written ``resign`` in the game record, where it reads back as the
same move. The result is reported with the rule that ended it. A game that
reaches its ply cap (``max_plies`` plies played here, people's moves included)
is over, adjudicated a draw (:func:`~interpreter.engine.outcome.ply_cap`), so
that a game of computers that no rule ends stops.

With a game clock (``--clock``, see :mod:`interpreter.agents.clock`) every
player has one, shown at the prompt and after each computer's move: a
person's runs from the prompt of the turn until the move is entered
(commands such as ``moves`` included), a computer's while it thinks, and a
move that oversteps it loses on time (a person's is found out when the move
is entered). ``undo`` takes moves back, not the time they took.

With ``--ponder`` the computer thinks on a person's time: it searches the
position its expected reply leads to while the person thinks (see
:mod:`interpreter.cli.pondering`).
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from dsl import MoveError
from dsl.errors import LimitError
from dsl.limits import DEFAULT_MAX_PLIES

from interpreter.compiler.game import Game
from interpreter.agents.clock import GameClock, TimeControl
from interpreter.agents.matches import timed_choice
from interpreter.engine.outcome import TIME_FORFEIT, outcome, ply_cap, resignation, resignation_outcome
from interpreter.engine.position import Position
from interpreter.engine.stacking import lower_pieces

from .pondering import Ponder
from .thinking import Thinking, describe_budget, summary

HELP = """Enter a move in SAN (Nf3, exd5, O-O, e8=Q) or from-to form (g1f3, e7e8q).
Commands: moves (list legal moves), undo (take back a move pair), fen (show the position),
resign (where the variant says so, your king leaves the board and your army plays on, or your army
is out of the game, its pieces left on the board), help, quit."""


def render_text(pos: Position) -> str:
    """The board as text: ranks from the top, piece symbols, '.' for empty cells, ' ' for no cell.

    In stacking games a stack shows as ``bottom/top`` (``P/b``: a white pawn
    locked under a black bishop). A board drawn turned (Superchess's
    diamond, see :func:`_lattice`) is shown turned the same way, each empty
    cell showing its name.
    """
    game = pos.game
    board = game.board
    width = max(len(_symbol(game, c)) for c in range(1, game.ncodes)) if game.ncodes > 1 else 1
    if game.stacking is not None:
        width = game.stacking.height * (width + 1) - 1

    def cell_text(cell: int) -> str:
        code = pos.board[cell]
        if not code:
            return "."
        if pos.under[cell]:
            return "/".join(_symbol(game, c) for c in (*lower_pieces(pos, cell), code))
        return _symbol(game, code)

    lattice = _lattice(game)
    if lattice is not None:
        width = max(width, max(len(n) for n in board.names))
        rows: dict[int, dict[int, str]] = {}
        for cell, (x, y) in enumerate(lattice):
            text = cell_text(cell) if pos.board[cell] else board.names[cell]
            rows.setdefault(y, {})[x * (width + 1) // 2] = text.center(width)
        lines = []
        for y in sorted(rows, reverse=True):
            line = ""
            for column in sorted(rows[y]):
                line = line.ljust(column) + rows[y][column]
            lines.append("  " + line.rstrip())
        return "\n".join(lines)

    xs, ys = [x for x, _ in board.coords], [y for _, y in board.coords]
    columns = range(min(xs), max(xs) + 1)
    rank_names = {board.coords[c][1]: p[1] for c, p in enumerate(board.parts) if p is not None}
    file_names = {board.coords[c][0]: p[0] for c, p in enumerate(board.parts) if p is not None}
    lines = []
    for y in range(max(ys), min(ys) - 1, -1):
        row = []
        for x in columns:
            cell = board.at.get((x, y), -1)
            row.append(" " * width if cell < 0 else cell_text(cell).center(width))
        lines.append(f"{rank_names.get(y, ''):>3}  " + " ".join(row))
    lines.append("     " + " ".join(file_names.get(x, "").center(width) for x in columns))
    return "\n".join(lines)


def _side(game: Game, pos: Position) -> str:
    """Who is to move: the army, or the player and armies of a shared turn ("Light (White and Tan)")."""
    if len(pos.movers) == 1:
        return game.armies[pos.army].title
    player = next((name for name, armies in game.players.items() if set(armies) == set(pos.movers)), "")
    titles = " and ".join(game.armies[a].title for a in pos.movers)
    return f"{player.capitalize()} ({titles})" if player else titles


def _symbol(game: Game, code: int) -> str:
    """A piece's symbol on the text board: its FEN symbol without a facing (``wP``)."""
    return game.code_symbol[code].split(">")[0]


def _lattice(game: Game) -> list[tuple[int, int]] | None:
    """Cell positions for a text board drawn as the board is, or None to draw the grid.

    Used when the rules file places the cells (``position``) on whole
    numbers, no two in a row nearer than two units (a grid turned 45
    degrees): x and y are then shifted to start at 0.
    """
    if not game.spec.board.positions:
        return None
    centres = game.board.centres
    if any(abs(v - round(v)) > 1e-9 for xy in centres for v in xy):
        return None
    points = [(round(x), round(y)) for x, y in centres]
    rows: dict[int, list[int]] = {}
    for x, y in points:
        rows.setdefault(y, []).append(x)
    if any(b - a < 2 for xs in rows.values() for a, b in zip(sorted(xs), sorted(xs)[1:])):
        return None
    left, bottom = min(x for x, _ in points), min(y for _, y in points)
    return [(x - left, y - bottom) for x, y in points]


def _who(spec) -> str:
    """How the intro names a seat: you, or the computer with its agent and budget."""
    if spec == "human":
        return "you"
    return f"the computer ({spec.label}, {describe_budget(spec.budget)})"


def play(game: Game, pos: Position, seats: dict, seed: int | None = None,
         record_path: str | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
         max_plies: int = DEFAULT_MAX_PLIES, clock: TimeControl | None = None, ponder: bool = False) -> int:
    """Run a game to its end, or to ``max_plies`` plies (its record's; then a draw by adjudication);
    ``seats`` maps army index -> ``"human"`` or an agent spec
    (:class:`interpreter.agents.AgentSpec`); armies of one spec share one agent. While an agent
    thinks, :class:`~interpreter.cli.thinking.Thinking` shows its progress. ``clock``: a game clock
    for every player (see the module docstring; None: each agent's move gets its spec's budget).
    ``ponder``: the computer thinks on a person's time (:class:`~interpreter.cli.pondering.Ponder`).
    Returns the exit status.

    The record goes to ``record_path`` when the game ends, is left or interrupted (Ctrl-C); if the
    file cannot be written, the record is printed instead and the status is 2. ``stdin`` and
    ``stdout`` default to the process's streams at the time of the call.
    """
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout

    from interpreter.notation.san import legal_move_table, move_to_san
    from interpreter.notation.reading import parse_move
    from interpreter.loading.records import game_record
    from interpreter.notation.fen import to_fen

    from .common import keep_text

    start_fen = to_fen(pos)
    made: dict[int, object] = {}
    agents = {}
    for army, spec in seats.items():
        if spec != "human":
            if id(spec) not in made:
                made[id(spec)] = spec.make(0 if seed is None else seed + army)
            agents[army] = (made[id(spec)], spec.budget)
    played: list[str] = []
    clocks = GameClock(clock, game) if clock is not None else None
    pondering = Ponder()
    stamps: list[float | None] = []   # per move of played: its player's clock after it (the record's %clk)

    def push(move, san: str) -> None:
        pos.push(move)
        played.append(san)
        stamps.append(clocks.after[-1] if clocks is not None else None)

    def left() -> str:
        """The clock of the player to move, for the prompt."""
        return f" [{clocks.left[clocks.player_of[pos.army]]:.1f} s]" if clocks is not None else ""

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    say(f"{game.title}. Type 'help' for help.")
    for name, armies in game.players.items():
        titles = " and ".join(game.armies[a].title for a in armies)
        say(f"{titles}: {_who(seats[armies[0]])}")
    if ponder and "human" in seats.values():
        learners = [agent for agent, _ in agents.values() if agent.learns]
        say("The computer thinks on your time." if learners else
            "--ponder: no computer here keeps what it learns from a search to the next (a level of strength does not)"
            ", so none thinks on your time.")

    def turns():
        """Play until the game ends or a player leaves; the outcome, or None for a game left unfinished."""
        result = None
        turn_started = None   # when the person to move was first asked for this move
        expected, expected_at = None, -1   # the computer's expected reply to its last move, and the plies then
        while True:
            say()
            say(render_text(pos))
            legal = pos.legal_moves()
            result = outcome(pos, legal)
            if result is None and len(played) >= max_plies:
                result = ply_cap(pos, max_plies)
            if result is not None:
                say(f"\nGame over: {result.describe(game)}.")
                break
            side = _side(game, pos)
            check = " (in check)" if pos.in_check() else ""
            forced = len(legal) == 1 and legal[0][3] is not None and legal[0][3][0] in ("pass", "remove", "out")
            if pos.army in agents or forced:
                if forced:
                    move, info = legal[0], None
                    if clocks is not None:
                        clocks.punch(pos, 0.0)
                else:
                    agent, budget = agents[pos.army]
                    thinking = Thinking(pos, side, stdout)
                    try:
                        info, result = timed_choice(agent, pos, budget, clocks, on_info=thinking)
                    finally:
                        thinking.close()
                    if result is not None:
                        lost = "loses on time" if result.rule == TIME_FORFEIT else "forfeits"
                        say(f"\n{side} {lost}.\nGame over: {result.describe(game)}.")
                        break
                    assert info is not None
                    move = info.move
                    if ponder and agent.learns and len(info.pv) > 1 and info.pv[0] == move:
                        expected, expected_at = info.pv[1], len(played) + 1
                san = move_to_san(pos, move, legal=legal)
                if forced and move[3][0] == "pass":
                    say(f"{side} has no legal move and passes")
                elif forced and move[3][0] == "out":
                    say(f"{side} has no legal move and is out of the game")
                elif forced:
                    say(f"{side}: the king is mated and leaves the board")
                else:
                    spent = f"  [{clocks.after[-1]:.1f} s left]" if clocks is not None else ""
                    say(f"{side} plays {san}" + (f"  ({summary(info)})" if info.depth else "") + spent)
            else:
                if turn_started is None:
                    turn_started = time.perf_counter()
                if expected_at == len(played) and expected in legal:
                    after = pos.copy()
                    after.push(expected)
                    if after.army in agents:
                        pondering.start(agents[after.army][0], after, (len(played), pos.hash))
                print(f"{side} to move{check}{left()}> ", end="", file=stdout, flush=True)
                line = stdin.readline()
                if not line:
                    say("\nend of input: game abandoned.")
                    break
                text = line.strip()
                if not text:
                    continue
                resigned = resignation(pos) if text == "resign" else None
                if resigned is not None:
                    # The variant lets the game go on: the resignation is the armies' move, written 'resign'.
                    gone = "its pieces stay on the board, inert" if resigned[0] < 0 else "its king leaves the board"
                    say(f"{side} resigns: {gone}.")
                    if clocks is not None:
                        clocks.punch(pos, 0.0)
                    push(resigned, "resign")
                    turn_started = None
                    continue
                if text == "resign":
                    result = resignation_outcome(pos)
                    say(f"{side} resigns.\nGame over: {result.describe(game)}.")
                    break
                if text not in ("help", "moves", "fen"):
                    pondering.stop()     # the person's turn ends, or the position changes
                if text in ("quit", "exit"):
                    say(f"{side} leaves the game.")
                    break
                if text == "help":
                    say(HELP)
                    continue
                if text == "moves":
                    say(" ".join(row["san"] for row in legal_move_table(pos)))
                    continue
                if text == "fen":
                    say(to_fen(pos))
                    continue
                if text == "undo":
                    undone = 0
                    while played and undone < 2:
                        pos.pop()
                        played.pop()
                        stamps.pop()
                        undone += 1
                        if pos.army not in agents:
                            break
                    turn_started = None
                    continue
                try:
                    move = parse_move(pos, text, legal=legal)
                except (MoveError, LimitError) as err:   # LimitError: a line longer than any move
                    say(err.render())
                    continue
                san = move_to_san(pos, move, legal=legal)
                if clocks is not None:
                    result = clocks.punch(pos, time.perf_counter() - turn_started)
                    if result is not None:
                        say(f"{side} loses on time.\nGame over: {result.describe(game)}.")
                        break
                turn_started = None
            push(move, san)
        return result

    status, result = 0, None
    try:
        result = turns()
    except KeyboardInterrupt:
        say("\ninterrupted: the game is left unfinished.")
        status = 130
    finally:
        pondering.stop()
        for agent, _ in agents.values():
            agent.close()
    if record_path:
        names = {game.armies[a].name: "human" if spec == "human" else spec.label for a, spec in seats.items()}
        tags = {"TimeControl": str(clock)} if clock is not None else None
        record = game_record(game, start_fen, played, result, names, tags, clocks=stamps)
        if keep_text(record_path, record, "the game record", stdout):
            say(f"game record saved to {record_path}")
        else:
            status = status or 2
    return status
