"""The names a variant declares, and the outline of a buffer (its document symbols).

:func:`declared` lists the pieces, zones, armies, end rules and direction families of a Spec,
inherited ones included, each with where it is declared; completion and go-to-definition read it
too. The outline shows those declared in the buffer's own file only.
"""

from __future__ import annotations

from dataclasses import dataclass

from dsl import spec as S
from dsl.errors import Loc
from lsprotocol import types as T

from .places import range_of

SYMBOL_KINDS = {"piece": T.SymbolKind.Class, "zone": T.SymbolKind.Namespace, "army": T.SymbolKind.Struct,
                "end rule": T.SymbolKind.Event, "directions": T.SymbolKind.Enum}


@dataclass(frozen=True)
class Declared:
    """A declared name: what it names (a key of :data:`SYMBOL_KINDS`), where, and a short detail."""

    name: str
    kind: str
    loc: Loc | None
    detail: str


def declared(spec: S.VariantSpec) -> list[Declared]:
    """Every name ``spec`` declares, in the order of its kinds above and, within a kind, of the Spec."""
    names = [Declared(p.name, "piece", p.loc, f"piece, letter {p.letter or p.name[0].upper()}")
             for p in spec.pieces.values()]
    names += [Declared(z.name, "zone", z.loc, "zone" + (" (per army)" if z.per_army else ""))
              for z in spec.board.zones.values()]
    names += [Declared(a.name, "army", a.loc, f"army {a.title}") for a in spec.armies]
    names += [Declared(r.name, "end rule", r.loc, f"end rule: {r.result}") for r in spec.rules.ends]
    names += [Declared(f.name, "directions", f.loc, "direction family") for f in spec.board.directions]
    return names


def document_symbols(spec: S.VariantSpec, path: str) -> list[T.DocumentSymbol]:
    """The outline of the file ``path``: what it declares itself, in the order of :func:`declared`."""
    return [T.DocumentSymbol(name=d.name, kind=SYMBOL_KINDS[d.kind], range=range_of(d.loc),
                             selection_range=range_of(d.loc), detail=d.detail)
            for d in declared(spec) if d.loc is not None and d.loc.path == path]
