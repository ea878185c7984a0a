"""A GUI's view of an engine process for the protocol tests: lines in, lines out, waits that time out."""

from __future__ import annotations

import subprocess
import threading
import time

WAIT = 120  # seconds: the longest any answer may take on a loaded machine


def popen_xboard(command: list[str]):
    """python-chess's XBoard client on ``command``. python-chess gives an engine a fixed two seconds
    to begin its answer to ``protover 2`` (its own deadline: WAIT does not reach it) and then reads
    it as an engine without features; a loaded machine can take longer than that to start Python,
    so a start whose features came too late is tried once more (an engine that never declares
    them fails both)."""
    import chess.engine
    try:
        return chess.engine.SimpleEngine.popen_xboard(command, timeout=WAIT)
    except chess.engine.EngineError as err:
        if "did not declare required feature" not in str(err):
            raise
    return chess.engine.SimpleEngine.popen_xboard(command, timeout=WAIT)


class Raw:
    """The engine as a GUI sees it: lines in, lines out (read by a thread, so waits can time out)."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: list[str] = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            with self.cond:
                self.lines.append(line.rstrip("\n"))
                self.cond.notify_all()

    def send(self, *lines: str) -> None:
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, predicate, since: int = 0, timeout: float = WAIT) -> list[str]:
        """The lines read from number ``since`` on, once one of them satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while not any(predicate(line) for line in self.lines[since:]):
                left = deadline - time.monotonic()
                assert left > 0, f"no such line within {timeout} s; read: {self.lines[-20:]}"
                self.cond.wait(left)
            return self.lines[since:]

    def ask(self, *lines: str) -> list[str]:
        """Send ``lines`` then ``isready``; the lines answered up to its ``readyok``."""
        start = len(self.lines)
        self.send(*lines, "isready")
        answered = self.wait_for(lambda line: line == "readyok", since=start)
        return answered[:answered.index("readyok")]

    def best_move(self, since: int = 0) -> str:
        """The move of the first ``bestmove`` line from number ``since`` on."""
        lines = self.wait_for(lambda line: line.startswith("bestmove"), since=since)
        return next(line for line in lines if line.startswith("bestmove")).split()[1]

    def close(self) -> int:
        self.send("quit")
        return self.process.wait(timeout=WAIT)
