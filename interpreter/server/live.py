"""Following a game live: its states as they change, and the WebSocket that carries them with moves.

:func:`state_changes` is what every live channel sends: the game's state now,
then after each change. The server-sent events of ``/api/games/ID/events``
(:mod:`.app`) format it as events; :class:`GameSockets` is the WebSocket
``/api/games/ID/socket``, which sends the same states and takes moves.

The WebSocket speaks JSON text messages (docs/serve.md). From the client:

- ``{"tokens": "TOKEN,TOKEN"}``: the seat tokens of the connection, as the
  ``X-Seat-Token`` header of the HTTP API writes them (not in the URL, which
  lands in logs); answered ``{"type": "held", "held": [seat]}``. A later one
  replaces them.
- ``{"move": "e2e4", "id": ID}``: a move (SAN or from-to) for the side to
  move, played by :meth:`~.sessions.Session.play` as ``POST .../moves``
  plays it, committed to the database before it is answered
  ``{"type": "ack", "id": ID, "ply": N, "san": SAN, "version": V}`` (``ply``:
  its number, from 1). ``id`` (a string of at most :data:`MOST_ID_CHARS`
  characters or a whole number, optional) is the client's and comes back.

From the server: ``{"type": "state", "state": STATE}`` at once and after every
change (STATE as ``GET /api/games/ID`` answers it), acks, and
``{"type": "error", "id": ID, "status": 4xx, ...}`` with the fields and the
status of the HTTP API's error answer for the same request (403 another
seat's move, 409 the game is over, 400 an illegal move or a message that is
not a JSON object of a known kind). An error leaves the connection open,
except these, after which the server closes it with code 4000 + status: no
such game (404), a page of another site (403: a browser's ``Origin`` must be
the server's own address, or that of ``public_url``), more than
:data:`MOST_PER_GAME` sockets on the game or :data:`MOST_SOCKETS` on the
server (409), a message over :data:`MOST_MESSAGE_BYTES` (413). A socket on which neither the game nor the
client said anything for :data:`MOST_IDLE` seconds is closed (1001), as is
one whose game leaves the server (abandoned, or dropped from memory by the
store's caps: connecting again finds it, if it is kept). Dead peers are
found by the WebSocket pings of the server (uvicorn's, every 20 seconds).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from contextlib import aclosing, suppress
from typing import AsyncIterator, Callable
from urllib.parse import urlsplit

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from dsl.errors import RulesError, UsageError, clip

from .access import Forbidden, shown_tokens
from .creating import field
from .sessions import Conflict
from .store import GameStore
from .views import state_view

log = logging.getLogger(__name__)

MOST_SOCKETS = 1_000
"""WebSockets open at once on the server."""
MOST_PER_GAME = 32
"""WebSockets open at once on one game (its players and some spectators)."""
MOST_MESSAGE_BYTES = 4_096
"""The longest message a client may send (a move and its id, or a few seat tokens)."""
MOST_ID_CHARS = 64
MOST_IDLE = 1_800.0
"""Seconds without a change of the game or a message of the client after which a socket is closed."""


class MessageTooLarge(RulesError):
    """A WebSocket message over :data:`MOST_MESSAGE_BYTES` (413; the socket is closed)."""


async def state_changes(session, ident: str, last_seen: str | None, heartbeat: float) -> AsyncIterator:
    """The game's state now, as ``(version, JSON text of the STATE)`` (unless ``last_seen``, the
    version a reconnecting client has, is its version already), then after each change; None when
    ``heartbeat`` seconds passed without one. It ends when the session closes (the game is abandoned
    or leaves memory). The state is sent again when it changed without a new version (the computer's
    search reports a depth: seen at the next heartbeat). The session makes the state's text once per
    change for all its followers (:meth:`~.sessions.Session.state_text`)."""
    loop = asyncio.get_running_loop()
    woken = asyncio.Event()
    session.watch(loop, woken)

    def current() -> tuple[int, str, bool]:
        with session.lock:
            return session.version, session.state_text(lambda: json.dumps(state_view(session, ident))), session.closed

    try:
        sent = None
        while True:
            woken.clear()
            version, data, closed = await run_in_threadpool(current)
            if data != sent and str(version) != last_seen:
                yield version, data
            sent, last_seen = data, None
            if closed:
                return
            try:
                await asyncio.wait_for(woken.wait(), heartbeat)
            except asyncio.TimeoutError:
                yield None
    finally:
        session.unwatch(loop, woken)


class GameSockets:
    """The WebSocket endpoint of one application (see the module docstring): ``store`` has the games,
    ``answer(err)`` is the ``(status, payload)`` of the HTTP API's answer to a RulesError, ``read_move``
    the move text of a request body (as ``POST .../moves`` reads it), ``heartbeat`` the seconds between
    idle checks."""

    def __init__(self, store: GameStore, answer: Callable[[RulesError], tuple[int, dict]],
                 read_move: Callable[[dict], str], heartbeat: float, public_url: str | None = None) -> None:
        self.store, self.answer, self.read_move, self.heartbeat = store, answer, read_move, heartbeat
        self.public_host = urlsplit(public_url).netloc if public_url else None
        self.open: dict[str, int] = {}   # game id -> sockets open on it

    async def __call__(self, scope, receive, send) -> None:
        websocket = WebSocket(scope, receive, send)
        ident = websocket.path_params["ident"]
        await websocket.accept()
        channel = _Channel(websocket)
        origin = websocket.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc not in (websocket.headers.get("host"), self.public_host):
            return await channel.refuse(self._error(Forbidden(
                f"a page of {clip(origin, 60)} may not open this server's WebSocket",
                hint="only the server's own page (or a program, which sends no Origin) may")))
        for where, count, most in (("this server", sum(self.open.values()), MOST_SOCKETS),
                                   ("this game", self.open.get(ident, 0), MOST_PER_GAME)):
            if count >= most:
                return await channel.refuse(self._error(Conflict(
                    f"{where} has {most} WebSockets open already", hint="ask for the game (GET /api/games/ID) "
                    "every few seconds instead, or follow its event stream (/api/games/ID/events)")))
        try:
            session = await run_in_threadpool(self.store.get, ident)
        except RulesError as err:
            return await channel.refuse(self._error(err))
        self.open[ident] = self.open.get(ident, 0) + 1
        try:
            await self._serve(channel, session, ident)
        except Exception:   # a bug (in the task group's ExceptionGroup): the client is told, the server goes on
            log.exception("error in the WebSocket of game %s", ident)
            await channel.close(1011, "internal error; this is a bug in rules-dsl")
        finally:
            self.open[ident] -= 1
            if not self.open[ident]:
                del self.open[ident]

    async def _serve(self, channel: _Channel, session, ident: str) -> None:
        """Send the states while the client's messages are answered, until either side ends."""
        async with anyio.create_task_group() as tasks:
            async def push() -> None:
                with suppress(WebSocketDisconnect):
                    await self._push(channel, session, ident)
                tasks.cancel_scope.cancel()   # the game left, the socket idled or the client went

            tasks.start_soon(push)
            with suppress(WebSocketDisconnect):
                await self._answer(channel, ident)
            tasks.cancel_scope.cancel()

    async def _answer(self, channel: _Channel, ident: str) -> None:
        """Answer the client's messages until it leaves (or is refused for a message too large)."""
        while True:
            message = await channel.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            channel.active = time.monotonic()
            reply = await self._reply(channel, message, ident)
            if reply.get("status") == 413:
                return await channel.refuse(reply)
            await channel.send(json.dumps(reply))

    async def _push(self, channel: _Channel, session, ident: str) -> None:
        async with aclosing(state_changes(session, ident, None, self.heartbeat)) as changes:
            async for change in changes:
                if change is not None:
                    channel.active = time.monotonic()
                    await channel.send(f'{{"type": "state", "state": {change[1]}}}')
                elif time.monotonic() - channel.active > MOST_IDLE:
                    return await channel.close(1001, f"nothing happened for {MOST_IDLE:g} seconds")
        await channel.close(1001, "the game left the server (abandoned, or dropped from its memory): "
                                  "connect again to follow it")

    async def _reply(self, channel: _Channel, message: dict, ident: str) -> dict:
        """The answer to one message of the client (an error answer for a bad one)."""
        ref = None
        try:
            body = _body(message)
            ref = _client_id(body)
            if "tokens" in body and "move" in body:
                raise UsageError("a message is a move or seat tokens, not both",
                                 hint="send the tokens first; they hold for the moves after them")
            if "tokens" in body:
                channel.shown = shown_tokens(field(body, "tokens", str, ""))
                session = await run_in_threadpool(self.store.get, ident)
                return {"type": "held", "held": sorted(session.held(channel.shown))}
            if "move" in body:
                return {"type": "ack", "id": ref, **await run_in_threadpool(self._play, ident, body, channel.shown)}
            raise UsageError("a message must be a move or seat tokens",
                             expected='{"move": "e2e4", "id": 1} or {"tokens": "TOKEN"}')
        except RulesError as err:
            return {**self._error(err), "id": ref}

    def _play(self, ident: str, body: dict, shown: list[str]) -> dict:
        """Play the move of ``body``; its number, SAN and the game's version after it."""
        session = self.store.get(ident)
        text = self.read_move(body)
        with session.lock:
            before = len(session.plies)
            session.play(text, session.held(shown))
            return {"ply": before + 1, "san": session.plies[before].san, "version": session.version}

    def _error(self, err: RulesError) -> dict:
        status, payload = self.answer(err)
        return {"type": "error", "status": status, **payload}


class _Channel:
    """One open WebSocket: its sends one at a time (states and answers come from two tasks), the seat
    tokens it showed, and when it was last active."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.sending = asyncio.Lock()
        self.closed = False
        self.shown: list[str] = []
        self.active = time.monotonic()

    async def send(self, text: str) -> None:
        """Send ``text``; WebSocketDisconnect, as if the client had left, once either task closed the
        socket (the game left while an answer was on its way: the answer has no one to go to) or the
        client's close arrived. Uvicorn refuses a send after the client's close with a RuntimeError
        (the client's close reached the other task's receive a moment before), which Starlette passes
        on as it is (it turns only an OSError into WebSocketDisconnect)."""
        async with self.sending:
            if self.closed:
                raise WebSocketDisconnect(1000)
            try:
                await self.websocket.send_text(text)
            except RuntimeError as err:
                raise WebSocketDisconnect(1006) from err

    async def close(self, code: int, reason: str) -> None:
        """Close with ``code`` and ``reason`` (clipped), once: a second close does nothing."""
        async with self.sending:
            if self.closed:
                return
            self.closed = True
            try:
                await self.websocket.close(code, clip(reason, 120))
            except (RuntimeError, WebSocketDisconnect):   # already closed by the client
                pass

    async def refuse(self, error: dict) -> None:
        """Send ``error`` and close with code 4000 + its status."""
        try:
            await self.send(json.dumps(error))
        except WebSocketDisconnect:
            return
        await self.close(4000 + error["status"], error["message"])


def _body(message: dict) -> dict:
    """The JSON object of a client's message; UsageError (or MessageTooLarge) for anything else."""
    text = message.get("text")
    if text is None:
        raise UsageError("the message is binary", expected="a JSON object as a text message")
    if len(text) > MOST_MESSAGE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MOST_MESSAGE_BYTES:
        raise MessageTooLarge(f"the message is larger than {MOST_MESSAGE_BYTES:,} bytes",
                              expected='a move or seat tokens, e.g. {"move": "e2e4", "id": 1}')
    try:
        body = json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"the message is not JSON: {err.msg}", expected='{"move": "e2e4", "id": 1}') from None
    except RecursionError:
        raise UsageError("the message nests arrays or objects too deeply to be read") from None
    if not isinstance(body, dict):
        raise UsageError("the message must be a JSON object", expected='{"move": "e2e4", "id": 1}')
    return body


def _client_id(body: dict) -> str | int | None:
    """The client's ``id`` of a message (echoed in the answer): a short string or a whole number."""
    ref = body.get("id")
    if ref is None or (isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) < 2 ** 53) or (
            isinstance(ref, str) and len(ref) <= MOST_ID_CHARS):
        return ref
    raise UsageError(f"'id' must be a string of at most {MOST_ID_CHARS} characters or a whole number, "
                     f"not {clip(repr(ref), 40)}")
