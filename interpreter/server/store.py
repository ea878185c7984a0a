"""The games a server keeps: in memory, at most so many, each for at most so long without a visit;
and, with a database, on disk as well.

Each game has a random id (unguessable: it is the game's spectator link,
and one page cannot find another's game). A game not asked about for
``max_idle`` seconds leaves memory, and when ``max_games`` are in memory a
new one pushes out the one left alone longest; either way its search is
abandoned. Without a database that is the game's end. With one
(:class:`~.database.Database`) every game is written there as it changes,
and a game asked for that is not in memory (the server restarted, or it
was pushed out) is made again from the database by ``restore`` (it plays
its plies again) and kept in memory anew. Asking for an abandoned or
unknown id is a :class:`GameNotFound` (404).
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Callable

from dsl.errors import RulesError, clip

from .database import Database, StoredGame
from .sessions import Session

MAX_GAMES = 64
MAX_IDLE = 6 * 3600.0


class GameNotFound(RulesError):
    """No game of that id: never created, abandoned, or dropped by the caps."""


class GameStore:
    """The games of one server (see the module docstring); ``database`` and ``restore`` (a session
    made from a stored game) keep them across restarts; ``clock`` is for tests."""

    def __init__(self, max_games: int = MAX_GAMES, max_idle: float = MAX_IDLE,
                 clock: Callable[[], float] = time.monotonic, database: Database | None = None,
                 restore: Callable[[StoredGame], Session] | None = None) -> None:
        self.max_games = max_games
        self.max_idle = max_idle
        self.clock = clock
        self.database = database
        self.restore = restore
        self._games: dict[str, Session] = {}
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()
        self._restoring = threading.Lock()   # one game made again at a time, never twice

    def add(self, session: Session) -> str:
        """Keep ``session`` under a new id (written to the database, if any), dropping idle games and,
        when full, the least recent one from memory."""
        ident = secrets.token_urlsafe(12)
        if self.database is not None:
            try:
                session.attach(self.database, ident)
            except RulesError:
                session.close()
                raise
        self._keep(ident, session)
        return ident

    def get(self, ident: str) -> Session:
        """The game ``ident`` (its idle time starts again), from memory or else from the database;
        GameNotFound when there is none."""
        with self._lock:
            self._expire()
            session = self._games.get(ident)
            if session is not None:
                self._seen[ident] = self.clock()
                return session
        if self.database is not None and self.restore is not None and len(ident) <= 64:
            with self._restoring:
                with self._lock:
                    session = self._games.get(ident)
                if session is not None:
                    return session
                stored = self.database.game(ident)
                if stored is not None:
                    session = self.restore(stored)
                    session.attach(self.database, ident, restored=True)
                    self._keep(ident, session)
                    return session
        raise GameNotFound(f"no game '{clip(ident, 40)}'",
                           hint="it was abandoned, or never made" if self.database is not None else
                           f"games are kept in memory for {self.max_idle / 3600:g} hours without a visit, "
                           f"at most {self.max_games} at a time: start a new game")

    def remove(self, ident: str) -> None:
        """Abandon the game ``ident`` (its search stops; it leaves the database); GameNotFound when
        there is none."""
        self.get(ident)
        with self._lock:
            self._drop(ident)
        if self.database is not None:
            self.database.remove(ident)

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._games)

    def close(self) -> None:
        """Abandon every game in memory (the server stops); the database keeps them."""
        with self._lock:
            for ident in list(self._games):
                self._drop(ident)

    def _keep(self, ident: str, session: Session) -> None:
        with self._lock:
            self._expire()
            while len(self._games) >= self.max_games:
                oldest = min(self._seen, key=self._seen.__getitem__)
                self._drop(oldest)
            self._games[ident] = session
            self._seen[ident] = self.clock()

    def _expire(self) -> None:
        now = self.clock()
        for ident in [i for i, seen in self._seen.items() if now - seen > self.max_idle]:
            self._drop(ident)

    def _drop(self, ident: str) -> None:
        session = self._games.pop(ident, None)
        self._seen.pop(ident, None)
        if session is not None:
            session.close()
