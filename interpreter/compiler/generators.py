"""Atoms -> move-generation closures: the hot path of move generation, built at compile time.

A generator has the signature ``gen(pos, frm, board, hostile, out)`` and
appends the moves of the piece on ``frm`` to ``out`` as plain tuples
``(from, to, promotion, special)`` (see :mod:`interpreter.engine.moves`).
Plain leapers and riders share merged tables with one fast closure each;
every other atom (initial moves, en passant, hoppers, conditions,
privileges) gets a general closure.

Each piece also gets *noisy* generators (``make_generators(..., noisy=True)``)
for a quiescence search: the same moves restricted to captures (en passant
included) and to promotions (a move with a promotion code other than 0),
without generating the quiet moves first where that can be helped.
"""

from __future__ import annotations

from dataclasses import replace

from .atoms import ONCE, Atom

# The arguments of a generator:
# ``hostile[code]`` is true for pieces the mover may capture (False for 0),
# ``out`` is the list moves are appended to. Promotion is applied by the
# caller's table when the piece can promote. The fast closures type them (``frm: int``
# ...): compiled, their loops then index and compare native ints.


def _merged_leaps(atoms: list[Atom], n: int) -> list[tuple[int, ...]]:
    return [tuple(dict.fromkeys(to for a in atoms for to, _ in a.leaps[c])) for c in range(n)]


def _merged_rays(atoms: list[Atom], n: int) -> list[tuple[tuple[int, ...], ...]]:
    return [tuple(tuple(r) for a in atoms for r in a.rays[c]) for c in range(n)]


def make_generators(atoms: list[Atom], n: int, promotions: list[tuple[int, ...]] | None,
                    royal_targets: list[bool] | None = None, leaving: list[tuple[int, ...]] | None = None,
                    noisy: bool = False, shared: dict | None = None):
    """The closures that generate the moves of one piece code from a cell.

    Plain leap and ride atoms that both move and capture are merged into
    one table each (the fast path of orthodox pieces); every other atom
    gets a closure of its own. ``promotions[to]`` lists the codes a move
    arriving on ``to`` must promote to (empty: none). With ``noisy``, only
    the captures and promotions among those moves (see the module's
    docstring), in the same order. ``shared``: a dict in which the calls for one game keep the
    tables they have in common (the same atoms, noisy or not), to make them once.
    """
    shared = {} if shared is None else shared
    gens = []
    atoms = [a for a in atoms if a.level != "upper"]  # without stacks every piece is at ground level
    fast_leaps = [a for a in atoms if a.kind == "leap" and a.plain and a.quiet and a.capture
                  and not any(b for row in a.leaps for _, b in row)]
    fast_rays = [a for a in atoms if a.kind == "ride" and a.plain and a.quiet and a.capture]
    rest = [a for a in atoms if a not in fast_leaps and a not in fast_rays]
    arrive, leave = _choices(promotions, leaving, n)
    promoting = any(arrive) or any(any(leave_codes) for leave_codes in leave)
    emit = _emitter(promotions, leaving, n)
    if fast_leaps:
        leaps = _once(shared, ("leaps", *map(id, fast_leaps)), lambda: _merged_leaps(fast_leaps, n))
        gens.append(_fast_leaper(leaps, promotions, emit) if not noisy
                    else _noisy_only(_fast_leaper(leaps, promotions, emit)) if promoting else _noisy_leaper(leaps))
    if fast_rays:
        rays = _once(shared, ("rays", *map(id, fast_rays)), lambda: _merged_rays(fast_rays, n))
        gens.append(_fast_rider(rays, promotions, emit) if not noisy
                    else _noisy_only(_fast_rider(rays, promotions, emit)) if promoting else _noisy_rider(rays))
    for atom in rest:
        if noisy and atom.quiet:
            # Only the quiet moves that may promote (none: the atom is left out) and the captures.
            part = _promoting_part(atom, arrive, leave, n) if not atom.capture else atom
            if part is not None:
                tables = _restricted(part) if part is not atom else _restricted_once(shared, atom)
                gens.append(_noisy_only(_general(part, royal_targets, arrive, leave, tables)))
        else:
            gens.append(_general(atom, royal_targets, arrive, leave, _restricted_once(shared, atom)))
    merged = {id(a) for a in fast_leaps}
    others = [a for a in atoms if id(a) not in merged]
    if _once(shared, ("overlapping", *map(id, fast_leaps), 0, *map(id, others)),
             lambda: _overlapping(fast_leaps, others, n)):
        return [_deduplicated(gens)]
    return gens


def _once(shared: dict, key: tuple, make):
    """``shared[key]``, made by calling ``make`` the first time (``key`` names atoms by their ids:
    they live as long as the game that passes ``shared``)."""
    found = shared.get(key)
    if found is None:
        found = shared[key] = make()
    return found


def _overlapping(merged: list[Atom], others: list[Atom], n: int) -> bool:
    """Can two ways produce a move between the same two cells (the W of ``RW``, two rays that share
    their first cells)? Leaps of ``merged`` atoms share one table and are generated once."""
    for cell in range(n):
        seen: set[int] = {to for atom in merged for to, _ in atom.leaps[cell]}
        for atom in others:
            if atom.kind == "leap":
                reach = [to for to, _ in atom.leaps[cell]]
            else:
                reach = [to for ray in atom.rays[cell] for to in ray]
            for to in reach:
                if to in seen:
                    return True
                seen.add(to)
    return False


def _deduplicated(gens):
    """One generator that runs ``gens`` and keeps the first of equal moves."""
    def gen(pos, frm, board, hostile, out) -> None:
        mine: list = []
        for g in gens:
            g(pos, frm, board, hostile, mine)
        out.extend(dict.fromkeys(mine))
    return gen


def _choices(promotions, leaving, n: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """The promotion choices of a move from ``frm`` to ``to``: ``arrive[to] or leave[frm]``.

    ``arrive[to]`` lists the codes a piece arriving on ``to`` may become
    (empty: it does not promote there); ``leave[frm]`` the codes of ``also
    leaving`` promotions, else ``(0,)``, the one choice of not promoting. A 0
    among the codes is the choice not to promote.
    """
    arrive: list[tuple[int, ...]] = list(promotions) if promotions is not None else [()] * n
    leave: list[tuple[int, ...]] = [codes or (0,) for codes in leaving] if leaving is not None else [(0,)] * n
    return arrive, leave


def _emitter(promotions, leaving, n: int):
    """The function that appends a move, expanded into its promotion choices (see :func:`_choices`)."""
    arrive, leave = _choices(promotions, leaving, n)

    def emit(out, frm, to, special=None):
        for code in arrive[to] or leave[frm]:
            out.append((frm, to, code, special))
    return emit


def _fast_leaper(table: list[tuple[int, ...]], promotions, emit):
    if promotions is None:
        def gen(pos: object, frm: int, board: list[int], hostile: list[bool], out: list[tuple]) -> None:
            for to in table[frm]:
                q = board[to]
                if not q or hostile[q]:
                    out.append((frm, to, 0, None))
        return gen

    def gen_promoting(pos: object, frm: int, board: list[int], hostile: list[bool], out: list[tuple]) -> None:
        for to in table[frm]:
            q = board[to]
            if not q or hostile[q]:
                emit(out, frm, to)
    return gen_promoting


def _fast_rider(table: list[tuple[tuple[int, ...], ...]], promotions, emit):
    if promotions is None:
        def gen(pos: object, frm: int, board: list[int], hostile: list[bool], out: list[tuple]) -> None:
            for ray in table[frm]:
                for to in ray:
                    q = board[to]
                    if q:
                        if hostile[q]:
                            out.append((frm, to, 0, None))
                        break
                    out.append((frm, to, 0, None))
        return gen

    def gen_promoting(pos: object, frm: int, board: list[int], hostile: list[bool], out: list[tuple]) -> None:
        for ray in table[frm]:
            for to in ray:
                q = board[to]
                if q:
                    if hostile[q]:
                        emit(out, frm, to)
                    break
                emit(out, frm, to)
    return gen_promoting


def _noisy_leaper(table: list[tuple[int, ...]]):
    """:func:`_fast_leaper`'s captures, for a piece that never promotes."""
    def gen(pos: object, frm: int, board: list[int], hostile: list[bool], out: list[tuple]) -> None:
        for to in table[frm]:
            q = board[to]
            if q and hostile[q]:
                out.append((frm, to, 0, None))
    return gen


def _noisy_rider(table: list[tuple[tuple[int, ...], ...]]):
    """:func:`_fast_rider`'s captures (the first piece on each ray, when hostile), for a piece that
    never promotes."""
    def gen(pos: object, frm: int, board: list[int], hostile: list[bool], out: list[tuple]) -> None:
        for ray in table[frm]:
            for to in ray:
                q = board[to]
                if q:
                    if hostile[q]:
                        out.append((frm, to, 0, None))
                    break
    return gen


def _promoting_part(atom: Atom, arrive, leave, n: int) -> Atom | None:
    """The quiet-only ``atom`` restricted to the cells from which one of its moves may promote (a
    pawn's step from the last rank but one), or None when none may."""
    sources = frozenset(frm for frm in range(n)
                        if any(code for to in atom.reach(frm) for code in arrive[to] or leave[frm]))
    if not sources:
        return None
    return replace(atom, from_cells=sources if atom.from_cells is None else sources & atom.from_cells)


def _noisy_only(general):
    """A general closure's captures (en passant included) and promotions: its moves, filtered."""
    def gen(pos, frm, board, hostile, out) -> None:
        mine: list = []
        general(pos, frm, board, hostile, mine)
        for m in mine:
            special = m[3]
            if m[2] or board[m[1]] or (special is not None and special[0] == "ep"):
                out.append(m)
    return gen


Tables = tuple[list[list[tuple[int, tuple[int, ...]]]], list[list[list[int]]]]   # an atom's leaps and rays, per cell


def _restricted_once(shared: dict, atom: Atom) -> Tables:
    """:func:`_restricted` of an atom of the game, made once in ``shared`` (see :func:`_once`)."""
    return _once(shared, ("tables", id(atom)), lambda: _restricted(atom))


def _restricted(atom: Atom) -> Tables:
    """The atom's leap and ray tables without the moves its fixed ``from`` and ``to`` cells forbid
    (rays keep every cell, as they pass cells they may not stop on; their targets are tested)."""
    sources, targets = atom.from_cells, atom.to_cells
    leaps = [[(to, between) for to, between in row if targets is None or to in targets]
             if sources is None or frm in sources else [] for frm, row in enumerate(atom.leaps)]
    rays = [rays if sources is None or frm in sources else [] for frm, rays in enumerate(atom.rays)]
    return leaps, rays


def _general(atom: Atom, royal_targets: list[bool] | None, arrive: list[tuple[int, ...]],
             leave: list[tuple[int, ...]], tables: Tables):
    """A closure for an atom with options (pawn moves, hoppers, initial moves ...).

    ``royal_targets`` (for ``royal only`` atoms) replaces the mover's
    ``hostile`` table by one that is true only for enemy royal pieces;
    ``arrive`` and ``leave`` give the promotion choices (see :func:`_choices`).
    ``tables``: the atom's tables with its fixed ``from`` and ``to`` cells
    applied (:func:`_restricted`), so that the closures test only what
    depends on the position.
    """
    quiet, capture = atom.quiet, atom.capture
    narrowed = royal_targets if atom.royal_only else None
    to_cells = atom.to_cells
    unmoved, ep_capture, sets_ep = atom.unmoved, atom.en_passant, atom.sets_en_passant
    once = atom.once
    plain_special = ONCE if once else None  # moves of a privilege say so, to spend it
    table, rays = tables

    if atom.kind == "leap":
        def gen_leap(pos, frm: int, board: list[int], hostile: list[bool], out: list[tuple]) -> None:
            if (unmoved and not (pos.unmoved >> frm) & 1) or (once and not (pos.privileges >> frm) & 1):
                return
            if narrowed is not None:
                hostile = narrowed
            for to, between in table[frm]:
                if between:
                    if len(between) == 1:
                        if board[between[0]]:
                            continue
                    elif any(board[c] for c in between):
                        continue
                q = board[to]
                if not q:
                    if quiet:
                        special = ("ep_set", between) if sets_ep and between else plain_special
                    elif ep_capture and pos.ep_cells and to in pos.ep_cells and hostile[board[pos.ep_victim]]:
                        special = ("ep", pos.ep_victim)
                    else:
                        continue
                elif capture and hostile[q]:
                    special = plain_special
                else:
                    continue
                for code in arrive[to] or leave[frm]:
                    out.append((frm, to, code, special))
        return gen_leap

    if atom.kind == "ride":
        def gen_ride(pos, frm: int, board: list[int], hostile: list[bool], out: list[tuple]) -> None:
            if (unmoved and not (pos.unmoved >> frm) & 1) or (once and not (pos.privileges >> frm) & 1):
                return
            if narrowed is not None:
                hostile = narrowed
            for ray in rays[frm]:
                passed: list[int] = []
                for to in ray:
                    q = board[to]
                    if to_cells is None or to in to_cells:
                        special: tuple | None = plain_special
                        stops = False        # may it stop here
                        if not q:
                            if quiet:
                                stops = True
                                if sets_ep and passed:
                                    special = ("ep_set", tuple(passed))
                        elif capture and hostile[q]:
                            stops = True
                        if stops:
                            for code in arrive[to] or leave[frm]:
                                out.append((frm, to, code, special))
                    if q:
                        break
                    passed.append(to)
        return gen_ride

    grasshopper = atom.hop == "g"
    hurdles, victims = atom.hurdles, atom.victims   # per code, or None: no limit ('hurdle', 'takes')

    def gen_hop(pos, frm: int, board: list[int], hostile: list[bool], out: list[tuple]) -> None:
        if (unmoved and not (pos.unmoved >> frm) & 1) or (once and not (pos.privileges >> frm) & 1):
            return
        if narrowed is not None:
            hostile = narrowed
        for ray in rays[frm]:
            hurdle = False
            for to in ray:
                q = board[to]
                if not hurdle:
                    if q:
                        if hurdles is not None and not hurdles[q]:
                            break     # a piece it may not jump over ends the line
                        hurdle = True
                    continue
                if to_cells is None or to in to_cells:
                    if (quiet and not q) or (q and capture and hostile[q] and (victims is None or victims[q])):
                        for code in arrive[to] or leave[frm]:
                            out.append((frm, to, code, plain_special))
                if q or grasshopper:
                    break
    return gen_hop
