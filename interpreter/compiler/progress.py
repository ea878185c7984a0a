"""Does every game of a variant end by itself, whatever the players do?

A game with no end rule on repetitions, the clock or the move number can
still be finite: when pieces only advance (Breakthrough's pawns), every
move either makes progress that cannot be undone or captures, and both run
out. :func:`always_progresses` proves it from the compiled game, for
``rules check`` (which otherwise warns that a game can go on for ever).
"""

from __future__ import annotations

from typing import TYPE_CHECKING


if TYPE_CHECKING:
    from .game import Game


def always_progresses(game: "Game") -> bool:
    """True when no game of ``game`` can go on for ever: for every piece that can be on the board
    (set up, or made by a promotion or a committing move), the cells linked by its quiet moves form
    no cycle (a networkx check on each piece's move graph), so that between two captures each piece
    makes finitely many moves, and captures are finite because nothing ever comes back: no drops
    or gating, no neutral piece moved after each move, no passing, no stacks.

    Moves a piece makes once (first-move and once-per-game patterns) and castling (it spends its
    rights) do not count; a capture may go anywhere. False whenever the proof fails, which does not
    mean that a game is endless."""
    if game.has_hands or game.stacking is not None or game.neutral_move is not None:
        return False
    if any(action == "pass" for action, _ in game.no_moves):
        return False
    import networkx as nx   # not imported by every command that loads a game
    for code in _appearing_codes(game):
        graph = nx.DiGraph()
        graph.add_nodes_from(range(game.n))
        for atom in game.atoms[code]:
            if not atom.quiet or atom.unmoved or atom.once:
                continue
            for cell in range(game.n):
                graph.add_edges_from((cell, to) for to in atom.reach(cell))
        if not nx.is_directed_acyclic_graph(graph):
            return False
    return True


def _appearing_codes(game: "Game") -> set[int]:
    """The codes of the setup and every code a promotion or a committing move can make of them."""
    codes = set(game.setup.codes())
    frontier = list(codes)
    while frontier:
        code = frontier.pop()
        made: set[int] = set()
        for tables in (game.promotions[code], game.promotions_leaving[code]):
            for targets in tables or ():
                made.update(targets)
        for line in game.in_place_promotions[code] or ():
            made.update(line.targets)
        if code in game.capture_promotions:
            made.update(game.capture_promotions[code][1])
        made.update((game.commits[code] or {}).values())
        for new in made - codes:
            codes.add(new)
            frontier.append(new)
    return codes
