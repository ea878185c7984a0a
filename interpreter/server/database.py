"""Games that survive the server: one SQLite file (``rules serve --db PATH``).

A game is a row of ``games``: its id, what it was made from (a bundled
variant's name, or the rules text a browser sent, never a path to read
later), the blake2b hash of that rules text (for a bundled variant, of its
file as it was), its mode and options, its start position (FEN), its seats
(kinds) and their secret tokens, when it was created and last changed, and
the game's version number then (a game made again continues above it, so
that a page that saw the game before the restart takes its new states as
newer). Each
ply played is a row of ``plies`` (its SAN and whether it was forced), written
and committed before the request that played it is answered; a ply taken
back is deleted, before the undo is answered. The file is in WAL mode with ``synchronous=FULL``: a server
killed at any moment keeps every ply it acknowledged. ``schema`` holds the
schema's version; a file of another version is refused rather than misread.

At most ``max_games`` games are kept: creating one more deletes the one
changed longest ago. A game is deleted when it is abandoned
(``DELETE /api/games/ID``). Every method is safe from any thread (one
connection, behind a lock); a write that fails (a full disk, a file made
read-only) is a :class:`StorageFailed`, which the server answers 503.

Schema version 2 added two columns to ``games``: ``clock``, the game clocks
(:meth:`.clocks.SeatClocks.stored`, JSON, written with every ply; NULL for a
game without clocks) and ``decision``, a resignation, a draw agreed or a
flag fall (the :class:`~interpreter.engine.outcome.Outcome`, JSON; NULL
while the game goes on or ended by its rules). A file of version 1 is
brought to version 2 when it is opened (its games have neither).

Schema version 3 added ``offers`` to ``games``: the seats that offer a draw
now (a JSON list of seat names, ``[]`` for none), written when an offer is
made, accepted or declined, and when a move or the game's end clears it. A
file of version 1 or 2 is brought to version 3 when it is opened (its games
have no offer).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path

from dsl.errors import RulesError, UsageError
from dsl.files import bundled_variant

from interpreter.engine.outcome import Outcome

SCHEMA_VERSION = 3
MAX_STORED = 2_000
"""Games kept in one file; the one changed longest ago goes first. With rules texts of at most 128 KiB
and plies bounded by the ply cap, the file stays below about 300 MB."""


class StorageFailed(RulesError):
    """A write to the games' database failed (the server answers 503); the plies it would have kept are
    taken back (:meth:`~.sessions.Session._save`)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, variant TEXT, rules TEXT, rules_hash TEXT NOT NULL, label TEXT,
    mode TEXT, options TEXT NOT NULL, start_fen TEXT NOT NULL, seats TEXT NOT NULL, tokens TEXT NOT NULL,
    created REAL NOT NULL, changed REAL NOT NULL, version INTEGER NOT NULL, clock TEXT, decision TEXT,
    offers TEXT);
CREATE TABLE IF NOT EXISTS plies (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, ply INTEGER NOT NULL, san TEXT NOT NULL,
    forced INTEGER NOT NULL, PRIMARY KEY (game, ply));
"""
_MIGRATIONS = {1: "ALTER TABLE games ADD COLUMN clock TEXT; ALTER TABLE games ADD COLUMN decision TEXT;",
               2: "ALTER TABLE games ADD COLUMN offers TEXT;"}
"""The statements that bring a file of each older schema version to the next one."""


@dataclass
class StoredGame:
    """A game as the database has it (see the module docstring); ``plies`` are ``(SAN, forced)``,
    ``offers`` the seats offering a draw."""

    ident: str
    variant: str | None
    rules: str | None
    rules_hash: str
    label: str | None
    mode: str | None
    options: dict[str, str]
    start_fen: str
    seats: dict[str, str]
    tokens: dict[str, str]
    version: int
    plies: list[tuple[str, bool]]
    clock: dict | None = None
    decision: Outcome | None = None
    offers: list[str] = field(default_factory=list)


def rules_hash(text: str) -> str:
    """The hash kept with a game: of its rules text, or of its bundled file's text."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def bundled_text(name: str) -> str:
    """The text of the bundled variant ``name`` (a name or alias), for its hash."""
    path = bundled_variant(name)
    return Path(path).read_text(encoding="utf-8") if path is not None else ""


class Database:
    """The SQLite file at ``path`` (``:memory:`` for one that lasts as long as the process);
    UsageError when it cannot be opened or is of another schema version."""

    def __init__(self, path: str, max_games: int = MAX_STORED) -> None:
        self.path, self.max_games = path, max_games
        try:
            if path != ":memory:":
                Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path if path == ":memory:" else str(Path(path).expanduser()),
                                       check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            versions = [row[0] for row in self._db.execute("SELECT version FROM schema")]
        except (sqlite3.Error, OSError) as err:
            raise UsageError(f"--db {path}: cannot use it as the games' database: {err}",
                             hint="give another file with --db PATH, or --db :memory: to keep no games") from None
        if not versions:
            self._db.execute("INSERT INTO schema (version) VALUES (?)", (SCHEMA_VERSION,))
        elif len(versions) == 1 and versions[0] in _MIGRATIONS:
            self._migrate(versions[0])
        elif versions != [SCHEMA_VERSION]:
            raise UsageError(f"--db {path}: the games' database is of schema version {versions[0]}, "
                             f"this rules-dsl reads version {SCHEMA_VERSION}", hint="give another file with --db PATH")
        self._lock = threading.Lock()

    def _migrate(self, version: int) -> None:
        """Bring a file of schema ``version`` to :data:`SCHEMA_VERSION`, in one transaction."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            for old in range(version, SCHEMA_VERSION):
                for statement in filter(str.strip, _MIGRATIONS[old].split(";")):
                    self._db.execute(statement)
            self._db.execute("UPDATE schema SET version = ?", (SCHEMA_VERSION,))
            self._db.execute("COMMIT")
        except sqlite3.Error as err:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise UsageError(f"--db {self.path}: cannot bring the games' database from schema version {version} to "
                             f"{SCHEMA_VERSION}: {err}", hint="give another file with --db PATH") from None

    def add_game(self, ident: str, session) -> None:
        """Write a new game (without its plies), making room when ``max_games`` are kept."""
        source = session.source
        text = source.rules if source.rules is not None else bundled_text(source.variant)
        now = time.time()
        with self._writing():
            (count,) = self._db.execute("SELECT count(*) FROM games").fetchone()
            if count >= self.max_games:
                self._db.execute("DELETE FROM games WHERE id IN (SELECT id FROM games ORDER BY changed LIMIT ?)",
                                 (count - self.max_games + 1,))
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (ident, source.variant, source.rules, rules_hash(text), source.label, source.mode,
                 json.dumps(source.options), session.start_fen, json.dumps(_kinds(session)),
                 json.dumps(session.tokens), now, now, session.version, _clock(session.clock),
                 _decision(session.decision), json.dumps(sorted(session.offers))))

    def save(self, ident: str, session, first: int) -> None:
        """Write what may change in the game ``ident`` now, in one transaction: its plies from number
        ``first`` (0-based) on, those after them deleted (``first`` may be their count: a ply taken
        back is deleted, nothing is added), and its seats, version, clocks, decision and draw offers."""
        with self._writing():
            self._db.execute("DELETE FROM plies WHERE game = ? AND ply >= ?", (ident, first))
            self._db.executemany("INSERT INTO plies VALUES (?, ?, ?, ?)",
                                 [(ident, first + n, p.san, int(p.forced))
                                  for n, p in enumerate(session.plies[first:])])
            self._db.execute("UPDATE games SET seats = ?, changed = ?, version = ?, clock = ?, decision = ?, "
                             "offers = ? WHERE id = ?",
                             (json.dumps(_kinds(session)), time.time(), session.version, _clock(session.clock),
                              _decision(session.decision), json.dumps(sorted(session.offers)), ident))

    def remove(self, ident: str) -> None:
        """Delete the game ``ident`` and its plies (nothing if there is none)."""
        with self._writing():
            self._db.execute("DELETE FROM games WHERE id = ?", (ident,))

    def game(self, ident: str) -> StoredGame | None:
        """The game ``ident`` with its plies in order, or None."""
        with self._lock:
            row = self._db.execute("SELECT id, variant, rules, rules_hash, label, mode, options, start_fen, seats, "
                                   "tokens, version, clock, decision, offers FROM games WHERE id = ?",
                                   (ident,)).fetchone()
            if row is None:
                return None
            plies = [(san, bool(forced)) for san, forced in
                     self._db.execute("SELECT san, forced FROM plies WHERE game = ? ORDER BY ply", (ident,))]
        ident, variant, rules, digest, label, mode, options, fen, seats, tokens, version, clock, decision, offers = row
        ended = json.loads(decision) if decision else None
        return StoredGame(ident, variant, rules, digest, label, mode, json.loads(options), fen, json.loads(seats),
                          json.loads(tokens), version, plies, json.loads(clock) if clock else None,
                          Outcome(**{**ended, "winners": tuple(ended["winners"]), "scores": tuple(ended["scores"])})
                          if ended else None, json.loads(offers) if offers else [])

    def idents(self) -> list[str]:
        """The ids of the games kept, the most recently changed first."""
        with self._lock:
            return [ident for (ident,) in self._db.execute("SELECT id FROM games ORDER BY changed DESC")]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _writing(self):
        """One transaction, committed at the end (rolled back on an error); StorageFailed if it fails."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as err:
                with suppress(sqlite3.Error):   # a closed connection has no transaction to end
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                raise StorageFailed(f"the game could not be stored: {err}",
                                    hint="the server's disk may be full") from None


def _clock(clock) -> str | None:
    return json.dumps(clock.stored()) if clock is not None else None


def _decision(result: Outcome | None) -> str | None:
    return json.dumps(asdict(result)) if result is not None else None


def _kinds(session) -> dict[str, str]:
    return {seat.name: seat.kind for seat in session.seats}
