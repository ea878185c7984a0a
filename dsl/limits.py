"""The declared limits: how large anything a rules file can make large may be.

Rules files, positions and moves may come from anyone (a server accepts
them from a browser), so everything whose size a file chooses is bounded,
and the bound is checked *before* the work it would cost is done. Each
limit has a name, a value and the unit it counts; exceeding one is a
:class:`~dsl.errors.LimitError` at the offending place that names the
limit. The same table is documented in docs/language.md ("Limits"), and a
test keeps the two equal.

The limits are generous for real games (the bundled variants use a tenth of
each or less); they exist so that ``rules check`` on any input finishes in
seconds and in well under a gigabyte.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import LimitError, Loc


@dataclass(frozen=True)
class Limit:
    """One limit: its ``name`` (as errors and the docs show it), ``value`` and what it counts."""

    name: str
    value: int
    unit: str
    counts: str

    def check(self, amount: int, loc: Loc | None, subject: str) -> None:
        """Raise :class:`LimitError` at ``loc`` if ``amount`` is more than the limit."""
        if amount > self.value:
            raise self.error(f"{subject} has {amount:,} {self.unit}", loc)

    def error(self, message: str, loc: Loc | None) -> LimitError:
        """The error for ``message`` (what is too large, and how large it is) at ``loc``."""
        return LimitError(
            f"{message}: more than the limit of {self.value:,}", loc,
            expected=f"at most {self.value:,}{' ' + self.unit if self.unit else ''} ({self.counts})",
            hint=f"this is the limit '{self.name}' (the table 'Limits' in docs/language.md)",
            limit=self.name,
        )


class Budget:
    """An amount of a limit spent in steps (the tokens of all files of one variant, say)."""

    def __init__(self, limit: Limit) -> None:
        self.limit = limit
        self.used = 0

    def spend(self, amount: int, loc: Loc | None, subject: str) -> None:
        """Add ``amount``; raise :class:`LimitError` at ``loc`` once more than the limit is used."""
        self.used += amount
        if self.used > self.limit.value:
            raise self.limit.error(f"{subject} has more than {self.limit.value:,} {self.limit.unit}", loc)


# ------------------------------------------------------------------ files
FILE_BYTES = Limit("file_bytes", 131_072, "bytes", "the size of one rules file")
VARIANT_BYTES = Limit("variant_bytes", 262_144, "bytes",
                      "all files read for one variant, through its extends and include lines")
TOKENS = Limit("tokens", 25_000, "tokens",
               "words, numbers, strings and symbols of all files read for one variant")
VARIANT_FILES = Limit("variant_files", 32, "files", "files read for one variant, the file itself included")
CHAIN_DEPTH = Limit("chain_depth", 16, "files", "extends/include lines followed one inside another")
PATH_CHARS = Limit("path_chars", 1_024, "characters", "a path in extends or include")

# ------------------------------------------------------------------ text
STRING_CHARS = Limit("string_chars", 10_000, "characters", "one string: title, description, FEN, ...")
NAME_CHARS = Limit("name_chars", 64, "characters", "one name or label")
NUMBER = Limit("number", 1_000_000_000, "", "the size of a number written in a file")
PARSE_DEPTH = Limit("parse_depth", 200, "levels",
                    "brackets, blocks and prefix operators open at one point of a file")
EXPRESSION_DEPTH = Limit("expression_depth", 64, "levels",
                         "operators nested in one expression; a sum of n terms is n - 1 levels deep")
EXPRESSION_SIZE = Limit("expression_size", 1_000, "terms", "names, numbers, strings and operators of one expression")
BETZA_CHARS = Limit("betza_chars", 64, "characters", "one Betza string")

# ------------------------------------------------------------------ boards
FILES = Limit("files", 64, "files", "files of a grid or ragged board, and the x coordinate of a cell either way from 0")
RANKS = Limit("ranks", 64, "ranks",
              "ranks of a grid or ragged board, rank numbers in cell sets, and the y coordinate of a cell either way from 0")
LEVELS = Limit("levels", 26, "levels", "levels of a grid of three dimensions (named A to Z)")
CELLS = Limit("cells", 4_096, "cells", "cells of a board")
LINKS = Limit("links", 16_384, "links", "explicit links between the cells of a board")
HEX_RADIUS = Limit("hex_radius", 20, "cells", "the radius of a hex board")
OFFSET = Limit("offset", 64, "cells", "each coordinate of a leap offset or direction step")

# ------------------------------------------------------------------ pieces and the rest
PIECE_KINDS = Limit("piece_kinds", 64, "kinds", "kinds of piece of one variant")
PIECE_MOVES = Limit("piece_moves", 32, "patterns", "move and betza lines of one piece")
PATH_LEGS = Limit("path_legs", 4, "legs", "legs of one path pattern")
RANGE = Limit("range", 64, "cells", "the range of a ride, a path leg or a zigzag")
ARMIES = Limit("armies", 8, "armies", "armies of one variant")
MODES = Limit("modes", 16, "modes", "play modes of one variant")
STACK_HEIGHT = Limit("stack_height", 8, "pieces", "the height of a stack")
LIST_ITEMS = Limit("list_items", 1_024, "items",
                   "any other list of a variant: zones, rules, setup lines, terms of a cell set, ...")

# ------------------------------------------------------------------ positions and moves
FEN_CHARS = Limit("fen_chars", 100_000, "characters", "one position string (FEN)")
MOVE_CHARS = Limit("move_chars", 100, "characters", "one move written in SAN or from-to form")
MOVES = Limit("moves", 2_000, "moves", "a list of moves to play (--moves)")

# ------------------------------------------------------------------ compiling (checked by the compiler)
TABLE_ENTRIES = Limit("table_entries", 2_500_000, "entries",
                      "cells in the compiled move and attack tables of one variant, cells passed included")
COMPILE_SECONDS = Limit("compile_seconds", 30, "seconds", "compiling one variant in one play mode")
ARRANGEMENTS = Limit("arrangements", 100_000, "arrangements", "starting arrays that 'shuffle' lines make to try")

# ------------------------------------------------------------------ commands (checked before their work starts)
PERFT_DEPTH = Limit("perft_depth", 32, "plies", "the depth of a perft count: rules perft --depth")
SEARCH_DEPTH = Limit("search_depth", 64, "plies",
                     "the depth a search is given by --depth or ai:depth=N; UCI's go depth and XBoard's sd are cut to it")
DEFAULT_MAX_PLIES = 600
"""The ply cap of a game played whole when --max-plies does not give one: a game that reaches it is
adjudicated a draw (:func:`interpreter.engine.outcome.ply_cap`)."""
GAME_PLIES = Limit("game_plies", 20_000, "plies",
                   "the ply cap of a game played whole by play, match, analyze and serve: --max-plies, "
                   f"{DEFAULT_MAX_PLIES} if not given; a game that reaches it is adjudicated a draw")

LIMITS: tuple[Limit, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, Limit))
"""Every limit, in the order of the table in docs/language.md."""
