"""Load test of ``rules serve``: many games at once between scripted clients over WebSockets.

    .venv/bin/python bench/serve_load.py                          # 200 games for 60 seconds
    .venv/bin/python bench/serve_load.py --games 20 --seconds 10  # a short run
    .venv/bin/python bench/serve_load.py --think 1 --json         # a second between a client's moves

It starts ``rules serve`` in a subprocess on a free local port with a fresh
``--db`` file (so every move is committed before it is acknowledged, as in
use), creates ``--games`` games of human seats through the JSON API, and
connects one scripted client per seat, each with its own WebSocket
(``/api/games/ID/socket``) and its seat's token. When every client is
connected the clock starts: a client whose seat is to move picks one of the
state's legal moves at random (from one seeded generator, whose draws the
clients take in the order their turns come, so runs differ), waits
``--think`` seconds and sends it; a game that ends by its rules is replaced
by a new one. After ``--seconds`` no move is sent; the moves in flight are
answered, the clients leave and the server is stopped.

It reports the moves acknowledged (and per second), the latency from the
send of a move to its ack and to the opponent's receipt of the new state
(p50, p90, p99, max), the server's memory (resident set before the games,
its peak, and after the clients left, from ``/proc/PID/status``) and the
processor time of the server and of the clients. The games' records are then
read back from the database: a move acknowledged but missing from the
stored record is **lost**; a move acknowledged twice, or a stored ply no client
was answered for, is **duplicated**; a move sent but never answered is
**unanswered**. All three must be 0 (the script exits 1 otherwise).

Both sides run on this machine and share its processors: with ``--think
0`` the server is saturated and the latency is mostly the queue of moves
waiting for it. Bounded: at most :data:`MOST_GAMES` games and
:data:`MOST_SECONDS` seconds, and the clients wait at most :data:`SETTLE`
seconds for an answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.server.live import MOST_SOCKETS  # noqa: E402

MOST_GAMES = 400
MOST_SECONDS = 600.0
MOST_THINK = 60.0
SETTLE = 15.0
"""Seconds a client waits for the answer to a move, and for the start of the server."""
MAX_STATE_BYTES = 1 << 24
MOST_LOG_LINES = 20


@dataclass
class Report:
    """What a run measured (see the module docstring); latencies in milliseconds, memory in KiB."""

    variant: str
    games: int
    seconds: float
    think: float
    engine: str
    played: int = 0          # games played (the first ones and those that replaced a finished game)
    ended: int = 0           # of which ended by their rules
    moves: int = 0           # moves acknowledged
    ack_ms: list[float] = field(default_factory=list)
    seen_ms: list[float] = field(default_factory=list)
    lost: int = 0
    duplicated: int = 0
    unanswered: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    memory: dict[str, int] = field(default_factory=dict)
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    server_log: list[str] = field(default_factory=list)   # its last lines while it served (warnings, errors)


@dataclass
class Table:
    """One game in play: when each ply was sent and by whom, the plies an opponent saw, the acks."""

    ident: str
    sent: dict[int, tuple[float, str]] = field(default_factory=dict)
    seen: set[int] = field(default_factory=set)
    acked: dict[int, str] = field(default_factory=dict)
    over: bool = False


class Load:
    """The clients of one run: the server's address, the clock, the counts."""

    def __init__(self, base: str, variant: str, seconds: float, think: float, seed: int, report: Report) -> None:
        self.base, self.variant, self.seconds, self.think = base, variant, seconds, think
        self.socket_base = "ws" + base[len("http"):]
        self.rng = random.Random(seed)
        self.report = report
        self.errors: Counter = Counter()
        self.tables: list[Table] = []
        self.go = asyncio.Event()
        self.deadline = float("inf")

    def new_game(self) -> dict:
        """A new game of human seats (its state and tokens), through the JSON API."""
        request = urllib.request.Request(f"{self.base}api/games", json.dumps({"variant": self.variant}).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=SETTLE * 4) as answer:
            return json.load(answer)

    async def run(self, games: int) -> None:
        """Create the games, connect their clients, play for ``seconds``."""
        first = await asyncio.gather(*(asyncio.to_thread(self.new_game) for _ in range(games)))
        ready = asyncio.Semaphore(0)
        slots = [asyncio.create_task(self.slot(game, ready)) for game in first]
        for _ in range(sum(len(game["tokens"]) for game in first)):
            await ready.acquire()
        self.deadline = time.perf_counter() + self.seconds
        self.go.set()
        await asyncio.gather(*slots)

    async def slot(self, game: dict, ready: asyncio.Semaphore) -> None:
        """Play ``game``, then a new one in its place each time one ends, until the time is up."""
        while True:
            table = Table(game["id"])
            self.tables.append(table)
            armies = {seat["name"]: set(seat["armies"]) for seat in game["seats"]}
            await asyncio.gather(*(self.seat(table, name, armies[name], token, ready)
                                   for name, token in game["tokens"].items()))
            if not table.over or time.perf_counter() >= self.deadline:
                return
            game = await asyncio.to_thread(self.new_game)

    async def seat(self, table: Table, seat: str, armies: set[str], token: str, ready: asyncio.Semaphore) -> None:
        """One scripted client: the seat ``seat`` of ``table``, on its own WebSocket."""
        import websockets

        url = f"{self.socket_base}api/games/{table.ident}/socket"
        pending = None    # when the move in flight was sent
        try:
            async with websockets.connect(url, max_size=MAX_STATE_BYTES, open_timeout=SETTLE * 4) as socket:
                await socket.send(json.dumps({"tokens": token}))
                ready.release()
                await self.go.wait()
                latest, mine = None, 0
                while pending is not None or not (table.over or time.perf_counter() >= self.deadline):
                    wait = SETTLE if pending is not None else self.deadline - time.perf_counter()
                    try:
                        message = json.loads(await asyncio.wait_for(socket.recv(), wait))
                    except asyncio.TimeoutError:
                        break
                    got = time.perf_counter()
                    if message["type"] == "state":
                        latest = message["state"]
                        sent = table.sent.get(latest["ply"])
                        if sent is not None and sent[1] != seat and latest["ply"] not in table.seen:
                            table.seen.add(latest["ply"])
                            self.report.seen_ms.append((got - sent[0]) * 1000)
                        table.over = table.over or latest["result"] is not None
                    elif message["type"] == "ack":
                        self.report.ack_ms.append((got - pending) * 1000)
                        pending, mine = None, message["ply"]
                        if mine in table.acked:
                            self.report.duplicated += 1
                        table.acked[mine] = message["san"]
                    elif message["type"] == "held":
                        if message["held"] != [seat]:
                            self.errors[f"held {message['held']}, not [{seat}]"] += 1
                    else:
                        self.errors[f"{message['status']} {message['message'][:80]}"] += 1
                        pending = None
                    if (pending is None and latest is not None and not table.over and latest["ply"] >= mine
                            and armies & set(latest["to_move"]) and time.perf_counter() < self.deadline):
                        if self.think:
                            await asyncio.sleep(self.think)
                        move = self.rng.choice(latest["legal"])["uci"]
                        pending = time.perf_counter()
                        table.sent[latest["ply"] + 1] = (pending, seat)
                        await socket.send(json.dumps({"move": move, "id": latest["ply"] + 1}))
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as err:
            self.errors[f"{type(err).__name__}: {str(err)[:80]}"] += 1
            ready.release()   # a client that could not connect does not hold the start
        if pending is not None:
            self.report.unanswered += 1


def run(games: int = 200, seconds: float = 60.0, seed: int = 0, db: str | None = None, variant: str = "chess",
        think: float = 0.0) -> Report:
    """One load run (see the module docstring); ``db`` the database file (a temporary one by default)."""
    from interpreter.native import in_use

    report = Report(variant, games, seconds, think, "compiled" if in_use() else "pure Python")
    with ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="serve-load-"))
        db = db or str(Path(folder) / "games.sqlite3")
        log = stack.enter_context(tempfile.TemporaryFile("w+"))
        server, base = start_server(db, variant, 2 * games + 16, log)
        try:
            report.memory["before"] = memory(server.pid)["VmRSS"]
            cpu_before, client_before = server_cpu(server.pid), time.process_time()
            load = Load(base, variant, seconds, think, seed, report)
            asyncio.run(load.run(games))
            report.client_cpu = time.process_time() - client_before
            time.sleep(1.0)   # the server closes the sockets the clients left
            report.server_cpu = server_cpu(server.pid) - cpu_before
            used = memory(server.pid)
            report.memory["peak"], report.memory["after"] = used["VmHWM"], used["VmRSS"]
            log.seek(0)   # what it said while it served (stopped, it says "interrupted")
            report.server_log = log.read().splitlines()[-MOST_LOG_LINES:]
        finally:
            stop_server(server)
        check(report, load.tables, stored_plies(db))
    report.errors = dict(load.errors)
    report.played = len(load.tables)
    report.ended = sum(table.over for table in load.tables)
    return report


def start_server(db: str, variant: str, max_games: int, log) -> tuple[subprocess.Popen, str]:
    """``rules serve`` on a free local port, keeping its games in ``db`` and writing its messages (warnings,
    errors) to the file ``log`` (a pipe nobody reads would stop it once full): the process and its address."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    server = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", variant, "--port", "0", "--db", db,
                               "--max-games", str(max_games)], cwd=ROOT, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=log)
    line = server.stdout.readline()
    found = re.search(r"open (http://\S+/) in a browser", line)
    if found is None:
        server.kill()
        server.wait()
        log.seek(0)
        raise SystemExit(f"rules serve did not start: {line}{log.read()}")
    return server, found.group(1)


def stop_server(server: subprocess.Popen) -> None:
    """Stop the server as Ctrl-C does (its games stay in the database), or kill it."""
    server.send_signal(signal.SIGINT)
    try:
        server.wait(SETTLE)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def memory(pid: int) -> dict[str, int]:
    """The resident set of process ``pid`` now (``VmRSS``) and at its peak (``VmHWM``), in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


def server_cpu(pid: int) -> float:
    """Processor seconds (user and system) process ``pid`` has used."""
    after_name = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(after_name[11]) + int(after_name[12])) / os.sysconf("SC_CLK_TCK")


def stored_plies(db: str) -> dict[str, list[str]]:
    """The SAN of each game's plies as the database has them, in order."""
    plies: dict[str, list[str]] = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        for game, san in connection.execute("SELECT game, san FROM plies ORDER BY game, ply"):
            plies.setdefault(game, []).append(san)
    return plies


def check(report: Report, tables: list[Table], stored: dict[str, list[str]]) -> None:
    """Count the moves acknowledged, lost and duplicated, against the stored records."""
    for table in tables:
        record = stored.get(table.ident, [])
        report.moves += len(table.acked)
        report.lost += sum(1 for ply, san in table.acked.items() if ply > len(record) or record[ply - 1] != san)
        report.duplicated += max(0, len(record) - len(table.acked))


def percentiles(values: list[float]) -> list[float]:
    """p50, p90, p99 and the maximum of ``values`` (zeros for none)."""
    if len(values) < 2:
        return [values[0] if values else 0.0] * 4
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return [cuts[49], cuts[89], cuts[98], max(values)]


def format_table(report: Report) -> str:
    r = report
    rows = [
        f"rules serve under load: {r.games} games of {r.variant} at once, {r.seconds:g} s, think {r.think:g} s, "
        f"{r.engine}, SQLite database",
        f"{'games played':<26}{r.played:>10,}   ({r.ended} ended by their rules and were replaced)",
        f"{'moves acknowledged':<26}{r.moves:>10,}   ({r.moves / r.seconds:.1f} per second)",
        f"{'latency (ms)':<26}{'p50':>10}{'p90':>10}{'p99':>10}{'max':>10}",
    ]
    for label, values in (("send -> ack", r.ack_ms), ("send -> opponent's state", r.seen_ms)):
        rows.append(f"  {label:<24}" + "".join(f"{v:>10.0f}" for v in percentiles(values)))
    rows += [
        f"{'lost moves':<26}{r.lost:>10}",
        f"{'duplicated moves':<26}{r.duplicated:>10}",
        f"{'unanswered moves':<26}{r.unanswered:>10}",
        f"{'errors':<26}{sum(r.errors.values()):>10}" + "".join(f"\n  {n} x {what}" for what, n in r.errors.items()),
        f"{'server memory (MiB)':<26}" + "   ".join(f"{k} {r.memory.get(k, 0) / 1024:.1f}"
                                                   for k in ("before", "peak", "after")),
        f"{'server CPU':<26}{r.server_cpu:>9.1f}s   ({100 * r.server_cpu / r.seconds:.0f}% of one core, "
        f"{1000 * r.server_cpu / max(r.moves, 1):.1f} ms per move, creating the games included)",
        f"{'clients CPU':<26}{r.client_cpu:>9.1f}s",
    ]
    if r.server_log:
        rows.append("the server's log ends with:\n" + "\n".join(f"  {line}" for line in r.server_log))
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help=f"games at once (default 200, at most {MOST_GAMES})")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help=f"how long moves are sent (default 60, at most {MOST_SECONDS:g})")
    parser.add_argument("--think", type=float, default=0.0,
                        help=f"seconds a client waits before each of its moves (default 0, at most {MOST_THINK:g})")
    parser.add_argument("--variant", default="chess", help="the bundled variant played (default chess)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the clients' choices (default 0)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= MOST_GAMES or 2 * args.games > MOST_SOCKETS:
        parser.error(f"--games must be from 1 to {MOST_GAMES}")
    if not 0 < args.seconds <= MOST_SECONDS:
        parser.error(f"--seconds must be more than 0 and at most {MOST_SECONDS:g}")
    if not 0 <= args.think <= MOST_THINK:
        parser.error(f"--think must be from 0 to {MOST_THINK:g}")
    started = time.monotonic()
    report = run(args.games, args.seconds, args.seed, variant=args.variant, think=args.think)
    if args.json:
        print(json.dumps({**asdict(report), "ack_ms": percentiles(report.ack_ms),
                          "seen_ms": percentiles(report.seen_ms)}, indent=1))
    else:
        print(format_table(report))
        print(f"(the whole run, with the server's start and the games' creation: {time.monotonic() - started:.0f} s)")
    return 1 if report.lost or report.duplicated or report.unanswered else 0


if __name__ == "__main__":
    sys.exit(main())
