"""``rules lsp``: start the language server on standard input and output."""

from __future__ import annotations

from dsl.errors import UsageError


def cmd_lsp(args) -> int:
    """Serve until the client sends ``exit``; without the ``lsp`` extra, say how to install it."""
    try:
        from .server import server
    except ModuleNotFoundError as err:
        if err.name not in ("pygls", "lsprotocol"):
            raise
        raise UsageError("'rules lsp' needs pygls, which is not installed",
                         hint="pip install 'rules-dsl[lsp]'") from None
    server.serve()
    return 0
