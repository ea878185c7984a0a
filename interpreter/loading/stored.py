"""Compiled games kept on disk between runs: the second start of a variant reads it, not compiles it.

An entry is one file in the ``games`` folder of the user's cache directory
(:mod:`dsl.caching`: ``RULES_DSL_CACHE``, ``rules --no-cache``), named by a hash of
its key: what :func:`~interpreter.loading.games.load_game` keeps games in memory
by (the variant's file, play mode, mode options and file policy) and a stamp of
the code that compiled it (this format's number, the Python version, whether the
engine runs compiled, and the size and time of every source file of the
packages: an upgraded or edited interpreter never reads an old entry). The file
is :data:`MAGIC`, a hash of the rest, the length of a JSON header, the header
(the key, the files the variant was read from and a hash of their contents:
:func:`fingerprint`) and the pickled :class:`~interpreter.compiler.game.Game`,
whose closures are left out and made again when it is read
(``Game.__getstate__``).

An entry is served only when all of it checks: the magic, the hash of the rest
(a truncated or corrupt file is deleted), the key, and the hash of the sources
as they are now (an edited file, or a file it extends or includes, is compiled
afresh and its entry replaced). Entries are written to a temporary file beside
them and renamed into place (``os.replace``), so a reader sees a whole entry or
none, and two processes writing one entry at once leave one whole entry. Beyond
:data:`MAX_BYTES` in all, the entries used least recently are deleted.

Why pickle: a compiled game is a graph of many classes (the Spec's models,
dataclasses, tables of tuples and frozensets shared between attributes) that
pickle restores in a fraction of the time compiling takes, with no reader and
writer to keep for each class. Pickle runs code when read: the cache directory
is the user's own, as Python's ``__pycache__`` folders are (also code), and
:func:`dsl.caching.cache_dir` refuses one that others may write to. The hash
detects damage, not an attacker who can already write to the user's files.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sys
import tempfile
from pathlib import Path

from dsl.caching import cache_dir

from interpreter import native
from interpreter.compiler.game import Game

from .collection import collection_paused

FORMAT = 1                      # raise it when the layout of an entry changes
MAGIC = b"rules-dsl game\n"
MAX_BYTES = 128 * 1024 * 1024   # all entries together, at most
_HASH = 32                      # bytes of the blake2b hash of an entry's header and game
_LENGTH = 4                     # bytes of the header's length (big-endian)
_PACKAGES = ("dsl", "interpreter")


def fingerprint(sources: list[str]) -> str:
    """A hash of the contents of ``sources`` (a file that cannot be read hashes as missing)."""
    digest = hashlib.blake2b(digest_size=16)
    for name in sources:
        digest.update(name.encode())
        try:
            digest.update(Path(name).read_bytes())
        except OSError:
            digest.update(b"\0missing")
    return digest.hexdigest()


def read(key: str) -> tuple[str, Game] | None:
    """The stored game of ``key`` and the fingerprint of its sources, or None when there is none
    that can be served (caching off, no entry, a stale or damaged one: a damaged one is deleted)."""
    path = _entry(key)
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header = _checked(data, key)
    if header is None:
        _remove(path)
        return None
    if fingerprint(header["sources"]) != header["fingerprint"]:
        return None   # a source was edited: compiled afresh, and this entry replaced
    try:
        with collection_paused():
            game = pickle.loads(memoryview(data)[len(MAGIC) + _HASH + _LENGTH + header["length"]:])
    except Exception:   # noqa: BLE001 - whatever a damaged pickle raises, it is not served
        _remove(path)
        return None
    if not isinstance(game, Game):
        _remove(path)
        return None
    try:
        os.utime(path)   # recently used: evicted last
    except OSError:
        pass
    return header["fingerprint"], game


def write(key: str, sources_hash: str, game: Game) -> None:
    """Store ``game`` under ``key``, the fingerprint of its sources being ``sources_hash``; nothing is written
    when caching is off or the directory cannot be written, or when the game cannot be stored."""
    path = _entry(key)
    if path is None:
        return
    try:
        body = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return   # something compiled that cannot be kept: it is compiled in every run
    header = json.dumps({"key": key, "sources": game.spec.sources, "fingerprint": sources_hash}).encode()
    rest = len(header).to_bytes(_LENGTH, "big") + header + body
    digest = hashlib.blake2b(rest, digest_size=_HASH).digest()
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".writing-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(MAGIC + digest + rest)
            os.replace(temporary, path)
        except BaseException:
            _remove(Path(temporary))
            raise
        _evict(path.parent)
    except OSError:
        pass   # a full disk or a folder made read-only: the game is simply not kept


def _checked(data: bytes, key: str) -> dict | None:
    """The header of the entry ``data`` (its ``length`` added), or None when the entry is damaged
    (wrong magic, a hash that does not match: truncated or changed) or is another key's."""
    start = len(MAGIC) + _HASH + _LENGTH
    if len(data) < start or not data.startswith(MAGIC):
        return None
    digest = data[len(MAGIC):len(MAGIC) + _HASH]
    if hashlib.blake2b(memoryview(data)[len(MAGIC) + _HASH:], digest_size=_HASH).digest() != digest:
        return None
    length = int.from_bytes(data[start - _LENGTH:start], "big")
    try:
        header = json.loads(data[start:start + length])
    except ValueError:
        return None
    if not isinstance(header, dict) or header.get("key") != key:
        return None
    header["length"] = length
    return header


def _entry(key: str) -> Path | None:
    """The file of ``key``'s entry, or None when caching is off."""
    directory = cache_dir()
    if directory is None:
        return None
    name = hashlib.blake2b(f"{_code_stamp()}\0{key}".encode(), digest_size=20).hexdigest()
    return directory / "games" / f"{name}.game"


_stamp: str | None = None


def _code_stamp() -> str:
    """What the stored games depend on besides their sources: this format, the Python version,
    whether the engine runs compiled, and the name, size and time of every file of the packages."""
    global _stamp
    if _stamp is None:
        digest = hashlib.blake2b(digest_size=16)
        digest.update(f"{FORMAT} {sys.implementation.cache_tag} {native.compiled}".encode())
        for package in _PACKAGES:
            root = Path(sys.modules[package].__file__ or "").parent
            for folder, folders, files in os.walk(root):
                folders[:] = sorted(f for f in folders if f != "__pycache__")
                for name in sorted(files):
                    if name.endswith((".py", ".so", ".pyd", ".lark")):
                        status = os.stat(os.path.join(folder, name))
                        digest.update(f"{folder}/{name} {status.st_size} {status.st_mtime_ns}\n".encode())
        _stamp = digest.hexdigest()
    return _stamp


def _evict(folder: Path) -> None:
    """Delete the least recently used files of ``folder`` while they take more than :data:`MAX_BYTES`."""
    entries = []
    for entry in os.scandir(folder):
        try:
            status = entry.stat()
        except OSError:
            continue   # deleted meanwhile by another process
        entries.append((status.st_mtime_ns, status.st_size, entry.path))
    total = sum(size for _, size, _ in entries)
    for _, size, name in sorted(entries):
        if total <= MAX_BYTES:
            break
        _remove(Path(name))
        total -= size


def _remove(path: Path) -> None:
    """Delete ``path`` if it is there (another process may have deleted or replaced it)."""
    try:
        path.unlink()
    except OSError:
        pass
