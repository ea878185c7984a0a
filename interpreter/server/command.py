"""``rules serve``: start the web server and say where it listens.

The socket is bound here, before the server starts, so that a port in use
or a host that cannot be bound is reported as a usage error (exit 2) and
``--port 0`` can pick a free port, whose address is printed. The engines of
``--engine NAME=COMMAND`` are started once here too (each answers its
handshake: which games it plays), so that one that does not start is
reported now. So is a ``--db`` file that cannot be used, or a
``--public-url`` that is not an http(s) address.

Games are kept in the SQLite file of ``--db`` (:mod:`.database`); by default
``games.sqlite3`` in the user's data directory, as platformdirs names it
(``$XDG_DATA_HOME/rules-dsl``, by default ``~/.local/share/rules-dsl``, on Linux).
"""

from __future__ import annotations

import errno
import socket
import sys
import threading
import webbrowser

from pathlib import Path
from urllib.parse import urlsplit

from dsl.errors import UsageError
from dsl.files import bundled_variant, unknown_variant

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
PACE = 0.4
"""Seconds between computer moves: a game of computers can be followed move by move."""
MOST_GAMES = 10_000
"""The largest ``--max-games``: games in memory (each a compiled game and its positions)."""


def cmd_serve(args) -> int:
    """Serve the page and the JSON API until interrupted."""
    if args.variant is not None and bundled_variant(args.variant) is None:
        raise unknown_variant(args.variant, None)
    import uvicorn

    from interpreter.loading import load_game

    from .app import create_app
    from .database import Database
    from .live import MOST_MESSAGE_BYTES
    from .store import MAX_GAMES, GameStore
    if args.variant is not None:
        load_game(args.variant, args.mode)  # a bad mode is an error now, not on the page
    public_url = _public_url(args.public_url)
    max_games = MAX_GAMES if args.max_games is None else args.max_games
    if not 1 <= max_games <= MOST_GAMES:
        raise UsageError(f"--max-games {max_games} is out of range", expected=f"a number from 1 to {MOST_GAMES:,}")
    sock = _bind(args.host, args.port)    # a bad port is reported before the database is opened
    database = Database(args.db or str(default_db()))
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    local = args.host in LOCAL_HOSTS
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1"] if local else None
    if local and public_url:
        hosts.append(urlsplit(public_url).hostname)
    engines = probe_engines(args.engine or [])
    app = create_app(GameStore(max_games=max_games, database=database), pace=PACE, hosts=hosts,
                     max_plies=args.max_plies, engines=engines,
                     default={"variant": args.variant or "chess", "mode": args.mode, "named": args.variant is not None},
                     public_url=public_url)
    print(f"rules serve: open {url} in a browser (Ctrl-C stops the server)", flush=True)
    kept = len(database.idents())
    print(f"rules serve: games are kept in {database.path}" + (f" ({kept} kept now)" if kept else ""), flush=True)
    if not local:
        print(f"note: listening on {args.host}: other machines that reach it can start games and use its processors; "
              "a game's seat links are its only access control (docs/serve.md)", file=sys.stderr, flush=True)
    if args.open:
        threading.Timer(0.5, webbrowser.open, [url]).start()
    # Open event streams would hold a stopping server for ever: it waits at most a second for them.
    # uvicorn closes a WebSocket whose message is too long (1009) and pings each every 20 seconds.
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=1,
                                           ws_max_size=MOST_MESSAGE_BYTES))
    try:
        server.run(sockets=[sock])
    finally:
        app.state.store.close()
        database.close()
        engines.close()
        sock.close()
    return 0


def default_db() -> Path:
    """Where games are kept without ``--db`` (see the module docstring)."""
    import platformdirs    # of the serve extra, as Starlette is

    return Path(platformdirs.user_data_dir("rules-dsl", appauthor=False)) / "games.sqlite3"


def _public_url(text: str | None) -> str | None:
    """``--public-url`` checked: an http or https address with a host, ending in '/'; None if not given."""
    if text is None:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise UsageError(f"--public-url {text!r} is not an http(s) address of the server",
                         expected="e.g. https://chess.example.org/ or http://192.168.1.20:8000/")
    return text if text.endswith("/") else text + "/"


def probe_engines(given: list[str]):
    """The :class:`~interpreter.server.seats.Engines` of ``--engine NAME=SPEC`` options (SPEC:
    ``uci:COMMAND[:OPTION=VALUE...]``, ``xboard:COMMAND[:OPTION=VALUE...]``, or a command alone,
    spoken to over UCI), each started and asked what it plays; UsageError for a bad name or spec,
    or an engine that does not start."""
    from interpreter.agents import parse_agent
    from interpreter.agents.external import ExternalEngine
    from interpreter.agents.process import EngineFailure
    from interpreter.agents.specs import ENGINE_PREFIXES

    from .seats import Engines

    engines = Engines()
    for text in given:
        name, sep, spec = text.partition("=")
        if not sep or not name.isidentifier() or not spec.strip():
            raise UsageError(f"--engine {text!r} is not NAME=COMMAND", hint="e.g. --engine fairy=/usr/games/fairy-stockfish")
        spec = spec if spec.startswith(ENGINE_PREFIXES) else "uci:" + spec
        engine = parse_agent(spec).make()
        assert isinstance(engine, ExternalEngine)
        try:
            engine.handshake()
        except EngineFailure as err:
            engines.close()
            raise UsageError(f"--engine {name}: {err}") from None
        engines.specs[name], engines.probes[name] = spec, engine
        print(f"rules serve: engine {name} is {engine.engine_name}", flush=True)
    return engines


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, or a UsageError saying why there cannot be one."""
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port} is not a port number", expected="a number from 1 to 65535 (0: any free port)")
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except socket.gaierror:
        raise UsageError(f"--host {host}: no such address", hint="use 127.0.0.1 (this machine only)") from None
    except OSError as err:
        why = "the port is in use" if err.errno == errno.EADDRINUSE else (err.strerror or str(err)).lower()
        raise UsageError(f"cannot listen on {host}:{port}: {why}",
                         hint="choose another port with --port, or --port 0 for any free one") from None
    return sock
