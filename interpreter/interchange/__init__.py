"""Games in other programs' formats: Fairy-Stockfish's variants.ini written from a rules file and read into one.

- :mod:`.fsf_export`: ``rules export fsf`` -- a variant as a variants.ini
  section, or a refusal that lists the constructs Fairy-Stockfish cannot
  express.
- :mod:`.fsf_import`: ``rules import fsf`` -- variants.ini sections as
  ``.rules`` files, or a refusal that names the setting that has no
  counterpart; it reads the file with :mod:`.fsf_ini`, knows Fairy-Stockfish's
  settings from :mod:`.fsf_settings`, translates them in :mod:`.fsf_translate`
  and writes inherited Spec parts back with :mod:`.spec_text`.
"""
