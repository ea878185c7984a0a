"""The language's string literals: ``"..."`` with backslash escapes, or ``\"\"\"...\"\"\"`` over several lines."""

from __future__ import annotations


def unquote(token: str) -> str:
    """The text of a STRING token: a triple-quoted string stripped of surrounding white space, a
    quoted one with ``\\"``, ``\\\\`` and ``\\n`` unescaped."""
    if token.startswith('"""'):
        return token[3:-3].strip()
    body = token[1:-1]
    return body.replace('\\"', '"').replace("\\\\", "\\").replace("\\n", "\n")
