"""One top-level declaration of a rules file, as the transformer gives it to the resolver.

:class:`Decl` is what :class:`dsl.transformer.ToDecls` makes of each top-level
declaration (in file order); :mod:`dsl.loader` merges them into a
:class:`~dsl.spec.VariantSpec`. The two source helpers read a node's own source text;
:func:`set_options` fills a Spec node from its ``(key, value)`` options.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import Loc


@dataclass
class Decl:
    """One top-level declaration: its ``kind`` (the keyword), payload and location."""

    kind: str
    value: Any
    loc: Loc
    extra: dict = field(default_factory=dict)


def source_text(text: str, meta) -> str:
    """The source of a parse-tree node (``meta`` from lark's ``v_args(meta=True)``), as written."""
    return text[meta.start_pos:meta.end_pos]


def source_word(text: str, meta) -> str:
    """The first word of a node's source (the keyword that opens it)."""
    return source_text(text, meta).split()[0]


def set_options(node: Any, options: list[tuple[str, Any]], lists: tuple[str, ...] = ()) -> Any:
    """Set each ``(key, value)`` option on a Spec node, as the transformer's option rules give
    them; a key in ``lists`` names a list field, and each value is appended to it (an option that
    may be written several times, such as ``using`` or ``not in``). Returns ``node``."""
    for key, value in options:
        if key in lists:
            getattr(node, key).append(value)
        else:
            setattr(node, key, value)
    return node
