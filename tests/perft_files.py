"""Read perft data files: one ``variant;fen;depth;nodes`` record per line.

Two directories hold them: ``tests/data/perft/`` (:data:`DATA_DIR`), verbatim
copies of shared/perft, and ``tests/perft/`` (:data:`OWN_DIR`), counts this
project computed for variants no published file covers (each file says how
they were checked).

Format (as in ``tests/data/perft/*.txt``, copied verbatim from shared/perft):

- blank lines are ignored;
- lines starting with ``#`` are comments; ``# id NAME [notes...]`` names the
  records that follow (until the next ``# id`` line);
- any other line is a record ``variant;fen;depth;nodes``. The FEN may be an
  EPD without move counters, or the word ``startpos`` (some Fairy-Stockfish
  files: the variant's start position).

Records without an ``# id`` line above them get the id ``<file stem>-l<line>``.
This module is plain Python (no pytest) so benchmarks and scripts can use it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data" / "perft"
OWN_DIR = Path(__file__).resolve().parent / "perft"


@dataclass(frozen=True)
class PerftRecord:
    variant: str
    fen: str
    depth: int
    nodes: int
    id: str
    path: Path
    line: int          # 1-based line number in ``path``
    note: str = ""     # the rest of the ``# id`` line, if any

    @property
    def castling(self) -> str:
        """The castling field of the FEN ('-' when absent)."""
        fields = self.fen.split()
        return fields[2] if len(fields) > 2 else "-"

    @property
    def where(self) -> str:
        return f"{self.path.name}:{self.line}"

    def __str__(self) -> str:  # for assertion messages
        return f"{self.id} depth {self.depth} ({self.where}): {self.variant};{self.fen}"


class PerftFormatError(ValueError):
    pass


def parse_perft_text(text: str, path: Path | str = "<string>") -> list[PerftRecord]:
    """The records of a perft file's text, in file order."""
    path = Path(path)
    records: list[PerftRecord] = []
    current_id: str | None = None
    note = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            body = line[1:].strip()
            if body == "id" or body.startswith("id "):
                parts = body[2:].strip().split(None, 1)
                if not parts:
                    raise PerftFormatError(f"{path}:{number}: '# id' without a name")
                current_id = parts[0]
                note = parts[1] if len(parts) > 1 else ""
            continue
        fields = line.split(";")
        if len(fields) != 4:
            raise PerftFormatError(f"{path}:{number}: expected 'variant;fen;depth;nodes', got {line!r}")
        variant, fen, depth, nodes = (f.strip() for f in fields)
        try:
            depth_n, nodes_n = int(depth), int(nodes)
        except ValueError:
            raise PerftFormatError(f"{path}:{number}: depth and nodes must be whole numbers: {line!r}") from None
        records.append(PerftRecord(variant, fen, depth_n, nodes_n, current_id or f"{path.stem}-l{number}",
                                   path, number, note))
    return records


def perft_file_paths() -> list[Path]:
    """Every perft file: those of :data:`DATA_DIR`, then those of :data:`OWN_DIR`, each sorted by name."""
    return sorted(DATA_DIR.glob("*.txt")) + sorted(OWN_DIR.glob("*.txt"))


def load_perft_file(name_or_path: str | Path) -> list[PerftRecord]:
    """The records of a file, given a path or a file name in :data:`DATA_DIR` or :data:`OWN_DIR`."""
    path = Path(name_or_path)
    if not path.is_absolute() and not path.exists():
        path = DATA_DIR / path if (DATA_DIR / path).exists() else OWN_DIR / path
    return parse_perft_text(path.read_text(encoding="utf-8"), path)


def load_perft_files(*names: str | Path) -> list[PerftRecord]:
    """The records of several files, concatenated in order."""
    return [r for name in names for r in load_perft_file(name)]
