"""Agents named in text: ``random``, ``greedy``, ``ai``, ``ai:alphabeta:time=2``, ``ai:mcts:nodes=20000``.

A spec is words separated by ``:`` (or ``,`` between options). The first
word is the agent: ``random``, ``greedy``, ``ai`` (the default search,
alpha-beta), ``alphabeta``, ``mcts`` or ``maxn``; ``ai`` may be followed by
the algorithm (``ai:mcts``, ``ai:maxn``). Then options ``NAME=VALUE``:

- ``time=S`` seconds per move, ``nodes=N``, ``depth=N`` (the budget; a depth
  over the limit ``search_depth`` is a :class:`dsl.errors.LimitError`);
- ``level=easy|medium|hard``: a budget of :data:`LEVELS` (options given
  beside it win); or ``level=ELO``, a number from 800 to 2000: a strength
  in Elo (:mod:`.strength`: nodes a move and noise in the evaluation, for
  the alpha-beta agent; options given beside it win);
- ``seed=N``: the agent's seed (else the one the caller gives);
- ``weights=FILE``: the evaluation weights of the ``ai`` block of the rules
  file ``FILE`` (a path, or a bundled variant's name: what it extends
  included, 1 where it gives none) instead of the game's own, for the
  searches (alpha-beta, MCTS, max-n): ``rules match chess --seat
  ai:nodes=3000:weights=chess-tuned.rules --seat ai:nodes=3000`` measures the
  weights ``rules tune`` fitted against the game's. The file is read when
  the spec is parsed, only where the caller allows files (``files``: the
  command line's agents; a server's and an engine protocol's are refused),
  with the caller's :class:`~dsl.files.FilePolicy` for its ``extends``.

An external engine is ``uci:COMMAND`` (UCI) or ``xboard:COMMAND`` (XBoard,
CECP v2) followed by options separated by ``:`` alone (an option's name
may hold spaces and its value commas): ``time``, ``nodes`` and ``depth``
are the budget as above, ``variant=NAME`` the engine's name of the game
(else found from the game), ``seed`` is ignored, and every other
``NAME=VALUE`` is set on the engine
(``uci:/usr/games/fairy-stockfish:time=0.5:Skill Level=3``); see
:mod:`.external` and :mod:`.xboard_engine`.

``human`` is not an agent; front ends check for it before calling
:func:`parse_agent`. Bad specs raise :class:`dsl.UsageError`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from dsl import UsageError
from dsl import spec as S
from dsl.errors import RulesError, clip, suggest
from dsl.files import FilePolicy
from dsl.limits import SEARCH_DEPTH
from dsl.loader import load_spec

from .alphabeta import AlphaBeta
from .base import Agent, Budget
from .external import UciEngine, split_command
from .maxn import MaxN
from .mcts import MCTS
from .simple import GreedyAgent, RandomAgent
from .strength import MAX_ELO, MIN_ELO, elo_budget, elo_limits
from .xboard_engine import XBoardEngine

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "alphabeta": AlphaBeta, "mcts": MCTS, "maxn": MaxN}
SEARCHES = ("alphabeta", "mcts", "maxn")
ENGINES = {"uci": UciEngine, "xboard": XBoardEngine}   # external engines by protocol: uci:COMMAND[:NAME=VALUE...]
ENGINE_PREFIXES = tuple(f"{protocol}:" for protocol in ENGINES)
# The budgets of --level: easy is shallow, medium answers within about a second, hard within five.
LEVELS = {"easy": Budget(time=0.5, depth=2), "medium": Budget(time=1.0), "hard": Budget(time=5.0)}
DEFAULT_LEVEL = "medium"
BUDGET_OPTIONS = ("time", "nodes", "depth", "level")
OPTIONS = (*BUDGET_OPTIONS, "seed", "weights")


@dataclass(frozen=True)
class AgentSpec:
    """A parsed agent spec: the agent's kind, its budget and seed (None: the caller's)."""

    kind: str
    budget: Budget = field(default_factory=Budget)
    seed: int | None = None
    text: str = ""
    elo: int | None = None     # a level of strength (alpha-beta only), see interpreter.agents.strength
    command: str = ""          # an external engine's command (kind "uci" or "xboard")
    engine_options: tuple[tuple[str, str], ...] = ()   # its options, set in this order
    variant: str | None = None  # its name of the game, when given
    weights: tuple[tuple[str, float], ...] = ()   # a search's evaluation weights (weights=FILE); none: the game's

    def make(self, seed: int = 0) -> Agent:
        """A new agent of this spec (seeded by the spec's seed, else by ``seed``)."""
        seed = self.seed if self.seed is not None else seed
        if self.kind in ENGINES:
            return ENGINES[self.kind](self.command, self.engine_options, self.variant, seed)
        weights = dict(self.weights) or None
        if self.kind == "alphabeta" and self.elo is not None:
            nodes, noise = elo_limits(self.elo)
            return AlphaBeta(seed, weights=weights, noise=noise, node_cap=nodes)
        if self.kind in SEARCHES:
            return AGENTS[self.kind](seed, weights=weights)
        return AGENTS[self.kind](seed)

    @property
    def label(self) -> str:
        """The spec as written (what tables and game records call the player)."""
        return self.text or self.kind


def parse_agent(text: str, level: str | None = None, files: FilePolicy | None = None) -> AgentSpec:
    """Parse an agent spec; ``level`` (easy, medium, hard) gives the budget when the spec has none;
    ``files``: the policy by which a ``weights=FILE`` option reads its file (None: the option is
    refused, as where the spec comes from a request)."""
    if text.strip().startswith(ENGINE_PREFIXES):
        return _parse_engine(text.strip())
    words = _words(text)
    if not words:
        raise UsageError("an empty agent spec", expected="random, greedy, ai, ai:alphabeta:time=2, ai:mcts:nodes=20000")
    head, rest = words[0], words[1:]
    if head == "ai":
        kind = "alphabeta"
        if rest and "=" not in rest[0]:
            kind = rest.pop(0)
            if kind not in SEARCHES:
                raise _unknown(kind, SEARCHES, f"{text}: 'ai:' is followed by a search")
    elif head in AGENTS:
        kind = head
    else:
        raise _unknown(head, ["random", "greedy", "ai", *SEARCHES, *(f"{p}COMMAND" for p in ENGINE_PREFIXES)],
                       f"unknown agent '{head}'")
    options: dict[str, str] = {}
    for word in rest:
        name, sep, value = word.partition("=")
        if not sep or not value:
            raise UsageError(f"agent option {word!r} is not NAME=VALUE", hint="e.g. ai:alphabeta:time=2")
        if name not in OPTIONS:
            raise _unknown(name, OPTIONS, f"unknown agent option '{name}'")
        options[name] = value
    level = options.pop("level", level)
    elo = None
    if level is not None and level.isascii() and level.isdigit():
        elo = _elo(level)
        if kind != "alphabeta":
            raise UsageError(f"level={level}: a strength in Elo is a level of the alpha-beta agent",
                             hint=f"ai:level={level}, or {kind} with level=easy|medium|hard")
        budget = elo_budget(elo)
    else:
        budget = LEVELS[_level(level)] if level is not None else Budget()
    numbers = {name: _number(name, options[name]) for name in ("time", "nodes", "depth") if name in options}
    if numbers:
        budget = Budget(**{**({} if level is None else _fields(budget)), **numbers})
    seed = int(_number("seed", options["seed"], allow_zero=True)) if "seed" in options else None
    if kind in SEARCHES and budget.unlimited:
        budget = LEVELS[DEFAULT_LEVEL]
    weights = _weights(options["weights"], kind, files) if "weights" in options else ()
    return AgentSpec(kind, budget, seed, text.strip(), elo, weights=weights)


def _words(text: str) -> list[str]:
    """The words of an agent spec: split at ``:`` and ``,``, empty ones dropped."""
    return [w for part in text.strip().split(":") for w in part.split(",") if w]


def names_budget(text: str) -> bool:
    """Does the agent spec ``text`` name its budget (``time``, ``nodes``, ``depth`` or ``level``)? A
    spec that does not (``ai``) plays at whatever level the caller gives it."""
    return any(word.partition("=")[0] in BUDGET_OPTIONS for word in _words(text)[1:])


def _weights(ref: str, kind: str, files: FilePolicy | None) -> tuple[tuple[str, float], ...]:
    """The evaluation weights of ``weights=REF``: the ``ai`` block of the rules file (or bundled
    variant) ``REF`` as its ``extends`` resolve it, every weight named (1 where it gives none)."""
    if kind not in SEARCHES:
        raise UsageError(f"agent option weights=: {kind} has no evaluation to weigh",
                         hint="weights= is an option of the searches: ai, ai:mcts, ai:maxn")
    if files is None:
        raise UsageError(f"agent option weights={clip(ref)}: this agent may not read a file",
                         hint="weights= is for the agents of the command line (rules match, play, bestmove, analyze, tune)")
    try:
        given = load_spec(ref, files).ai.weights
    except RulesError as err:
        if err.loc is None:      # a located error names its file already; this one names the ref
            err.message = f"agent option weights=: {err.message}"
        raise
    return tuple((name, float(given.get(name, 1.0))) for name in S.AI_WEIGHTS)


def _parse_engine(text: str) -> AgentSpec:
    """``uci:COMMAND[:NAME=VALUE...]`` or ``xboard:COMMAND[:NAME=VALUE...]`` (see the module docstring)."""
    protocol, _, after = text.partition(":")
    command, *rest = after.split(":")
    split_command(command)
    numbers: dict[str, float] = {}
    options: list[tuple[str, str]] = []
    variant = None
    for word in rest:
        name, sep, value = (part.strip() for part in word.partition("="))
        if not sep or not name or not value:
            raise UsageError(f"engine option {clip(word)!r} is not NAME=VALUE", hint=f"e.g. {protocol}:stockfish:time=0.5")
        if name in ("time", "nodes", "depth"):
            numbers[name] = _number(name, value)
        elif name == "variant":
            variant = value
        elif name != "seed":
            if any(c in name + value for c in "\n\r"):
                raise UsageError(f"engine option {clip(word)!r}: a line break may not be sent to the engine")
            options.append((name, value))
    return AgentSpec(protocol, Budget(**numbers), None, text, None, command.strip(), tuple(options), variant)


def _elo(text: str) -> int:
    elo = int(text[:6])   # ASCII digits (see parse_agent); more than six are out of range anyway
    if len(text) > 6 or not MIN_ELO <= elo <= MAX_ELO:
        raise UsageError(f"level={clip(text)}: a strength from {MIN_ELO} to {MAX_ELO} Elo",
                         expected=f"easy, medium, hard, or a number from {MIN_ELO} to {MAX_ELO}")
    return elo


def _fields(budget: Budget) -> dict:
    return {"time": budget.time, "nodes": budget.nodes, "depth": budget.depth}


def _level(name: str) -> str:
    if name not in LEVELS:
        raise _unknown(name, [*LEVELS, f"{MIN_ELO}-{MAX_ELO}"], f"unknown level '{clip(name)}'")
    return name


def _number(name: str, text: str, allow_zero: bool = False):
    try:
        value = float(text) if name == "time" else int(text)
    except ValueError:
        raise UsageError(f"agent option {name}={clip(text)}: not a number",
                         expected="seconds (time=1.5)" if name == "time" else "a whole number") from None
    if not math.isfinite(value):  # nan would pass every comparison with a bound, inf has no end
        raise UsageError(f"agent option {name}={clip(text)}: not a finite number", expected="seconds (time=1.5)")
    if value < 0 or (value == 0 and not allow_zero):
        raise UsageError(f"agent option {name}={text} must be positive")
    if name == "depth" and value > SEARCH_DEPTH.value:
        raise SEARCH_DEPTH.error(f"agent option depth={clip(text)}", None)
    return value


def _unknown(word: str, choices, message: str) -> UsageError:
    guess = suggest(word, list(choices))
    return UsageError(message, expected=", ".join(choices), hint=f"did you mean '{guess}'?" if guess else None)
