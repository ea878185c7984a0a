"""What the computer shows while it thinks: depth, score, best line and speed as the search deepens.

On a terminal a single status line is rewritten in place (``\\r``, then
cleared when the move is played); elsewhere (a pipe, a file, a test) each
completed depth is one plain line, so that a log keeps every step.
"""

from __future__ import annotations

import sys
from typing import TextIO

from interpreter.agents import SearchInfo
from interpreter.notation.san import move_to_san

PV_MOVES = 8       # moves of the best line shown
WIDTH = 100        # the status line is cut to this many characters on a terminal


def line_text(pos, pv) -> str:
    """The moves of ``pv`` from ``pos`` in SAN (on a copy of the position)."""
    board, words = pos.copy(), []
    for move in pv[:PV_MOVES]:
        words.append(move_to_san(board, move))
        board.push(move)
    return " ".join(words) + (" ..." if len(pv) > PV_MOVES else "")


def describe(info: SearchInfo, pos) -> str:
    """``depth 6  +0.35  Nf3 Nc6 d4  12,345 n/s`` for one report of a search."""
    return (f"depth {info.depth}/{info.seldepth}  {info.score_text()}  {line_text(pos, info.pv)}"
            f"  {info.nps:,} n/s")


class Thinking:
    """An ``on_info`` callback that shows ``who`` thinking about ``pos`` on ``stream``."""

    def __init__(self, pos, who: str, stream: TextIO = sys.stdout, tty: bool | None = None) -> None:
        self.pos = pos.copy()
        self.who = who
        self.stream = stream
        self.tty = stream.isatty() if tty is None else tty
        self.shown = False
        if self.tty:
            self._status(f"{who} is thinking ...")

    def __call__(self, info: SearchInfo) -> None:
        text = f"{self.who} thinks: {describe(info, self.pos)}"
        if self.tty:
            self._status(text)
        else:
            print(text, file=self.stream, flush=True)

    def _status(self, text: str) -> None:
        self.stream.write("\r\x1b[K" + text[:WIDTH])
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Clear the status line (on a terminal)."""
        if self.tty and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def summary(info: SearchInfo) -> str:
    """``depth 6, +0.35, 1.0 s`` after a move: what the search reached."""
    return f"depth {info.depth}, {info.score_text()}, {info.time:.1f} s"


def describe_budget(budget) -> str:
    """``1 s a move``, ``depth 4``, ``20,000 nodes`` (the limits of a budget, joined)."""
    parts = []
    if budget.time is not None:
        parts.append(f"{budget.time:g} s a move")
    if budget.depth is not None:
        parts.append(f"depth {budget.depth}")
    if budget.nodes is not None:
        parts.append(f"{budget.nodes:,} nodes")
    return ", ".join(parts) or "no limit"
