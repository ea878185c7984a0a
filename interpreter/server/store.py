"""The games a server keeps: in memory, at most so many, each for at most so long without a visit.

Each game has a random id (unguessable, so that one page cannot read or
play another's game). A game not asked about for ``max_idle`` seconds is
dropped, and when ``max_games`` are kept a new one pushes out the one left
alone longest; either way its search is abandoned. Asking for a dropped or
unknown id is a :class:`GameNotFound` (404).
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Callable

from dsl.errors import RulesError, clip

from .sessions import Session

MAX_GAMES = 64
MAX_IDLE = 6 * 3600.0


class GameNotFound(RulesError):
    """No game of that id: never created, abandoned, or dropped by the caps."""


class GameStore:
    """The games of one server (see the module docstring); ``clock`` is for tests."""

    def __init__(self, max_games: int = MAX_GAMES, max_idle: float = MAX_IDLE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_games = max_games
        self.max_idle = max_idle
        self.clock = clock
        self._games: dict[str, Session] = {}
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def add(self, session: Session) -> str:
        """Keep ``session`` under a new id, dropping idle games and, when full, the least recent one."""
        ident = secrets.token_urlsafe(12)
        with self._lock:
            self._expire()
            while len(self._games) >= self.max_games:
                oldest = min(self._seen, key=self._seen.__getitem__)
                self._drop(oldest)
            self._games[ident] = session
            self._seen[ident] = self.clock()
        return ident

    def get(self, ident: str) -> Session:
        """The game ``ident`` (its idle time starts again); GameNotFound when there is none."""
        with self._lock:
            self._expire()
            session = self._games.get(ident)
            if session is None:
                raise GameNotFound(f"no game '{clip(ident, 40)}'",
                                   hint=f"games are kept in memory for {self.max_idle / 3600:g} hours without a visit, "
                                        f"at most {self.max_games} at a time: start a new game")
            self._seen[ident] = self.clock()
            return session

    def remove(self, ident: str) -> None:
        """Abandon the game ``ident`` (its search stops); GameNotFound when there is none."""
        self.get(ident)
        with self._lock:
            self._drop(ident)

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._games)

    def close(self) -> None:
        """Abandon every game (the server stops)."""
        with self._lock:
            for ident in list(self._games):
                self._drop(ident)

    def _expire(self) -> None:
        now = self.clock()
        for ident in [i for i, seen in self._seen.items() if now - seen > self.max_idle]:
            self._drop(ident)

    def _drop(self, ident: str) -> None:
        session = self._games.pop(ident, None)
        self._seen.pop(ident, None)
        if session is not None:
            session.close()
