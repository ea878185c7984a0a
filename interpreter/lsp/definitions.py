"""Go to definition: from a name to where the variant declares it, in whichever file that is.

A piece, zone, army, end rule or direction family is found in the Spec, whose locations name the
file each declaration was read from: the buffer's own, a file it ``extends`` or ``include``s, the
standard library (dsl/std) or a bundled variant. The name after ``extends`` or ``include`` goes to
the file it names. A later declaration of a name replaces an earlier one, so the Spec's is the
one in force.
"""

from __future__ import annotations

import re
from pathlib import Path

from dsl import spec as S
from lsprotocol import types as T

from .places import range_of, uri_of, word_at
from .symbols import declared

FILE_LINE = re.compile(r"^\s*(?:extends|include)\s+\"?([^\s\"]+)")


def definition(spec: S.VariantSpec, text: str, offset: int) -> T.Location | None:
    """Where the name at ``offset`` in ``text`` is declared, or None (not a declared name)."""
    line_start = text.rfind("\n", 0, offset) + 1
    named = FILE_LINE.match(text, line_start)
    if named and named.start(1) <= offset <= named.end(1):
        ref = named.group(1)
        for source in spec.sources[1:]:
            if Path(source).stem == Path(ref).stem:
                return T.Location(uri_of(source), T.Range(T.Position(0, 0), T.Position(0, 0)))
        return None
    word = word_at(text, offset)
    if word is None:
        return None
    for name in declared(spec):
        if name.name == word[0] and name.loc is not None and not name.loc.path.startswith("<"):
            return T.Location(uri_of(name.loc.path), range_of(name.loc))
    return None
