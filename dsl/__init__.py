"""The .rules language: grammar, Spec models, loading and errors.

Typical use::

    from dsl import load_spec
    spec = load_spec("chess")        # a bundled name, an alias or a path
    spec.pieces["Knight"].moves

Compiling and running a Spec is the job of the ``interpreter`` package.

The errors are imported at once; the loader, the parser and the Spec models
(which need lark and pydantic) only when one of their names is first used,
so that a program that only reports errors or lists names starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import (
    IllegalMoveError, Loc, MoveError, PositionError, RulesError, RulesSemanticError,
    RulesSyntaxError, UnsupportedError, UsageError, VariantNotFound,
)

if TYPE_CHECKING:
    from .catalogue import bundled_names
    from .loader import find_variant, load_spec, load_spec_text
    from .parser import parse_text
    from .spec import VariantSpec

_LAZY = {
    "bundled_names": "catalogue", "find_variant": "loader", "load_spec": "loader", "load_spec_text": "loader",
    "parse_text": "parser", "VariantSpec": "spec",
}

__all__ = [
    "IllegalMoveError", "Loc", "MoveError", "PositionError", "RulesError", "RulesSemanticError",
    "RulesSyntaxError", "UnsupportedError", "UsageError", "VariantNotFound", "VariantSpec",
    "bundled_names", "find_variant", "load_spec", "load_spec_text", "parse_text",
]


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'dsl' has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
