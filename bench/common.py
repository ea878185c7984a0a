"""What the match scripts share: a line-speaking child process, one game refereed by our rules, team points.

Used by ``bench/fsf_match.py`` and ``bench/agent_vs_agent.py``; scripts import it as
``bench.common`` after putting the repository root on ``sys.path`` (see either of them).
Only the project's stable interfaces are used here: loading, positions, the outcome and the
from-to and SAN notations.
"""

from __future__ import annotations

import queue
import random
import statistics
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from interpreter.engine.outcome import outcome, ply_cap
from interpreter.loading import start_position
from interpreter.notation.san import move_to_san, move_to_uci


class Unscored(Exception):
    """A game that cannot be judged: a move our rules cannot read, a player that gave up or failed."""


class LineProcess:
    """A child process spoken to in lines of text: :meth:`send` a line, :meth:`expect` the answer.

    Its output is read by a thread into a queue, so that a silent or dead child is a timeout or
    an :class:`Unscored` with the last lines it wrote to stderr, never a hang."""

    def __init__(self, argv: list[str], name: str, env: dict | None = None, cwd: str | None = None) -> None:
        self.name = name
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, encoding="utf-8", errors="replace", bufsize=1, env=env, cwd=cwd)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: list[str] = []   # what it wrote to stderr
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, lambda line: line is not None and
                                                  self.errors.append(line)), daemon=True).start()

    @staticmethod
    def _pump(stream, put) -> None:
        for line in stream:
            put(line.rstrip("\r\n"))
        put(None)

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise Unscored(f"{self.name} is gone ({self._stderr()})") from None

    def expect(self, done: Callable[[str], bool], timeout: float) -> list[str]:
        """The lines read up to and including the first one for which ``done`` is true, within
        ``timeout`` seconds in all."""
        lines, deadline = [], time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise Unscored(f"{self.name} did not answer in {timeout:g} s") from None
            if line is None:
                self.lines.put(None)
                raise Unscored(f"{self.name} ended ({self._stderr()})")
            lines.append(line)
            if done(line):
                return lines
            if time.monotonic() > deadline:
                raise Unscored(f"{self.name} did not answer in {timeout:g} s")

    def _stderr(self) -> str:
        return " | ".join(self.errors[-20:]) or "nothing on stderr"

    def close(self, last: str = "quit", wait: float = 10.0) -> None:
        try:
            self.send(last)
            self.proc.wait(timeout=wait)
        except (Unscored, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


@dataclass
class Played:
    """One game: how it ended (None when it could not be judged), the moves in from-to form and in
    SAN, and why it was left unscored."""

    result: object | None
    texts: list[str] = field(default_factory=list)
    sans: list[str] = field(default_factory=list)
    unscored: str | None = None

    @property
    def plies(self) -> int:
        return len(self.texts)


Chooser = Callable[[object, list, list], object]
"""``choose(pos, legal, texts)``: the move to play in ``pos`` (``legal``: its legal moves,
``texts``: the moves played so far, in from-to form, the opening's included). Raises
:class:`Unscored` to give the game up."""


def play_out(game, choose: Chooser, rng: random.Random, opening_plies: int, max_plies: int) -> Played:
    """Play a game of ``game`` from its start: ``opening_plies`` random moves, then ``choose``'s,
    judged by our rules; a game that reaches ``max_plies`` is drawn by adjudication. An only legal
    move is played without asking."""
    pos = start_position(game)
    played = Played(None)
    for ply in range(max_plies + 1):
        legal = pos.legal_moves()
        result = outcome(pos, legal)
        if result is not None or ply == max_plies:
            played.result = result or ply_cap(pos, max_plies)
            break
        try:
            move = rng.choice(legal) if ply < opening_plies else legal[0] if len(legal) == 1 else choose(pos, legal, played.texts)
        except Unscored as err:
            played.unscored = str(err)
            break
        played.texts.append(move_to_uci(pos, move, legal=legal))
        played.sans.append(move_to_san(pos, move, legal=legal))
        pos.push(move)
    return played


def team_points(result, armies: set[int]) -> float:
    """The points (1, 1/2, 0) of the player of ``armies`` for a game that ended with ``result``: a win
    when only its armies (with their partners, who share the result) are among the winners, a loss
    when none is, a half point for a draw or a shared win."""
    winners = set(result.winners)
    if not winners:
        return 0.5
    mine = bool(winners & armies)
    return 1.0 if mine and not winners - armies else 0.0 if not mine else 0.5


def write_records(path: str | None, records: list[str]) -> None:
    """Write the game records to ``path`` (nothing without one)."""
    if path:
        with open(path, "w", encoding="utf-8") as out:
            out.write("\n".join(records))


def agent_stats(depths: list[int], nps: list[int]) -> str:
    """``depth D, N n/s``: the medians of a player's completed depths and nodes per second."""
    if not depths:
        return "no searches"
    return f"median depth {statistics.median(depths):g}, {statistics.median(nps):,.0f} n/s"
