"""Plain English for the board: what a player reads about it, and how it is built.

Part of :class:`interpreter.documentation.english.English` (a base class of
it: the methods use its ``render`` and ``value``). :meth:`BoardEnglish.board_summary`
is the player's view (the shape, the cells removed, the cell types);
:meth:`BoardEnglish._BoardSpec` is the whole construction, for the technical
part of a page: statements of one kind are merged into one sentence
("Removed: a1–c2, l1–n2; f6–i9."), so that no sentence opener repeats.
"""

from __future__ import annotations

from dsl import spec as S

from .english_moves import join
from .phrases import num, pretty, sentence


class BoardEnglish:
    """The board's renderings; mixed into :class:`~interpreter.documentation.english.English`."""

    def _GridGen(self, gen: S.GridGen) -> str:
        from interpreter.compiler.board import file_letter
        from interpreter.compiler.layout import LEVEL_LETTERS
        grid = (f"{gen.files} files (`a` to `{file_letter(gen.files - 1)}`) by {gen.ranks} ranks "
                f"(1 to {gen.ranks})")
        if gen.levels > 1:
            return (f"a stack of {gen.levels} levels (`A`, the bottom, to `{LEVEL_LETTERS[gen.levels - 1]}`), each a "
                    f"grid of {grid}: {gen.files * gen.ranks * gen.levels} cubic cells, named level, file and rank "
                    f"(`Aa1`)")
        return f"a grid of {grid}: {gen.files * gen.ranks} square cells"

    def _RaggedGen(self, gen: S.RaggedGen) -> str:
        lengths = ", ".join(str(n) for n in gen.lengths)
        return (f"a ragged grid of {len(gen.lengths)} files of {lengths} cells, from file `a` on: "
                f"{sum(gen.lengths)} cells")

    def _HexGen(self, gen: S.HexGen) -> str:
        r = gen.radius
        rings = r - 1
        return (f"a hexagon of hexagonal cells, {r} cells a side (a centre cell and {rings} "
                f"ring{'s' if rings != 1 else ''} around it): {3 * r * (r - 1) + 1} cells")

    def _CellDecl(self, cell: S.CellDecl) -> str:
        return f"the cell `{cell.name}` at ({num(cell.x)}, {num(cell.y)})"

    def _Link(self, link: S.Link) -> str:
        kind = f" (kind `{link.edge_kind}`)" if link.edge_kind else ""
        return f"a one-way step labelled `{link.label}` from `{link.source}` to `{link.target}`{kind}"

    def _SetAttr(self, attr: S.SetAttr) -> str:
        return f"the cell attribute `{attr.attribute}` is `{attr.value}` on {self.render(attr.cells)}"

    def _DirEntry(self, entry: S.DirEntry) -> str:
        kind = f", kind `{entry.edge_kind}`" if entry.edge_kind else ""
        level = f", {entry.dz}" if entry.dz else ""
        return f"`{entry.label}` goes ({entry.dx}, {entry.dy}{level}){kind}"

    def _DirRow(self, row: S.DirRow) -> str:
        return f"from {self.render(row.cells)}, {join([self.render(e) for e in row.entries])}"

    def _DirectionFamily(self, family: S.DirectionFamily) -> str:
        return (f"the direction family `{family.name}`, as {_axes([family])} steps: "
                + "; ".join(self.render(r) for r in family.rows))

    def _ZoneSpec(self, zone: S.ZoneSpec) -> str:
        if zone.shared is not None:
            return f"the {pretty(zone.name)} zone is {self.render(zone.shared)}"
        parts = [f"for {self.army(army)}, {self.render(cells)}" for army, cells in zone.per_army.items()]
        return f"the {pretty(zone.name)} zone is, " + ("; ".join(parts) if parts else "for every army, empty")

    def _ShapeSpec(self, shape: S.ShapeSpec) -> str:
        corners = ", ".join(f"({num(x)}, {num(y)})" for x, y in shape.points)
        return f"{self.render(shape.cells)} as polygons with the corners {corners}"

    def _PositionSpec(self, position: S.PositionSpec) -> str:
        return f"{self.render(position.cells)} at x = {self.value(position.x)}, y = {self.value(position.y)}"

    def _RiverSpec(self, river: S.RiverSpec) -> str:
        text = f" (written in it: “{river.text}”)" if river.text else ""
        return f"a river between ranks {river.below} and {river.below + 1}{text}"

    def _DrawingSpec(self, drawing: S.DrawingSpec) -> str:
        """What the ``draw`` statements show, as a sentence, or an empty string when there are none."""
        parts = (["with its pieces on the points where lines cross"] if drawing.points else []) \
            + (["in one colour"] if drawing.plain else []) \
            + (["with each army's pieces facing its forward direction"] if drawing.facing else []) \
            + ([f"with {self.render(drawing.river)}"] if drawing.river else []) \
            + [f"with the diagonals of {self._all_of(cells)}" for cells in drawing.diagonals]
        return sentence("It is drawn " + join(parts)) if parts else ""

    def _all_of(self, cells: S.CellSet) -> str:
        """Cells that are all meant at once (a drawing's palaces): a zone with cells per army reads
        "`d1`–`f3` (Red) and `d8`–`f10` (Black)"; anything else as :meth:`render` writes it."""
        [first, *rest] = cells.include or [S.CellTerm(kind="all")]
        if first.kind == "zone" and not rest and not cells.exclude:
            return self.zone_cells(first.a, "and")
        return self.render(cells)

    def _BoardSpec(self, board: S.BoardSpec) -> str:
        """The board's whole construction, one sentence per kind of statement."""
        parts = []
        if board.generator is not None:
            parts.append(sentence(f"The board is {self.render(board.generator)}"))
        if board.cells:
            parts.append(sentence(f"The board has {len(board.cells)} cells: {self.render(board.cells)}"))
        if board.removes:
            parts.append(sentence("Removed from it: " + "; ".join(self.render(c) for c in board.removes)))
        if board.links:
            parts.append(sentence("Links: " + "; ".join(self.render(link) for link in board.links)))
        if board.wrap:
            parts.append(self._wrap(board))
        attributes: dict[str, list[S.SetAttr]] = {}
        for attr in board.attributes:
            attributes.setdefault(attr.attribute, []).append(attr)
        for name, sets in attributes.items():
            values = "; ".join(f"`{a.value}` on {self.render(a.cells)}" for a in sets)
            parts.append(sentence(f"Cell attribute `{name}`: {values}"))
        if board.directions:
            parts.append(sentence(f"Direction families, as {_axes(board.directions)} steps: " + "; ".join(
                f"`{f.name}`: " + "; ".join(self.render(r) for r in f.rows) for f in board.directions)))
        for zone in board.zones.values():
            parts.append(sentence(self.render(zone)))
        drawing = [self.render(s) for s in board.shapes] + [self.render(p) for p in board.positions]
        if drawing:
            parts.append(sentence("Drawing: " + "; ".join(drawing)))
        drawn = self.render(board.drawing)
        if drawn:
            parts.append(drawn)
        return " ".join(parts) if parts else "The board has no cells yet."

    def _wrap(self, board: S.BoardSpec) -> str:
        edges = {"files": "the last file is next to the first (a cylinder)",
                 "ranks": "the last rank is next to the first"}
        return sentence("The board wraps round: " + join([edges[axis] for axis in board.wrap])
                        + "; every step, leap and ray goes on across that edge")

    # ------------------------------------------------------------ the player's view
    def _compact(self, cells: S.CellSet, word: str = "and", army: str | None = None) -> str:
        """A cell set in few words: ``a1``–``c2`` for a rectangle, a zone by its own cells (those of
        ``army`` for a zone with cells per army); items joined with ``word``."""
        def term(t: S.CellTerm) -> str:
            if t.kind == "rect":
                return f"`{t.a}`–`{t.b}`"
            zone = self.spec.board.zones.get(t.a) if t.kind == "zone" else None
            if zone is not None:
                inner = zone.shared if zone.shared is not None else zone.per_army.get(army or "")
                if inner is not None:
                    return self._compact(inner, word, army)
            return self.render(t)
        text = join([term(t) for t in cells.include], word)
        if cells.exclude:
            text += " except " + join([term(t) for t in cells.exclude])
        return text

    def zone_cells(self, name: str, word: str = "or") -> str:
        """The cells of a zone as a player reads them, without its name (the name of a zone with
        cells per army is the rules file's, often no English): "`a31`"; each army's cells with the
        army after them: "rank 8 (White) or rank 1 (Black)" (one list when every army has the same).
        ``word`` joins the armies' parts: "or" where one army's cells are meant (a move's target),
        "and" where all of them are (what the board shows)."""
        zone = self.spec.board.zones.get(name)
        if zone is None:
            return f"the {pretty(name)} zone"
        if zone.shared is not None:
            return self._compact(zone.shared, "or")
        return self._per_army({army: self._compact(cells, "or", army) for army, cells in zone.per_army.items()},
                              word)

    def _per_army(self, parts: dict[str, str], word: str = "or") -> str:
        """Each army's text with the army after it, joined by ``word`` (", or" between armies when a
        part is itself a list); the text alone when every army has the same."""
        if len(set(parts.values())) == 1:
            return next(iter(parts.values()))
        items = [f"{text} ({self.army(army)})" for army, text in parts.items()]
        several = any("," in t or " or " in t for t in parts.values())
        return f", {word} ".join(items) if several else join(items, word)

    def zone_complement(self, name: str) -> str | None:
        """The cells outside a zone that is every cell but a few (``all except ...``, for each army), as
        :meth:`zone_cells` writes cells: "rank 4 (White) or rank 5 (Black)"; None for any other zone, and for
        one that leaves out an army (outside it, that army's cells are every cell)."""
        zone = self.spec.board.zones.get(name)
        sets = ({"": zone.shared} if zone.shared is not None else zone.per_army) if zone is not None else {}
        if zone is not None and zone.shared is None and set(sets) != set(self.titles):
            return None
        if not sets or any(len(c.include) != 1 or c.include[0].kind != "all" or not c.exclude for c in sets.values()):
            return None
        return self._per_army({army: self._compact(S.CellSet(include=c.exclude), "or", army or None)
                               for army, c in sets.items()})

    def on(self, cells: S.CellSet | S.CellTerm) -> str:
        """Cells after a verb of place: "in the cockpit zone (`a31`)" for one zone shared by every
        army, "on rank 8 (White) or rank 1 (Black)" otherwise."""
        if isinstance(cells, S.CellTerm):
            cells = S.CellSet(include=[cells])
        [first, *rest] = cells.include or [S.CellTerm(kind="all")]
        zone = self.spec.board.zones.get(first.a) if first.kind == "zone" else None
        if zone is not None and zone.shared is not None and not rest and not cells.exclude:
            return f"in {self.render(first)}"
        return f"on {self.render(cells)}"

    def board_summary(self, cells: int | None = None) -> str:
        """The board as a player needs it: its shape, the cells taken out of it, how many remain,
        and its cell types; construction details are left to :meth:`_BoardSpec`."""
        board = self.spec.board
        parts = []
        if board.generator is not None:
            parts.append(f"The board is {self.render(board.generator)}")
        elif board.cells:
            parts.append(f"The board has {len(board.cells)} cells, each declared by itself")
        if board.removes:
            removed = "; ".join(self._compact(c) for c in board.removes)
            remain = f": {cells} cells remain" if cells is not None else ""
            parts[-1:] = [f"{parts[-1] if parts else 'The board'}, less the cells {removed}{remain}"]
        text = " ".join(sentence(p) for p in parts)
        if board.wrap:
            text += " " + self._wrap(board)
        types = sorted({a.value for a in board.attributes if a.attribute == "type"}, key=str)
        if types:
            text += " " + sentence(f"Its cells are of {len(types)} types, {join([f'`{t}`' for t in types])}; "
                                   "a piece's moves may depend on the type of the cell it stands on")
        return text


def _axes(families: list[S.DirectionFamily]) -> str:
    """How the steps of ``families`` are written: (file, rank), or (file, rank, level) when one moves levels."""
    levels = any(entry.dz for family in families for row in family.rows for entry in row.entries)
    return "(file, rank, level)" if levels else "(file, rank)"
