"""Compile Spec expressions into closures over a context object.

Expressions are data (a tree of :mod:`dsl.spec` nodes), never Python
source: compiling checks every name against the documented vocabulary and
returns a plain function ``f(ctx) -> value``. The context is any object
with the attributes named in ``names`` (see :class:`~interpreter.engine.outcome.EndContext`)
and, for calls, methods of the same name.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

from dsl import spec as S
from dsl.errors import RulesSemanticError, suggest, unknown_name

Compiled = Callable[[Any], Any]

# The comparisons of the language, by operator (also read by the stacking and end rules' compilers).
COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
           ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}


def compile_expr(expr: S.Expr, names: dict[str, str], calls: dict[str, str],
                 symbols: dict[str, Any] | None = None,
                 lookup: Callable[[Any, str], Any] = getattr) -> Compiled:
    """Compile ``expr``.

    ``names``: the bare names it may use (name -> description); ``calls``:
    the functions it may call (name -> description); ``symbols``: names
    that stand for constants (piece names, zone names ...), usable as call
    arguments. ``lookup(ctx, name)`` reads a name's value (default: an
    attribute of the context, for contexts whose attributes are the
    vocabulary). An unknown name is a :class:`RulesSemanticError` at its
    location with a suggestion.

    End rules are evaluated at every node of a search, so the closures are
    kept shallow: an attribute is read by :func:`operator.attrgetter`, a
    constant operand of a comparison is not a call, and ``and``/``or``
    evaluate their operands in order, stopping at the first that decides,
    and give a bool.
    """
    symbols = symbols or {}

    def build(node: S.Expr) -> Compiled:
        if isinstance(node, S.Num):
            value = node.value
            return lambda ctx: value
        if isinstance(node, S.Str):
            text = node.value
            return lambda ctx: text
        if isinstance(node, S.Ref):
            name = ".".join(node.path)
            if name in names:
                attr = name.replace(".", "_")
                if lookup is getattr:
                    return operator.attrgetter(attr)
                return lambda ctx: lookup(ctx, attr)
            if name in symbols:
                value = symbols[name]
                return lambda ctx: value
            raise unknown_name("name", name, list(names) + list(symbols), node.loc)
        if isinstance(node, S.Call):
            if node.name not in calls:
                raise unknown_call(node.name, calls, node.loc)
            args = [build(a) for a in node.args]
            method = node.name
            return lambda ctx: getattr(ctx, method)(*[a(ctx) for a in args])
        if isinstance(node, S.Not):
            inner = build(node.operand)
            return lambda ctx: not inner(ctx)
        if isinstance(node, S.BoolOp):
            return _bool_op(node.op == "and", [build(o) for o in node.operands])
        if isinstance(node, S.Compare):
            left, right, op = build(node.left), build(node.right), COMPARE[node.op]
            if isinstance(node.right, (S.Num, S.Str)):
                constant = node.right.value
                return lambda ctx: op(left(ctx), constant)
            return lambda ctx: op(left(ctx), right(ctx))
        if isinstance(node, S.Arith):
            left, right, op = build(node.left), build(node.right), _ARITH[node.op]
            if node.op in ("//", "%"):
                def divide(ctx, left=left, right=right, op=op):
                    divisor = right(ctx)
                    return op(left(ctx), divisor) if divisor else 0
                return divide
            return lambda ctx: op(left(ctx), right(ctx))
        if isinstance(node, S.Neg):
            inner = build(node.operand)
            return lambda ctx: -inner(ctx)
        raise RulesSemanticError(f"unsupported expression {type(node).__name__}", getattr(node, "loc", None))

    return build(expr)


def unknown_call(name: str, calls: dict[str, str], loc) -> RulesSemanticError:
    """The error for a call of an undeclared function: every function of the context with its
    arguments, and as the hint the closest one (by spelling, else by the words of ``name`` found in
    what a function does) with what it does, so that a designer who guessed a name learns the
    construct for the intent (``piece_in(...)`` in an end rule points at the functions on zones).

    ``calls``: name -> description; a description that starts with ``name(`` gives the arguments.
    """
    signatures = [d.split(":", 1)[0] if d.startswith(n + "(") else n for n, d in calls.items()]
    guess = suggest(name, calls)
    if guess is None:
        words = {w for w in name.lower().split("_") if w}
        overlap = {n: len(words & set(d.split(":", 1)[-1].lower().split())) for n, d in calls.items()}
        best = max(overlap, key=overlap.__getitem__, default=None)
        guess = best if best is not None and overlap[best] else None
    return RulesSemanticError(
        f"unknown function '{name}'", loc,
        expected=f"one of the functions here: {', '.join(signatures)}" if calls else "no function (none is usable here)",
        hint=f"did you mean '{guess}'? {calls[guess]}" if guess else None,
    )


def _bool_op(conjunction: bool, parts: list[Compiled]) -> Compiled:
    """``and`` (``conjunction``) or ``or`` of ``parts``, as a bool: the first operand that decides
    ends the evaluation."""
    if len(parts) == 2:
        first, second = parts
        if conjunction:
            return lambda ctx: bool(first(ctx) and second(ctx))
        return lambda ctx: bool(first(ctx) or second(ctx))
    if conjunction:
        return lambda ctx: all(p(ctx) for p in parts)
    return lambda ctx: any(p(ctx) for p in parts)


def compile_cell_formula(expr: S.Expr, properties, what: str = "cell formula") -> Callable[[dict], Any]:
    """Compile a formula over a cell's properties (``where``, ``position``).

    ``properties``: the names a cell may have at this point (``file``,
    ``rank``, ``colour`` and the attributes set so far). Returns a function
    of the cell's property dict. Values of mismatched types (a string in
    arithmetic, a string compared with ``<`` to a number) are a
    :class:`RulesSemanticError` at the formula, naming the cell.
    """
    names = {p: "cell property" for p in properties}
    # A property is read from the dict, never as an attribute: a file may name one __class__.
    formula = compile_expr(expr, names, {}, lookup=lambda props, name: props.get(name, ""))
    loc = getattr(expr, "loc", None)

    def evaluate(props: dict) -> Any:
        try:
            return formula(props)
        except TypeError:
            cell = props.get("name") or f"file {props.get('file')} rank {props.get('rank')}"
            raise RulesSemanticError(f"this {what} mixes text and numbers on cell {cell}", loc,
                                     expected="numbers in arithmetic and in <, <=, >, >=") from None
    return evaluate
