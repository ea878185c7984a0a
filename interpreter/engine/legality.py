"""Legality: which pseudo-legal moves the rules allow.

``forbid self-check`` removes moves that leave an own royal piece
attacked, ``forbid partner-check`` those that newly expose a partner's,
``forbid giving-check`` those that attack an enemy royal piece,
``forbid royal-escape`` the moves of a royal piece in check but the capture
of the only piece giving it, and ``captures compulsory`` every non-capture
when a capture exists. When
every enemy attack depends on occupancy alone, pins and hopper screens are
computed once per position and only the moves that could matter are tried
by make, test and unmake.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.compiler.native_game import FoeTables, NativeGame
from interpreter.compiler.stacking import CAPTURES

from . import stacking
from .attacks import (checkers, gives_check, in_check, live_enemies, royal_attacked, royal_cells, royals_face,
                      stack_royal_attacked, table_attacked)
from .generation import pseudo_legal_moves
from .moves import DROP, Move, swaps
from .neutral import with_neutral_moves

if TYPE_CHECKING:
    from interpreter.compiler.game import Game

    from .position import Position


def rule_abiding_moves(pos: Position, guard: Guard | None = None) -> list[Move]:
    """The moves the legality rules allow, whether or not an end rule holds.

    ``forbid self-check`` removes moves that leave an own royal piece
    attacked, ``forbid giving-check`` those that attack an enemy royal
    piece, ``forbid royal-escape`` (see :func:`_without_royal_escape`) the
    moves of a royal piece in check, and ``captures compulsory`` every
    non-capture when a capture exists, ``must drop`` every move that is not a drop when a drop
    is allowed. ``guard``: the position's :class:`Guard`, if the caller has one (see
    :attr:`Game.shares_royal_answers <interpreter.compiler.game.Game>`).
    """
    g: NativeGame = pos.game
    moves = _allowed(pos, pseudo_legal_moves(pos, guard.attacked if guard else None), guard)
    if g.compulsory_capture:
        captures = [m for m in moves if is_capture(pos, m)]
        if captures:
            moves = captures
    if g.must_drop:
        drops = [m for m in moves if m[3] is DROP]
        if drops:
            moves = drops
    if g.neutral_move is not None:
        moves = with_neutral_moves(pos, moves)
    return moves


def each_move_alone(game: Game) -> bool:
    """Is a move's legality a question about that move alone (no ``captures compulsory`` nor
    ``must drop``, whose answers depend on the other moves)? Then :func:`allowed` answers it for
    one pseudo-legal move at a time. In a game whose moves end by moving a neutral piece, the
    question is asked of the move without that second part: every way of moving the neutral piece
    after an allowed move is a legal move (:func:`~interpreter.engine.neutral.with_neutral_moves`)."""
    return not game.compulsory_capture and not game.must_drop


def allowed(pos: Position, move: Move, guard: Guard) -> bool:
    """Do the rules allow ``move``, one of :func:`~interpreter.engine.generation.pseudo_legal_moves`
    (made with ``guard.attacked``)? For searches that test only the moves they try; the same
    answer as :func:`rule_abiding_moves` where :func:`each_move_alone` holds. ``guard``: the
    position's, shared by every move asked about (its pins are computed once). In the common case
    (``Game.self_check_only``: one army a turn, ``forbid self-check`` its only legality rule, one
    royal piece whose enemies attack by occupancy alone) the move is judged by the pins alone."""
    g: NativeGame = pos.game
    if g.self_check_only:
        army = pos.army
        if not royal_cells(pos, army):
            return True
        found = guard.pins(army)
        if found is not None:
            return _keeps_king_safe(pos, move, army, found)
    return bool(_allowed(pos, [move], guard))


def _allowed(pos: Position, moves: list[Move], guard: Guard | None) -> list[Move]:
    """The pseudo-legal ``moves`` that the rules allow, each judged alone (see :func:`rule_abiding_moves`)."""
    g: NativeGame = pos.game
    if g.self_check:
        moves = _without_self_check(pos, moves, guard)
    if g.forbid_giving_check:
        army = pos.army
        moves = [m for m in moves if not _gives_check_after(pos, m, army)]
    if g.forbid_royal_escape:
        moves = _without_royal_escape(pos, moves)
    if g.apart_rays is not None:
        moves = _parting(pos, moves, g.apart_rays)
    if g.has_drops and any(g.drop_no_mate):
        moves = [m for m in moves if m[3] is not DROP or not g.drop_no_mate[m[2]] or not mates_after(pos, m)]
    return moves


def mates_after(pos: Position, move: Move) -> bool:
    """Does ``move`` checkmate: the next army in check with no legal reply?"""
    pos.push(move)
    mates = in_check(pos) and not rule_abiding_moves(pos)
    pos.pop()
    return mates


def is_capture(pos: Position, move: Move) -> bool:
    """Does ``move`` capture (en passant included; a gating move as the move it is made with; a
    promotion in place never does)?"""
    special = move[3]
    while special is not None and special[0] in ("gate", "then"):   # the move it is made with
        special = special[3]
    return bool(pos.board[move[1]]) and (special is None or special[0] not in ("castle", "promote")) or (
        special is not None and special[0] == "ep")


def _without_royal_escape(pos: Position, moves: list[Move]) -> list[Move]:
    """``forbid royal-escape``: while the side to move is in check, its royal pieces may not move,
    except to capture the piece giving check when only one piece gives it (so under a double check
    they may not move at all); the check must be met by the other pieces. Drops and moves of other
    pieces are not affected."""
    found = checkers(pos)
    if not found:
        return moves
    g: NativeGame = pos.game
    board, is_royal = pos.board, g.is_royal
    only = found[0] if len(set(found)) == 1 else -1
    return [m for m in moves if m[3] is DROP or not is_royal[board[m[0]]] or m[1] == only]


def _parting(pos: Position, moves: list[Move], rays: list[list[list[int]]]) -> list[Move]:
    """``forbid keeping royals facing``: while a royal piece of the side to move faces an enemy
    royal piece along ``rays``, only the moves that part them (see :func:`royals_face`)."""
    army = pos.army
    if not royals_face(pos, army, rays):
        return moves
    kept = []
    for move in moves:
        pos.push(move)
        if not royals_face(pos, army, rays):
            kept.append(move)
        pos.pop()
    return kept


def _gives_check_after(pos: Position, move: Move, army: int) -> bool:
    pos.push(move)
    gives = gives_check(pos, army)
    pos.pop()
    return gives


# What keeps one royal piece safe (see Guard.pins): its cell, the attack tables of the enemies still
# in the game, and _pins's answer for it: pinned pieces, whether it is attacked, hopper screens.
KingPins = tuple[int, FoeTables, set[int], bool, set[int], set[int] | None]


class Guard:
    """What one position says about the safety of its armies' royal pieces (their pins, whether
    they are attacked), computed once and shared by castling's check test, the own-check and the
    partner-check filters of the same node (and a search's check test of it).

    The answers are read from the board as it is when they are first asked: the board must not
    change while a guard is in use (make, test and unmake in between leave it as it was).
    """

    __slots__ = ("pos", "_pins")

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self._pins: dict[int, KingPins | None] = {}

    def pins(self, army: int) -> KingPins | None:
        """``(king, foes, pinned, checked, screens)``: :func:`_pins` of the one royal piece of
        ``army`` on ``king``, when it has exactly one and every attack of its enemies still in the
        game depends on occupancy alone (not in stacking games); ``foes``: their attack tables
        (:meth:`Game.foes <interpreter.compiler.game.Game.foes>`). Else None."""
        if army in self._pins:
            return self._pins[army]
        found = self._pins[army] = _king_pins(self.pos, army, royal_cells(self.pos, army))
        return found

    def attacked(self, army: int) -> bool:
        """:func:`royal_attacked` of ``army``: read from its pins where they are known (their
        ``checked`` is that answer when no capture explodes)."""
        g: NativeGame = self.pos.game
        found = self.pins(army) if g.blast is None else None
        return found[3] if found is not None else royal_attacked(self.pos, army)


def _king_pins(pos: Position, army: int, royals: tuple[int, ...]) -> KingPins | None:
    """See :meth:`Guard.pins` (``royals``: the royal cells of ``army``)."""
    g: NativeGame = pos.game
    if g.stacking is None and len(royals) == 1:
        enemies = live_enemies(pos, army)
        if all(g.pin_safe[e] for e in enemies):
            foes = pos.game.foes(enemies)
            pinned, checked, screens, blocks = _pins(pos, royals[0], foes)
            return royals[0], foes, pinned, checked, screens, blocks
    return None


def _without_self_check(pos: Position, moves: list[Move], guard: Guard | None) -> list[Move]:
    g: NativeGame = pos.game
    if len(g.turn_armies[pos.turn]) > 1:
        return _without_team_check(pos, moves, g.turn_armies[pos.turn], guard or Guard(pos))
    army = pos.army
    if g.partner_check and g.partners[army]:
        guard = guard or Guard(pos)
        return _without_partner_check(pos, _without_own_check(pos, moves, army, guard), army, guard)
    return _without_own_check(pos, moves, army, guard)


def _without_own_check(pos: Position, moves: list[Move], army: int, guard: Guard | None) -> list[Move]:
    """The moves that leave no royal piece of ``army`` attacked (pins and screens spare most
    moves the make-test-unmake); ``guard``: the position's :class:`Guard`, if there is one."""
    g: NativeGame = pos.game
    royals = royal_cells(pos, army)
    if not royals:
        return moves
    if g.stacking is not None:
        return _without_stack_check(pos, moves, royals)
    found = guard.pins(army) if guard is not None else _king_pins(pos, army, royals)
    if found is None:
        return [m for m in moves if safe_after(pos, m, army)]
    return [m for m in moves if _keeps_king_safe(pos, m, army, found)]


def _keeps_king_safe(pos: Position, move: Move, army: int, found: KingPins) -> bool:
    """Does the pseudo-legal ``move`` leave the one royal piece of ``army`` unattacked? ``found``:
    its :meth:`Guard.pins`, which spare most moves the make, test and unmake."""
    king, foes, pinned, checked, screens, blocks = found
    g: NativeGame = pos.game
    board = pos.board
    is_royal = g.is_royal
    explosive = g.blast is not None
    frm: int = move[0]     # typed: native ints once compiled (see moves.Move)
    to: int = move[1]
    promo: int = move[2]
    special = move[3]
    if frm == king and special is None and not promo and not explosive:
        # A plain king move: is its new cell attacked once it has left the old one? (A piece
        # it captures there stands on no line of attack towards that cell.)
        king_code = board[king]
        board[king] = 0
        safe = not table_attacked(pos, to, foes, king_code)
        board[king] = king_code
        return safe
    if checked:
        # A plain move or a drop that neither takes every piece giving check nor stands in
        # its way leaves the king attacked; the others are tried (and one that makes a royal
        # piece: with two, the rules may not call the army in check; and every move where a
        # capture explodes: it may blow the attacker or the enemy king away).
        if (blocks is not None and to not in blocks and not is_royal[promo] and not explosive
                and (special is None or special is DROP or special[0] == "ep_set")):
            return False
        return safe_after(pos, move, army)
    if to in screens:
        return safe_after(pos, move, army)
    if special is None or special[0] == "ep_set":  # a double step is a plain move here
        if frm not in pinned and not is_royal[board[frm]] and not (explosive and board[to]):
            return True  # a piece that shields nothing leaves an unattacked king unattacked
        return safe_after(pos, move, army)
    if special is DROP:
        return True
    if special[0] == "castle" and not explosive:
        if swaps(move):
            # King and rook exchange cells: nothing else changes, so the king's new cell is
            # attacked after the move exactly when it is now.
            return not table_attacked(pos, to, foes, board[frm])
        return _castled_safe(pos, move, foes)
    return safe_after(pos, move, army)


def _castled_safe(pos: Position, move: Move, foes: FoeTables) -> bool:
    """Is the king's destination of a castling unattacked once king and rook stand on their new
    cells? (Only occupancy changes, and the enemies' attacks depend on nothing else.)"""
    k, kd, _, (_, r, rd, _) = move
    board = pos.board
    cells = (k, r, kd, rd)  # they may overlap (a king that stays, a rook that takes the king's cell)
    before = [board[c] for c in cells]
    board[k] = board[r] = 0
    board[kd], board[rd] = before[0], before[1]
    safe = not table_attacked(pos, kd, foes)
    for c, code in zip(cells, before):
        board[c] = code
    return safe


def _pins(pos: Position, king: int, foes: FoeTables) -> tuple[set[int], bool, set[int], set[int] | None]:
    """What a move must not disturb to keep ``king`` safe from the attacks of ``foes``' tables, and
    whether it is attacked now.

    Returns ``pinned`` (own pieces whose leaving would uncover an attack:
    the only piece between the king and an enemy rider, one of the two
    between it and a hopper, the one between a grasshopper and its hurdle
    next to the king, the piece on a lame leaper's way), whether
    the king is attacked, ``screens`` (empty cells between the king
    and a hopper with nothing between them: a piece arriving there would
    let the hopper capture; and a piece the hopper may not jump over, alone
    between them: a piece capturing it there might be a hurdle; for a
    grasshopper, the empty cell next to the king on its line), and ``blocks``: when it is attacked, the cells
    where a piece arriving would take or stand in the way of every attacker
    (empty under a double check; None when a hopper attacks it, whose check
    a hurdle leaving also ends).
    """
    g: NativeGame = pos.game
    board = pos.board
    hostile = g.hostile[pos.army]
    pinned: set[int] = set()
    screens: set[int] = set()
    checks: list[set[int]] = []   # per attacker: where a piece arriving ends its attack
    hopped = False
    for src, codes in foes.leap[king]:
        if board[src] in codes:
            checks.append({src})
    for src, codes in foes.once[king]:
        if board[src] in codes and (pos.privileges >> src) & 1:
            checks.append({src})
    for chain, codes in foes.ray[king]:
        blocker = -1
        for i, c in enumerate(chain):
            q = board[c]
            if q:
                if q in codes:   # an attacker, even one the mover may not capture (a royal one)
                    if blocker < 0:
                        checks.append(set(chain[:i + 1]))
                    else:
                        pinned.add(blocker)
                    break
                if hostile[q] or blocker >= 0:
                    break
                blocker = c
    for src, between, codes in foes.lame[king]:
        if board[src] in codes:
            blockers = [c for c in between if board[c]]
            if not blockers:
                checks.append({src, *between})
            elif len(blockers) == 1 and not hostile[board[blockers[0]]]:
                pinned.add(blockers[0])
    royal = board[king]
    for chain, codes, hurdles, victims in foes.hop[king]:
        if victims is not None and not victims[royal]:
            continue
        occupied = []
        for i, c in enumerate(chain):
            if board[c]:
                occupied.append((i, c))
                if len(occupied) == 3:
                    break
        kinds = [board[c] in codes for _, c in occupied]
        if kinds[:1] == [True]:
            screens.update(chain[:occupied[0][0]])
        if kinds[1:2] == [True]:
            first = occupied[0][1]
            if hurdles is None or hurdles[board[first]]:
                hopped = True
            else:
                screens.add(first)
        if kinds[2:3] == [True]:
            pinned.update(c for _, c in occupied[:2] if not hostile[board[c]])
    for chain, codes, hurdles, victims in foes.near[king]:
        # A grasshopper: its hurdle must stand on the chain's first cell, next to the king.
        if victims is not None and not victims[royal]:
            continue
        beyond = []     # the first two pieces past the first cell
        for k in range(1, len(chain)):
            if board[chain[k]]:
                beyond.append(chain[k])
                if len(beyond) == 2:
                    break
        kinds = [board[c] in codes for c in beyond]
        behind = kinds[1:2] == [True] and not hostile[board[beyond[0]]]   # an own piece between it and a grasshopper
        hurdle = board[chain[0]]
        if hurdle and kinds[:1] == [True]:
            if hurdles is None or hurdles[hurdle]:
                hopped = True
            else:
                screens.add(chain[0])    # a piece taking the hurdle there may be one
        elif hurdle and behind:
            pinned.add(beyond[0])        # leaving (or taking the hurdle), it lets the grasshopper jump
        elif not hurdle and (kinds[:1] == [True] or behind):
            screens.add(chain[0])        # a piece arriving there is a hurdle
    blocks: set[int] | None = None
    if checks and not hopped:
        blocks = checks[0]
        for cells in checks[1:]:
            blocks = blocks & cells
    return pinned, bool(checks) or hopped, screens, blocks


def _without_partner_check(pos: Position, moves: list[Move], army: int, guard: Guard) -> list[Move]:
    """``forbid partner-check``: no move may newly expose a partner's royal piece (one already
    attacked need not be relieved)."""
    partners = _exposable_partners(pos, (army,), guard)
    return _keeping_safe(pos, moves, partners, guard, guarded=partners)


def _without_team_check(pos: Position, moves: list[Move], movers: tuple[int, ...], guard: Guard) -> list[Move]:
    """A turn shared by several armies: no royal piece of any of them may be left attacked, and
    (``forbid partner-check``) no royal piece of a partner outside the turn newly exposed."""
    exposed = _exposable_partners(pos, movers, guard)
    if any(guard.attacked(a) for a in movers):
        return _keeping_safe(pos, moves, [*movers, *exposed], guard)
    return _keeping_safe(pos, moves, [*movers, *exposed], guard, guarded=[*movers, *exposed])


def _exposable_partners(pos: Position, movers: tuple[int, ...], guard: Guard) -> list[int]:
    """With ``forbid partner-check``: the partners of ``movers`` outside the turn whose royal
    pieces are not attacked now (the ones a move may not expose), asked of ``guard``."""
    g: NativeGame = pos.game
    if not g.partner_check:
        return []
    return [p for a in movers for p in g.partners[a] if p not in movers and not guard.attacked(p)]


def _keeping_safe(pos: Position, moves: list[Move], armies: list[int], guard: Guard,
                  guarded: list[int] | None = None) -> list[Move]:
    """The moves after which no royal piece of ``armies`` is attacked.

    ``guarded``: armies whose royal pieces are not attacked now. When each has one royal
    piece and every enemy attack depends on occupancy alone, only a move of a royal piece,
    of a piece pinned against one, onto a hopper's screen, or with a side effect (en
    passant, castling that changes occupancy) can expose one; the other moves are kept
    without make and unmake.
    """
    g: NativeGame = pos.game
    if not armies:
        return moves
    fast: list[Move] = []
    if guarded and g.stacking is None:
        found = [guard.pins(a) for a in guarded if royal_cells(pos, a)]
        known = [pins for pins in found if pins is not None]
        if len(known) == len(found):
            suspects: set[int] = set()
            screens: set[int] = set()
            for king, _, pinned, _, near, _ in known:
                suspects.add(king)
                suspects |= pinned
                screens |= near
            slow: list[Move] = []
            for m in moves:
                special = m[3]
                if special is None or special[0] == "ep_set":  # a double step is a plain move here
                    (fast if m[0] not in suspects and m[1] not in screens else slow).append(m)
                elif swaps(m) and g.blast is None:
                    if not _swap_exposes(pos, m, armies, guard):
                        fast.append(m)
                else:
                    slow.append(m)
            if not slow:
                return fast  # every move kept (a swap onto an attacked cell is not among them)
            moves = slow
    for m in moves:
        pos.push(m)
        if not any(royal_attacked(pos, a) for a in armies):
            fast.append(m)
        pos.pop()
    return fast


def _swap_exposes(pos: Position, move: Move, armies: list[int], guard: Guard) -> bool:
    """Does the king-rook swap ``move`` leave a royal piece of ``armies`` attacked (armies whose pins
    ``guard`` knows: see :func:`_keeping_safe`)? Every cell stays occupied, so only a royal piece of
    the two can be, and it is attacked on its new cell after the move exactly when that cell is
    attacked now, by its enemies' tables (their attacks depend on occupancy alone)."""
    g, board = pos.game, pos.board
    for cell, code in ((move[1], board[move[0]]), (move[0], board[move[1]])):
        if g.is_royal[code] and g.code_army[code] in armies:
            found = guard.pins(g.code_army[code])
            assert found is not None, "the guarded armies' pins are known (see _keeping_safe)"
            if table_attacked(pos, cell, found[1], code):
                return True
    return False


def rescue_moves(pos: Position) -> list[Move]:
    """``when no moves: rescue``: when royal pieces of several armies to move are attacked and no
    move saves them all, the moves that save some and expose no other; each is wrapped as
    ``(from, to, promotion, ("rescue", special, cells))``, ``cells`` holding the royal pieces
    still attacked after it, which the move removes."""
    movers = pos.movers
    attacked = {a for a in movers if royal_attacked(pos, a)}
    if len(attacked) < 2:
        return []
    exposed = _exposable_partners(pos, movers, Guard(pos))
    out = []
    for m in pseudo_legal_moves(pos):
        pos.push(m)
        still = {a for a in movers if royal_attacked(pos, a)}
        if still < attacked and not any(royal_attacked(pos, p) for p in exposed):
            out.append((m[0], m[1], m[2], ("rescue", m[3], tuple(c for a in sorted(still)
                                                                   for c in royal_cells(pos, a)))))
        pos.pop()
    return out


def safe_after(pos: Position, move: Move, army: int) -> bool:
    """Is no royal piece of ``army`` attacked after ``move`` (tried by make and unmake)?"""
    pos.push(move)
    safe = not royal_attacked(pos, army)
    pos.pop()
    return safe


def ep_legal(pos: Position) -> bool:
    """Has the side to move a legal en passant capture? (Otherwise the right is void, as in FIDE's
    rule on repeated positions and in python-chess's FEN.)"""
    army, board = pos.army, pos.board
    g: NativeGame = pos.game
    if g.stacking is not None:  # en passant or sep, whichever the pieces there can make
        return any(m[3] is not None and m[3][0] in ("ep", "sep") and safe_after(pos, m, army)
                   for m in pseudo_legal_moves(pos))
    victim = ("ep", pos.ep_victim)
    if len(pos.movers) > 1:
        captures = [(src, cell, 0, victim) for a in pos.movers for cell in pos.ep_cells
                    for src, codes in g.ep_attackers[a][cell] if board[src] in codes]
        return bool(captures) and bool(_without_team_check(pos, captures, pos.movers, Guard(pos)))
    table = g.ep_attackers[army]
    return any(board[src] in codes and safe_after(pos, (src, cell, 0, victim), army)
               for cell in pos.ep_cells for src, codes in table[cell])


def _without_stack_check(pos: Position, moves: list, royals: tuple[int, ...]) -> list:
    """The moves that leave no royal piece of the mover removable.

    When the mover is not in check, a move is kept without a test unless it
    touches a *sensitive* cell: a royal piece's, or the cell of an enemy
    piece whose patterns reach a royal piece, or a cell on such a piece's
    way there (the cells between of a leap, a ray's cells before it). A move
    elsewhere that frees no enemy piece it was locking and has no side
    effect (castling, en passant, sep) changes no enemy piece, no royal
    piece and no cell that could block an attack, so it exposes nothing.
    The others are tried by :func:`_stack_safe_after`.
    """
    game = pos.game
    army = pos.army
    board, under = pos.board, pos.under
    reach = stacking.rules_of(game).reach
    enemy_cells = [src for e in live_enemies(pos, army) for src in pos.cells_of[e]]
    zone = set().union(*[reach[board[src]][src] for src in enemy_cells])  # every cell they could reach
    sensitive = set(royals)
    if not zone.isdisjoint(royals):  # (else no enemy piece reaches a royal one)
        if royal_attacked(pos, army):
            return [m for m in moves if _stack_safe_after(pos, m, army, royals, zone)]
        for src in enemy_cells:
            code = board[src]
            near = reach[code][src]
            for k in royals:
                if k in near:
                    sensitive.add(src)
                    sensitive |= stacking.path_to(game, code, src, k)
    hostile = game.hostile[army]
    legal = []
    for m in moves:
        frm: int = m[0]
        to: int = m[1]
        special = m[3]
        if frm in sensitive or to in sensitive or hostile[under[frm]] or special is None or special[0] != "st":
            if _stack_safe_after(pos, m, army, royals, zone):
                legal.append(m)
        else:
            legal.append(m)
    return legal


def _stack_safe_after(pos: Position, move: Move, army: int, royals: tuple[int, ...], zone: set[int]) -> bool:
    """Is no royal piece of ``army`` (on ``royals`` now) removable after the stacking move ``move``?

    A stacking move (``st``, ``sep``, ``castle``, ``castlock``) whose new
    cell contents leave every royal piece outside ``zone`` and put no enemy
    piece on a cell (freed or moved) is safe, read from those contents
    alone. Any other is made by
    writing its few new cell contents straight into the board, with
    the unmoved marks and en passant cells :meth:`Position.push` would
    leave, and the enemy pieces then on the board are asked; no hash,
    history or ``cells_of`` is kept, and the cells are put back. ``zone``:
    every cell the enemy pieces on the board before the move could reach by
    their patterns; royal pieces outside it are safe unless the move frees
    an enemy piece. (The en passant cells a double step would give do not
    matter: no en passant capture removes a royal piece, see
    :func:`~interpreter.engine.stacking.removes_royal`.) Any other move, and
    any move of a game of stacks higher than two (whose deeper pieces only
    push and pop keep), is tried by :func:`safe_after`.
    """
    tag = move[3][0] if move[3] is not None else None
    g: NativeGame = pos.game
    if tag not in ("st", "sep", "castle", "castlock") or g.blast is not None or pos.deep is not None:
        return safe_after(pos, move, army)
    board, under = pos.board, pos.under
    frm, to = move[0], move[1]
    if (tag == "st" and move[3][1] != "capture-bottom" and not g.hostile[army][under[frm]]
            and frm not in zone and to not in zone and zone.isdisjoint(royals)):
        # The mover ends on top of its new cell and frees no enemy piece: every royal piece stays
        # where it is or stands on one of the two cells, all outside every enemy reach.
        return True
    writes, _ = pos.castle_effects(move) if tag == "castle" else stacking.effects(pos, move)
    final = {c: (top, low) for c, top, low in writes}  # a cell written twice holds its last write
    code_army, is_royal = g.code_army, g.is_royal
    enemies = live_enemies(pos, army)
    after = {k for k in royals if k not in final}
    after.update(c for c, (top, low) in final.items()
                 if (is_royal[top] and code_army[top] == army) or (is_royal[low] and code_army[low] == army))
    if zone.isdisjoint(after) and not any(top and code_army[top] in enemies for top, _ in final.values()):
        return True  # no enemy piece could reach a royal one, and none was freed (read without a write)
    before: list[tuple[int, int, int]] = [(c, board[c], under[c]) for c, _, _ in writes]
    changed = 0 if under[frm] else 1 << frm  # as push clears them (see Position.push)
    if tag == "castle" or tag == "castlock":
        changed = (1 << frm) | (1 << move[3][1])
    elif tag == "st" and move[3][1] in CAPTURES and move[3][1] != "capture-top":
        changed |= 1 << to
    unmoved, ep_cells = pos.unmoved, pos.ep_cells
    for c, top, low in writes:
        board[c], under[c] = top, low
    pos.unmoved, pos.ep_cells = unmoved & ~changed, ()
    try:
        return not stack_royal_attacked(pos, army, after, set(final))
    finally:
        for c, top, low in reversed(before):
            board[c], under[c] = top, low
        pos.unmoved, pos.ep_cells = unmoved, ep_cells


def ep_possible(pos: Position, cells: tuple[int, ...], army: int) -> bool:
    """Could ``army`` take en passant on one of ``cells`` (pseudo-legally)?"""
    board = pos.board
    g: NativeGame = pos.game
    table = g.ep_attackers[army]
    for c in cells:
        for src, codes in table[c]:
            if board[src] in codes:
                return True
    return False
