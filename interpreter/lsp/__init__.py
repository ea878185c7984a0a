"""``rules lsp``: a language server for ``.rules`` files over standard input and output.

The server (:mod:`.server`, built on pygls, the ``lsp`` extra) keeps the editor's buffers and
answers from them, not from the disk; one module per job: :mod:`.diagnostics` (what ``rules
check`` reports), :mod:`.completion`, :mod:`.hover`, :mod:`.definitions` and :mod:`.symbols`,
with :mod:`.places` turning source locations into the protocol's ranges. See docs/editors.md.
"""
