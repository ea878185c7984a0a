"""Self-play analysis of a variant for its designer: ``rules analyze`` (issue 18).

Games between agents (:mod:`interpreter.agents.matches`) are played in a
process pool or on a Dask cluster (:mod:`.execution`); every finished game
is one line of ``results.jsonl`` (:mod:`.logs`, :mod:`.results`); the
metrics (:mod:`.metrics`, after Ludii's: balance, completion, drawishness,
first-seat advantage, duration, branching factor, decision moves, board
coverage, lead change, decisiveness, how games end), with their 95%
intervals (:mod:`.intervals`), and the report with its figures
(:mod:`.report`, :mod:`.figures`) are computed from that file alone.
:func:`.runs.analyze` does it all; :mod:`.command` is the CLI.

``rules tune`` (:mod:`.tune_command`, :mod:`.tuning`) keeps its self-play
games in such a run too, and fits the evaluation's weights to their quiet
positions (:mod:`.samples`), labelled by their games' results or by a
teacher's scores (:mod:`.teacher`).
"""
