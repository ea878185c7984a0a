"""Rule documentation generated from a variant: Markdown or HTML with SVG figures.

:func:`variant_files` builds the whole documentation of one compiled game
as ``{file name: text}``: the page (``index.md`` or ``index.html``), the
start position (``setup.svg``), the board with its cell names
(``board.svg``), one icon per piece (``piece-NAME.svg``) and one movement
diagram per piece and cell type (``moves-NAME.svg``, or
``moves-NAME-TYPE.svg`` on boards with cell types). Everything comes from
the Spec (through :mod:`interpreter.documentation.english`) and the compiled Game
(pictures, movement by the engine, notation, perft); nothing is written
by hand, and nothing depends on the date or the machine, so the output is
the same bytes every time.

The page of a bundled variant links to the page of ``rules serve`` that
plays it, ``PLAY?variant=NAME``: by default :data:`PLAY_URL`, the address
``rules serve`` listens on unless told otherwise, so that the pages under
``docs/variants`` (and the site) lead to a server running on the reader's
machine; the server's own copies of the pages (``/rules/NAME/``) link to
itself. A file that is not bundled gets no such link: the server plays
bundled variants by name only.

``python -m interpreter.documentation.pages DIR`` writes the documentation of every
bundled variant under ``DIR`` (``make docs-variants`` uses it for
``docs/variants``); ``rules doc VARIANT -o DIR`` writes one.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from dsl import UnsupportedError, bundled_names
from dsl.files import bundled_variant
from dsl import spec as S

from . import document as D
from interpreter.drawing.diagrams import MovementDiagram, movement_diagrams
from .english import English
from .english_moves import join
from .examples import Example, examples_by_topic, history_text
from .figures import cell_type_figures, cell_type_sentence, example_figure, picture_direction
from .phrases import plural, sentence
from interpreter.compiler.game import Game
from interpreter.loading import compile_variant, load_game
from interpreter.engine.perft import perft
from interpreter.drawing.render import Diagram, diagram_of, kind_image, piece_image, render_pieces, render_svg
from interpreter.loading import start_position
from interpreter.notation.reading import parse_move
from interpreter.notation.traditional import notations, traditional_texts

FORMATS = ("md", "html")
PERFT_DEPTH = 3
PERFT_NODES = 20_000_000   # a perft depth expected to have more leaves is left out of the page
NOTATION_EXAMPLES = 8
PLAY_URL = "http://127.0.0.1:8000/"
"""The page of ``rules serve`` at its default address: where the rule pages' "play this" link leads."""
TRADITIONS = {   # by 'notation' declaration: what the rule page says of the traditional notation
    "wxf": ("The move list of `rules serve` can also show moves in WXF notation, the World Xiangqi Federation's "
            "(records keep SAN): the piece's letter, its file numbered from the mover's own right, `+` forward, "
            "`-` backward or `.` sideways, then the file it arrives on, or the number of ranks it moves along its "
            "file (`C2.5`, `H2+3`, `R1+1`); two pieces of a kind on one file are told apart by `+` (front) and `-` "
            "(rear) instead of the file."),
    "shogi": ("The move list of `rules serve` can also show moves in the Western (Hodges) and the Japanese "
              "notation (records keep SAN); both number the files from the first player's right and the ranks "
              "from the top. Western: the piece's letter, its origin square only when another piece written alike "
              "could go there, `-`, `x` (capture) or `*` (drop), the square as a file digit and a rank letter, and "
              "`+` (promotes) or `=` (could promote and does not): `P-7f`, `Bx2b+`. Japanese: `▲` or `△` for the "
              "side, the square (`７六`) or `同` for the square of the previous move, the piece, what tells it apart "
              "from another of its kind (`右`, `左`, `上`, `引`, `寄`, `直`), `打` for a drop that needs saying, "
              "`成` or `不成`: `▲７六歩`, `△同銀`."),
}

LEGEND = ("In the movement diagrams the piece stands on a highlighted cell; a filled green disc marks a cell "
          "it may move to or capture on, a green ring a cell it may only move to, a red cross a cell where it "
          "may only capture, and a blue diamond a special move (only as its first move, or with a side effect "
          "such as allowing en passant). Diagrams show the moves of the first army to move, on an otherwise "
          "empty board.")


def slug(name: str) -> str:
    """A file-name-safe form of a name: ``Pawn`` -> ``pawn``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "x"


def _betza(piece: S.PieceSpec) -> str:
    texts = [m.pattern.text for m in piece.moves if isinstance(m.pattern, S.BetzaPattern)]
    return " ".join(f"`{t}`" for t in texts) if texts else "—"


def _value(piece: S.PieceSpec) -> str:
    if piece.value is None:
        return "—"
    return str(int(piece.value)) if float(piece.value).is_integer() else str(piece.value)



def piece_paragraphs(english: English, piece: S.PieceSpec) -> list[str]:
    """What a piece's page section says of it before its diagrams: its description (else its moves
    in English), then what being royal or neutral means for it (empty strings where it is neither)."""
    words = sentence(piece.description) if piece.description else " ".join(
        english.render(m) for m in piece.moves) or "It has no moves of its own."
    return [words, english.royal_sentence(piece), english.neutral_sentence(piece)]


def movement_figure(game: Game, diagram: MovementDiagram) -> tuple[str, str]:
    """The title and SVG of one movement diagram: the first army's piece on the diagram's cell,
    its hurdles, and a mark on each cell it reaches (a hurdle hides its own mark)."""
    kind_index, army = diagram.kind, game.turn_order[0]
    stacks = {diagram.cell: (kind_image(game, kind_index, army),)}
    stacks.update({h: (piece_image(game, diagram.hurdle_code),) for h in diagram.hurdles})
    marks = {c: m for c, m in diagram.marks.items() if c not in diagram.hurdles}
    drawing = Diagram(stacks=stacks, highlights=frozenset({diagram.cell}), marks=marks)
    title = f"Moves of the {game.kinds[kind_index].name} from {game.board.names[diagram.cell]}"
    return title, render_svg(game, drawing, title=title)

class _Builder:
    """Collects the blocks of the page and the files of the figures, section by section."""

    def __init__(self, game: Game, play: str) -> None:
        self.game = game
        self.play = play
        self.spec = game.spec
        self.english = English(game.spec, picture=lambda direction: picture_direction(game, direction))
        self.blocks: list[D.Block] = []
        self.files: dict[str, str] = {}
        self.type_figures = cell_type_figures(game)    # under the board, and their words in the details
        self.examples, self.other_examples = examples_by_topic(game)

    def figure(self, name: str, svg: str, alt: str) -> None:
        self.files[name] = svg
        self.blocks.append(D.Image(name, alt))

    def heading(self, level: int, text: str) -> None:
        self.blocks.append(D.Heading(level, text))

    def paragraphs(self, texts) -> None:
        self.blocks += [D.Paragraph(t) for t in texts if t]

    def show_examples(self, examples: list[Example], stem: str) -> None:
        """Each example: its words, then the position with the move and the position after it."""
        for i, example in enumerate(examples, 1):
            mover = self.game.armies[example.before.army].title
            where = history_text(self.game, example.history)
            lead = sentence(example.caption) + " " + where[0].upper() + where[1:] if example.caption \
                else "An example from play: " + where
            self.paragraphs([f"{lead}, {mover} plays `{example.san}`; the position before the move, and after it:"])
            name = f"example-{stem}{'-' + str(i) if len(examples) > 1 else ''}.svg"
            self.figure(name, example_figure(self.game, example, f"{self.game.title}: {example.san}"),
                        f"{mover} plays {example.san}")

    # ------------------------------------------------------------ sections
    def about(self) -> None:
        spec = self.spec
        self.heading(1, spec.title)
        source = Path(spec.path).name if spec.path else f"{spec.name}.rules"
        self.paragraphs([f"Generated from `{source}` by `rules doc {spec.name}`; do not edit by hand."])
        if spec.description:
            self.paragraphs([sentence(spec.description)])
        if spec.source:
            self.paragraphs([sentence(f"Source: {spec.source}")])
        if spec.family:
            self.paragraphs([sentence(f"Family of variants: {spec.family}")])
        if spec.aliases:
            self.paragraphs([sentence("Also called " + join([f"`{a}`" for a in spec.aliases], "or"))])
        bundled = bundled_variant(spec.name)
        if spec.path and bundled is not None and Path(spec.path).resolve() == bundled.resolve():
            self.blocks.append(D.Link(f"To play it in the browser, run `rules serve {spec.name}`; with `rules serve` "
                                      "already running on this machine: ", "play this",
                                      f"{self.play}?variant={spec.name}"))

    def players(self) -> None:
        game, english = self.game, self.english
        self.heading(2, "The game")
        self.paragraphs([english.army_summary(a) for a in self.spec.armies])
        self.paragraphs([" ".join(sentence(english.render(t)) for t in self.spec.teams)])
        self.paragraphs([english.turn_order()])
        self.paragraphs([english.modes_summary()])
        self.figure("setup.svg", render_svg(game, diagram_of(start_position(game)), title=f"{game.title}: the start"),
                    "The start position")
        self.paragraphs([english.setup_summary()])

    def board(self) -> None:
        game = self.game
        self.heading(2, "The board")
        self.paragraphs([self.english.board_summary(len(game.board)), "The picture names every cell:"])
        self.figure("board.svg", render_svg(game, Diagram(), cell_names=True, title=f"{game.title}: the cells"),
                    "The board with the name of every cell")
        figures = self.type_figures
        if figures:
            self.heading(3, "Cell types")
            self.paragraphs(["Each figure shows one cell of a type and the cells one step away from it; the "
                             "technical details at the end name every direction."])
        for cell_type, cell, svg, _ in figures:
            self.paragraphs([cell_type_sentence(game, cell_type, cell)])
            self.figure(f"type-{slug(cell_type)}.svg", svg, f"The steps from a cell of type {cell_type}")

    def pieces(self) -> None:
        game = self.game
        self.heading(2, "Pieces")
        rows = []
        for kind in game.kinds:
            armies = [game.neutral_army] if kind.spec.neutral else game.turn_order
            images = [kind_image(game, kind.index, army) for army in armies]
            icon = f"piece-{slug(kind.name)}.svg"
            self.files[icon] = render_pieces(game, images)
            piece = kind.spec
            rows.append((f"![{kind.name}]({icon})", kind.name, f"`{kind.letter}`", _value(piece), _betza(piece)))
        self.blocks.append(D.Table(("", "Piece", "Letter", "Value", "Betza"), tuple(rows)))
        self.paragraphs([LEGEND])
        for kind in game.kinds:
            self.piece(kind.index)

    def piece(self, kind_index: int) -> None:
        game = self.game
        kind = game.kinds[kind_index]
        piece = kind.spec
        self.heading(3, kind.name)
        self.paragraphs(piece_paragraphs(self.english, piece))
        for diagram in movement_diagrams(game, kind_index) if not piece.neutral else ():
            army = game.turn_order[0]
            code = game.typical_code(kind_index, army)
            where = game.board.names[diagram.cell]
            suffix = f"-{slug(diagram.cell_type)}" if diagram.cell_type is not None else ""
            on_type = f" (a cell of type `{diagram.cell_type}`)" if diagram.cell_type is not None else ""
            title, svg = movement_figure(game, diagram)
            self.figure(f"moves-{slug(kind.name)}{suffix}.svg", svg, title)
            hurdles = ""
            if diagram.hurdles:
                hurdle = game.kinds[game.code_kind[diagram.hurdle_code]].name
                cells = ", ".join(f"`{game.board.names[h]}`" for h in diagram.hurdles)
                hurdles = f", with its own {plural(hurdle)} as hurdles on {cells},"
            facing = f", facing {self.english.facing(list(game.code_facing[code]))}," if code >= game.ncodes_plain else ""
            count = len(diagram.marks)
            self.paragraphs([f"{game.armies[game.code_army[code]].title}'s {kind.name} on `{where}`{on_type}"
                             f"{facing}{hurdles} reaches {count} cell{'' if count == 1 else 's'}."])
        betza = [f"`{m.pattern.text}`" for m in piece.moves if isinstance(m.pattern, S.BetzaPattern)]
        if betza:
            self.paragraphs([f"In Betza notation: {' '.join(betza)}."])

    def special(self) -> None:
        sections = self.english.special_sections()
        if not sections:
            return
        self.heading(2, "Special moves")
        topics = {"Castling": "castling", "En passant": "en passant", "Promotion": "promotion",
                  "Stacking": "stacking", "Drops": "drops", "Facings": "facings", "Privileges": "privileges"}
        for title, paragraphs in sections:
            self.heading(3, title)
            self.paragraphs(paragraphs)
            topic = topics.get(title)   # a rule that is no move of its own ("First moves") has no example
            if topic is not None:
                self.show_examples(self.examples.get(topic, []), slug(topic))

    def ending(self) -> None:
        self.heading(2, "How the game ends")
        for title, paragraphs in self.english.rule_sections(self.spec.rules):
            self.heading(3, title)
            self.paragraphs(paragraphs)
        self.show_examples(self.examples.get("ending", []), "ending")

    def computer_players(self) -> None:
        """A section only for a file whose ``ai`` block weighs the evaluation's terms: how its
        computer players differ from the usual ones (they play the same rules)."""
        if self.spec.ai.weights:
            self.heading(2, "Computer players")
            self.paragraphs([self.english.render(self.spec.ai)])

    def interpretations(self) -> None:
        self.heading(2, "Interpretations")
        if self.spec.interpretations:
            self.paragraphs(["Where the source was silent or ambiguous, the rules file decided, and says why:"])
            self.blocks.append(D.Items(tuple(sentence(i) for i in self.spec.interpretations)))
        else:
            self.paragraphs(["The rules file records no interpretation of its source."])
        self.show_examples(self.other_examples, "decision")

    def notation(self) -> None:
        from interpreter.notation.fen import to_fen
        from interpreter.notation.san import legal_move_table
        game = self.game
        start = start_position(game)
        self.heading(2, "Notation")
        self.paragraphs(["Positions are written in FEN. The start position:"])
        self.blocks.append(D.Code(to_fen(start)))
        facing = next((game.code_symbol[c] for c in range(game.ncodes_plain, game.ncodes)
                       if len(game.code_facing[c] or ()) > 1), None)   # None: a neutral piece
        if facing is not None:
            single = facing.split(">")[0] + ">" + game.code_facing[game.symbol_code[facing]][0]
            self.paragraphs([f"A piece that faces another way than its army's forward direction carries its "
                             f"facing after `>`: `{single}`; one that has not chosen between two directions yet "
                             f"lists both: `{facing}`."])
        try:
            table = legal_move_table(start)
        except UnsupportedError as err:
            self.paragraphs([f"Moves of this board have no written notation yet ({err.message})."])
            return
        mover = game.armies[start.army].title
        second = ""
        if game.neutral_move is not None:
            name = game.kinds[game.code_kind[game.neutral_move]].name
            second = (f" A move's second part follows a comma: in SAN the cell the {name} goes to, in from-to "
                      f"the mover's destination and that cell.")
        self.paragraphs([f"Moves are written in SAN or from-to.{second} {mover} has {len(table)} legal first moves; "
                         f"some of them:"])
        step = max(1, len(table) // NOTATION_EXAMPLES)
        picks = table[::step][:NOTATION_EXAMPLES]
        styles = notations(game)
        legal = start.legal_moves()
        texts = [traditional_texts(start, parse_move(start, m["san"], legal=legal), legal) if styles else {}
                 for m in picks]
        self.blocks.append(D.Table(("SAN", "from-to", *(title for _, title in styles)),
                                   tuple((f"`{m['san']}`", f"`{m['uci']}`", *(f"`{t[key]}`" for key, _ in styles))
                                         for m, t in zip(picks, texts))))
        if styles:
            self.paragraphs([TRADITIONS[game.spec.notation], *self._notation_names()])

    def _notation_names(self) -> list[str]:
        """The pieces the traditional notation writes otherwise than by their letter or glyph, in a sentence each."""
        kinds = self.game.kinds
        letters = [f"the {k.name} `{k.spec.notation_letter}`" for k in kinds if k.spec.notation_letter]
        glyphs = [f"the {k.name} `{k.spec.notation_glyph}`" for k in kinds if k.spec.notation_glyph]
        return ([f"Its letters are the pieces' letters, except {join(letters)}."] if letters else []) + (
            [f"Its characters are the pieces' glyphs, except {join(glyphs)}."] if glyphs else [])

    def perft(self, depth: int) -> None:
        """Perft counts up to ``depth``, leaving out a depth expected to have more than
        :data:`PERFT_NODES` leaves (the last count times the first: Duck chess's third ply)."""
        self.heading(2, "Perft")
        modes = [m.name for m in self.spec.modes]
        starts = [start_position(compile_variant(self.spec, mode)) for mode in modes] or [start_position(self.game)]
        columns = [_perft_counts(start, depth) for start in starts]
        shown = min(len(c) for c in columns)
        if not modes:
            self.paragraphs([f"The number of legal move sequences from the start position, by depth, as "
                             f"`rules perft {self.spec.name} --depth N` counts them:"])
            self.blocks.append(D.Table(("depth", "nodes"), tuple((str(d), f"{columns[0][d - 1]:,}")
                                                               for d in range(1, shown + 1))))
        else:
            self.paragraphs([f"The number of legal move sequences from the start position, by depth, in each "
                             f"play mode, as `rules perft {self.spec.name} --mode MODE --depth N` counts them:"])
            rows = tuple((str(d), *(f"{c[d - 1]:,}" for c in columns)) for d in range(1, shown + 1))
            self.blocks.append(D.Table(("depth", *(f"`{m}`" for m in modes)), rows))
        if shown < depth:
            estimate = max(c[-1] * c[0] for c in columns)
            self.paragraphs([f"Depth {shown + 1} is left out: it has on the order of {estimate:,} sequences "
                             "(the last count times the first), too many to count for this page."])

    def technical(self) -> None:
        self.heading(2, "Technical details")
        self.paragraphs(["How the rules file builds the game, for those who write or check one."])
        for title, paragraphs in self.english.technical_sections():
            self.heading(3, title)
            self.paragraphs(paragraphs)
        figures = self.type_figures
        if figures:
            self.heading(3, "Directions by cell type")
            self.paragraphs(["Where the first step of each direction leads from the cell shown for each type "
                             "(the figures under the board), family by family, as the rules file names them."])
            self.paragraphs([f"From `{self.game.board.names[cell]}`, a cell of type `{cell_type}`: {words}."
                             for cell_type, cell, _, words in figures])
        self.heading(3, "The moves of each piece, exactly")
        for kind in self.game.kinds:
            piece = kind.spec
            moves = [self.english.render(m) for m in piece.moves] or ["It has no moves of its own."]
            self.paragraphs([f"**{kind.name}**:"])
            self.blocks.append(D.Items(tuple(moves)))


def _perft_counts(start, depth: int) -> list[int]:
    """Perft of ``start`` at depths 1, 2, ... ``depth``, stopping before a depth expected to have more
    than :data:`PERFT_NODES` leaves."""
    counts: list[int] = []
    for d in range(1, depth + 1):
        if counts and counts[-1] * counts[0] > PERFT_NODES:
            break
        counts.append(perft(start, d))
    return counts


def variant_files(game: Game, fmt: str = "md", perft_depth: int = PERFT_DEPTH,
                  play: str = PLAY_URL) -> dict[str, str]:
    """The documentation of ``game``: ``{file name: text}``, the page first, in the order of a
    rulebook: the game and its start, the board, the pieces, the special moves, how it ends,
    notation, the computer players' weights (if the file sets any), the interpretations, perft,
    and last the technical details. ``play`` is the address of the page of ``rules serve`` its
    "play this" link leads to (see the module docstring)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    builder = _Builder(game, play)
    builder.about()
    builder.players()
    builder.board()
    builder.pieces()
    builder.special()
    builder.ending()
    builder.notation()
    builder.computer_players()
    builder.interpretations()
    builder.perft(perft_depth)
    builder.technical()
    page = D.to_markdown(builder.blocks) if fmt == "md" else D.to_html(builder.blocks, game.title)
    return {f"index.{fmt}": page, **dict(sorted(builder.files.items()))}


def write_files(files: dict[str, str], out_dir: Path) -> list[Path]:
    """Write ``files`` into ``out_dir`` (created if needed); returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written


def index_page(names: list[str]) -> str:
    """``index.md`` of a directory of variant documentation."""
    rows = []
    for name in names:
        game = load_game(name)
        rows.append((f"[{game.title}]({name}/index.md)", f"`{name}`", sentence(game.spec.description or "")))
    blocks: list[D.Block] = [
        D.Heading(1, "Variants"),
        D.Paragraph("The rules of every bundled variant, generated from its `.rules` file by "
                    "`make docs-variants`; do not edit these pages by hand."),
        D.Table(("Variant", "Name", "Description"), tuple(rows)),
    ]
    return D.to_markdown(blocks)


def all_variant_files(names: list[str] | None = None) -> dict[str, str]:
    """The documentation of every bundled variant, as ``{relative path: text}``, with an index page."""
    names = sorted(names if names is not None else bundled_names())
    files = {"index.md": index_page(names)}
    for name in names:
        for file, text in variant_files(load_game(name)).items():
            files[f"{name}/{file}"] = text
    return files


def main(argv: list[str] | None = None) -> int:
    """``python -m interpreter.documentation.pages DIR``: write the documentation of every bundled
    variant under DIR (``make docs-variants`` writes docs/variants). Files already there are
    overwritten, others are left; ``--help`` prints the usage."""
    parser = argparse.ArgumentParser(prog="python -m interpreter.documentation.pages",
                                     description="Write the rule page of every bundled variant, with "
                                                 "its pictures and an index, under DIR.")
    parser.add_argument("dir", metavar="DIR", type=Path, help="the directory to write (created if missing)")
    root = parser.parse_args(argv).dir
    files = all_variant_files()
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {len(files)} files under {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
