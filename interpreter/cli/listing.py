"""``rules list``: the bundled variants with their titles and aliases, without parsing a file."""

from __future__ import annotations

from dsl.catalogue import bundled_headers


def cmd_list(args) -> int:
    """List the bundled variants with their titles."""
    for header in bundled_headers():
        aliases = f" (also: {', '.join(header.aliases)})" if header.aliases else ""
        print(f"{header.name:<16} {header.title or header.name}{aliases}")
    return 0
