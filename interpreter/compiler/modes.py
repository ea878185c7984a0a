"""A variant's play modes: who plays which armies, and in what order turns go.

:func:`compile_mode` picks a mode (default: the first declared) and gives
the players their armies, a mode's ``option PLAYER = TEAM`` (with the
runner's choice of team) and its turn order; :func:`check_one_player_per_army`
refuses a mode that gives one army to two players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import spec as S
from dsl.errors import RulesSemanticError, UsageError, clip, suggest, unknown_name

if TYPE_CHECKING:
    from .game import Army


def compile_mode(spec: S.VariantSpec, armies: list[Army], turn_order: list[int], mode: str | None,
                 options: dict[str, str]) -> tuple[str | None, dict[str, list[int]], list[tuple[int, ...]]]:
    """The chosen mode's name (None without modes), its players and its turns.

    ``players`` maps each seat of the mode to the armies it plays (an army
    alone, named after it, without modes). ``turns[i]`` lists the armies
    that move in turn ``i``: one, or all the armies of a player named in
    the mode's ``turn`` (a turn is then one move of any of their pieces);
    the first of them is the army FEN names. Without a mode ``turn``, the
    variant's ``turn_order`` stands.

    A mode's ``option PLAYER = TEAM`` gives that player the team's armies;
    ``options`` (the runner's) may name another team. The armies it takes
    leave the other players, and an army left without a player gets one of
    its own, named after it. UsageError for a mode or option the variant
    does not have; RulesSemanticError for a name a mode gets wrong.
    """
    army_index = {a.name: a.index for a in armies}
    if not spec.modes:
        if mode is not None:
            raise UsageError(f"{spec.name} has no play modes", hint="leave out --mode")
        if options:
            raise UsageError(f"{spec.name} has no play modes, so no mode option '{clip(next(iter(options)))}'",
                             hint="leave out --option")
        return None, {a.name: [a.index] for a in armies}, [(a,) for a in turn_order]
    modes = {m.name: m for m in spec.modes}
    for declared in spec.modes:
        check_one_player_per_army(spec, declared)
    chosen = modes.get(mode or spec.modes[0].name)
    if chosen is None:
        guess = suggest(mode, modes)
        raise UsageError(f"{spec.name} has no mode '{mode}'", expected=", ".join(modes),
                         hint=f"did you mean '{guess}'?" if guess else None)
    teams = {t.name: [army_index[a] for a in t.armies] for t in spec.teams}
    players: dict[str, list[int]] = {}
    for player, army_names in chosen.players.items():
        players[player] = []
        for name in army_names:
            if name not in army_index and name not in teams:
                raise unknown_name("army or team", name, list(army_index) + list(teams), chosen.loc)
            players[player] += teams.get(name) or [army_index[name]]
    _apply_options(chosen, armies, players, teams, options)
    players = players or {a.name: [a.index] for a in armies}
    turns = []
    for name in chosen.turn or [armies[a].name for a in turn_order]:
        if name in army_index:
            turns.append((army_index[name],))
        elif name in players:
            turns.append(tuple(players[name]))
        else:
            raise unknown_name("army or player", name, list(army_index) + list(players), chosen.loc)
    return chosen.name, players, turns


def _apply_options(mode: S.ModeSpec, armies: list[Army], players: dict[str, list[int]], teams: dict[str, list[int]],
                   options: dict[str, str]) -> None:
    """Give each ``option PLAYER = TEAM`` player its team (the runner's choice or the default), in place."""
    for name in options:
        if name not in mode.options:
            guess = suggest(name, mode.options)
            raise UsageError(f"mode '{mode.name}' has no option '{name}'",
                             expected=", ".join(mode.options) or "no options",
                             hint=f"did you mean '{guess}'?" if guess else None)
    for player, default in mode.options.items():
        team = options.get(player, default)
        if player not in players:
            raise unknown_name("player", player, players, mode.loc)
        if team not in teams:
            if player in options:
                raise UsageError(f"option {player}={team}: no team '{team}'", expected=", ".join(teams))
            raise unknown_name("team", team, teams, mode.loc)
        taken = teams[team]
        for other in list(players):
            if other != player:
                players[other] = [a for a in players[other] if a not in taken]
                if not players[other]:
                    del players[other]
        players[player] = list(taken)
        for army in armies:
            if not any(army.index in owned for owned in players.values()):
                players[army.name] = [army.index]


def check_one_player_per_army(spec: S.VariantSpec, mode: S.ModeSpec) -> None:
    """An army has one player: naming it (or a team holding it) for two players of a mode is an error.

    The armies an ``option PLAYER = TEAM`` moves are taken from the other
    players when the mode is played, so only the declared players are
    compared here.
    """
    teams = {t.name: t.armies for t in spec.teams}
    owner: dict[str, str] = {}
    for player, names in mode.players.items():
        for army in (a for name in names for a in teams.get(name, [name])):
            if owner.get(army, player) != player:
                raise RulesSemanticError(
                    f"army '{army}' is given to two players of mode '{mode.name}': {owner[army]} and {player}",
                    mode.loc, expected="each army named for one player of the mode",
                    hint="give the army to one player; players who play together take an army each, in a team")
            owner[army] = player
