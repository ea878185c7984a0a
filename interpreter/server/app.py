"""The web application: the JSON API of docs/serve.md and the page that uses it.

Every answer of the API is JSON. Bad input (an unknown variant, a rules
file with errors, a bad FEN, an unreadable or illegal move, a bad request)
is answered 400 with the message the command line prints for it
(:meth:`dsl.errors.RulesError.render`: location, source line, caret,
expected, hint) and its parts; a missing game 404; a request that cannot be
done now (the game is over, the computer is thinking) 409; a request body
larger than :data:`MOST_BODY_BYTES` 413. A bug gives a 500 with a short
message, never a traceback. The work of a request (compiling, drawing,
generating moves) runs in a worker thread, so the server stays responsive.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from dsl.catalogue import bundled_headers
from dsl.errors import Loc, RulesError, UsageError
from dsl.limits import DEFAULT_MAX_PLIES

from interpreter.loading import start_position
from interpreter.loading.lints import lints

from .creating import field, game_of, new_session
from .seats import NO_ENGINES, Engines, default_seats
from .sessions import Conflict
from .store import GameNotFound, GameStore
from .views import position_view, state_view, variant_view

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
MOST_BODY_BYTES = 512 * 1024
"""The largest request body: a rules file (at most 128 KiB) or a long game record fits."""
MOST_WAIT = 10.0
"""The longest a request may wait for the computer's move (``?wait=SECONDS``)."""
HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
           "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}


class BodyTooLarge(RulesError):
    """A request body over :data:`MOST_BODY_BYTES`."""


STATUS = [(GameNotFound, 404), (Conflict, 409), (BodyTooLarge, 413), (RulesError, 400)]


def create_app(store: GameStore | None = None, pace: float = 0.0, default: dict | None = None,
               hosts: list[str] | None = None, max_plies: int = DEFAULT_MAX_PLIES,
               engines: Engines = NO_ENGINES) -> Starlette:
    """The application: ``store`` keeps the games, ``pace`` spaces computer moves (seconds),
    ``max_plies`` is every game's ply cap (where it is adjudicated a draw), ``engines`` the external
    engines its seats may be given (:class:`~.seats.Engines`, named by the operator),
    ``default`` is the variant the page opens with (``{"variant": "chess", "mode": None}``),
    ``hosts`` the host names requests may be addressed to (None: any; a server on 127.0.0.1 allows
    only local names, so that another site cannot reach it through a rebound DNS name)."""
    store = store if store is not None else GameStore()
    default = default or {"variant": "chess", "mode": None}

    def variants(request: Request, body: dict):
        listed = [{"name": h.name, "title": h.title or h.name, "aliases": list(h.aliases)} for h in bundled_headers()]
        return 200, {"variants": listed, "default": default}

    def check(request: Request, body: dict):
        game, _ = game_of(body)
        start = start_position(game)
        return 200, {"variant": variant_view(game, start, engines), "seats": [s.view(game) for s in default_seats(game)],
                     "warnings": [lint.render() for lint in lints(game)]}

    def create(request: Request, body: dict):
        session = new_session(body, pace, max_plies=max_plies, engines=engines)
        ident = store.add(session)
        with session.lock:
            return 201, state_view(session, ident)

    def state(request: Request, body: dict):
        ident = request.path_params["ident"]
        session = store.get(ident)
        wait = request.query_params.get("wait")
        if wait is not None:
            session.wait(min(_seconds(wait), MOST_WAIT))
        with session.lock:
            return 200, state_view(session, ident)

    def acting(action: Callable) -> Callable:
        def endpoint(request: Request, body: dict):
            ident = request.path_params["ident"]
            session = store.get(ident)
            action(session, body)
            with session.lock:
                return 200, state_view(session, ident)
        return endpoint

    def abandon(request: Request, body: dict):
        store.remove(request.path_params["ident"])
        return 200, {"abandoned": request.path_params["ident"]}

    def position(request: Request, body: dict):
        session = store.get(request.path_params["ident"])
        with session.lock:
            ply = _ply(request.path_params["ply"])
            pos = session.position_at(ply)
            last = session.plies[ply - 1] if ply > 0 else None
            view = position_view(session.game, pos, last.move if last else None)
        return 200, {"ply": ply, "san": last.san if last else None, **view}

    def record(request: Request, body: dict):
        session = store.get(request.path_params["ident"])
        with session.lock:
            return 200, PlainTextResponse(session.record(session.result()), headers={
                "Content-Disposition": f'attachment; filename="{session.game.name}.pgn"', **HEADERS})

    routes = [
        Route("/", lambda request: FileResponse(STATIC / "index.html", headers=HEADERS)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/variants", _api(variants), methods=["GET"]),
        Route("/api/check", _api(check), methods=["POST"]),
        Route("/api/games", _api(create), methods=["POST"]),
        Route("/api/games/{ident}", _api(state), methods=["GET"]),
        Route("/api/games/{ident}", _api(abandon), methods=["DELETE"]),
        Route("/api/games/{ident}/moves", _api(acting(lambda s, b: s.play(_move(b)))), methods=["POST"]),
        Route("/api/games/{ident}/undo", _api(acting(lambda s, b: s.undo(field(b, "plies", int)))), methods=["POST"]),
        Route("/api/games/{ident}/computer", _api(acting(lambda s, b: s.computer(field(b, "agent", str)))),
              methods=["POST"]),
        Route("/api/games/{ident}/seats", _api(acting(lambda s, b: s.set_seats(field(b, "seats", dict, {})))),
              methods=["PUT"]),
        Route("/api/games/{ident}/positions/{ply}", _api(position), methods=["GET"]),
        Route("/api/games/{ident}/record", _api(record), methods=["GET"]),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={HTTPException: _http_error, Exception: _bug})
    app.state.store = store
    return app


def _api(work: Callable) -> Callable:
    """An endpoint that reads the JSON body, runs ``work(request, body)`` in a worker thread and
    answers its ``(status, payload)``; RulesErrors become 4xx answers (see the module docstring)."""
    async def endpoint(request: Request) -> Response:
        try:
            body = await _body(request)
            status, payload = await run_in_threadpool(work, request, body)
        except RulesError as err:
            return error_response(err)
        if isinstance(payload, Response):
            return payload
        return JSONResponse(payload, status, headers=HEADERS)
    return endpoint


async def _body(request: Request) -> dict:
    """The request's JSON object ({} for none); UsageError / BodyTooLarge for anything else: text that is
    not UTF-8 or not JSON, JSON that is not an object, arrays or objects nested deeper than Python's json
    reads (``[`` repeated 100,000 times), text with lone surrogates. Every endpoint reads its body here."""
    if request.method in ("GET", "DELETE"):
        return {}
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MOST_BODY_BYTES:
            raise BodyTooLarge(f"the request is larger than {MOST_BODY_BYTES:,} bytes",
                               expected="a rules file of at most 128 KiB, or a shorter game record")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("the request is not UTF-8 text", expected="a JSON object") from None
    try:
        body = json.loads(text)
        if not isinstance(body, dict):
            raise UsageError("the request must be a JSON object", expected='{"variant": "chess", ...}')
        json.dumps(body, ensure_ascii=False).encode("utf-8")   # lone surrogates (see below), deep nesting
    except json.JSONDecodeError as err:
        raise UsageError(f"the request is not JSON: {err.msg}", Loc("<request>", err.lineno, err.colno, None, text),
                         expected="a JSON object") from None
    except RecursionError:  # Python's json reads (and writes) nested arrays and objects recursively
        raise UsageError("the request nests arrays or objects too deeply to be read",
                         expected='a JSON object of a few levels, such as {"seats": {"black": "ai"}}') from None
    except UnicodeEncodeError as err:  # JSON may escape lone surrogates ("\ud800"), which no answer could quote back
        raise UsageError("the request holds text that is not valid Unicode (a lone surrogate, "
                         f"\\u{ord(err.object[err.start]):04x})", expected="a JSON object of UTF-8 text") from None
    return body


def error_response(err: RulesError) -> JSONResponse:
    """The 4xx answer to a RulesError: the rendered message and its parts."""
    status = next(code for kind, code in STATUS if isinstance(err, kind))
    loc = err.loc
    payload = {
        "error": err.render(), "message": err.message, "kind": type(err).__name__,
        "location": None if loc is None else {"path": loc.path, "line": loc.line, "column": loc.column,
                                               "end_column": loc.end_column},
        "expected": err.expected, "hint": err.hint,
    }
    return JSONResponse(payload, status, headers=HEADERS)


async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
    """Unknown paths and wrong methods, as JSON like every other answer."""
    messages = {404: f"no such page or API path: {request.url.path}", 405: f"{request.method} is not allowed here"}
    message = messages.get(exc.status_code, str(exc.detail))
    return JSONResponse({"error": message, "message": message, "kind": "HTTPError", "location": None,
                         "expected": "see docs/serve.md for the API" if exc.status_code in (404, 405) else None,
                         "hint": None}, exc.status_code, headers=HEADERS)


async def _bug(request: Request, exc: Exception) -> JSONResponse:
    log.exception("error in %s %s", request.method, request.url.path, exc_info=exc)
    message = f"internal error ({type(exc).__name__}); this is a bug in rules-dsl"
    return JSONResponse({"error": message, "message": message, "kind": "InternalError", "location": None,
                         "expected": None, "hint": None}, 500, headers=HEADERS)


def _move(body: dict) -> str:
    move = field(body, "move", str)
    if move is None:
        raise UsageError("no move given", expected='{"move": "e4"} (SAN or from-to, e.g. "e2e4")')
    return move


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"wait={text!r} is not a number of seconds") from None
    if not 0 <= value < float("inf"):
        raise UsageError(f"wait={text!r} must be 0 or more seconds")
    return value


def _ply(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"'{text}' is not a ply number", expected="a whole number from 0") from None
