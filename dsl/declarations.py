"""One top-level declaration of a rules file, as the transformer gives it to the resolver.

:class:`Decl` is what :class:`dsl.transformer.ToDecls` makes of each top-level
declaration (in file order); :mod:`dsl.loader` merges them into a
:class:`~dsl.spec.VariantSpec`. The two helpers read a node's own source text.
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
