"""The generated rule pages read as a rulebook: checks of the English of every bundled variant.

Over every page of ``docs/variants`` as the generator writes it (regenerated
in memory, one variant at a time, and shared with tests/test_docs_variants.py
through :mod:`variant_pages`): the main text, before "Technical details",
has no run of sentences, paragraphs or clauses of a sentence that open with the same words, no
drawing internals (coordinates, polygon corners, direction tables), no
grammar slip of the kinds the generator once made, no boilerplate that the
rules can make false, and nothing cited outside the repository. Each end
rule's sentence states the result that the engine gives for that rule, for
the side to move and, in team games, its partners.
"""

from __future__ import annotations

import re

import pytest

from dsl import bundled_names
from interpreter.documentation.english import English
from interpreter.documentation.phrases import RESULTS, TEAM_RESULTS
from interpreter.engine.outcome import material, outcome
from interpreter.loading import load_game, start_position
from variant_pages import PAGES, variant_pages

pytestmark = pytest.mark.xdist_group(PAGES)

INTERNALS = re.compile(r"drawn at x =|as polygons with the corners|\(file, rank\) steps|\bDrawing:|"
                       r"Direction families|Cell attribute `")
SLIPS = re.compile(r"\bevery cell are\b|\b(a|an|the|and|of|to) \1\b|\ba [aeiou]\w+ piece\b|\s[,.;]|,,|\.\.(?!\.)")
BOILERPLATE = re.compile(r"can be put in check and checkmated|GAMES\.md")
# Spec words a player should not meet before the technical details: a per-army zone by its name in the
# rules file ("its army's promote minor zone"), a mode's "turn order is Light and Dark", castling "in no
# way yet", "the setting `solo` is", "each of them may", a call or attribute the English does not know.
MACHINE = re.compile(r"its army's [\w ]+ zone|the turn order is|in no way yet|the setting `|each of them may|"
                     r"`\w+\([^`]*\)` (holds|does not hold)|it is not the case that|the cell's `\w+` attribute|"
                     r"From `\w+`, a cell of type `\w+`: `")


def _main_text(page: str) -> str:
    return page.split("\n## Technical details", 1)[0]


def _prose(page: str) -> list[str]:
    """The paragraphs of running text: no headings, lists, tables, figures or code."""
    blocks = [b.strip() for b in re.split(r"\n{2,}", re.sub(r"```.*?```", "", page, flags=re.S))]
    return [b for b in blocks if b and not b.startswith(("#", "- ", "|", "!["))]


def _opener(text: str) -> str:
    return " ".join(re.sub(r"`[^`]*`", "X", text).split()[:3]).lower()


@pytest.fixture(scope="module", params=bundled_names())
def page(request):
    return load_game(request.param), variant_pages(request.param)["index.md"]


def test_no_repeated_openers(page):
    game, text = page
    paragraphs = _prose(_main_text(text))
    for paragraph in paragraphs:
        sentences = re.split(r"(?<=[.:])\s+(?=[A-Z*])", paragraph)
        for a, b in zip(sentences, sentences[1:]):
            assert _opener(a) != _opener(b) or _opener(a).startswith("**"), \
                f"{game.name}: two sentences open alike: {a[:60]!r} / {b[:60]!r}"
        # A sentence may also start with a name in code ("`O-O` (short): ..."); for clauses, cut there too.
        for sentence_ in re.split(r"(?<=[.:])\s+(?=[A-Z*`])", paragraph):   # "... have no King left, the enemy ..."
            clauses = [" ".join(c.split()[:4]).lower() for c in re.split(r", ", sentence_)]
            for a, b in zip(clauses, clauses[1:]):
                assert a != b or len(a.split()) < 4, f"{game.name}: two clauses open alike ({a!r}): {sentence_[:120]!r}"
    blocks = [b.strip() for b in re.split(r"\n{2,}", _main_text(text))]
    for a, b in zip(blocks, blocks[1:]):
        if a in paragraphs and b in paragraphs and not a.startswith("**"):
            assert _opener(a) != _opener(b), f"{game.name}: two paragraphs open alike: {a[:60]!r} / {b[:60]!r}"


def test_no_drawing_internals_outside_the_technical_details(page):
    game, text = page
    found = INTERNALS.search(_main_text(text))
    assert found is None, f"{game.name}: {found.group()!r} before the technical details"
    assert "## Technical details" in text


def test_no_grammar_slips_nor_boilerplate(page):
    game, text = page
    for paragraph in _prose(text):
        slip = SLIPS.search(paragraph)
        assert slip is None, f"{game.name}: {slip.group()!r} in {paragraph[:120]!r}"
    found = BOILERPLATE.search(text)
    assert found is None, f"{game.name}: {found.group()!r}"


def test_no_spec_words_before_the_technical_details(page):
    game, text = page
    for paragraph in _prose(_main_text(text)):
        found = MACHINE.search(paragraph)
        assert found is None, f"{game.name}: {found.group()!r} in {paragraph[max(0, found.start() - 80):][:200]!r}"


def test_no_clause_said_twice_in_a_sentence(page):
    """A clause of five words or more (between commas, semicolons, "and" and "or") does not come
    twice in one sentence: "the side to move and its partners have nothing left but royal pieces
    and the enemy armies have nothing left but royal pieces" is said once for both sides, and a
    facing's direction in the pictures once for the setup, not after every pawn."""
    game, text = page
    for paragraph in _prose(_main_text(text)):
        for sentence_ in re.split(r"(?<=[.:])\s+(?=[A-Z*`])", paragraph):
            clauses = [" ".join(c.split()) for c in re.split(r",|;| and | or |\(|\)", sentence_.rstrip("."))]
            long_ = [c for c in clauses if len(c.split()) >= 5]
            twice = {c for c in long_ if long_.count(c) > 1}
            assert not twice, f"{game.name}: {sorted(twice)[0]!r} twice in {sentence_[:160]!r}"


def test_checkmate_is_named_only_where_the_rules_have_it(page):
    game, text = page
    rules = game.spec.rules
    mates = any("in_check" in repr(r.condition) and "legal_moves" in repr(r.condition) for r in rules.ends)
    removes = any(m.action == "remove-royal" for m in rules.no_moves)
    if "is checkmated" in _main_text(text):
        assert mates or removes, f"{game.name} says 'checkmated' without a rule for mate"


@pytest.mark.parametrize("name", bundled_names())
def test_each_end_rule_states_the_result_the_engine_gives(name):
    """Each compiled end rule is made to hold in the start position (its condition replaced by
    one that is always true), the engine's :func:`outcome` gives its winners, and the sentence
    of that rule must say the same: who wins, loses, a draw, or the highest score; partners named
    where they share."""
    game = load_game(name)
    english = English(game.spec)
    phrases = TEAM_RESULTS if game.spec.teams else RESULTS
    pos = start_position(game)
    army = pos.army
    rules = game.end_rules
    try:
        for rule, _, _ in rules:
            game.end_rules = [(rule, lambda ctx: True, True)]
            result = outcome(pos)
            text = english.render(rule)
            said = [r for r, phrase in phrases.items() if phrase in text]
            assert len(said) == 1, f"{name}: {text!r} states {said or 'no result'}"
            # "score": the armies with the highest score win; when every army has it (the start), nobody.
            scores = list(result.scores or ())
            leaders = {a for a, s in enumerate(scores) if s == max(scores)} if scores else set()
            totals = material(pos)    # "material": the armies with the most material win
            richest = {a for a, t in enumerate(totals) if t == max(totals)}
            expected = {"draw": set(), "win": {army, *game.partners[army]}, "loss": set(game.enemies[army]),
                        "score": leaders if len(leaders) < len(scores) else set(),
                        "material": richest if len(richest) < len(totals) else set()}
            assert set(result.winners) == expected[said[0]], \
                f"{name}: {text!r}, but the engine's winners are {result.winners}"
            if result.winners and (set(result.winners) & {army, *game.partners[army]}) and game.partners[army]:
                assert "partners" in text, f"{name}: partners share the result of {rule.name}: {text!r}"
    finally:
        game.end_rules = rules


def test_an_example_that_cannot_be_played_is_a_located_error(tmp_path, capsys):
    from interpreter.cli.main import main
    path = tmp_path / "bad.rules"
    path.write_text('extends chess\nexample castling "Too early." {\n  moves "e4 e5"  show "O-O"\n}\n',
                    encoding="utf-8")
    assert main(["doc", str(path), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "bad.rules:3:" in err and "example 'castling'" in err and "O-O" in err


def test_diagram_at_an_unknown_cell_is_a_located_error(tmp_path, capsys):
    from interpreter.cli.main import main
    path = tmp_path / "bad.rules"
    path.write_text("extends chess\npiece Knight {\n  letter N  betza \"N\"\n  diagram at b1, z9\n}\n", encoding="utf-8")
    assert main(["check", str(path)]) == 2
    assert "bad.rules:4:18: unknown cell 'z9'" in capsys.readouterr().err


def test_diagram_at_chooses_the_cell():
    from dsl import load_spec_text
    from interpreter.drawing.diagrams import movement_diagrams
    from interpreter.loading import compile_variant
    spec = load_spec_text('extends chess\npiece Knight {\n  letter N  value 3  betza "N"\n  diagram at b1\n}\n', "k.rules")
    game = compile_variant(spec)
    [diagram] = movement_diagrams(game, game.kind_index["Knight"])
    assert game.board.names[diagram.cell] == "b1" and len(diagram.marks) == 3
