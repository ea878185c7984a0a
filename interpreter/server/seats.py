"""Who plays each seat of a game on the server: a person at the page, or an agent.

A seat is a player of the game's mode (``south``, ``solo``), or an army of a
game without modes (``white``); it plays the armies the mode gives it. Its
kind is ``human`` or an agent spec (:mod:`interpreter.agents.specs`):
``random``, ``greedy``, ``ai``, ``ai:level=easy|medium|hard`` or
``ai:level=ELO`` (the page offers these, with their strength in Elo), or any spec such as ``ai:mcts:nodes=2000``. Requests may name
a seat by its player or by one of its armies, as ``rules play --seat`` does.

A server must bound what one request can cost, so an agent's budget may
not exceed :data:`MOST_TIME` seconds, :data:`MOST_NODES` nodes or
:data:`MOST_DEPTH` plies. A request never starts a program: an external
engine's spec (``uci:COMMAND``, ``xboard:COMMAND``) is refused, and the
engines the server's operator named (``rules serve --engine NAME=COMMAND``,
:class:`Engines`) are offered as ``engine:NAME`` in the games they play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from dsl.errors import UsageError, clip, suggest

from interpreter.agents import Agent, AgentSpec, parse_agent
from interpreter.agents.external import ExternalEngine
from interpreter.agents.specs import ENGINE_PREFIXES
from interpreter.agents.strength import NAMED_ELO
from interpreter.compiler.game import Game

HUMAN = "human"
# Short enough for the page's side panel: "Computer medium, 1750 Elo" (approximate, in chess).
_STRENGTHS = sorted([(elo, f"ai:level={name}", f"Computer {name}, {elo} Elo") for name, elo in NAMED_ELO.items()]
                    + [(elo, f"ai:level={elo}", f"Computer, {elo} Elo") for elo in (1200, 1500)])
KINDS = {"human": "Human", "random": "Random moves", **{kind: label for _, kind, label in _STRENGTHS}}
"""The seat kinds the page offers, with their labels; any other agent spec is accepted too. The
strengths are Elo in chess (interpreter.agents.strength); elsewhere the same search effort."""

MOST_TIME, MOST_NODES, MOST_DEPTH = 30.0, 5_000_000, 40
ENGINE_KIND = "engine:"   # a seat kind of an engine the operator named: engine:NAME


@dataclass
class Engines:
    """The external engines a server may run, by the name its operator gave each: ``specs[name]``
    is a ``uci:COMMAND[:...]`` or ``xboard:COMMAND[:...]`` spec, ``probes[name]`` an engine of it
    after its handshake (which tells the games it plays). Empty: no engine."""

    specs: dict[str, str] = field(default_factory=dict)
    probes: dict[str, ExternalEngine] = field(default_factory=dict)

    def kinds(self, game: Game) -> dict[str, str]:
        """The seat kinds ``engine:NAME`` of the engines that play ``game``, with their labels."""
        return {f"{ENGINE_KIND}{name}": f"{name} (engine)" for name, probe in self.probes.items() if probe.plays(game)}

    def spec(self, kind: str) -> str:
        """The spec of the engine of the seat kind ``engine:NAME``; UsageError for an unknown name."""
        name = kind[len(ENGINE_KIND):]
        if name not in self.specs:
            raise UsageError(f"this server has no engine '{clip(name)}'",
                             expected=", ".join(f"{ENGINE_KIND}{n}" for n in self.specs) or "(it was started with none)",
                             hint="engines are named when the server starts: rules serve --engine NAME=COMMAND")
        return self.specs[name]

    def close(self) -> None:
        for probe in self.probes.values():
            probe.close()


NO_ENGINES = Engines()


@dataclass
class Seat:
    """One seat: its ``name`` (a player of the mode), the armies it plays, and who plays it (``kind``:
    ``human`` or an agent spec, parsed into ``spec`` and made into ``agent``)."""

    name: str
    armies: tuple[int, ...]
    kind: str = HUMAN
    spec: AgentSpec | None = None
    agent: Agent | None = None

    @property
    def human(self) -> bool:
        return self.spec is None

    def title(self, game: Game) -> str:
        """The armies of the seat, in words: ``White``, ``Black and Brown``."""
        return " and ".join(game.armies[a].title for a in self.armies)

    def view(self, game: Game) -> dict:
        return {"name": self.name, "title": self.title(game), "armies": [game.armies[a].name for a in self.armies],
                "kind": self.kind, "label": kind_label(self.kind)}


def kind_label(kind: str) -> str:
    """How the page names a seat kind: its label, ``NAME (engine)``, or the spec as written."""
    if kind.startswith(ENGINE_KIND):
        return f"{kind[len(ENGINE_KIND):]} (engine)"
    return KINDS.get(kind, kind)


def default_seats(game: Game) -> list[Seat]:
    """Every player of the game's mode, human."""
    return [Seat(name, tuple(armies)) for name, armies in game.players.items()]


def seat_of(seats: list[Seat], army: int) -> Seat:
    """The seat that plays ``army``."""
    return next(seat for seat in seats if army in seat.armies)


def assign(game: Game, seats: list[Seat], given: dict, seed: int = 0, engines: Engines = NO_ENGINES,
           may_change: Callable[[Seat], None] = lambda seat: None) -> None:
    """Apply ``given`` (seat or army name -> kind) to ``seats``: all of it, or nothing and a
    UsageError naming what is wrong. ``may_change(seat)`` is called for each seat named, before
    any agent is made, and may refuse by raising. The agents of the seats that change are closed."""
    if not isinstance(given, dict):
        raise UsageError("'seats' must be an object of seat names and kinds", hint='e.g. {"black": "ai:level=easy"}')
    changes = []
    for name, kind in given.items():
        if not isinstance(kind, str):
            raise UsageError(f"the seat '{name}' must be given as a string", expected=", ".join(KINDS))
        seat = next((s for s in seats if s.name == name), None)
        if seat is None and name in game.army_index:
            seat = seat_of(seats, game.army_index[name])
        if seat is None:
            names = list(dict.fromkeys([s.name for s in seats] + [a.name for a in game.armies]))
            guess = suggest(str(name), names)
            raise UsageError(f"no seat '{name}' in {game.name}" + (f" ({game.mode})" if game.mode else ""),
                             expected=", ".join(names), hint=f"did you mean '{guess}'?" if guess else None)
        may_change(seat)
        changes.append((seat, kind, (None, None) if kind == HUMAN else agent_of(kind, seed + seats.index(seat), engines)))
    for seat, kind, (spec, agent) in changes:
        if seat.agent is not None:
            seat.agent.close()
        seat.kind, seat.spec, seat.agent = kind, spec, agent


def agent_of(text: str, seed: int, engines: Engines = NO_ENGINES) -> tuple[AgentSpec, Agent]:
    """The parsed agent spec ``text`` and a new agent of it; UsageError for a bad spec, a budget
    beyond what the server allows, or an external engine that is not one of ``engines``."""
    if text.strip().startswith(ENGINE_PREFIXES):
        raise UsageError("this server starts no program a request names",
                         hint="its operator may name engines: rules serve --engine NAME=COMMAND; then the seat "
                              "is engine:NAME")
    spec = parse_agent(engines.spec(text) if text.startswith(ENGINE_KIND) else text)
    budget = spec.budget
    for name, most in (("time", MOST_TIME), ("nodes", MOST_NODES), ("depth", MOST_DEPTH)):
        value = getattr(budget, name)
        if value is not None and value > most:
            raise UsageError(f"agent option {name}={value:g} is more than this server allows",
                             expected=f"{name} at most {most:g}")
    return spec, spec.make(seed)
