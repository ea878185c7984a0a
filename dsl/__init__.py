"""The .rules language: grammar, Spec models, loading and errors.

Typical use::

    from dsl import load_spec
    spec = load_spec("chess")        # a bundled name, an alias or a path
    spec.pieces["Knight"].moves

Compiling and running a Spec is the job of the ``interpreter`` package.
"""

from .errors import (
    IllegalMoveError, Loc, MoveError, PositionError, RulesError, RulesSemanticError,
    RulesSyntaxError, UnsupportedError, UsageError, VariantNotFound,
)
from .loader import bundled_names, find_variant, load_spec, load_spec_text
from .parser import parse_text
from .spec import VariantSpec

__all__ = [
    "IllegalMoveError", "Loc", "MoveError", "PositionError", "RulesError", "RulesSemanticError",
    "RulesSyntaxError", "UnsupportedError", "UsageError", "VariantNotFound", "VariantSpec",
    "bundled_names", "find_variant", "load_spec", "load_spec_text", "parse_text",
]
