"""Who may do what in a game: the secret token of each seat.

There are no accounts. Each seat of a game gets a random token
(:func:`secrets.token_urlsafe`, 128 bits) when the game is created; whoever
holds a seat's token plays that seat, and the game's id alone (the
spectator link) lets anyone read the game but change nothing. A request
shows the tokens it holds in the ``X-Seat-Token`` header, several separated
by commas (the page that created a game at one screen holds every seat's).
Tokens are compared with :func:`secrets.compare_digest`, so that the time an
answer takes tells nothing of a token.

What each request needs (checked by :class:`~.sessions.Session` under its
lock, against the game as it is then):

- a move, and 'computer, move': the token of the seat to move;
- undo: every ply taken back must be the request's own seat's, a computer
  seat's, or forced (so a player takes back their own move until the other
  person has answered it; a hot-seat page holds every seat and may take
  back anything);
- changing who plays a seat: the token of each seat changed;
- resigning, offering a draw: the token of the seat that does it;
- accepting or declining a draw: a seat's token;
- abandoning the game: the token of every seat.

Refusals are :class:`Forbidden` (403), saying which seat's token is missing.
"""

from __future__ import annotations

import secrets

from dsl.errors import RulesError

HEADER = "X-Seat-Token"
MOST_TOKENS = 16
"""Tokens one request may show (more than any mode has seats)."""
TOKEN_BYTES = 16


class Forbidden(RulesError):
    """A request without the token of the seat it acts for; the server answers 403."""


def new_tokens(seat_names: list[str]) -> dict[str, str]:
    """A fresh secret token for each seat."""
    return {name: secrets.token_urlsafe(TOKEN_BYTES) for name in seat_names}


def shown_tokens(header: str | None) -> list[str]:
    """The tokens of an ``X-Seat-Token`` header (none for a missing or empty one). A header with
    more than :data:`MOST_TOKENS` tokens, or longer than they can be, is refused (Forbidden)."""
    if not header:
        return []
    if len(header) > MOST_TOKENS * 64:
        raise Forbidden(f"the {HEADER} header is too long", expected=f"at most {MOST_TOKENS} seat tokens")
    shown = [t.strip() for t in header.split(",") if t.strip()]
    if len(shown) > MOST_TOKENS:
        raise Forbidden(f"the {HEADER} header has more than {MOST_TOKENS} tokens")
    return shown


def held_seats(tokens: dict[str, str], shown: list[str]) -> frozenset[str]:
    """The seats whose token is among ``shown``; every pair is compared, in constant time each."""
    held = set()
    for name, token in tokens.items():
        for candidate in shown:
            if secrets.compare_digest(candidate.encode("utf-8", "surrogatepass"), token.encode("ascii")):
                held.add(name)
    return frozenset(held)


def refuse(seat_title: str, what: str) -> Forbidden:
    """The refusal of ``what`` for want of the token of the seat ``seat_title``."""
    return Forbidden(f"{what} needs the seat token of {seat_title}",
                     expected=f"the link of {seat_title}'s seat (its token in the {HEADER} header)",
                     hint="anyone with the game's spectator link can watch it, but only a seat's link plays that seat")
