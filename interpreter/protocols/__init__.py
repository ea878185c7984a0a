"""The engine over the protocols chess GUIs and match tools speak: UCI and XBoard (CECP v2).

- :mod:`.uci`: ``rules uci``, with Fairy-Stockfish's ``UCI_Variant`` and
  ``VariantPath`` conventions;
- :mod:`.xboard`: ``rules xboard``, with H.G. Muller's ``setup`` and
  ``piece`` commands for variants XBoard does not know (:mod:`.cecp`);
- :mod:`.variants`: which variants they carry and what they call them,
  read without compiling anything (:mod:`.games` decides it from the
  compiled games and writes the table);
- :mod:`.notation`: moves as each protocol writes them;
- :mod:`.session`: the game both protocols keep and the agent's searches;
- :mod:`.loop`: commands in, answers out, a search beside them.

Importing this package, :mod:`.uci`, :mod:`.xboard`, :mod:`.variants` or
:mod:`.loop` loads neither the compiler nor an agent: the handshake of a
GUI is answered before anything is compiled. See docs/engines.md.
"""
