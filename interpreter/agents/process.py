"""A child process spoken to in lines of text: an engine over UCI, or any program that answers in lines.

:class:`LineProcess` starts the program with pipes for its input, output and
errors; two threads read its output and error streams, so that a child that
goes silent is a timeout and one that exits is an :class:`EngineFailure`
with the last lines it wrote to stderr, never a hang of the caller. The
process is killed when :meth:`LineProcess.close` is called, and at the
latest when the object is collected or the interpreter exits.
"""

from __future__ import annotations

import queue
import subprocess
import threading
import time
import weakref
from typing import Callable

STDERR_LINES = 20       # the last lines of the child's stderr kept for messages
LINE_LIMIT = 100_000    # characters of one line kept (a child that writes more is cut, not believed)
QUEUE_LIMIT = 10_000    # lines waiting to be read; a child that floods its output is stopped


class EngineFailure(Exception):
    """The child did not answer in time, exited, or flooded its output: the message says which,
    with its last words on stderr."""


class LineProcess:
    """A child process: :meth:`send` a line, :meth:`expect` the lines up to an answer.

    ``argv`` is the program and its arguments (no shell is involved); ``name`` is how messages
    call it. Raises :class:`EngineFailure` when the program cannot be started."""

    def __init__(self, argv: list[str], name: str, env: dict | None = None, cwd: str | None = None) -> None:
        self.name = name
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         text=True, encoding="utf-8", errors="replace", bufsize=1, env=env, cwd=cwd)
        except OSError as err:
            raise EngineFailure(f"{name} could not be started: {err.strerror or err}") from None
        self.lines: queue.Queue[str | None] = queue.Queue(QUEUE_LIMIT)
        self.errors: list[str] = []   # the last lines it wrote to stderr
        self._finalizer = weakref.finalize(self, _kill, self.proc)
        # The threads hold the queue, the list and the process, not this object: dropping it kills the child.
        threading.Thread(target=_pump_lines, args=(self.proc.stdout, self.lines, self.proc), daemon=True).start()
        self._error_reader = threading.Thread(target=_pump_errors, args=(self.proc.stderr, self.errors), daemon=True)
        self._error_reader.start()

    def send(self, line: str) -> None:
        """Write ``line`` and a newline to the child's input."""
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineFailure(f"{self.name} has exited ({self.stderr()})") from None

    def next_line(self, timeout: float) -> str | None:
        """The next line the child writes, or None if none comes within ``timeout`` seconds;
        :class:`EngineFailure` once the child has ended and every line was read."""
        try:
            line = self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)
            try:
                code = self.proc.wait(timeout=1.0)   # the output ends just before the process does
            except subprocess.TimeoutExpired:
                code = None
            how = f"exited with status {code}" if code is not None else "closed its output"
            raise EngineFailure(f"{self.name} {how} ({self.stderr()})")
        return line

    def drain(self) -> None:
        """Drop the lines the child has written that were not read (those waiting now: a child that
        keeps writing cannot keep this busy); :class:`EngineFailure` if the child has ended."""
        for _ in range(self.lines.qsize()):
            if self.next_line(0) is None:
                break

    def expect(self, done: Callable[[str], bool], timeout: float) -> list[str]:
        """The lines read up to and including the first one for which ``done`` is true, within
        ``timeout`` seconds in all; :class:`EngineFailure` if none comes in time or the child ends."""
        lines: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.next_line(deadline - time.monotonic())
            if line is None:
                raise EngineFailure(f"{self.name} did not answer in {timeout:g} s")
            lines.append(line)
            if done(line):
                return lines

    def stderr(self) -> str:
        """The last lines the child wrote to stderr, for a message. Once the child has ended, its
        last words are waited for (up to a second): its stderr can still be in the pipe when its
        exit is seen on stdout."""
        if self.proc.poll() is not None:
            self._error_reader.join(timeout=1.0)
        return "stderr: " + " | ".join(self.errors[-STDERR_LINES:]) if self.errors else "nothing on stderr"

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, last: str = "quit", wait: float = 5.0) -> None:
        """Send ``last`` and wait up to ``wait`` seconds for the child to exit; then kill it."""
        if self.alive:
            try:
                self.send(last)
                self.proc.wait(timeout=wait)
            except (EngineFailure, subprocess.TimeoutExpired):
                pass
        self._finalizer()


def _kill(proc: subprocess.Popen) -> None:
    """Kill ``proc`` if it still runs, and reap it."""
    if proc.poll() is None:
        proc.kill()
    try:
        proc.wait(timeout=5.0)
    except subprocess.TimeoutExpired:
        pass
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass


def _pump_lines(stream, lines: queue.Queue, proc: subprocess.Popen) -> None:
    """Put each line of ``stream`` (cut to :data:`LINE_LIMIT`) into ``lines``, then None at its end. A
    child whose lines nobody reads for ten seconds while :data:`QUEUE_LIMIT` wait floods its output:
    it is killed (its end is then seen)."""
    for line in stream:
        try:
            lines.put(line.rstrip("\r\n")[:LINE_LIMIT], timeout=10.0)
        except queue.Full:
            _kill(proc)
            break
    try:
        lines.put(None, timeout=10.0)
    except queue.Full:
        pass


def _pump_errors(stream, errors: list[str]) -> None:
    """Keep the last :data:`STDERR_LINES` lines of ``stream`` in ``errors``."""
    for line in stream:
        errors.append(line.rstrip("\r\n")[:LINE_LIMIT])
        del errors[:-STDERR_LINES]
