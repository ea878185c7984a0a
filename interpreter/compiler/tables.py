"""Reverse attack tables: for each cell, where the pieces that could attack it would stand.

Asking "is this cell attacked?" (check, castling through attacked cells,
pins) must not generate the enemy's moves. The compiler therefore inverts
the movement tables once per game: per army and cell, the cells from which
a leaper would reach it, the chains of cells along which a rider or a
hopper would, and the lame leapers' blocking cells (a hopper's chains carry
what it may jump over and capture: the options ``hurdle`` and ``takes``).
A grasshopper's hop (Betza ``g``: it lands on the cell right behind its
hurdle) has chains of its own, whose first cell must hold the hurdle.
Pieces whose attacks depend on more than occupancy and the kinds of pieces
(conditions) are listed as *slow*: their moves are generated when asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .board import table_identity
from .budget import located, spend
from .native_game import FoeTables

if TYPE_CHECKING:
    from .game import Game

# Per attacked cell: (source, codes) pairs (leaps, once-per-game leaps), (source, between, codes)
# triples (lame leaps), (chain, codes) pairs (rides); typed, so that the compiled engine reads
# their items as native ints.
Leaps = tuple[tuple[int, frozenset[int]], ...]
Lames = tuple[tuple[int, tuple[int, ...], frozenset[int]], ...]
Chains = tuple[tuple[tuple[int, ...], frozenset[int]], ...]
# Per code, or None for no limit: may a piece of that code be a hopper's hurdle, or its victim.
Filter = tuple[bool, ...] | None
HopChains = tuple[tuple[tuple[int, ...], frozenset[int], Filter, Filter], ...]


@dataclass(frozen=True)
class AttackTables:
    """The reverse tables of a game, per army (the attacker's) and per cell (the attacked one).

    ``leap[army][cell]``: pairs ``(source, codes)``: a piece with one of
    ``codes`` on ``source`` attacks ``cell``. ``once``: the same for leaps
    of a once-per-game privilege (they attack only while it is held).
    ``lame``: triples ``(source, between, codes)``, the leap blocked by a
    piece on a cell of ``between``. ``ray``: pairs ``(chain, codes)``: the
    chain runs from the cell outwards and the first occupied cell on it
    attacks if its code is in ``codes``; ``hop``: quadruples ``(chain, codes,
    hurdles, victims)``, the same for the second occupied cell, when the first
    one may be jumped over (``hurdles[code]``, None: any piece may) and the
    piece on the attacked cell may be captured (``victims[code]``, None: any
    piece may). ``near``: the same for grasshoppers' hops, whose hurdle must
    stand on the chain's first cell. ``slow[army]``: the codes whose attacks are found by
    generating their moves. ``stand_in[army]``: a code of some enemy of
    ``army`` that its pieces may capture, stood on an empty cell to ask
    whether they attack it. ``pin_safe[army]``: every attack of ``army``
    depends on occupancy alone, so pins can be read from the tables.
    ``ep[army][cell]``: pairs ``(source, codes)`` that may take en passant
    on ``cell``.
    """

    leap: list[list[Leaps]]
    once: list[list[Leaps]]
    lame: list[list[Lames]]
    ray: list[list[Chains]]
    hop: list[list[HopChains]]
    near: list[list[HopChains]]
    slow: list[frozenset[int]]
    stand_in: list[int]
    pin_safe: list[bool]
    ep: list[list[tuple]]


def foe_tables(tables: AttackTables, armies: tuple[int, ...]) -> FoeTables:
    """The tables of ``armies`` merged (one army's are its own, shared, not copied). Merging several
    counts their entries, cells of chains included, against the compile budget (:mod:`.budget`)."""
    if len(armies) == 1:
        a = armies[0]
        return FoeTables(tables.leap[a], tables.once[a], tables.lame[a], tables.ray[a], tables.hop[a], tables.near[a])
    cells = range(len(tables.leap[0])) if tables.leap else range(0)

    def union(table: list[list[tuple]], cell: int, width: int) -> dict:
        merged: dict = {}
        for a in armies:
            for entry in table[a][cell]:
                key = entry[0] if width == 2 else entry[:2]
                merged.setdefault(key, set()).update(entry[-1])
        return merged

    def hop_union(table: list[list[HopChains]], cell: int) -> dict[tuple[Filter, Filter], dict[tuple[int, ...], set[int]]]:
        merged: dict = {}
        for a in armies:
            for chain, codes, hurdles, victims in table[a][cell]:
                merged.setdefault((hurdles, victims), {}).setdefault(chain, set()).update(codes)
        return merged

    leap, once, lame, ray, hop, near = [], [], [], [], [], []
    for cell in cells:
        spend(sum(len(t[a][cell]) for t in (tables.leap, tables.once, tables.lame) for a in armies)
              + sum(len(entry[0]) for t in (tables.ray, tables.hop, tables.near) for a in armies for entry in t[a][cell]))
        leap.append(tuple((src, frozenset(c)) for src, c in union(tables.leap, cell, 2).items()))
        once.append(tuple((src, frozenset(c)) for src, c in union(tables.once, cell, 2).items()))
        lame.append(tuple((s, b, frozenset(c)) for (s, b), c in union(tables.lame, cell, 3).items()))
        ray.append(_maximal_chains(union(tables.ray, cell, 2)))
        hop.append(_hop_chains(hop_union(tables.hop, cell)))
        near.append(_hop_chains(hop_union(tables.near, cell)))
    return FoeTables(leap, once, lame, ray, hop, near)


def attack_tables(game: Game) -> AttackTables:
    """The reverse attack tables of ``game``, whose pieces and their atoms are compiled."""
    na = len(game.armies)
    armies = [_army_attacks(game, a) for a in range(na)]
    # A piece of some enemy army, stood on an empty cell to ask whether it is attacked: where it
    # can, one that every hopper may capture ('takes').
    limits = [atom.victims for code in range(1, game.ncodes) for atom in game.atoms[code] if atom.victims]
    stand_in = [next((c for c in range(1, game.ncodes) if game.hostile[a][c] and not game.is_royal[c]
                      and all(v[c] for v in limits)),
                     next((c for c in range(1, game.ncodes) if game.hostile[a][c] and not game.is_royal[c]),
                          next((c for c in range(1, game.ncodes) if game.code_army[c] != a), 0)))
                for a in range(na)]
    # Pins can be computed from the tables when every attack of an army
    # depends on occupancy alone (leaps, rides, lame leaps, cannon hops, with their hurdles):
    # see interpreter.engine.legality. Attacks found by generating moves cannot.
    pin_safe = [not attacks.slow for attacks in armies]
    # En passant captures: which codes may take e.p. on a cell, from where.
    ep = [[{} for _ in range(game.n)] for _ in range(na)]
    for code in range(1, game.ncodes):
        for atom in game.atoms[code]:
            if atom.en_passant and atom.kind == "leap":
                for frm, row in enumerate(atom.leaps):
                    for to, _ in row:
                        ep[game.code_army[code]][to].setdefault(frm, set()).add(code)
    return AttackTables(
        leap=[a.leap for a in armies], once=[a.once for a in armies], lame=[a.lame for a in armies],
        ray=[a.ray for a in armies], hop=[a.hop for a in armies], near=[a.near for a in armies],
        slow=[a.slow for a in armies],
        stand_in=stand_in,
        pin_safe=pin_safe,
        ep=[[tuple((s, frozenset(c)) for s, c in cell.items()) for cell in a] for a in ep],
    )


@dataclass(frozen=True)
class _ArmyAttacks:
    """One army's part of :class:`AttackTables` (its ``leap``, ``once``, ``lame``, ``ray``, ``hop``,
    ``near`` per attacked cell, and its ``slow`` codes)."""

    leap: list[Leaps]
    once: list[Leaps]
    lame: list[Lames]
    ray: list[Chains]
    hop: list[HopChains]
    near: list[HopChains]
    slow: frozenset[int]


def _army_attacks(game: Game, army: int) -> _ArmyAttacks:
    """The reverse tables of the atoms of ``army``'s codes. They depend on those atoms alone: they
    are kept with the board's built tables (:meth:`.board.Board.kept`) and found again when another
    mode, or the file compiled again, gives the army the same atoms: the same codes, options and
    table objects (tables built alike are shared; the entry holds the tables it was made from, so
    that their ids in its key cannot pass to other objects while it is kept)."""
    codes = [c for c in range(1, game.ncodes) if game.code_army[c] == army]
    atoms = [(code, atom) for code in codes for atom in game.atoms[code]]
    key = ("attacks", game.n, tuple((code, atom.kind, atom.capture, atom.level, atom.once, atom.unmoved, atom.hop,
                                     atom.from_cells, atom.to_cells, atom.hurdles, atom.victims,
                                     table_identity(atom.leaps), table_identity(atom.rays)) for code, atom in atoms))
    return game.board.kept(key, lambda: ([(atom.leaps, atom.rays) for _, atom in atoms],
                                         _inverted(game, codes)))[1]


def _inverted(game: Game, codes: list[int]) -> _ArmyAttacks:
    n = game.n
    leap: list[dict] = [{} for _ in range(n)]
    ray: list[dict] = [{} for _ in range(n)]
    hop: list[dict] = [{} for _ in range(n)]   # by (hurdles, victims), then chain
    near: list[dict] = [{} for _ in range(n)]  # the same, for grasshoppers' hops
    lame: list[dict] = [{} for _ in range(n)]
    once: list[dict] = [{} for _ in range(n)]
    slow: set[int] = set()
    for code in codes:
        with located(game.kinds[game.code_kind[code]].spec.loc):
            _invert(game, code, leap, ray, hop, near, lame, once, slow)
    return _ArmyAttacks(
        leap=[tuple((src, frozenset(c)) for src, c in cell.items()) for cell in leap],
        once=[tuple((src, frozenset(c)) for src, c in cell.items()) for cell in once],
        lame=[tuple((s, b, frozenset(c)) for (s, b), c in cell.items()) for cell in lame],
        ray=[_maximal_chains(cell) for cell in ray],
        hop=[_hop_chains(cell) for cell in hop],
        near=[_hop_chains(cell) for cell in near],
        slow=frozenset(slow),
    )


def _invert(game: Game, code: int, leap, ray, hop, near, lame, once, slow) -> None:
    """Add the attacks of the atoms of ``code`` to its army's reverse tables (per attacked cell)."""
    for atom in game.atoms[code]:
        if not atom.capture or atom.level == "upper":
            continue
        if atom.once and atom.kind == "leap" and not atom.unmoved and not any(
                between for row in atom.leaps for _, between in row):
            # A privileged leap attacks only while the piece keeps its privilege.
            for frm, row in enumerate(atom.leaps):
                if atom.from_cells is not None and frm not in atom.from_cells:
                    continue
                for to, _ in row:
                    if atom.to_cells is None or to in atom.to_cells:
                        once[to].setdefault(frm, set()).add(code)
            continue
        if not atom.attacks_plainly:
            slow.add(code)
            continue
        sources, targets = atom.from_cells, atom.to_cells
        if atom.kind == "leap":
            for frm, row in enumerate(atom.leaps):
                if sources is not None and frm not in sources:
                    continue
                spend(len(row))
                for to, between in row:
                    if targets is not None and to not in targets:
                        continue
                    table = lame[to] if between else leap[to]
                    table.setdefault((frm, between) if between else frm, set()).add(code)
        else:
            # A grasshopper reaches no cell next to it: its hurdle stands between.
            first = 1 if atom.hop == "g" else 0
            target = ray if atom.kind == "ride" else [
                cell.setdefault((atom.hurdles, atom.victims), {}) for cell in (near if atom.hop == "g" else hop)]
            behind = _rays_behind(atom, sources)
            for frm, rays in enumerate(atom.rays):
                if sources is not None and frm not in sources:
                    continue
                for r in rays:
                    start = _covered(r, behind.get((frm, r[0]), ()))
                    spend((len(r) - start) * (len(r) + start + 3) // 2)  # the chains to its uncovered cells
                    for k in range(max(start, first), len(r)):
                        to = r[k]
                        if targets is not None and to not in targets:
                            continue
                        chain = tuple(reversed(r[:k])) + (frm,)
                        target[to].setdefault(chain, set()).add(code)


def _rays_behind(atom, sources) -> dict[tuple[int, int], list[list[int]]]:
    """The atom's rays from allowed sources, by their first two cells: the rays that pass a cell
    ``frm`` and go on to the cell after it."""
    behind: dict[tuple[int, int], list[list[int]]] = {}
    for frm, rays in enumerate(atom.rays):
        if sources is None or frm in sources:
            for r in rays:
                if len(r) > 1:
                    behind.setdefault((r[0], r[1]), []).append(r)
    return behind


def _covered(ray: list[int], behind: list[list[int]]) -> int:
    """How many first cells of ``ray`` (from some cell ``frm``) a ray from a source behind ``frm``
    also reaches, along the same cells: chains to those cells from ``frm`` would only be prefixes
    of the chains from that source (same atom, same codes), which the merge drops anyway."""
    best = 0
    for other in behind:
        m = 0
        while m < len(ray) and m + 1 < len(other) and other[m + 1] == ray[m]:
            m += 1
        best = max(best, m)
    return best


def _hop_chains(groups: dict[tuple[Filter, Filter], dict[tuple[int, ...], set[int]]]) -> HopChains:
    """The hop chains of one cell, grouped by what their hoppers may jump over and capture: each
    group's chains merged by :func:`_maximal_chains` (a longer chain stands in for a shorter one
    only under the same limits)."""
    return tuple((chain, codes, hurdles, victims) for (hurdles, victims), chains in groups.items()
                 for chain, codes in _maximal_chains(chains))


def _maximal_chains(chains: dict[tuple[int, ...], set[int]]) -> Chains:
    """Merge chains: drop each chain whose codes all attack along longer chains that start with it.

    Walking a chain stops at its first occupied cell (for a hopper, at the
    second): a longer chain that starts with this one stops at the same cell
    whenever this one would, so every code it attacks with is found there
    too. A chain is kept unless the codes of the longer chains extending it,
    together, cover its own; the longest chains are always kept. Linear in
    the total length of the chains.
    """
    # A trie of the chains: each node is a prefix; ``beyond[node]`` gathers the codes of the
    # chains that go on past it, so every chain is walked once, cell by cell.
    children: dict[tuple[int, int], int] = {}
    beyond: list[set[int]] = [set()]
    ends = []
    for chain, codes in chains.items():
        node = 0
        for cell in chain:
            beyond[node] |= codes
            child = children.get((node, cell))
            if child is None:
                child = children[node, cell] = len(beyond)
                beyond.append(set())
            node = child
        ends.append(node)
    return tuple((chain, frozenset(codes)) for (chain, codes), end in zip(chains.items(), ends)
                 if not codes <= beyond[end])
