"""The web application: the JSON API of docs/serve.md and the page that uses it.

Every answer of the API is JSON. Bad input (an unknown variant, a rules
file with errors, a bad FEN, an unreadable or illegal move, a bad request)
is answered 400 with the message the command line prints for it
(:meth:`dsl.errors.RulesError.render`: location, source line, caret,
expected, hint) and its parts; a request without the seat token it needs
(:mod:`.access`) 403; a missing game 404; a request that cannot be
done now (the game is over, the computer is thinking) 409; a request body
larger than :data:`MOST_BODY_BYTES` 413. A bug gives a 500 with a short
message, never a traceback. The work of a request (compiling, drawing,
generating moves) runs in a worker thread, so the server stays responsive.
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import aclosing
from pathlib import Path
from typing import Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from dsl.errors import Loc, RulesError, UsageError
from dsl.limits import DEFAULT_MAX_PLIES

from interpreter.loading import start_position
from interpreter.loading.checking import check_game

from .access import HEADER, Forbidden, shown_tokens
from .analysis import Analysis, refuse_if_contested, seconds_of
from .catalogue import NoSuchPage, listing, rule_file, source, thumbnail
from .creating import field, game_of, new_session, restored_session
from .database import StorageFailed
from .designing import design, design_text, syntax
from .live import GameSockets, MessageTooLarge, state_changes
from .seats import NO_ENGINES, Engines, default_seats
from .sessions import Conflict
from .store import GameNotFound, GameStore
from .views import location_view, position_view, state_view, variant_view

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
MOST_BODY_BYTES = 512 * 1024
"""The largest request body: a rules file (at most 128 KiB) or a long game record fits."""
MOST_WAIT = 10.0
"""The longest a request may wait for the computer's move (``?wait=SECONDS``)."""
HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
           "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
KEPT = {**HEADERS, "Cache-Control": "max-age=3600"}
"""The headers of what depends on the bundled files only (thumbnails, rule pages): browsers may keep it an hour."""


class BodyTooLarge(RulesError):
    """A request body over :data:`MOST_BODY_BYTES`."""


STATUS = [(GameNotFound, 404), (NoSuchPage, 404), (Forbidden, 403), (Conflict, 409), (BodyTooLarge, 413),
          (MessageTooLarge, 413), (StorageFailed, 503), (RulesError, 400)]
MOST_WATCHERS = 32
"""Event streams open at once on one game."""
HEARTBEAT = 15.0
"""Seconds between the comments that keep an idle event stream open through proxies."""


def create_app(store: GameStore | None = None, pace: float = 0.0, default: dict | None = None,
               hosts: list[str] | None = None, max_plies: int = DEFAULT_MAX_PLIES,
               engines: Engines = NO_ENGINES, public_url: str | None = None) -> Starlette:
    """The application: ``store`` keeps the games, ``pace`` spaces computer moves (seconds),
    ``max_plies`` is every game's ply cap (where it is adjudicated a draw), ``engines`` the external
    engines its seats may be given (:class:`~.seats.Engines`, named by the operator),
    ``default`` is the variant the page opens with (``{"variant": "chess", "mode": None, "named": False}``;
    ``named``: the operator named it, and the page starts a game of it instead of asking),
    ``hosts`` the host names requests may be addressed to (None: any; a server on 127.0.0.1 allows
    only local names, so that another site cannot reach it through a rebound DNS name), ``public_url``
    the address the seat and spectator links are built on (None: the address each request came to).
    A ``store`` with a database but no ``restore`` gets one that makes games with these settings."""
    store = store if store is not None else GameStore()
    if store.database is not None and store.restore is None:
        store.restore = lambda stored: restored_session(stored, pace, max_plies=max_plies, engines=engines)
    default = default or {"variant": "chess", "mode": None, "named": False}

    def links(request: Request, ident: str, seats: list[str], session) -> dict:
        """The spectator link of the game and the links of ``seats`` (each with its token)."""
        base = (public_url or str(request.base_url)).rstrip("/") + "/"
        return {"spectator": f"{base}#game={ident}",
                "seats": {name: f"{base}#game={ident}&seat={session.tokens[name]}" for name in seats}}

    def variants(request: Request, body: dict):
        families, listed = listing()
        return 200, {"variants": list(listed), "families": list(families), "default": default}

    def picture(request: Request, body: dict):
        return 200, Response(thumbnail(request.path_params["name"]), media_type="image/svg+xml", headers=KEPT)

    def rules_page(request: Request, body: dict):
        file = request.path_params.get("file", "index.html")
        text = rule_file(request.path_params["name"], file)
        return 200, Response(text, media_type="text/html" if file == "index.html" else "image/svg+xml", headers=KEPT)

    def check(request: Request, body: dict):
        # every play mode, as 'rules check' compiles them (the options are those of the mode asked for)
        checked = check_game(game_of(body)[0], lambda mode: game_of({**body, "mode": mode, "options": {}})[0])
        game = checked.game
        return 200, {"variant": variant_view(game, start_position(game), engines),
                     "seats": [s.view(game) for s in default_seats(game)],
                     "notes": list(checked.notes), "warnings": [lint.render() for lint in checked.lints]}

    def designed(request: Request, body: dict):
        text, label = design_text(body)
        try:
            return 200, design(text, label)
        except Conflict:
            raise
        except RulesError as err:   # an error of the text, not of the request: shown at its place
            return 200, {"label": label, "errors": [error_answer(err)[1]], "warnings": [], "notes": [], "title": None,
                         "svg": None, "page": None}

    def create(request: Request, body: dict):
        session = new_session(body, pace, max_plies=max_plies, engines=engines)
        ident = store.add(session)
        with session.lock:
            return 201, {**state_view(session, ident), "tokens": dict(session.tokens),
                         "links": links(request, ident, list(session.tokens), session)}

    def shared(request: Request, body: dict):
        ident = request.path_params["ident"]
        session = store.get(ident)
        held = session.held(shown_tokens(request.headers.get(HEADER)))
        return 200, {**links(request, ident, [s.name for s in session.seats if s.name in held], session),
                     "held": sorted(held)}

    def state(request: Request, body: dict):
        ident = request.path_params["ident"]
        session = store.get(ident)
        wait = request.query_params.get("wait")
        if wait is not None:
            session.wait(min(_seconds(wait), MOST_WAIT))
        with session.lock:
            return 200, state_view(session, ident)

    def acting(action: Callable) -> Callable:
        """An endpoint doing ``action(session, body, held)``, ``held`` the seats whose tokens the request shows."""
        def endpoint(request: Request, body: dict):
            ident = request.path_params["ident"]
            session = store.get(ident)
            action(session, body, session.held(shown_tokens(request.headers.get(HEADER))))
            with session.lock:
                return 200, state_view(session, ident)
        return endpoint

    def abandon(request: Request, body: dict):
        ident = request.path_params["ident"]
        session = store.get(ident)
        held = session.held(shown_tokens(request.headers.get(HEADER)))
        missing = [seat for seat in session.seats if seat.name not in held]
        if missing:
            raise Forbidden(f"abandoning the game needs the seat token of every seat; not shown: "
                            f"{', '.join(seat.title(session.game) for seat in missing)}",
                            hint="the page that created the game holds them all")
        store.remove(ident)
        return 200, {"abandoned": ident}

    async def events(request: Request) -> Response:
        """The game's states as server-sent events (``id:`` its version), from the current one on."""
        ident = request.path_params["ident"]
        try:
            session = await run_in_threadpool(store.get, ident)
        except RulesError as err:
            return error_response(err)
        if len(session.watchers) >= MOST_WATCHERS:
            return error_response(Conflict(f"this game is watched by {MOST_WATCHERS} pages already",
                                           hint="the page asks for the game every two seconds instead"))
        return StreamingResponse(_state_events(session, ident, request.headers.get("Last-Event-ID")),
                                 media_type="text/event-stream", headers={**HEADERS, "X-Accel-Buffering": "no"})

    async def analysis(request: Request) -> Response:
        """The analysis of the position after ``?ply=N`` (default: the current one) for ``?time=S``
        seconds, as server-sent events (see :mod:`.analysis` and :func:`_analysis_events`)."""
        loop = asyncio.get_running_loop()
        reports: asyncio.Queue = asyncio.Queue()

        def send(kind: str, payload) -> None:
            try:
                loop.call_soon_threadsafe(reports.put_nowait, (kind, payload))
            except RuntimeError:   # the request's event loop has closed
                pass

        def prepare() -> Analysis:
            session = store.get(request.path_params["ident"])
            held = session.held(shown_tokens(request.headers.get(HEADER)))
            seconds = seconds_of(request.query_params.get("time"))
            with session.lock:
                refuse_if_contested(session, held)
                asked = request.query_params.get("ply")
                ply = len(session.plies) if asked is None else _ply(asked)
                return Analysis(session.game, session.position_at(ply), ply, seconds, send)

        try:
            job = await run_in_threadpool(prepare)
        except RulesError as err:
            return error_response(err)
        job.start()
        kind, payload = await reports.get()
        if kind == "busy":
            return error_response(payload)
        return StreamingResponse(_analysis_events(job, reports, request), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

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
        Route("/api/variants/{name}/thumbnail.svg", _api(picture), methods=["GET"]),
        Route("/api/variants/{name}/source.rules", _api(lambda request, body: (200, PlainTextResponse(
            source(request.path_params["name"]), headers=KEPT))), methods=["GET"]),
        Route("/rules/{name}/", _api(rules_page), methods=["GET"]),
        Route("/rules/{name}/{file}", _api(rules_page), methods=["GET"]),
        Route("/api/check", _api(check), methods=["POST"]),
        Route("/design", lambda request: FileResponse(STATIC / "design.html", headers=HEADERS)),
        Route("/api/syntax", _api(lambda request, body: (200, syntax())), methods=["GET"]),
        Route("/api/design", _api(designed), methods=["POST"]),
        Route("/api/games", _api(create), methods=["POST"]),
        Route("/api/games/{ident}", _api(state), methods=["GET"]),
        Route("/api/games/{ident}", _api(abandon), methods=["DELETE"]),
        Route("/api/games/{ident}/events", events, methods=["GET"]),
        WebSocketRoute("/api/games/{ident}/socket",
                       GameSockets(store, error_answer, _move, HEARTBEAT, public_url)),
        Route("/api/games/{ident}/links", _api(shared), methods=["GET"]),
        Route("/api/games/{ident}/moves", _api(acting(lambda s, b, h: s.play(_move(b), h))), methods=["POST"]),
        Route("/api/games/{ident}/undo", _api(acting(lambda s, b, h: s.undo(h, field(b, "plies", int)))),
              methods=["POST"]),
        Route("/api/games/{ident}/computer", _api(acting(lambda s, b, h: s.computer(h, field(b, "agent", str)))),
              methods=["POST"]),
        Route("/api/games/{ident}/resign", _api(acting(lambda s, b, h: s.resign(h, field(b, "seat", str)))),
              methods=["POST"]),
        Route("/api/games/{ident}/draw",
              _api(acting(lambda s, b, h: s.draw(field(b, "action", str, "offer"), h, field(b, "seat", str)))),
              methods=["POST"]),
        Route("/api/games/{ident}/seats", _api(acting(lambda s, b, h: s.set_seats(field(b, "seats", dict, {}), h))),
              methods=["PUT"]),
        Route("/api/games/{ident}/positions/{ply}", _api(position), methods=["GET"]),
        Route("/api/games/{ident}/analysis", analysis, methods=["GET"]),
        Route("/api/games/{ident}/record", _api(record), methods=["GET"]),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={HTTPException: _http_error, Exception: _bug})
    app.state.store = store
    return app


async def _state_events(session, ident: str, last_seen: str | None):
    """The event stream of one game (:func:`~.live.state_changes`): its state now (unless ``last_seen``,
    the Last-Event-ID of a reconnecting EventSource, is its version already), then each state after a
    change, and a comment every :data:`HEARTBEAT` seconds; it ends when the game is abandoned. A state
    is an event ``state`` whose ``id`` is the game's version and whose data is the STATE of a GET."""
    async with aclosing(state_changes(session, ident, last_seen, HEARTBEAT)) as changes:
        async for change in changes:
            yield ": still here\n\n" if change is None else f"id: {change[0]}\nevent: state\ndata: {change[1]}\n\n"


async def _analysis_events(job: Analysis, reports: asyncio.Queue, request: Request):
    """The event stream of one analysis: an event ``analysis`` after each depth, then ``done`` (data:
    the last ANALYSIS) or ``failed`` (data: ``{"message"}``, a bug in the search), and the stream
    ends. The search stops when the page goes away (the stream is cancelled, or the request is
    found disconnected while the search is between reports)."""
    try:
        while True:
            try:
                kind, payload = await asyncio.wait_for(reports.get(), 0.25)
            except asyncio.TimeoutError:
                if await request.is_disconnected():
                    return
                continue
            data = {"message": payload} if kind == "failed" else payload
            yield f"event: {kind}\ndata: {json.dumps(data)}\n\n"
            if kind in ("done", "failed"):
                return
    finally:
        job.stop.set()


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
    """The 4xx answer to a RulesError."""
    status, payload = error_answer(err)
    return JSONResponse(payload, status, headers=HEADERS)


def error_answer(err: RulesError) -> tuple[int, dict]:
    """The status and payload of the answer to a RulesError: the rendered message and its parts."""
    status = next(code for kind, code in STATUS if isinstance(err, kind))
    payload = {
        "error": err.render(), "message": err.message, "kind": type(err).__name__,
        "location": location_view(err.loc), "expected": err.expected, "hint": err.hint,
    }
    return status, payload


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
