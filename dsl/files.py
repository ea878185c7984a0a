"""Which files a rules file may make the loader read, and reading them safely.

Rules text may come from anyone, and ``extends`` and ``include`` name files,
so the loader reads only what a :class:`FilePolicy` allows:

- always the bundled variants (``extends chess``) and the standard library
  (``include orthodox``), by name or by a path that leads into their
  directories;
- with ``local`` (the default), files inside the directory of the file being
  loaded (the one given to :func:`~dsl.loader.load_spec`, or the ``path`` of
  :func:`~dsl.loader.load_spec_text`), subdirectories included;
- files inside the ``directories`` the user names (subdirectories included).

A path is checked after symbolic links and ``..`` are resolved, and before
anything is opened, so a refused file is never read: the error
(:class:`~dsl.errors.FileRefused`) names the path only. Text without a
local directory (rules uploaded to a server, :data:`BUNDLED_ONLY`) may name
bundled files only. Every file read must be a regular file of at most
:data:`~dsl.limits.FILE_BYTES` bytes of UTF-8 text; anything else (a
device, a directory, ``/proc/self/mem``, a name too long for the system) is
a clean error, never an ``OSError``.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from . import limits as L
from .errors import FileRefused, Loc, RulesError, VariantNotFound, clip, suggest
from .catalogue import RULES_SUFFIX, bundled_aliases, bundled_dir, bundled_names, std_dir

def library_names() -> list[str]:
    """The names of the standard library files, sorted."""
    return sorted(p.stem for p in std_dir().glob(f"*{RULES_SUFFIX}"))


@dataclass(frozen=True)
class FilePolicy:
    """Where ``extends`` and ``include`` may read files from (see the module docstring).

    ``directories``: directories the user names; ``local``: whether the
    directory of the file being loaded is allowed too, and whether a path
    may name the variant itself (the caller named that file). The bundled
    files are always allowed.
    """

    directories: tuple[str | Path, ...] = ()
    local: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "directories", tuple(self.directories))  # any sequence; kept hashable

    def roots(self, top: Path | None) -> tuple[Path, ...]:
        """The allowed directories, resolved: bundled ones, the user's, and ``top``'s directory
        when ``local`` (``top`` None: the text has no directory)."""
        roots = [*bundled_roots(), *(Path(d) for d in self.directories)]
        if self.local and top is not None:
            roots.append(top.parent)
        return tuple(dict.fromkeys(Path(os.path.realpath(r)) for r in roots))


def bundled_roots() -> tuple[Path, Path]:
    """The directories of the bundled variants and of the standard library, resolved."""
    return Path(os.path.realpath(bundled_dir())), Path(os.path.realpath(std_dir()))


BUNDLED_ONLY = FilePolicy(local=False)
"""The policy for text that has no directory of its own: only bundled files may be named."""


def _plain_name(ref: str) -> bool:
    """Whether ``ref`` can be a bundled name: a short word, not a path."""
    return 0 < len(ref) <= L.NAME_CHARS.value and not any(c in ref for c in "/\\\0") and ref not in (".", "..")


def bundled_variant(ref: str) -> Path | None:
    """The file of the bundled variant named ``ref`` (a name or an alias), or None."""
    if not _plain_name(ref):
        return None
    path = bundled_dir() / f"{ref}{RULES_SUFFIX}"
    if path.is_file():
        return path
    name = bundled_aliases().get(ref)
    return bundled_dir() / f"{name}{RULES_SUFFIX}" if name else None


def unknown_variant(ref: str, loc: Loc | None) -> VariantNotFound:
    """The error for a variant name that is neither bundled nor an alias."""
    names = bundled_names()
    guess = suggest(ref, names + list(bundled_aliases()))
    return VariantNotFound(
        f"unknown variant '{clip(ref)}'", loc,
        expected=f"a bundled variant ({', '.join(names)}) or a path to a .rules file",
        hint=f"did you mean '{guess}'?" if guess else "run 'rules list' to see the bundled variants",
    )


def library(ref: str, loc: Loc | None) -> Path:
    """The standard library file named ``ref`` (``include orthodox``)."""
    path = std_dir() / f"{ref}{RULES_SUFFIX}"
    if _plain_name(ref) and path.is_file():
        return path
    names = library_names()
    guess = suggest(ref, names)
    raise VariantNotFound(
        f"unknown library '{clip(ref)}'", loc,
        expected=f"a standard library ({', '.join(names)}) or a path to a .rules file in quotes",
        hint=f"did you mean '{guess}'?" if guess else None,
    )


def allowed_path(ref: str, base: Path | None, roots: tuple[Path, ...], loc: Loc | None) -> Path:
    """The file a quoted path ``ref`` names, relative to ``base`` (the directory of the file
    naming it), if it lies inside one of ``roots``; else :class:`FileRefused`.

    Only the path is looked at (nothing is opened), after ``..`` and symbolic
    links are resolved. ``base`` None (text without a directory) allows
    absolute paths into ``roots`` only.
    """
    L.PATH_CHARS.check(len(ref), loc, "this path")
    if "\0" in ref or not ref:
        raise FileRefused(f"'{clip(ref)}' is not a path", loc, expected="a path to a .rules file")
    candidate = Path(ref)
    if not candidate.is_absolute():
        if base is None:
            raise _refused(ref, roots, loc, "this text has no directory of its own")
        candidate = base / candidate
    try:
        real = Path(os.path.realpath(candidate))
    except (OSError, ValueError):
        raise _refused(ref, roots, loc, "the path cannot be resolved") from None
    if not any(real == root or real.is_relative_to(root) for root in roots):
        raise _refused(ref, roots, loc, "it lies outside the directories rules files may be read from")
    return real


def _refused(ref: str, roots: tuple[Path, ...], loc: Loc | None, why: str) -> FileRefused:
    local = [str(r) for r in roots if r not in bundled_roots()]
    where = "the bundled variants and libraries" + (f", or files inside {', '.join(local)}" if local else "")
    return FileRefused(
        f"the file '{clip(ref)}' may not be read: {why}", loc,
        expected=f"a bundled name (extends chess, include orthodox) or a path to {where}",
        hint="name more directories to read from: --include-dir DIR (FilePolicy(directories=...) in Python)" if local
        else "rules text without a directory may name bundled variants and libraries only",
    )


def read_text(path: Path, label: str, loc: Loc | None = None, ref: str | None = None) -> str:
    """The UTF-8 text of the regular file ``path`` (``label`` names it in errors, ``ref`` is how
    the file that names it wrote it).

    Refuses, with a clean error and without showing any content: what is not
    a regular file (devices, directories, pipes), files larger than
    :data:`~dsl.limits.FILE_BYTES`, text that is not UTF-8 (located at the
    first bad byte), and files the system cannot read (``/proc/self/mem``,
    names too long). A leading byte-order mark is dropped.
    """
    shown = clip(ref if ref is not None else label)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise VariantNotFound(f"no rules file '{shown}'", loc, expected="a path to an existing .rules file") from None
    except (OSError, ValueError) as err:
        raise _unreadable(shown, loc, err) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            what = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise RulesError(f"'{shown}' is {what}", loc, expected="a path to a .rules file")
        L.FILE_BYTES.check(info.st_size, loc, f"the file '{shown}'")
        chunks, size = [], 0
        while size <= L.FILE_BYTES.value:
            chunk = os.read(fd, L.FILE_BYTES.value + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as err:
        raise _unreadable(shown, loc, err) from None
    finally:
        os.close(fd)
    L.FILE_BYTES.check(size, loc, f"the file '{shown}'")
    data = b"".join(chunks)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise RulesError(f"'{shown}' is not UTF-8 text (byte 0x{data[err.start]:02x} at line {line}, "
                         f"byte {column} of the line)", loc or Loc(label, line, column),
                         expected="a rules file saved as UTF-8 text") from None
    return text[1:] if text.startswith("\ufeff") else text


def _unreadable(shown: str, loc: Loc | None, err: Exception) -> RulesError:
    reason = err.strerror if isinstance(err, OSError) and err.strerror else "not a valid path"
    return RulesError(f"cannot read '{shown}': {reason.lower()}", loc, expected="a readable .rules file")
