"""Replay the attacks of issues 12 and 25 against every front door and count what still gets through.

Issue 25 added: depths past their limits (``perft --depth 1000``, ``ai:depth=N``, UCI's ``go
depth`` and XBoard's ``sd`` with huge numbers), JSON nested 100,000 deep sent to the server,
analysis run directories whose files are directories or whose results lines are broken, and
games that no end rule can end played whole by ``play``, ``match``, ``analyze`` and ``serve``
(they must stop at their ply cap).

The front doors: the ``rules`` command (rules files, positions, moves,
arguments), the web server of ``rules serve`` (its JSON API, through
Starlette's test client) and the engine protocols (``rules uci``, ``rules
xboard``, each a subprocess fed lines). Every attack runs under the memory
cap and the watchdog of ``tests/fuzzing.py``; a protocol line must be
answered (``readyok`` / ``pong``) within :data:`ANSWER_SECONDS`.

What counts as a failure:

- **traceback**: an exception other than a clean error escaped (the command
  did not exit 0 or 2; the server answered 500; a protocol printed a
  traceback or died);
- **overrun**: the watchdog or the memory cap fired, or a protocol did not
  answer in time;
- **leak**: the output shows the content of a file nobody asked for (a
  line of ``/etc/passwd``, a value of the environment) or markup from a
  file (``<script``);
- **wrong**: an attack the issue lists as "accepted but wrong" was accepted
  (a piece letter without case, a position whose side not to move is in
  check, an empty option), a game that nothing ends did not end at its ply
  cap, or an input that must be accepted (a killed run's half line) was not.

    .venv/bin/python bench/hostile_attacks.py           # all front doors, a table of counts
    .venv/bin/python bench/hostile_attacks.py --json    # the counts as JSON
    .venv/bin/python bench/hostile_attacks.py --only cli --show

It exits 1 if anything failed. It takes well under a minute on a quiet
machine (859 inputs in about 15 s; the 64 x 64 boards compile until their
budget stops them).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))   # bench.common

from fuzzing import Overrun, bounded  # noqa: E402  (the guard of the fuzzers)

from bench.common import EngineFailure, LineProcess  # noqa: E402

from interpreter.cli.main import main  # noqa: E402

ANSWER_SECONDS = 30.0
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
SECRETS = [line for line in Path("/etc/passwd").read_text().splitlines()[:3] if line] + \
          [f"{key}={value}" for key, value in os.environ.items() if len(value) > 3]  # as /proc/self/environ has them
ASKED_FOR = ("/etc/passwd", "/proc/self/environ")
ENDLESS = ROOT / "tests" / "fixtures" / "endless.rules"   # a game that no end rule can end
HUGE = "9" * 20
ACCEPTED = "accepted"
"""The last field of an argument set whose input must be accepted (exit 0); True: it must be refused; False: either."""
HOSTILE_FIELDS = ["\u00b2", "\u0663", "\uff15", "9" * 5000, "99999999999", "-1", "", "\x00", "\ud800", "K" * 3000]


class Tally:
    """Counts per front door: inputs run, and failures by kind with the first few examples."""

    def __init__(self) -> None:
        self.runs: Counter[str] = Counter()
        self.failures: Counter[tuple[str, str]] = Counter()
        self.examples: dict[tuple[str, str], list[str]] = {}
        self.slowest: dict[str, float] = {}
        self._started = time.monotonic()

    def start(self) -> None:
        """A front door's attacks begin: the time of its first input is counted from now."""
        self._started = time.monotonic()

    def note(self, door: str, failure: str | None, shown: str) -> None:
        """Count one input of ``door`` (its time: since the previous note, or :meth:`start`)."""
        now = time.monotonic()
        self.slowest[door] = max(self.slowest.get(door, 0.0), now - self._started)
        self._started = now
        self.runs[door] += 1
        if failure is not None:
            self.failures[(door, failure)] += 1
            self.examples.setdefault((door, failure), []).append(shown[:300])

    def failed(self) -> int:
        return sum(self.failures.values())


# ------------------------------------------------------------------ the rules command


def run_cli(argv: list[str], stdin: str = "") -> tuple[str | None, int | None, str]:
    """Run ``rules ARGV`` in this process under the guard -> (failure or None, exit status, output)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    status = None
    try:
        with bounded(), redirect_stdout(out), redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exit_:  # argparse's usage errors
                status = exit_.code if isinstance(exit_.code, int) else 2
    except (Overrun, MemoryError) as failure:
        return "overrun", None, f"{type(failure).__name__}: {failure}"
    except BaseException as failure:  # what a user would see as a traceback
        return "traceback", None, f"{type(failure).__name__}: {failure}"
    finally:
        sys.stdin = saved
    text = out.getvalue() + err.getvalue()
    if "Traceback (most recent call last)" in text or status not in (0, 2):
        return "traceback", status, text
    if any(secret in text for secret in SECRETS):
        return "leak", status, text
    return None, status, text


def markup_in(folder: Path) -> bool:
    """Whether a picture or page written under ``folder`` carries a ``<script`` element."""
    return any("<script" in path.read_text(encoding="utf-8", errors="replace")
               for path in folder.rglob("*") if path.suffix in (".svg", ".html", ".md"))


def rules_files(folder: Path) -> list[tuple[str, Path, bool]]:
    """The hostile rules files of the issue, written into ``folder`` -> (what, path, must be refused)."""
    big = ("extends chess\nboard {{ grid {n} x {n}  zone promotion {{ white: rank {n}  black: rank 1 }}  "
           "zone pawn_start {{ white: rank 2  black: rank {m} }} }}\n{pieces}"
           "setup {{ white King at a1  black King at bl64  {setup} }}\n")
    crook = ("forget piece Queen\nforget piece Rook\nforget piece Bishop\nforget castle short\nforget castle long\n"
             "piece Pawn { letter P betza \"fmWfcF\" promotes in zone promotion to Knight }\n"
             "piece Crook {{ letter C {pattern} }}\n")
    riders = "".join(f'piece Rider{c} {{ letter {c} betza "Q" }}\n' for c in "ACDEFGHIJLMOSTUVWXYZ")
    texts: list[tuple[str, str | bytes, bool]] = []
    for target in ("/proc/self/environ", "/etc/passwd", "/etc/shadow", "/proc/self/mem", "/dev/zero", "/tmp",
                   "../../../../etc/passwd", "/dev/stdin"):
        texts += [(f"include {target}", f'include "{target}"\n', True),
                  (f"extends {target}", f'extends "{target}"\n', True)]
    texts += [
        ("two rides of range 1,000,000", "extends chess\npiece Rook { letter R move path ride orth range 1000000 "
         "then ride orth range 1000000 }\n", True),
        ("1 MB Betza string", 'extends chess\npiece Rook { letter R betza "' + "W" * 1_000_000 + '" }\n', True),
        ("50 MB title", 'variant x { title "' + "a" * 50_000_000 + '" }\nextends chess\n', True),
        ("64x64 of queens", big.format(n=64, m=63, pieces="", setup="white Queen at ranks 2..31  "
                                        "black Queen at ranks 33..63"), True),
        ("20 riders on 40x40", big.format(n=40, m=39, pieces=riders, setup="").replace("bl64", "an40"), True),
        ("grid 703 x 1", "extends chess\nboard { grid 703 x 1 }\n", True),
        ("not UTF-8", "variant caf\xe9 {}\n".encode("latin-1"), True),
        ("100 parentheses", "extends chess\nrules { end nested when " + "(" * 100 + "1 == 1" + ")" * 100
         + " : draw }\n", False),
        ("1,000 not", "extends chess\nrules { end x when " + "not " * 1000 + "in_check : win }\n", True),
        ("1,000-term sum", "extends chess\nrules { end x when " + " + ".join(["clock"] * 1000) + " > 0 : win }\n", True),
        ("1,000-term where", "extends chess\nboard { zone z: where " + " + ".join(["file"] * 1000) + " > 0 }\n", True),
        ("5,000-character name", f'include "{"a" * 5000}"\n', True),
        ("5,000-character path", f'extends "{"a/" * 2500}x.rules"\n', True),
        ("setup fen with a superscript", f'extends chess\nsetup fen "{START[:-3]}\u00b2 1"\n', True),
        ("setup fen with 5,000 digits", f'extends chess\nsetup fen "{START[:-3]}{"9" * 5000} 1"\n', True),
        ("a <script> colour", 'extends chess\narmies { army white { letters upper colour '
         '"</svg><script>alert(1)</script>" } army black { letters lower } }\n', True),
        ("an attribute colour", 'extends chess\narmies { army white { letters upper colour "red\\" onload=\\"x" } '
         'army black { letters lower } }\n', True),
        ("a <script> title", 'variant x { title "<script>alert(1)</script>" }\nextends chess\n', False),
        ("letter without case", 'extends chess\npiece Odd { letter "\u4e2d" betza "W" }\n', True),
        ("letter sharp s", 'extends chess\npiece Odd { letter "\u00df" betza "W" }\n', True),
        ("setup: side not to move in check", 'extends chess\nsetup fen "4k3/8/8/8/8/8/8/4K2r b - - 0 1"\n', True),
        ("setup list: side not to move in check", 'extends chess\nsetup { white King at e1  white Rook at e7  '
         'black King at e8 }\n', True),
        ("no army", "board { grid 8 x 8 }\npiece King { royal }\n", True),
        ("bad letters prefix", 'extends chess\narmies { army white { letters prefix "w/" } '
         'army black { letters prefix "b" } }\n', True),
        ("set __class__", 'extends chess\nboard { set __class__ = "x" on all  zone odd: where __class__ == "x" }\n',
         False),
    ]
    for name, pattern in (("long paths on 64x64", "move path ride orth range 64 then ride orth range 64"),
                          ("four-leg path on 64x64", "move path ride orth then ride diag then ride orth then ride diag"),
                          ("zigzag on 64x64", "move zigzag orth and diag")):
        texts.append((name, big.format(n=64, m=63, pieces=crook.replace("{pattern}", pattern).replace("{{", "{")
                                        .replace("}}", "}"), setup="white Crook at b1"), True))
    paths = []
    for i, (what, text, refused) in enumerate(texts):
        path = folder / f"attack{i}.rules"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
        paths.append((what, path, refused))
    chain = folder / "chain"
    chain.mkdir(exist_ok=True)
    for i in range(500):
        (chain / f"f{i}.rules").write_text(f'extends "f{i + 1}.rules"\n' if i < 499 else "extends chess\n")
        (chain / f"i{i}.rules").write_text(f'include "i{i + 1}.rules"\n' if i < 499 else "# end\n")
    (chain / "top.rules").write_text('extends chess\ninclude "i0.rules"\n')
    paths += [("extends chain of 500", chain / "f0.rules", True), ("include chain of 500", chain / "top.rules", True)]
    return paths


def attack_files(tally: Tally, folder: Path, files: list[tuple[str, Path, bool]]) -> None:
    pictures = folder / "pictures"
    for what, path, refused in files:
        commands = [["check", str(path)], ["render", str(path), "-o", str(pictures / "out.svg")]]
        if "title" in what or "colour" in what:
            commands += [["doc", str(path), "-o", str(pictures / "md")],
                         ["doc", str(path), "-o", str(pictures / "html"), "--format", "html"]]
        for argv in commands:
            pictures.mkdir(exist_ok=True)
            failure, status, text = run_cli(argv)
            if failure is None and markup_in(pictures):
                failure = "leak"
            for written in sorted(pictures.rglob("*"), reverse=True):
                written.rmdir() if written.is_dir() else written.unlink()
            if failure is None and refused and status == 0 and argv[0] == "check":
                failure = "wrong"
            tally.note("files", failure, f"{what}: {' '.join(argv[:1])}: {text}")


def hostile_fens() -> list[tuple[str, str]]:
    """(variant, FEN): every field of a few starts replaced by hostile text, and the issue's FENs."""
    from interpreter.loading import load_game, start_position
    from interpreter.notation.fen import to_fen

    fens = [("chess", "4k3/8/8/8/8/8/8/4K2r b - - 0 1"), ("chess", "8/" * 60_000), ("chess", ""), ("chess", " ")]
    for variant in ("chess", "threecheck", "crazyhouse", "superchess", "glinski", "locking"):
        fields = to_fen(start_position(load_game(variant))).split(" ")
        for i in range(len(fields)):
            for value in HOSTILE_FIELDS:
                changed = fields[:i] + [value] + fields[i + 1:]
                fens.append((variant, " ".join(changed)))
                if "/" in fields[i]:
                    ranks = fields[i].split("/")
                    ranks[len(ranks) // 2] = value
                    fens.append((variant, " ".join(fields[:i] + ["/".join(ranks)] + fields[i + 1:])))
    return fens


def attack_positions(tally: Tally) -> None:
    for variant, fen in hostile_fens():
        failure, _, text = run_cli(["moves", variant, "--fen", fen])
        tally.note("positions", failure, f"{variant} {fen[:80]!r}: {text}")
    failure, status, text = run_cli(["moves", "chess", "--fen", "4k3/8/8/8/8/8/8/4K2r b - - 0 1"])
    tally.note("positions", failure or ("wrong" if status == 0 else None), f"side not to move in check: {text}")
    for moves in ("", "   ", "e4 zz", "e" * 200, "Nf3 Nf6 Ng1 Ng8 " * 501, "e2e4 \u00b2", "a" + "1" * 5000,
                  "e4 e5 Ke2 Ke7 Ke1 Ke8 O-O", "P@e4", "e7e8=\u4e2d", "\x00", "\ud800", "1. e4 {", "e4 (e5"):
        failure, _, text = run_cli(["moves", "chess", "--moves", moves])
        tally.note("positions", failure, f"moves {moves[:60]!r}: {text}")


def argument_sets(folder: Path) -> list[tuple[list[str], str, bool | str]]:
    """(argv, stdin, must fail or :data:`ACCEPTED`): the issues' argument attacks and the options of every command
    with bad values."""
    sets: list[tuple[list[str], str, bool | str]] = [
        (["moves", "chess", "--fen", ""], "", True), (["moves", "chess", "--moves", ""], "", True),
        (["moves", "chess", "--option", "foo=bar"], "", True), (["moves", "superchess", "--option", "foo=bar"], "", True),
        (["moves", "superchess", "--option", "="], "", True), (["check", "chess", "--include-dir", "/nonexistent"], "", True),
        (["check", "chess", "--mode", "nosuch"], "", True), (["perft", "chess", "--depth", "-1"], "", True),
        (["perft", "chess", "--depth", "9" * 5000], "", True), (["render", "chess", "-o", "/nonexistent/x.svg"], "", True),
        (["render", "chess", "-o", str(folder)], "", True), (["doc", "chess", "-o", "/proc/self/nonexistent"], "", True),
        (["render", "chess", "--highlight", "zz99"], "", True), (["render", "chess", "--arrow", "e2-"], "", True),
        (["bestmove", "chess", "--agent", "ai:time=nan"], "", True), (["bestmove", "chess", "--agent", "ai:time=inf"], "", True),
        (["bestmove", "chess", "--agent", "ai:nodes=" + "9" * 5000], "", True),
        (["bestmove", "chess", "--agent", "ai:depth=\u00b2"], "", True), (["bestmove", "chess", "--agent", "nosuch"], "", True),
        (["match", "chess", "--games", "-1"], "", True), (["match", "chess", "--games", "0"], "", False),
        (["check", "a" * 5000], "", True), (["check", "/etc/passwd"], "", True), (["check", "/proc/self/environ"], "", True),
        (["check", "/dev/zero"], "", True), (["check", str(folder)], "", True), (["check", "\x00"], "", True),
        (["moves", "chess", "--array", "-1"], "", True), (["moves", "chess960", "--array", "9" * 5000], "", True),
        (["moves", "chess", "--fen", START, "--array", "1"], "", True), (["analyze", "chess", "--games", "-3"], "", True),
        (["play", "chess", "--seat", "white=nosuch"], "", True), (["play", "chess", "--seat", "nosuch=human"], "", True),
        (["perft", "chess", "--depth", "1000"], "", True), (["perft", "chess", "--depth", HUGE], "", True),
        (["perft", "chess", "--divide", "--depth", "33"], "", True), (["bestmove", "chess", "--depth", "1000"], "", True),
        (["bestmove", "chess", "--depth", HUGE], "", True), (["bestmove", "chess", "--agent", "ai:depth=1000"], "", True),
        (["bestmove", "chess", "--agent", f"ai:mcts:depth={HUGE}"], "", True),
        (["match", "chess", "--seat", "random", "--seat", "random", "--max-plies", HUGE], "", True),
        (["analyze", "chess", "--games", "1", "--max-plies", "0"], "", True),
        (["play", "chess", "--max-plies", "-" + "9" * 5000], "", True),
        (["play", str(ENDLESS), "--white", "random", "--black", "random"], "", ACCEPTED),
        (["play", str(ENDLESS)], "Wa2\nWc2\nWa1\nWc3\n" * 200, ACCEPTED),
        (["match", str(ENDLESS), "--seat", "random", "--seat", "greedy", "--games", "2", "--jobs", "1"], "", ACCEPTED),
        (["analyze", str(ENDLESS), "--games", "2", "--seat", "random", "--jobs", "1", "--out", str(folder / "endless")],
         "", ACCEPTED),
    ]
    sets += analysis_runs(folder)
    for target in ("/nonexistent/dir/game.pgn", str(folder), "/dev/full"):
        sets.append((["play", "chess", "--white", "random", "--black", "random", "--seed", "3", "--pgn", target], "",
                     True))
    sets.append((["play", "chess", "--pgn", str(folder / "game.pgn")], "e4\n\u00b2\n" + "x" * 100_000 + "\nundo\nquit\n",
                 ACCEPTED))
    return sets


def analysis_runs(folder: Path) -> list[tuple[list[str], str, bool | str]]:
    """(argv, stdin, must fail or :data:`ACCEPTED`): ``rules analyze`` on run directories made broken as a disk, a kill or another
    program leaves them (a base run of two games is played first, outside the guard, and copied)."""
    import shutil

    from interpreter.analysis.runs import analyze
    base = folder / "analysis-base"
    analyze("chess", ["random"], 2, base, max_plies=10, jobs=1, progress=False)
    line = (base / "results.jsonl").read_text().splitlines()[0]
    broken = {"a results.jsonl directory": None, "a run.json directory": None, "a line that is not JSON": "{oops\n",
              "a line 100,000 deep": "[" * 100_000 + "\n", "a string index": line.replace('"index":0', '"index":"0"', 1)
              + "\n", "a killed run's half line": line[:40]}
    sets = []
    for i, (what, extra) in enumerate(broken.items()):
        run = folder / f"analysis-{i}"
        shutil.copytree(base, run)
        if extra is None:
            name = "results.jsonl" if "results" in what else "run.json"
            (run / name).unlink()
            (run / name).mkdir()
        else:
            with open(run / "results.jsonl", "a") as results:
                results.write(extra)
        argv = ["analyze", "chess", "--games", "3", "--seat", "random", "--max-plies", "10", "--jobs", "1",
                "--out", str(run)]
        sets.append((argv + ["--resume"], "", ACCEPTED if "half line" in what else True))
        if extra is None:
            sets.append((argv, "", True))
    (folder / "analysis-file").write_text("not a directory")
    for resume in ([], ["--resume"]):
        sets.append((["analyze", "chess", "--games", "1", "--out", str(folder / "analysis-file"), *resume], "", True))
    return sets


def attack_arguments(tally: Tally, folder: Path) -> None:
    for argv, stdin, must_fail in argument_sets(folder):
        failure, status, text = run_cli(argv, stdin)
        if failure == "leak" and any(arg in ASKED_FOR for arg in argv):
            failure = None  # a file named on the command line is one the user asked to read
        if failure is None and ((must_fail is True and status == 0) or (must_fail == ACCEPTED and status != 0)):
            failure = "wrong"
        tally.note("arguments", failure, f"{' '.join(a[:40] for a in argv)}: {text}")


# ------------------------------------------------------------------ the web server


def attack_server(tally: Tally, files: list[tuple[str, Path, bool]]) -> None:
    try:
        from starlette.testclient import TestClient
    except ImportError:
        print("the server is not attacked: pip install -e '.[test]' (Starlette and its test client)", file=sys.stderr)
        return
    from interpreter.server.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)

    def send(method: str, path: str, shown: str, **kwargs) -> dict | None:
        if "json" in kwargs:  # ASCII JSON, so that lone surrogates reach the server as escapes
            kwargs["content"] = json.dumps(kwargs.pop("json")).encode()
            kwargs["headers"] = {"content-type": "application/json"}
        try:
            with bounded():
                answer = client.request(method, path, **kwargs)
        except (Overrun, MemoryError) as failure:
            tally.note("server", "overrun", f"{shown}: {failure}")
            return None
        text = answer.text
        failure = None
        if answer.status_code >= 500:
            failure = "traceback"
        elif any(secret in text for secret in SECRETS) or any("<script" in svg for svg in _pictures(_json(answer))):
            failure = "leak"  # titles are data (the page writes them as text); its pictures go in as markup
        tally.note("server", failure, f"{method} {path} {shown}: {answer.status_code} {text[:200]}")
        return _json(answer)

    for what, path, _ in files:
        if path.stat().st_size < 400_000:
            send("POST", "/api/check", what, json={"rules": path.read_bytes().decode("utf-8", "replace"), "name": path.name})
    for variant, fen in hostile_fens()[::7]:
        send("POST", "/api/games", f"fen {fen[:60]!r}", json={"variant": variant, "fen": fen})
    for body in ({"variant": "../../etc/passwd"}, {"variant": "/etc/passwd"}, {"variant": "a" * 5000}, {"variant": 3},
                 {"variant": "chess", "mode": "\x00"}, {"variant": "chess", "options": {"a": 1}},
                 {"variant": "chess", "moves": "e4 zz"}, {"variant": "chess", "moves": "e" * 100_000},
                 {"variant": "chess", "record": "[Variant \"chess\"]\n1. e4 {" + "x" * 1000},
                 {"record": "[FEN \"" + "9" * 5000 + "\"]\n"}, {"variant": "chess", "seats": {"white": "ai:time=inf"}},
                 {"variant": "chess", "seats": {"white": "ai:nodes=" + "9" * 5000}}, {"variant": "chess", "seats": []},
                 {"rules": "extends chess\n", "name": "../../../etc/passwd"}, {"rules": "\ud800"}):
        send("POST", "/api/games", json.dumps(body)[:80], json=body)
    nested = (b"[" * 100_000, b'{"a":' * 100_000, b'{"variant": "chess", "seats": ' + b'{"a":' * 5_000 + b"1" + b"}" * 5_001)
    for raw in (b"\xff\xfe", b"[1]", b"{", b"nul", b"{" * 100_000, b'{"variant": "chess"' + b" " * 600_000 + b"}",
                *nested):
        send("POST", "/api/games", repr(raw[:30]), content=raw)
    for raw in nested:
        send("POST", "/api/check", repr(raw[:30]), content=raw)
    for seats in ({"white": "ai:depth=1000"}, {"white": f"ai:mcts:depth={HUGE}"}):
        send("POST", "/api/games", json.dumps(seats), json={"variant": "chess", "seats": seats})
    created = client.post("/api/games", json={"variant": "chess"}).json()
    ident = created.get("id") or created.get("ident") or created.get("game")
    for method, path in (("POST", "moves"), ("POST", "undo"), ("POST", "computer"), ("PUT", "seats")):
        for raw in nested:
            send(method, f"/api/games/{ident}/{path}", repr(raw[:30]), content=raw)
    endless_game(client, tally)
    for move in ("zz", "", "e" * 10_000, "\u00b2", "e2e4 e7e5", "O-O-O-O", 3, None):
        send("POST", f"/api/games/{ident}/moves", f"move {str(move)[:30]!r}", json={"move": move})
    for path in (f"/api/games/{ident}/positions/-1", f"/api/games/{ident}/positions/" + "9" * 5000,
                 f"/api/games/{ident}/positions/\u00b2", f"/api/games/{ident}?wait=nan", f"/api/games/{ident}?wait=1e999",
                 f"/api/games/{ident}?wait=-1", "/api/games/nosuch", "/api/games/" + "a" * 5000, "/static/../../etc/passwd"):
        send("GET", path, "")
    for body in ({"plies": -1}, {"plies": 10 ** 30}, {"plies": "x"}):
        send("POST", f"/api/games/{ident}/undo", json.dumps(body), json=body)
    for body in ({"agent": "nosuch"}, {"agent": "ai:time=nan"}, {"agent": "ai:depth=" + "9" * 5000}):
        send("POST", f"/api/games/{ident}/computer", json.dumps(body)[:60], json=body)


def endless_game(client, tally: Tally) -> None:
    """Two computers in a game that no end rule ends, on a server of the default ply cap: the game must stop
    there with an adjudicated result, within the watchdog's time."""
    shown = "a game of two computers that nothing ends"
    try:
        with bounded():
            state = client.post("/api/games", json={"rules": ENDLESS.read_text(), "seats": {"white": "random",
                                                                                            "black": "random"}}).json()
            while state.get("result") is None and "id" in state:
                state = client.get(f"/api/games/{state['id']}?wait=5").json()
    except (Overrun, MemoryError) as failure:
        tally.note("server", "overrun", f"{shown}: {failure}")
        return
    result = state.get("result") or {}
    tally.note("server", None if result.get("rule") == "max-plies" else "wrong", f"{shown}: {str(state)[:200]}")


def _json(answer):
    try:
        return answer.json()
    except ValueError:
        return None


def _pictures(value) -> list[str]:
    """The SVG pictures anywhere in a JSON answer (the page puts them into its document as markup)."""
    if isinstance(value, str):
        return [value] if "<svg" in value else []
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [svg for item in items for svg in _pictures(item)]


# ------------------------------------------------------------------ the engine protocols


class Engine(LineProcess):
    """A ``rules uci`` / ``rules xboard`` subprocess: lines in, lines out (read in a thread), stderr kept
    (:class:`bench.common.LineProcess`); a line sent to an engine that ended is dropped."""

    def __init__(self, protocol: str) -> None:
        self.protocol = protocol
        super().__init__([str(Path(sys.executable).parent / "rules"), protocol], f"rules {protocol}", cwd=ROOT)

    def send(self, line: str) -> None:
        try:
            super().send(line)
        except EngineFailure:
            pass

    def wait_for(self, prefix: str, seconds: float = ANSWER_SECONDS) -> list[str] | None:
        """The lines up to one starting with ``prefix``; None if none came in time or the engine ended."""
        try:
            return self.expect(lambda line: line.startswith(prefix), seconds)
        except EngineFailure:
            return None


UCI_LINES = [
    "position fen 4k3/8/8/8/8/8/8/4K2r b - - 0 1",
    "position fen", "position", "position startpos moves e2e4 zz99", "position startpos moves " + "e2e4 e7e5 " * 600,
    "position fen " + "8/" * 60_000, "go nodes " + "9" * 5000, "go depth \u00b2", "go movetime -5", "go wtime \u0663",
    "setoption name Move Overhead value \u00b2", "setoption name Move Overhead value " + "9" * 5000,
    "setoption name UCI_Variant value ../../etc/passwd", "setoption name UCI_Variant value " + "a" * 5000,
    "setoption name VariantPath value /etc/passwd", "setoption name VariantPath value /proc/self/environ",
    "setoption name Agent value ai:time=inf", "setoption name Agent value ai:nodes=" + "9" * 5000,
    "setoption name", "setoption name nosuch value 1", "\x00", "\ud800", "x" * 100_000, "go searchmoves zz",
    "setoption name UCI_Chess960 value maybe", "debug", "register",
    "go depth 1000", "go depth 999999999999999999", "go mate 999999999999999999", "go depth " + HUGE,
    "setoption name Agent value ai:depth=1000", "setoption name Agent value ai:mcts:depth=" + HUGE,
]
XBOARD_LINES = [
    "setboard 4k3/8/8/8/8/8/8/4K2r b - - 0 1", "setboard", "setboard " + "9" * 5000, "setboard " + "8/" * 60_000,
    "usermove zz99", "usermove", "zz99", "e" * 10_000, "level 40 inf 0", "level 40 nan 0", "level \u00b2 5 0",
    "level 40 5", "st nan", "st 1e999", "st -1", "sd \u00b2", "sd " + "9" * 5000, "nps -5", "time " + "9" * 5000,
    "otim x", "variant ../../etc/passwd", "variant " + "a" * 5000, "variant nosuch", "result", "undo", "remove",
    "lift zz", "lift", "put", "\x00", "\ud800", "option Agent=ai:time=inf", "memory x", "cores \u00b2",
    "new\nst 1e999\ngo", "new\nst nan\ngo", "new\nlevel 40 inf 0\ngo", "new\nlevel 0 nan 0\ngo",
    "new\nsetboard 4k3/8/8/8/8/8/8/4K2r w - - 0 1\nsd 2\ngo", "new\ntime \u0663\nsd 1\ngo",
    "sd 1000", "sd " + HUGE, "new\nsd " + HUGE + "\nst 1\ngo", "option Agent=ai:depth=1000",
]


def attack_protocol(tally: Tally, protocol: str) -> None:
    lines = UCI_LINES if protocol == "uci" else XBOARD_LINES
    engine = Engine(protocol)
    engine.send("uci" if protocol == "uci" else "xboard\nprotover 2")
    engine.wait_for("uciok" if protocol == "uci" else "feature done=1", 60)
    for n, line in enumerate(lines):
        if protocol == "uci":
            engine.send(line)
            if line.startswith("go"):
                engine.send("stop")
                answered = engine.wait_for("bestmove")
                engine.send("isready")
                answered = answered and engine.wait_for("readyok")
            else:
                engine.send("isready")
                answered = engine.wait_for("readyok")
        else:
            engine.send("force")
            engine.send(line)
            engine.send(f"ping {n}")
            answered = engine.wait_for(f"pong {n}")
        failure = None
        if engine.proc.poll() is not None or any("Traceback" in e for e in engine.errors):
            failure = "traceback"
        elif answered is None:
            failure = "overrun"
        elif any(secret in a for a in answered for secret in SECRETS) and "VariantPath" not in line:
            failure = "leak"  # VariantPath names a file to read, as the command line does
        tally.note(protocol, failure, f"{line[:80]!r}: {' | '.join(engine.errors[-3:])}")
        if failure is not None:
            engine.close()
            engine = Engine(protocol)
            engine.send("uci" if protocol == "uci" else "xboard\nprotover 2")
            engine.wait_for("uciok" if protocol == "uci" else "feature done=1", 60)
    if protocol == "uci":  # a search from the position of every hostile line that was taken
        engine.send("ucinewgame\nposition startpos moves e2e4\ngo depth 2")
        tally.note(protocol, None if engine.wait_for("bestmove") else "overrun", "go depth 2 after the attacks")
    engine.close()


# ------------------------------------------------------------------ the report


def report(tally: Tally, show: bool, as_json: bool) -> None:
    doors = list(tally.runs)
    kinds = ["traceback", "overrun", "leak", "wrong"]
    if as_json:
        print(json.dumps({door: {"inputs": tally.runs[door], **{k: tally.failures[(door, k)] for k in kinds},
                                 "slowest_seconds": round(tally.slowest[door], 2)} for door in doors}, indent=2))
    else:
        print(f"{'front door':<12} {'inputs':>7} " + " ".join(f"{k:>9}" for k in kinds) + "  slowest (s)")
        for door in doors:
            print(f"{door:<12} {tally.runs[door]:>7} " + " ".join(f"{tally.failures[(door, k)]:>9}" for k in kinds)
                  + f"  {tally.slowest[door]:>11.1f}")
        print(f"{'total':<12} {sum(tally.runs.values()):>7} "
              + " ".join(f"{sum(tally.failures[(d, k)] for d in doors):>9}" for k in kinds))
    if show or tally.failed():
        for (door, kind), examples in tally.examples.items():
            print(f"\n{door} / {kind}:", file=sys.stderr)
            for example in examples[:8]:
                print("  " + example.replace("\n", "\n    ")[:600], file=sys.stderr)


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["files", "positions", "arguments", "server", "uci", "xboard"], action="append")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--show", action="store_true", help="show examples of failures")
    args = parser.parse_args(argv)
    only = set(args.only or ["files", "positions", "arguments", "server", "uci", "xboard"])
    tally = Tally()
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        files = rules_files(folder)
        attacks = {"files": lambda: attack_files(tally, folder, files), "positions": lambda: attack_positions(tally),
                   "arguments": lambda: attack_arguments(tally, folder), "server": lambda: attack_server(tally, files),
                   "uci": lambda: attack_protocol(tally, "uci"), "xboard": lambda: attack_protocol(tally, "xboard")}
        for door, attack in attacks.items():
            if door in only:
                tally.start()
                attack()
    report(tally, args.show, args.json)
    return 1 if tally.failed() else 0


if __name__ == "__main__":
    sys.exit(main_())
