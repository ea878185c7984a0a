"""The engine's side of a line protocol: commands in, answers out, and a search beside them.

A GUI expects answers while the engine thinks (``isready`` -> ``readyok``,
``ping`` -> ``pong``, ``stop`` -> the best move at once), so three threads
share the work:

- a reader thread turns each line of standard input into an event;
- a search thread runs one :class:`SearchJob` at a time (the agent's
  ``choose``, which polls its stop flag) and posts an event when it ends;
- the main thread takes the events one by one from a queue and is the only
  one that changes the game's state, so commands and finished searches never
  race. Lines are written whole under a lock, from any thread.

Everything here is light: importing it loads neither the compiler nor an
agent, so a protocol can answer its handshake before compiling anything.
"""

from __future__ import annotations

import queue
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

LINE, EOF, SEARCHED = "line", "eof", "searched"


class Channel:
    """Lines from ``stdin`` as events in a queue, lines to ``stdout`` written whole."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.lock = threading.Lock()

    def start_reading(self) -> None:
        """Read standard input in a daemon thread: a ``line`` event per line, then ``eof``."""
        threading.Thread(target=self._read, name="protocol-reader", daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.stdin:
                self.post(LINE, line.rstrip("\r\n"))
        except (OSError, ValueError, UnicodeDecodeError):
            pass  # a closed or undecodable input ends the session like its end does
        self.post(EOF, None)

    def post(self, kind: str, value: Any = None) -> None:
        self.events.put((kind, value))

    def next_event(self) -> tuple[str, Any]:
        return self.events.get()

    def write(self, *lines: str) -> None:
        """Write ``lines`` (each without its newline) and flush; a closed output is ignored."""
        with self.lock:
            try:
                for line in lines:
                    self.stdout.write(line + "\n")
                self.stdout.flush()
            except (OSError, ValueError):
                pass


@dataclass
class SearchJob:
    """One search: ``run`` calls ``choose(stop_event)`` in the search thread and keeps its result (or
    the exception it raised). ``tag`` says what the result is for (the protocol's business);
    ``root`` is the position searched, for writing the result's moves."""

    choose: Callable[[threading.Event], Any]
    tag: Any = None
    root: Any = None
    stop: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None
    finished: bool = False

    def run(self) -> None:
        try:
            self.result = self.choose(self.stop)
        except Exception as err:  # a bug in a search must not end the engine: it is reported instead
            self.error = err
        self.finished = True


class Searcher:
    """Runs one :class:`SearchJob` at a time in a thread and posts a ``searched`` event with the job
    when it ends. ``current`` is the job still owed an answer, if any."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.current: SearchJob | None = None
        self._thread: threading.Thread | None = None

    def start(self, job: SearchJob) -> None:
        """Start ``job``; a job still running is stopped and dropped first."""
        self.abandon()
        self.current = job
        self._thread = threading.Thread(target=self._run, args=(job,), name="protocol-search", daemon=True)
        self._thread.start()

    def _run(self, job: SearchJob) -> None:
        job.run()
        self.channel.post(SEARCHED, job)

    def finish(self) -> SearchJob | None:
        """Stop the current job, wait for it and hand it over (None if there was none): its answer is
        the caller's to give now. Its ``searched`` event, still queued, is then ignored."""
        job = self.current
        if job is None:
            return None
        job.stop.set()
        if self._thread is not None:
            self._thread.join()
        self.current = None
        return job

    def abandon(self) -> None:
        """Stop the current job and forget it: its result is not wanted."""
        self.finish()

    def take(self, job: SearchJob) -> bool:
        """Whether the ``searched`` event of ``job`` is still owed an answer (and, if so, it is no longer
        current)."""
        if job is not self.current:
            return False
        self.current = None
        return True


class LineEngine:
    """What both protocols share: the event loop over a :class:`Channel`, a :class:`Searcher`, and the
    agent spec. A protocol answers :meth:`command` (one input line) and :meth:`searched` (a search
    that ended); ``quit`` or the end of input ends :meth:`run`."""

    def __init__(self, channel: Channel, agent: str) -> None:
        self.channel = channel
        self.searcher = Searcher(channel)
        self.agent_spec = agent
        self.session: Any = None     # the protocol's Session, made (importing the engine) when first needed

    def run(self) -> int:
        """Serve until ``quit`` or the end of input; returns the exit status."""
        self.channel.start_reading()
        while True:
            kind, value = self.channel.next_event()
            if kind == EOF:
                break
            if kind == SEARCHED:
                self.searched(value)
                continue
            line = value.strip()
            if not line:
                continue
            if line.split()[0] == "quit":
                break
            self.command(line)
        self.searcher.abandon()
        return 0

    def command(self, line: str) -> None:
        raise NotImplementedError

    def searched(self, job: SearchJob) -> None:
        raise NotImplementedError

    def set_agent(self, spec: str) -> None:
        """Search with the agent of ``spec`` from now on (UsageError for a bad spec, which changes nothing)."""
        self.searcher.abandon()
        if self.session is not None:
            self.session.set_agent(spec)
        else:
            check_agent(spec)
            from interpreter.agents import parse_agent
            parse_agent(spec)
        self.agent_spec = spec


EXTERNAL_PREFIXES = ("uci:", "xboard:")
"""The specs of external engines (:data:`interpreter.agents.specs.ENGINE_PREFIXES`, written out here:
importing the agents would load the engine before the handshake is answered)."""


def check_agent(spec: str) -> None:
    """Raise UsageError for a spec that names an external engine (``uci:``, ``xboard:``, see
    :mod:`interpreter.agents.specs`): a GUI's option must not start a program, and an engine that
    relays another is of no use. (Read from the text: the protocol answers its handshake before any
    agent is loaded.)"""
    if spec.strip().startswith(EXTERNAL_PREFIXES):
        from dsl import UsageError
        raise UsageError("the engine protocols search with this project's agents, not an external engine",
                         hint="give the GUI the other engine directly")
