"""Shuffled starting arrays (Chess960 and the like), from ``shuffle`` in a setup.

The setup gives a template; each ``shuffle CELLS`` permutes the template's
pieces on those cells (each distinct arrangement once), keeps the
arrangements that satisfy its rules (``B on both colours``: the pieces of
that kind stand on cells of both colours; ``K between R``: the piece stands
between the two outermost pieces of the other kind, by file), and copies
the arrangement file by file onto the ``mirror`` cells, in the armies of
the template's pieces there. Arrangements are numbered in the order of
their rank strings.
"""

from __future__ import annotations

from collections import Counter
from math import factorial, prod

from dsl import limits as L
from dsl import spec as S
from dsl.errors import RulesSemanticError, unknown_name

from interpreter.compiler.budget import compiling, spend
from interpreter.compiler.game import Game
from interpreter.engine.position import Position
from interpreter.engine.rights import dead_marks
from interpreter.notation.fen import to_fen


def _satisfies(game, cells: list[int], codes: tuple[int, ...], rules: list[S.ShuffleRule]) -> bool:
    board = game.board
    for rule in rules:
        kind = game.kind_index[rule.piece]
        mine = [c for c, code in zip(cells, codes) if game.code_kind[code] == kind]
        if rule.kind == "colours":
            if len(mine) > 1 and len({board.attributes[c]["colour"] for c in mine}) < 2:
                return False
        else:
            other = game.kind_index[rule.other]
            xs = sorted(board.coords[c][0] for c, code in zip(cells, codes) if game.code_kind[code] == other)
            if xs and not all(xs[0] < board.coords[c][0] < xs[-1] for c in mine):
                return False
    return True


def arrangements(game: Game, start: Position) -> list[str]:
    """The FEN of every starting array the setup's shuffles allow from the template ``start``
    (just its FEN without any)."""
    shuffles = game.spec.setup.shuffles
    if not shuffles:
        return [to_fen(start)]
    results = [start]
    with compiling(shuffles[0].loc):
        for shuffle in shuffles:
            for rule in shuffle.rules:
                for name in (rule.piece, rule.other):
                    if name is not None and name not in game.kind_index:
                        raise unknown_name("piece", name, game.kind_index, rule.loc)
            expanded = []
            for template in results:
                expanded += _shuffle(game, template, shuffle, len(results))
            results = expanded
    fens = sorted({to_fen(pos) for pos in results})
    if not fens:
        raise RulesSemanticError("no arrangement satisfies the shuffle rules", shuffles[0].loc)
    return fens


def _shuffle(game, template: Position, shuffle: S.ShuffleSpec, templates: int = 1) -> list[Position]:
    """The arrangements of ``template`` that ``shuffle`` allows; ``templates`` (how many
    templates are shuffled alike) multiplies the count checked against the limit."""
    board = game.board
    cells = sorted(board.term(shuffle.cells, None), key=lambda c: board.coords[c])
    mirror = {board.coords[c][0]: c for c in board.term(shuffle.mirror, None)} if shuffle.mirror else {}
    pieces = tuple(template.board[c] for c in cells if template.board[c])
    cells = [c for c in cells if template.board[c]]
    count = factorial(len(pieces)) // prod(factorial(k) for k in Counter(pieces).values())
    if count * templates > L.ARRANGEMENTS.value:
        raise L.ARRANGEMENTS.error(f"this shuffle has {count * templates:,} arrangements to try", shuffle.loc)
    out = []
    for codes in _distinct_permutations(pieces):
        spend(len(board))
        if not _satisfies(game, cells, codes, shuffle.rules):
            continue
        pos = template.copy()
        for cell, code in zip(cells, codes):
            pos.board[cell] = code
            twin = mirror.get(board.coords[cell][0], -1)
            if twin >= 0 and template.board[twin]:
                army = game.code_army[template.board[twin]]
                pos.board[twin] = game.code(game.code_kind[code], army)
        pos.find_royals()
        reset_unmoved(game, pos)
        out.append(pos)
    return out


def _distinct_permutations(items: tuple[int, ...]):
    """Every distinct ordering of ``items`` once, in increasing order (next permutation)."""
    order = sorted(items)
    while True:
        yield tuple(order)
        i = len(order) - 2
        while i >= 0 and order[i] >= order[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(order) - 1
        while order[j] <= order[i]:
            j -= 1
        order[i], order[j] = order[j], order[i]
        order[i + 1:] = reversed(order[i + 1:])


def reset_unmoved(game, pos: Position) -> None:
    """At the start every tracked piece, and every piece on a gate cell, is unmoved (so castling
    rights follow the new rooks), as far as its mark allows something (see engine.rights)."""
    pos.unmoved = 0
    for cell, code in enumerate(pos.board):
        if code and (game.tracked[code] or (game.gate_mask >> cell) & 1):
            pos.unmoved |= 1 << cell
    pos.unmoved &= ~dead_marks(pos)
