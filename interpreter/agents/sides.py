"""Who plays with whom: the teams of a game, and the two sides a search sees.

A team is an army with its partners (``team`` lines of the rules file);
an army without partners is a team of its own. Partners share their
results: a win of one is a win of all.

A search from the point of view of one team (the *root* team) sees two
sides: that team, and everyone else. With two teams this is exact: each
maximises its own result (a partner's moves are maximised like one's own,
the enemies' minimised). With more teams it is the *paranoid* assumption:
every other team is taken to play against the root team.
"""

from __future__ import annotations


class Sides:
    """The teams of a compiled game: ``team_of[army]``, ``teams`` (armies per team) and
    ``turn_team[turn]`` (the team that moves in each turn of the turn order)."""

    def __init__(self, game) -> None:
        self.team_of: list[int] = game.team_of
        self.teams: list[tuple[int, ...]] = game.teams
        self.turn_team: list[int] = [self.team_of[armies[0]] for armies in game.turn_armies]

    @property
    def count(self) -> int:
        return len(self.teams)

    def side_of_turn(self, root_team: int) -> list[int]:
        """Per turn: 0 when the root team moves, 1 when another team does."""
        return [0 if team == root_team else 1 for team in self.turn_team]

    def winner_teams(self, winners: tuple[int, ...]) -> set[int]:
        return {self.team_of[a] for a in winners}
