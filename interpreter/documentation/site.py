"""The documentation site's navigation of the variants, grouped by family.

Each bundled variant says its ``family`` in its ``variant`` block; the
site (``mkdocs.yml``, through ``docs/hooks.py``) lists the variant pages
under one heading per family, so that a new variant appears in the
navigation without editing the site's configuration. The order of the
families is :data:`FAMILY_ORDER` (the site's and the variant chooser of
``rules serve``); families it does not name follow in alphabetical order,
and variants without a family come last, under "Other".
"""

from __future__ import annotations

from dsl import bundled_names, load_spec

OTHER = "Other"
FAMILY_ORDER = ("Seed games", "Orthodox chess", "Other pieces", "Other boards", "Other aims", "Drops",
                "Historical and regional")
"""The families listed first, in this order: the project's own games, then from the most to the least familiar."""


def families(order: tuple[str, ...] = FAMILY_ORDER, names: list[str] | None = None) -> list[tuple[str, list[tuple[str, str]]]]:
    """``(family, [(title, name), ...])`` for the bundled variants (or ``names``): the families named
    in ``order`` first, in that order, then the others alphabetically, then "Other"; variants by title
    within a family."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in sorted(names if names is not None else bundled_names()):
        spec = load_spec(name)
        groups.setdefault(spec.family or OTHER, []).append((spec.title, name))
    rank = {family: i for i, family in enumerate(order)}
    ordered = sorted(groups, key=lambda f: (rank.get(f, len(rank)), f == OTHER, f))
    return [(family, sorted(groups[family])) for family in ordered]


def variants_nav(order: tuple[str, ...] = FAMILY_ORDER, folder: str = "variants") -> list:
    """The mkdocs ``nav`` entry of the variants: the index page, then one section per family."""
    return [f"{folder}/index.md"] + [{family: [{title: f"{folder}/{name}/index.md"} for title, name in members]}
                                     for family, members in families(order)]
