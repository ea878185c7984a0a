"""Perft counts of Fairy-Stockfish, computed through ``pyffish`` by recursion over its legal moves.

pyffish has no perft of its own, so :func:`fsf_perft` counts the leaves of
the move tree with ``pyffish.legal_moves`` (a few milliseconds a call: depth
3 from a chess-like start takes seconds). ``tests/perft/fsf-computed.txt``
holds counts made this way for bundled variants that Fairy-Stockfish knows
but whose published perft files (``tests/data/perft``) have no line for
them, or no line from the middle of a game; ``test_differential.py``
recomputes the shallow ones on every run.

Variants that Fairy-Stockfish defines only in its variants.ini (not built
into pyffish) are known to pyffish once that file is loaded
(:func:`load_corpus`). The file is GPL data, read where it lies and never
copied here: :data:`FSF_CORPUS` is ``$FSF_VARIANTS_INI``, else
``../shared/fairy-stockfish/variants.ini`` beside the repository; tests that
need it skip with :data:`NO_CORPUS` when it is absent (CI has no copy).

Run as a script to print the lines for one variant (its start position and
positions from seeded random games of this interpreter); the corpus is
loaded first when pyffish does not know the variant::

    python tests/fsf_perft.py extinction 3
    python tests/fsf_perft.py orda 3
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

FSF_CORPUS = Path(os.environ.get("FSF_VARIANTS_INI")
                  or Path(__file__).resolve().parent.parent.parent / "shared" / "fairy-stockfish" / "variants.ini")
NO_CORPUS = f"Fairy-Stockfish's variants.ini not found at {FSF_CORPUS} (set FSF_VARIANTS_INI)"


def load_corpus(sf) -> bool:
    """Load Fairy-Stockfish's variants.ini (:data:`FSF_CORPUS`) into pyffish ``sf``, once per process;
    False when the file is absent (nothing is loaded then)."""
    if not FSF_CORPUS.is_file():
        return False
    if not getattr(load_corpus, "loaded", False):
        sf.load_variant_config(FSF_CORPUS.read_text(encoding="utf-8"))
        load_corpus.loaded = True  # type: ignore[attr-defined]
    return True


def fsf_perft(sf, variant: str, fen: str, depth: int, moves: tuple[str, ...] = ()) -> int:
    """The number of leaves ``depth`` plies below ``fen`` (after ``moves``) in Fairy-Stockfish's ``variant``."""
    legal = sf.legal_moves(variant, fen, list(moves))
    if depth == 1:
        return len(legal)
    return sum(fsf_perft(sf, variant, fen, depth - 1, moves + (m,)) for m in legal)


def fsf_end(sf, variant: str, start: str, path: list[str]) -> int | None:
    """Fairy-Stockfish's result in ``variant`` after ``path`` from ``start``, for the side to move
    (1 won, 0 drawn, -1 lost), or None when the game goes on: an optional end (a repetition it
    scores), an immediate one, or no legal move."""
    ended, value = sf.is_optional_game_end(variant, start, path)
    if not ended:
        ended, value = sf.is_immediate_game_end(variant, start, path)
    if not ended and not sf.legal_moves(variant, start, path):
        ended, value = True, sf.game_result(variant, start, path)
    return None if not ended else (value > 0) - (value < 0)


def fsf_fen(pos, walled: bool) -> str:
    """Our FEN of ``pos`` as Fairy-Stockfish reads it: when ``walled`` (its start FEN has ``*``),
    every cell the grid lacks is written as a wall ``*`` in its place
    (:func:`interpreter.interchange.fsf_export.walled_fen`); our FEN lists only the cells a rank has."""
    from interpreter.interchange.fsf_export import walled_fen
    from interpreter.notation.fen import to_fen

    return walled_fen(pos) if walled else to_fen(pos)


def sample_positions(name: str, plies: tuple[int, ...] = (16, 32), seed: int = 0,
                     walled: bool = False) -> list[str]:
    """FENs reached by this interpreter after ``plies`` random moves of one seeded game of ``name``
    (fewer if the game ends first); with ``walled`` set, as :func:`fsf_fen` writes them."""
    from interpreter.engine.outcome import outcome
    from interpreter.loading import load_game, start_position

    game = load_game(name)
    pos = start_position(game)
    rng = random.Random(f"{name}/perft/{seed}")
    found = []
    for ply in range(max(plies) + 1):
        if ply in plies:
            found.append(fsf_fen(pos, walled))
        if outcome(pos) is not None:
            break
        pos.push(rng.choice(pos.legal_moves()))
    return found


def main(argv: list[str]) -> None:
    import pyffish as sf

    name, depth = argv[0], int(argv[1])
    fsf = argv[2] if len(argv) > 2 else name
    if fsf not in sf.variants() and not load_corpus(sf):
        sys.exit(f"{fsf}: not a variant pyffish knows, and {NO_CORPUS}")
    start = sf.start_fen(fsf)
    for fen in [start, *sample_positions(name, walled="*" in start)]:
        for d in range(1, depth + 1):
            print(f"{name};{fen};{d};{fsf_perft(sf, fsf, fen, d)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
