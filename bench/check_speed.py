"""How long an editor waits for its diagnostics after an edit: ``rules lsp``'s check of every bundled file.

    .venv/bin/python bench/check_speed.py              # every bundled variant, best of 3 each
    .venv/bin/python bench/check_speed.py superchess rocket --repeat 5

The language server checks a buffer :data:`interpreter.lsp.server.DEBOUNCE` seconds after the last
keystroke of a burst, with :func:`interpreter.lsp.diagnostics.check_text`: the text read, compiled
in every play mode, its board's notes and its lints (what ``rules check`` reports). This script
times that function in one process, as the server runs it: each file is opened once (its first
check), then edited twice over, each edit a new text that must be checked again:

- **title**: the variant's title changed (a new Spec: every mode compiled again, its pieces as before);
- **piece**: a piece added (a new kind for every army: its tables and the armies' attack tables
  built again).

As in the server, Python's cyclic garbage collector is off during the checks and runs between them
(:class:`interpreter.lsp.server.IdleCollector`), outside the times. The figure is the best of
``--repeat`` edits of each kind (wall seconds, a shared machine adds to single runs, never
subtracts); the summary gives the median and the slowest file, to which the server's debounce adds
its 0.1 s.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dsl.catalogue import bundled_names  # noqa: E402
from dsl.files import bundled_variant  # noqa: E402
from interpreter.lsp.diagnostics import check_text  # noqa: E402


def edits(text: str, n: int) -> dict[str, list[str]]:
    """``n`` texts of each kind of edit (see the module's docstring), all different."""
    titled = [text.replace('title "', f'title "Edited {i} ', 1) for i in range(n)] if 'title "' in text else []
    return {"title": titled,
            "piece": [text + f'\npiece Benchedit{i} {{ letter "+Y" move step orth }}\n' for i in range(n)]}


def best_time(texts: list[str], path: str) -> tuple[float, bool]:
    """The fastest check of ``texts`` (seconds), and whether the last of them had an error."""
    best, failed = float("inf"), False
    for text in texts:
        gc.collect()
        started = time.perf_counter()
        checked = check_text(text, path)
        best = min(best, time.perf_counter() - started)
        failed = any(d.severity == 1 for d in checked.diagnostics)
    return best, failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help="bundled variants to time (default: all)")
    parser.add_argument("--repeat", type=int, default=3, help="edits of each kind per file (default 3)")
    args = parser.parse_args()
    gc.disable()
    rows = []
    for name in args.variants or bundled_names():
        path = bundled_variant(name)
        if path is None:
            parser.error(f"no bundled variant {name!r}")
        text = path.read_text()
        started = time.perf_counter()
        check_text(text, str(path))
        opened = time.perf_counter() - started
        timed = {kind: best_time(texts, str(path)) for kind, texts in edits(text, args.repeat).items() if texts}
        rows.append((name, opened, timed))
    print(f"{'variant':<20} {'open':>8} {'title':>8} {'piece':>8}   milliseconds (best of {args.repeat} edits)")
    for name, opened, timed in sorted(rows, key=lambda r: -max(t for t, _ in r[2].values())):
        cells = [f"{timed[k][0] * 1000:8.0f}{'!' if timed[k][1] else ' '}" if k in timed else f"{'-':>9}"
                 for k in ("title", "piece")]
        print(f"{name:<20} {opened * 1000:8.0f} {''.join(cells)}")
    slowest = [max(t for t, _ in timed.values()) for _, _, timed in rows]
    print(f"\n{len(rows)} files: median {statistics.median(slowest) * 1000:.0f} ms, slowest "
          f"{max(slowest) * 1000:.0f} ms, over 200 ms: {sum(s > 0.2 for s in slowest)}  "
          "('!': the edited text has an error, found before compiling every mode)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
