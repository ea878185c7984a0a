"""Attacks on cells and royal pieces: the part of a position that answers "is it attacked?".

Most attacks are read from the game's reverse tables (leaps, rays, lame
leaps, hops: see :mod:`interpreter.compiler.tables`); attacks that depend on
more than occupancy are found by generating the attacker's moves. In
stacking games a royal piece is attacked when an enemy piece that is not
locked has a move whose outcome removes it.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import TYPE_CHECKING

from interpreter.compiler.native_game import FoeTables, NativeGame
from interpreter.compiler.stacking import CAPTURES

from . import stacking
from .moves import piece_moves

if TYPE_CHECKING:
    from .position import Position


def attacked(pos: Position, cell: int, by: int, victim: int = 0) -> bool:
    """Is ``cell`` attacked by a piece of army ``by`` (whatever stands on ``cell``)? ``victim``: the
    code of the piece whose safety is asked about, for hoppers limited in what they take (see
    :func:`table_attackers`)."""
    g: NativeGame = pos.game
    if g.stacking is not None:
        return _stack_cell_attacked(pos, cell, by)
    if table_attacked(pos, cell, g.attackers[by], victim):
        return True
    slow = g.slow_attackers[by]
    return bool(slow) and generated_attack(pos, cell, by, slow)


def generated_attack(pos: Position, cell: int, by: int, codes: frozenset[int] | None = None) -> bool:
    """Has a piece of army ``by`` (of ``codes``; None: any) a move that takes a piece on ``cell``?
    Its moves are generated with a piece it may capture standing on the cell, whatever stands
    there (an empty cell is attacked if a piece arriving there could be taken): the attacks the
    tables cannot say (*slow* attackers), and a check of the tables (tests)."""
    g: NativeGame = pos.game
    board = pos.board
    hostile = g.hostile[by]
    occupant = board[cell]
    board[cell] = g.stand_in[by]
    try:
        for src in list(pos.cells_of[by]):
            code = board[src]
            if codes is None or code in codes:
                out: list = []
                for gen in g.generators[code]:
                    gen(pos, src, board, hostile, out)
                if any(m[1] == cell for m in out):
                    return True
        return False
    finally:
        board[cell] = occupant


def table_attacked(pos: Position, cell: int, foes: FoeTables, victim: int = 0) -> bool:
    """Is ``cell`` attacked by an attack of ``foes``' tables (leaps, privileged leaps, rides, lame
    leaps, hops: the attacks that depend on occupancy alone, of one army or several)? ``victim``:
    see :func:`table_attackers`."""
    return bool(table_attackers(pos.board, cell, foes, pos.privileges, True, victim))


def table_attackers(board: list[int], cell: int, foes: FoeTables, privileges: int, first: bool = False,
                    victim: int = 0) -> list[int]:
    """The cells of the pieces that attack ``cell`` by an attack of ``foes``' tables on ``board``
    (``privileges``: the cells whose pieces may still make their once-per-game moves); with
    ``first``, only the first found (or none).

    ``victim``: the code of the piece whose capture on ``cell`` is asked about (a king about to
    step there), or 0 for the piece standing there. It matters only to hoppers that take some
    kinds alone (``takes``): they attack an empty cell, with no victim named, when they may
    capture some piece there."""
    found: list[int] = []
    for src, codes in foes.leap[cell]:
        if board[src] in codes:
            found.append(src)
            if first:
                return found
    if foes.once[cell]:
        for src, codes in foes.once[cell]:
            if board[src] in codes and (privileges >> src) & 1:
                found.append(src)
                if first:
                    return found
    for chain, codes in foes.ray[cell]:
        for c in chain:
            q = board[c]
            if q:
                if q in codes:
                    found.append(c)
                    if first:
                        return found
                break
    if foes.lame[cell]:
        for src, between, codes in foes.lame[cell]:
            if board[src] in codes and not any(board[c] for c in between):
                found.append(src)
                if first:
                    return found
    if foes.hop[cell]:
        target = victim or board[cell]
        for chain, codes, hurdles, victims in foes.hop[cell]:
            if target and victims is not None and not victims[target]:
                continue
            hurdle = False
            for c in chain:
                q = board[c]
                if q:
                    if hurdle:
                        if q in codes:
                            found.append(c)
                            if first:
                                return found
                        break
                    if hurdles is not None and not hurdles[q]:
                        break
                    hurdle = True
    if foes.near[cell]:
        # A grasshopper: the hurdle on the chain's first cell, the attacker the next piece beyond.
        target = victim or board[cell]
        for chain, codes, hurdles, victims in foes.near[cell]:
            if target and victims is not None and not victims[target]:
                continue
            q = board[chain[0]]
            if not q or (hurdles is not None and not hurdles[q]):
                continue
            for k in range(1, len(chain)):
                q = board[chain[k]]
                if q:
                    if q in codes:
                        found.append(chain[k])
                        if first:
                            return found
                    break
    return found


def live_enemies(pos: Position, army: int) -> list[int]:
    """The enemies of ``army`` still in the game: all of them, except in games where armies are put
    out (see :mod:`interpreter.engine.scoring`), whose inert pieces attack nothing."""
    g: NativeGame = pos.game
    enemies = g.enemies[army]
    return enemies if not pos.out else [e for e in enemies if not (pos.out >> e) & 1]


def royal_cells(pos: Position, army: int) -> tuple[int, ...]:
    """Cells of the royal pieces of ``army`` (in stacking games, also those locked under another):
    kept by the position (:attr:`Position.royals <interpreter.engine.position.Position.royals>`),
    so a piece lifted off the board for a moment to ask a question is still counted."""
    return pos.royals[army]


def in_check(pos: Position, army: int | None = None) -> bool:
    """Is a royal piece of ``army`` (default: any army that moves this turn) attacked by an enemy?"""
    if army is None:
        return any(royal_attacked(pos, a) for a in pos.movers)
    return royal_attacked(pos, army)


def checkers(pos: Position) -> list[int]:
    """Cells of enemy pieces that attack a royal piece of the side to move."""
    found = []
    army = pos.army
    for k in royal_cells(pos, army):
        for e in live_enemies(pos, army):
            for src in pos.cells_of[e]:
                if pos.game.stacking is not None:
                    if any(stacking.removes_royal(pos, m, {k}) for m in piece_moves(pos, src)):
                        found.append(src)
                    continue
                # A piece the enemy may capture stands in for the royal one (which, with
                # 'forbid royal-capture', no move may take).
                king, pos.board[k] = pos.board[k], pos.game.stand_in[e]
                try:
                    if any(m[1] == k for m in piece_moves(pos, src)):
                        found.append(src)
                finally:
                    pos.board[k] = king
    return sorted(set(found))


def royal_attacked(pos: Position, army: int) -> bool:
    """Is a royal piece of ``army`` attacked (or, with explosions, gone)?

    With ``check when all royals attacked``, an army with several royal
    pieces counts as attacked only when every one of them is. With
    ``captures explode``: an army that had royal pieces and has
    none is beaten (so a move that blows up its own king is illegal),
    an army whose enemies lost theirs is safe, and a capture that would
    also blow up the capturer's own royal piece does not count as an
    attack (kings next to each other do not check each other).
    """
    g: NativeGame = pos.game
    if g.stacking is not None:
        return stack_royal_attacked(pos, army)
    royals = royal_cells(pos, army)
    enemies = g.enemies[army] if not pos.out else live_enemies(pos, army)
    if g.blast is None:
        if g.check_all and len(royals) > 1:   # 'check when all royals attacked'
            return all(any(attacked(pos, k, e) for e in enemies) for k in royals)
        return any(attacked(pos, k, e) for k in royals for e in enemies)
    if army in g.royal_armies and not royals:
        return True
    if any(e in g.royal_armies and not royal_cells(pos, e) for e in enemies):
        return False
    if g.check_all and len(royals) > 1:
        return all(any(threatens(pos, k, e) for e in enemies) for k in royals)
    return any(threatens(pos, k, e) for k in royals for e in enemies)


def threatens(pos: Position, cell: int, by: int, victim: int = 0) -> bool:
    """Could army ``by`` take a royal piece standing on ``cell`` (``victim``: its code, when it is
    not the piece standing there)?

    :meth:`attacked`, except that with ``captures explode`` a capture
    that would also blow up a royal piece of ``by`` does not count.
    """
    g: NativeGame = pos.game
    if g.blast is not None:
        board, is_royal, code_army = pos.board, g.is_royal, g.code_army
        if any(board[c] and is_royal[board[c]] and code_army[board[c]] == by for c in g.blast[cell]):
            return False
    return attacked(pos, cell, by, victim)


def gives_check(pos: Position, army: int) -> bool:
    """Does ``army`` attack a royal piece of one of its enemies (with ``check when all royals
    attacked``: every royal piece of one of them)?"""
    g: NativeGame = pos.game
    enemies = g.enemies[army] if not pos.out else live_enemies(pos, army)
    if g.check_all:
        return any(checks_all(pos, army, royal_cells(pos, e)) for e in enemies)
    return any(attacked(pos, k, army) for e in enemies for k in royal_cells(pos, e))


def checks_all(pos: Position, army: int, royals: tuple[int, ...]) -> bool:
    """Does ``army`` attack every one of the royal pieces on ``royals`` (and at least one)?"""
    return bool(royals) and all(threatens(pos, k, army) for k in royals)


def stack_royal_attacked(pos: Position, army: int, royals: set[int] | None = None,
                         moved: set[int] | None = None) -> bool:
    """Could an enemy piece that is not locked remove a royal piece of ``army`` (one on ``royals``,
    by default any; with ``check when all royals attacked``, each of them)?

    ``moved``: cells a caller rewrote without :meth:`Position.push` (``cells_of`` is stale
    there): the enemy pieces on them are read from the board instead.
    """
    game = pos.game
    if royals is None:
        royals = set(royal_cells(pos, army))
    if not royals:
        return False
    if game.check_all and len(royals) > 1:
        return all(stack_royal_attacked(pos, army, {k}, moved) for k in royals)
    enemies = live_enemies(pos, army)
    if moved is None:
        return any(_removes_from(pos, pos.cells_of[enemy], royals, ()) for enemy in enemies)
    board, code_army = pos.board, game.code_army
    return (any(_removes_from(pos, pos.cells_of[enemy], royals, moved) for enemy in enemies)
            or _removes_from(pos, [c for c in moved if board[c] and code_army[board[c]] in enemies], royals, ()))


def _removes_from(pos: Position, sources: Iterable[int], royals: set[int], skip: Container[int]) -> bool:
    """Has a piece on one of ``sources`` (but those on ``skip``) a move that removes a royal piece
    on ``royals``?"""
    reach = stacking.rules_of(pos.game).reach
    board = pos.board
    for src in sources:
        if reach[board[src]][src].isdisjoint(royals) or src in skip:
            continue
        out: list = []
        stacking.piece_moves(pos, src, out, royals)
        for m in out:
            if stacking.removes_royal(pos, m, royals):
                return True
    return False


def _stack_cell_attacked(pos: Position, cell: int, by: int) -> bool:
    """Could army ``by`` capture a lone enemy piece standing on ``cell`` (castling's path test)?"""
    game = pos.game
    board = pos.board
    occupant = board[cell]
    if not occupant:
        board[cell] = game.stand_in[by]
    try:
        reach = stacking.rules_of(game).reach
        for src in list(pos.cells_of[by]):
            if src == cell or cell not in reach[board[src]][src]:
                continue
            out: list = []
            stacking.piece_moves(pos, src, out, {cell})
            if any(m[3][0] == "st" and m[3][1] in CAPTURES for m in out):
                return True
        return False
    finally:
        board[cell] = occupant


def royals_face(pos: "Position", army: int, rays: list[list[list[int]]]) -> bool:
    """Does a royal piece of ``army`` see an enemy royal piece along one of ``rays`` (per cell, as
    :meth:`Game.family_rays <interpreter.compiler.game.Game.family_rays>` gives them), with only empty
    cells between?"""
    g: NativeGame = pos.game
    board, is_royal, code_army, enemies = pos.board, g.is_royal, g.code_army, g.enemies[army]
    for cell in royal_cells(pos, army):
        for ray in rays[cell]:
            for other in ray:
                code = board[other]
                if code:
                    if is_royal[code] and code_army[code] in enemies:
                        return True
                    break
    return False
