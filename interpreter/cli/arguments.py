"""The argument parser of the ``rules`` command: every subcommand, its options and its help.

Building the parser imports nothing but argparse and the limits table, so
``rules --help`` and every ``--help`` answer at once; each subcommand names
the function that runs it (``module:function``), which
:mod:`interpreter.cli.main` imports only when the command runs. Numbers of
plies (``--depth``, ``--max-plies``) are checked against their limits here,
before any work starts.
"""

from __future__ import annotations

import argparse
from typing import Callable

from dsl import limits as L
from dsl.errors import UsageError, clip


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors as UsageError (exit 2, no traceback)."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message, hint=f"run '{self.prog} --help' for the usage")


def _plies(option: str, least: int, limit: L.Limit) -> Callable[[str], int]:
    """The type of ``option``: a whole number of plies in ASCII digits, at least ``least``; more than
    ``limit`` allows is a :class:`~dsl.errors.LimitError` naming the option (however many digits it
    has), anything else a usage error."""
    def plies(text: str) -> int:
        negative = text.startswith("-")
        digits = text[1:] if negative else text
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"{clip(text)!r} is not a whole number")
        huge = len(digits) > 18   # beyond every limit (and beyond what int() reads quickly)
        if not negative and (huge or int(digits) > limit.value):
            raise limit.error(f"{option} {clip(text)}", None)
        if huge or int(text) < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {clip(text)}")
        return int(text)
    return plies


def _add_max_plies(p: argparse.ArgumentParser, counted: str) -> None:
    """``--max-plies``, the ply cap of a game played whole (``counted``: which plies count, for the help)."""
    p.add_argument("--max-plies", type=_plies("--max-plies", 1, L.GAME_PLIES), default=L.DEFAULT_MAX_PLIES,
                   metavar="N", help=f"plies after which a game is adjudicated a draw ({counted}; default "
                                     f"{L.DEFAULT_MAX_PLIES}, at most {L.GAME_PLIES.value:,})")


def _add_clock(p: argparse.ArgumentParser, who: str) -> None:
    """``--clock``, a game clock for every player (read by interpreter.agents.clock when the command
    runs, so that reading arguments imports no agent); ``who``: whose moves it times, for the help."""
    p.add_argument("--clock", metavar="TC",
                   help=f"a game clock for every player, in seconds: BASE+INC (60+1: a minute and one second more "
                        f"a move), BASE (sudden death) or MOVES/BASE[+INC] (40/60: a minute every 40 moves); "
                        f"{who}, an engine is told both clocks (UCI: go wtime btime winc binc; XBoard: level, "
                        f"time, otim), and a move that oversteps its clock loses on time, beyond a grace for "
                        f"overhead (docs/agents.md; default: no clock, each move gets its seat's budget)")


def _add_variant(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", metavar="VARIANT", help="a bundled variant name (see 'rules list') or a path to a .rules file")
    p.add_argument("--include-dir", metavar="DIR", action="append",
                   help="a directory whose rules files extends and include may read, besides the bundled ones "
                        "and the directory of VARIANT (may be repeated)")


def _add_position(p: argparse.ArgumentParser) -> None:
    p.add_argument("--fen", metavar="FEN", help="start from this position instead of the variant's setup")
    p.add_argument("--moves", metavar="MOVES", help='moves to play first, e.g. "e4 e5 Nf3" or "e2e4 e7e5"')
    p.add_argument("--array", metavar="N", type=int,
                   help="start from starting array N of a variant with shuffled setups (chess960: 0-959)")
    p.add_argument("--mode", metavar="MODE", help="the play mode of a variant that has several (superchess: 2p, 3p, 4p)")
    p.add_argument("--option", metavar="NAME=VALUE", action="append",
                   help="a setting of the mode, e.g. --option solo=light (superchess 3p); may be repeated")


WHO = ("human, random, greedy, ai, an agent with options such as ai:alphabeta:time=2 or ai:mcts:nodes=20000, "
       "or an external engine over UCI or XBoard such as uci:/usr/games/fairy-stockfish:time=1 or "
       "xboard:/usr/games/fairy-stockfish:depth=8")


def _level(text: str) -> str:
    """``--level``: easy, medium, hard, or a strength in Elo (its range is checked with the agent's
    spec, see interpreter.agents.strength, so that reading arguments imports no agent)."""
    if text in ("easy", "medium", "hard") or (text.isascii() and text.isdigit()):
        return text
    raise argparse.ArgumentTypeError(f"{clip(text)!r}: choose easy, medium, hard or an Elo such as 1200")


def _add_workers(p: argparse.ArgumentParser) -> None:
    """Where the games of a run are played (rules analyze, rules tune): --jobs, --cluster, --scheduler."""
    p.add_argument("--jobs", type=int, metavar="J",
                   help="worker processes on this machine, of the pool or of --cluster local (default: every core)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--cluster", choices=["local"],
                       help="play on a Dask LocalCluster of --jobs workers started here (needs rules-dsl[cluster])")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="play on the workers of a running Dask scheduler (needs rules-dsl[cluster]; "
                            "not with --jobs: the cluster has its workers)")


def _add_level(p: argparse.ArgumentParser, help: str | None = None) -> None:
    p.add_argument("--level", type=_level, metavar="LEVEL",
                   help=help or "the computer's strength where an agent names no budget: easy (2 plies), "
                                "medium (1 s a move, the default), hard (5 s a move), or an Elo from 800 to "
                                "2000 (nodes a move and noise in the evaluation: the same on every machine)")


class _Version(argparse.Action):
    """``--version``: the package's version and which engine runs (compiled with mypyc or pure Python,
    and why; see :mod:`interpreter.native`), read only when asked."""

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version

        from interpreter import native
        try:
            number = version("rules-dsl")
        except PackageNotFoundError:   # run from a source tree that is not installed
            number = "(not installed)"
        print(f"rules-dsl {number}, engine: {native.status}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rules", description="Run, test and document chess-family games written in the .rules language.")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the version and whether the engine runs compiled (mypyc) or as pure Python")
    parser.add_argument("--no-cache", action="store_true",
                        help="neither read nor write the cache of compiled games and of the grammar "
                             "(as RULES_DSL_CACHE=off does; see dsl.caching)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("list", help="list the bundled variants", description="List the bundled variants with their titles.")
    p.set_defaults(command_function="interpreter.cli.listing:cmd_list")

    p = sub.add_parser("check", help="validate a rules file", description='Parse, validate and compile a rules file in every play mode; print a summary, notes and warnings.')
    _add_variant(p)
    p.set_defaults(command_function="interpreter.cli.commands:cmd_check")

    p = sub.add_parser("perft", help="count the leaves of the legal move tree", description='Count move-tree leaves; with --divide, per first move.')
    _add_variant(p)
    _add_position(p)
    p.add_argument("--depth", "-d", type=_plies("--depth", 0, L.PERFT_DEPTH), required=True, metavar="N",
                   help=f"plies to search (at most {L.PERFT_DEPTH.value})")
    p.add_argument("--divide", action="store_true", help="print the count below each legal move")
    p.add_argument("--full", action="store_true",
                   help="make and unmake every leaf move too (default: count the last ply without playing it)")
    p.add_argument("--json", action="store_true", help='print {"nodes": N, "seconds": S, "full": F, "compiled": C} (C: the compiled engine ran)')
    p.set_defaults(command_function="interpreter.cli.commands:cmd_perft")

    p = sub.add_parser("moves", help="list the legal moves of a position", description='List the legal moves of a position.')
    _add_variant(p)
    _add_position(p)
    p.add_argument("--json", action="store_true", help='print {"moves": [{"san", "uci", "from", "to"}, ...]}')
    p.set_defaults(command_function="interpreter.cli.commands:cmd_moves")

    p = sub.add_parser("play", help="play a game in the terminal", description='Play a game in the terminal.')
    _add_variant(p)
    _add_position(p)
    p.add_argument("--white", metavar="WHO", help=f"who plays White: {WHO} (default: human)")
    p.add_argument("--black", metavar="WHO", help="who plays Black, as --white (default: human)")
    p.add_argument("--seat", metavar="NAME=WHO", action="append",
                   help="who plays a player of the mode or an army, e.g. --seat north=ai (may be repeated; "
                        "default: human)")
    _add_level(p)
    p.add_argument("--seed", type=int, help="seed for the computer players")
    _add_max_plies(p, "the plies of the game record, people's moves included; not those of --moves")
    _add_clock(p, "a player's clock runs while it thinks or you type, the computer's budget is drawn from it")
    p.add_argument("--pgn", metavar="FILE", help="save the game record to FILE when the game ends")
    p.add_argument("--ponder", action="store_true",
                   help="the computer thinks on your time, about the move it expects from you (not at a level "
                        "of strength, whose play it would make stronger)")
    p.set_defaults(command_function="interpreter.cli.commands:cmd_play")

    p = sub.add_parser("bestmove", help="the computer's move in a position",
                       description="The computer's move in a position, with its score, best line, depth, nodes "
                                   "and nodes per second.")
    _add_variant(p)
    _add_position(p)
    p.add_argument("--agent", metavar="AGENT", default="ai", help="the agent, e.g. ai:mcts (default: ai)")
    p.add_argument("--time", type=float, metavar="S", help="seconds to think")
    p.add_argument("--depth", type=_plies("--depth", 1, L.SEARCH_DEPTH), metavar="N",
                   help=f"plies to search (at most {L.SEARCH_DEPTH.value})")
    p.add_argument("--nodes", type=int, metavar="N", help="positions to search (MCTS: playouts)")
    _add_level(p)
    p.add_argument("--seed", type=int, help="the agent's seed")
    p.add_argument("--json", action="store_true",
                   help="print one object: move, from_to, score, mate, pv, depth, seldepth, nodes, nps, time, agent")
    p.set_defaults(command_function="interpreter.cli.computer:cmd_bestmove")

    p = sub.add_parser("match", help="games between computer players",
                       description="Games between agents, seats alternated fairly, on every core, with a result "
                                   "table and Elo differences; every game saved as a record with the Variant tag.")
    _add_variant(p)
    p.add_argument("--mode", metavar="MODE", help="the play mode (superchess: 2p, 3p, 4p)")
    p.add_argument("--option", metavar="NAME=VALUE", action="append", help="a setting of the mode (may be repeated)")
    p.add_argument("--seat", metavar="AGENT", action="append",
                   help="an agent of the match, e.g. --seat ai:alphabeta:time=1 --seat random (two or more; "
                        "the teams of the mode rotate among them); ai:nodes=3000:weights=FILE searches with the "
                        "ai weights of a rules file, such as the one rules tune wrote")
    p.add_argument("--games", type=int, default=2, metavar="N", help="games to play (default 2)")
    p.add_argument("--seed", type=int, help="seed of the openings and agents (default 0)")
    p.add_argument("--jobs", type=int, metavar="J", help="processes (default: every core)")
    _add_level(p)
    p.add_argument("--opening-plies", type=int, metavar="N",
                   help="random moves that open each game (default: two rounds of the turn order)")
    _add_max_plies(p, "the random opening included")
    _add_clock(p, "the clocks start after the random opening, an agent's budget is drawn from its clock")
    p.add_argument("--pgn", metavar="FILE", help="save every game record to FILE")
    p.add_argument("--json", action="store_true", help="print the standings and results as one JSON object")
    p.set_defaults(command_function="interpreter.cli.computer:cmd_match")

    p = sub.add_parser("render", help="draw a position as SVG", description='Draw a position as SVG: the setup, or --fen / --moves, with optional highlights and arrows.')
    _add_variant(p)
    _add_position(p)
    p.add_argument("--highlight", metavar="CELLS", help='cells to highlight, e.g. "e4,d5"')
    p.add_argument("--arrows", metavar="ARROWS", help='arrows to draw, e.g. "e2e4,g1f3" (or e2-e4)')
    p.add_argument("--cell-names", action="store_true", help="write each cell's name inside it")
    p.add_argument("-o", "--output", metavar="FILE", help="the SVG file to write (default: standard output)")
    p.set_defaults(command_function="interpreter.cli.pictures:cmd_render")

    p = sub.add_parser("doc", help="write the rule documentation of a variant", description='Write the rule documentation of a variant: a Markdown or HTML page with SVG figures.')
    _add_variant(p)
    p.add_argument("-o", "--output", metavar="DIR", help="the directory to write (default: the variant's name)")
    p.add_argument("--format", choices=["md", "html"], default="md", help="Markdown (default) or HTML")
    p.set_defaults(command_function="interpreter.cli.pictures:cmd_doc")

    p = sub.add_parser("analyze", help="self-play metrics of a variant: balance, length, branching, heat maps",
                       description="Play games of a variant between agents (one agent: self-play) and measure it: "
                                   "balance, completion, drawishness, first-seat advantage, duration, branching "
                                   "factor, decision moves, board coverage, lead change, decisiveness and how "
                                   "games end, with 95% intervals. Writes results.jsonl (one line per finished "
                                   "game), metrics.json and a self-contained report.html into --out.")
    _add_variant(p)
    p.add_argument("--mode", metavar="MODE", help="the play mode (superchess: 2p, 3p, 4p)")
    p.add_argument("--option", metavar="NAME=VALUE", action="append", help="a setting of the mode (may be repeated)")
    p.add_argument("--games", type=int, required=True, metavar="N", help="games of the run (numbered 0 to N-1)")
    p.add_argument("--seat", metavar="AGENT", action="append",
                   help="an agent: random, greedy, ai:alphabeta:depth=2, ... (may be repeated: the teams of the "
                        "mode rotate among the agents; default: greedy for every seat)")
    p.add_argument("--seed", type=int, help="seed of the openings and agents (default 0): game i is the same "
                                            "for the same seed, wherever it is played")
    _add_workers(p)
    p.add_argument("--out", metavar="DIR", help="the run's directory (default: analysis-VARIANT)")
    p.add_argument("--resume", action="store_true",
                   help="continue the run in --out: play only the games not in its results yet, then recompute "
                        "the metrics and the report")
    _add_level(p, "the budget of an agent that names none: easy, medium, hard or an Elo from 800 to 2000")
    p.add_argument("--opening-plies", type=int, metavar="N",
                   help="random moves that open each game (default: two rounds of the turn order)")
    _add_max_plies(p, "the random opening included")
    _add_clock(p, "the clocks start after the random opening, an agent's budget is drawn from its clock")
    p.add_argument("--batch", type=int, metavar="N",
                   help="games per task of the pool or cluster (default: as many as take about two seconds)")
    p.set_defaults(command_function="interpreter.analysis.command:cmd_analyze")

    p = sub.add_parser("tune", help="fit the computer's evaluation weights to self-play games (Texel's method)",
                       description="Play self-play games of a variant (or read --from), take their quiet positions, "
                                   "each labelled with its game's result (or with the result a --teacher's score "
                                   "predicts), and fit the weights of the evaluation's "
                                   "terms (the ai block's weights: see docs/agents.md) by "
                                   "Texel's method: the error between results and sigmoid(K * score), K first. "
                                   "Prints the weights beside the start weights with the error before and after, "
                                   "and writes a new rules file that extends the variant with an ai block of the "
                                   "fitted weights (--out; an existing file is never overwritten). The games are "
                                   "kept in a run directory beside it (chess-tuned.games/ for chess-tuned.rules), "
                                   "so --resume continues an interrupted run; they are played on this machine or "
                                   "a Dask cluster, as rules analyze plays its games. See docs/agents.md.")
    p.add_argument("variant", metavar="VARIANT", help="a bundled variant name (see 'rules list') or a path to a .rules file")
    p.add_argument("--mode", metavar="MODE", help="the play mode (superchess: 2p, 3p, 4p)")
    p.add_argument("--option", metavar="NAME=VALUE", action="append", help="a setting of the mode (may be repeated)")
    p.add_argument("--games", type=int, metavar="N", help="self-play games to fit to (default 100, at most 10,000)")
    p.add_argument("--seat", metavar="AGENT", action="append",
                   help="the agent that plays the games (default: ai:alphabeta:nodes=1000; may be repeated: the "
                        "teams rotate among the agents)")
    p.add_argument("--seed", type=int, help="seed of the openings and agents (default 0)")
    _add_workers(p)
    p.add_argument("--level", choices=["easy", "medium", "hard"], help="the budget of an agent that names none")
    p.add_argument("--opening-plies", type=int, metavar="N",
                   help="random moves that open each game (default: two rounds of the turn order)")
    p.add_argument("--max-plies", type=_plies("--max-plies", 1, L.GAME_PLIES), metavar="N",
                   help=f"plies after which a game is adjudicated a draw (the random opening included; default "
                        f"{L.DEFAULT_MAX_PLIES}, at most {L.MOVES.value:,}: a longer record is not read back)")
    p.add_argument("--from", dest="records", metavar="RECORDS",
                   help="fit to these games instead of playing: a file of game records (rules match --pgn, rules "
                        "play --pgn) or a run directory of rules analyze or rules tune")
    p.add_argument("--teacher", metavar="AGENT",
                   help="label each position with the result this agent's score predicts (1 / (1 + 10^(-cp/400)) "
                        "for the side to move) instead of its game's result: a deeper search or a stronger engine "
                        "with a fixed budget, e.g. ai:alphabeta:depth=6 or uci:/usr/games/stockfish:depth=12 "
                        "(games of two teams)")
    p.add_argument("--out", metavar="FILE",
                   help="the tuned rules file to write (default: VARIANT-tuned.rules, beside a variant given by "
                        "its path); never overwritten")
    p.add_argument("--resume", action="store_true",
                   help="continue the run of --out: play only the games not played yet, then fit to them all")
    p.set_defaults(command_function="interpreter.analysis.tune_command:cmd_tune")

    p = sub.add_parser("serve", help="play in the browser: a local web server and its JSON API",
                       description="Start a web server for playing any bundled variant or pasted rules file in the "
                                   "browser, against people (at one screen, or each on their own machine through "
                                   "the seat links a new game gives) or the computer, and its JSON API "
                                   "(docs/serve.md). Games are kept in a SQLite file (--db). "
                                   "Needs the serve extra: pip install 'rules-dsl[serve]'.")
    p.add_argument("variant", metavar="VARIANT", nargs="?", help="the bundled variant the page opens with (default: chess)")
    p.add_argument("--mode", metavar="MODE", help="its play mode (superchess: 2p, 3p, 4p)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0: every network "
                        "this machine is on, to play a friend on another machine: anyone with a game's seat link "
                        "plays that seat, there are no accounts)")
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default: 8000; 0: any free port)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address people reach the server at, e.g. https://chess.example.org/ behind a proxy; "
                        "the seat and spectator links are built on it (default: the address each request came to)")
    p.add_argument("--db", metavar="PATH",
                   help="the SQLite file games are kept in, so that they survive a restart (default: games.sqlite3 "
                        "in the user's data directory, e.g. ~/.local/share/rules-dsl/; ':memory:' keeps none)")
    p.add_argument("--max-games", type=int, metavar="N",
                   help="games kept in memory at once (default 64, at most 10,000); with --db, a game that left "
                        "memory is read back from the file when it is asked for")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.add_argument("--engine", metavar="NAME=COMMAND", action="append",
                   help="offer an external engine as the seat engine:NAME in the games it plays, e.g. "
                        "fairy=/usr/games/fairy-stockfish (UCI), fairy=uci:/usr/games/fairy-stockfish:time=1 or "
                        "fairy=xboard:/usr/games/fairy-stockfish:depth=8 "
                        "(may be repeated; requests cannot start other programs)")
    _add_max_plies(p, "the plies of each game's record, people's moves included")
    p.set_defaults(command_function="interpreter.server.command:cmd_serve")

    _add_engine_protocols(sub)
    _add_formatting(sub)
    _add_export(sub)
    _add_import(sub)
    _add_lsp(sub)
    return parser


# ---- rules fmt and rules new (issue 30) -------------------------------------------------------
def _add_formatting(sub) -> None:
    """``rules fmt FILE... [--check] [--diff]`` and ``rules new NAME [--from VARIANT] [-o FILE] [--force]``."""
    p = sub.add_parser("fmt", help="lay out rules files canonically (docs/format.md)",
                       description="Rewrite rules files in the canonical layout of docs/format.md: indentation, "
                                   "spaces, aligned setup blocks and comments; the order of everything and every "
                                   "comment are kept, and the file means the same game. A file is replaced whole "
                                   "or not at all. Exits 2 when a file does not parse (file:line:col; it is left "
                                   "as it is), 1 with --check when a file would change, 0 otherwise.")
    p.add_argument("files", metavar="FILE", nargs="+", help="a .rules file to format; - reads standard input and "
                                                          "writes the result to standard output")
    p.add_argument("--check", action="store_true",
                   help="write nothing; name each file that would change and exit 1 if there is one (for CI)")
    p.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of each change")
    p.set_defaults(command_function="interpreter.cli.formatting:cmd_fmt")

    p = sub.add_parser("new", help="write a new variant file to start from",
                       description="Write NAME.rules: a variant that extends a bundled one, with commented "
                                   "examples of a new piece, another setup and another end rule, each naming the "
                                   "section of docs/language.md that documents it. It loads as it is (the game of "
                                   "--from under a new name) and is formatted.")
    p.add_argument("name", metavar="NAME", help="the variant's name: letters, digits and _, not starting with a digit")
    p.add_argument("--from", dest="base", metavar="VARIANT", default="chess",
                   help="the bundled variant it extends (default: chess; see 'rules list')")
    p.add_argument("-o", "--output", metavar="FILE", help="the file to write (default: NAME.rules)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists (by default it is never overwritten)")
    p.set_defaults(command_function="interpreter.cli.formatting:cmd_new")
# ---- end of rules fmt and rules new -----------------------------------------------------------


def _fsf_parser(sub, command: str, help: str, description: str, fsf_help: str, fsf_description: str):
    """The parser of ``rules COMMAND fsf``: ``COMMAND`` takes a format, of which Fairy-Stockfish's
    variants.ini (``fsf``) is the one there is."""
    p = sub.add_parser(command, help=help, description=description)
    formats = p.add_subparsers(dest="format", metavar="FORMAT", parser_class=_Parser)
    formats.required = True
    return formats.add_parser("fsf", help=fsf_help, description=fsf_description)


# ---------------------------------------------------------------- rules import (issue 27)
def _add_import(sub) -> None:
    """``rules import fsf FILE [SECTION] [-o DIR] [--force]``: Fairy-Stockfish's variants.ini sections as
    rules files (docs/import.md)."""
    f = _fsf_parser(
        sub, "import", "rules files from another program's variant definitions",
        "Write rules files from another program's variant definitions. See docs/import.md.",
        "Fairy-Stockfish's variants.ini",
        "Write one .rules file per section of a Fairy-Stockfish variants.ini (or for SECTION and "
                    "the sections it inherits from), each loaded before it counts. A section whose parent is "
                    "one of Fairy-Stockfish's built-in variants extends our bundled variant of that game; a "
                    "setting with no exact counterpart is written as an interpretation line; a setting that "
                    "cannot be expressed refuses its section, and the others are imported all the same. "
                    "Prints one line per file and a summary: imported N, refused M, the reasons grouped by "
                    "setting. Exits 2 on a malformed file (file:line:col), 0 otherwise.")
    f.add_argument("file", metavar="FILE", help="the variants.ini to read")
    f.add_argument("section", metavar="SECTION", nargs="?",
                   help="import only this section (and the sections of the file it inherits from)")
    f.add_argument("-o", "--out", metavar="DIR", default=".",
                   help="the directory the files are written to (default: the current directory); a file is "
                        "named after its section: lower case, characters other than a-z, 0-9 and _ as _")
    f.add_argument("--force", action="store_true",
                   help="replace files that exist (by default a section whose file exists is refused, so nothing "
                        "is overwritten)")
    f.set_defaults(command_function="interpreter.cli.importing:cmd_import_fsf")
# ---------------------------------------------------------------- end of rules import


def _add_engine_protocols(sub) -> None:
    """``rules uci`` and ``rules xboard``: the engine for chess GUIs and match tools (docs/engines.md)."""
    for name, title, example in (
            ("uci", "UCI", "cutechess-cli -engine cmd='rules uci' proto=uci"),
            ("xboard", "XBoard (CECP v2)", "xboard -fcp 'rules xboard' -variant capablanca")):
        p = sub.add_parser(name, help=f"serve the engine over {title} on standard input and output",
                           description=f"Serve the engine over {title} for chess GUIs and match tools, e.g. "
                                       f"{example}. Variants whose boards FEN cannot carry (hex boards, cut "
                                       "corners, stacks, more than two armies) are refused: play them through "
                                       "'rules serve'. See docs/engines.md.")
        p.add_argument("variant", metavar="VARIANT", nargs="?",
                       help="the variant to start with (UCI) or to offer first (XBoard): a bundled name or a "
                            "path to a .rules file (default: chess)")
        p.add_argument("--agent", metavar="SPEC", default="ai",
                       help="the agent that searches, with its budget for a search the GUI does not limit, "
                            "e.g. ai:alphabeta:time=2 or ai:mcts (default: ai)")
        p.set_defaults(command_function=f"interpreter.protocols.{name}:cmd_{name}")


# ---- rules export: Fairy-Stockfish's variants.ini (issue 27) -------------------------------------
def _add_export(sub) -> None:
    """``rules export fsf VARIANT``: the variant as a section of Fairy-Stockfish's variants.ini."""
    f = _fsf_parser(
        sub, "export", "write a variant in another program's format (fsf: Fairy-Stockfish)",
        "Write a variant in another program's format. See docs/engines.md.",
        "a section of Fairy-Stockfish's variants.ini",
        "Write the variant as a section of Fairy-Stockfish's variants.ini: its board, pieces (in "
                    "Betza notation), promotion, castling, drops and the end rules Fairy-Stockfish has "
                    "settings for. Load it into Fairy-Stockfish with the UCI option VariantPath (setoption name "
                    "VariantPath value FILE) or, in Python, with pyffish.load_variant_config(text). A variant "
                    "that uses what Fairy-Stockfish cannot express (stacks, more than two armies, boards that "
                    "are not rectangles of at most 12x10, moves beyond its Betza, conditions, neutral pieces, "
                    "end rules it has no setting for, ...) is refused with the list of all such constructs "
                    "(exit status 2). See docs/engines.md.")
    _add_variant(f)
    f.add_argument("-o", "--output", metavar="FILE", help="the file to write (default: standard output)")
    f.add_argument("--name", metavar="NAME",
                   help="the section's name (default: the variant's); Fairy-Stockfish ignores a section named "
                        "like a variant it already knows, such as chess: give it another name")
    f.add_argument("--mode", metavar="MODE", help="the play mode of a variant that has several")
    f.add_argument("--option", metavar="NAME=VALUE", action="append", help="a setting of the mode (may be repeated)")
    f.set_defaults(command_function="interpreter.cli.exporting:cmd_export_fsf")
# ---- end of rules export ---------------------------------------------------------------------------


# ---- rules lsp: the language server for editors (issue 30) ---------------------------------------
LSP_DESCRIPTION = ("Serve the Language Server Protocol on standard input and output for an editor: diagnostics as "
                   "you type (those of 'rules check'), completion, hover with the rule pages' English and movement "
                   "diagrams, go to definition, the outline and formatting. Editors start it themselves; see "
                   "docs/editors.md. Needs the lsp extra: pip install 'rules-dsl[lsp]'.")


def _add_lsp(sub) -> None:
    """``rules lsp``: the language server on standard input and output (docs/editors.md)."""
    p = sub.add_parser("lsp", help="the language server for editors, on standard input and output",
                       description=LSP_DESCRIPTION)
    p.set_defaults(command_function="interpreter.lsp.command:cmd_lsp")
