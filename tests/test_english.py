"""Every construct of the Spec has an English rendering, and it says something.

The tests walk the pydantic models of :mod:`dsl.spec` rather than a list
kept by hand, so a new model, a new literal value or a new field fails
here until :mod:`interpreter.documentation.english` renders it:

- every model renders a sample of itself to non-empty text without
  placeholder text (TODO, ???, ``<``, ``None``, braces);
- every value of every ``Literal`` field renders, and different values
  read differently;
- every field changes the text when it changes (a field the English
  ignores is a rule the documentation forgets), except the few listed in
  ``NOT_RENDERED`` with the reason;
- the vocabulary of conditions (the names and calls the interpreter
  evaluates) and the stacking outcomes of the grammar all have English.

A snapshot of the English of chess (``tests/golden/english-chess.txt``)
shows the whole text; set ``UPDATE_GOLDEN=1`` to rewrite it after a
deliberate change, and read the diff.
"""

from __future__ import annotations

import inspect
import os
import re
import types
from pathlib import Path
from typing import Annotated, Literal, Union, get_args, get_origin

import pytest

from dsl import load_spec
from dsl import spec as S
from interpreter.compiler import end_rules
from interpreter.documentation.english import English
from interpreter.documentation.phrases import OUTCOMES

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "english-chess.txt"  # and english-NAME.txt beside it
PLACEHOLDER = re.compile(r"TODO|FIXME|\?\?\?|<|>|\bNone\b|[{}]|\bnan\b")

MODELS = sorted({cls for cls in vars(S).values()
                 if inspect.isclass(cls) and issubclass(cls, S.Node) and cls is not S.Node}, key=lambda c: c.__name__)
for _model in MODELS:   # built on first use (defer_build): built here, their fields' types are resolved
    _model.model_rebuild()

NOT_RENDERED = {
    ("VariantSpec", "name"): "the name on the command line; the title is shown instead",
    ("VariantSpec", "path"): "where the file was loaded from, not part of the game",
    ("VariantSpec", "sources"): "the files read to load it, not part of the game",
    ("VariantSpec", "inherited_via"): "where errors in inherited declarations are reported, not part of the game",
    ("ArmySpec", "name"): "the army's name in the file; its title is shown instead",
    ("InsufficientRule", "name"): "a handle for 'forget'; the signatures are shown instead",
    ("VariantSpec", "examples"): "played and drawn as figures on the page (an inherited one only where it is legal)",
    ("ExampleSpec", "name"): "a handle for inheriting and replacing an example; its caption is shown instead",
    ("PieceSpec", "diagram_cells"): "where the documentation's figures show the piece: the figures say it",
    ("PieceSpec", "glyph"): "the piece's face: its picture on the page shows it",
    ("PieceSpec", "army_glyphs"): "an army's face of the piece: its picture on the page shows it",
}

# Sample values by field name, where the name says more than the type.
NAMED = {
    "army": "white", "piece": "Knight", "letter": "N", "text": "W", "first": "KN", "second": "K",
    "fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "outcome": "capture", "title": "Special title", "notation": "O-O",
    "king_to_file": "g", "rook_to_file": "f", "side": "e", "king": "King", "rook": "Rook",
    "no_file_twin": "Pawn", "commits": "facing", "attribute": "type", "label": "up", "source": "a1",
    "target": "stack", "prefix": "w", "forward": "e", "colour": "#ff0000", "description": "A sample.",
    "edge_kind": "orth", "a": "a1", "b": "c3", "name": "sample",
}
NAMED_LISTS = {
    "dirs": ["orth"], "first": ["orth"], "second": ["diag"], "path": ["in_check"], "aliases": ["another"],
    "interpretations": ["An interpretation."], "armies": ["white", "black"], "turn": ["white", "black"],
    "to": ["Queen", "Rook"], "only": ["Knight"], "clock_resets": ["capture", "Pawn"], "facing": ["n", "e"],
    "rooks": ["Rook"], "lengths": [3, 4, 3], "points": [(0.0, 0.0), (1.0, 0.0), (0.5, 1.0)], "offsets": [(1, 2)],
    "operands": [S.Ref(path=["in_check"]), S.Ref(path=["insufficient_material"])],
}
CHANGED = {"text": "F", "piece": "Bishop"}
"""Changed values where appending a letter would make the field invalid."""
NAMED_INTS = {"files": 8, "ranks": 8, "radius": 2, "lo": 1, "hi": 3, "range": 3, "height": 2, "dx": 1,
              "dy": 0, "count_checks": 3, "value": 2}
BASES = {
    # Field values under which the other fields show (a stack's bottom and top only matter on stacks).
    "Interaction": {"target": "stack", "bottom": "own", "top": "enemy"},
    "CellTerm": {"kind": "zone", "a": "promotion", "b": "c3", "lo": 1, "hi": 3},
    "DrawingSpec": {"points": True},    # a board without draw statements has no sentence about them
}
FIELD_BASES = {
    # Fields that only mean something together with another value.
    ("CellTerm", "b"): {"kind": "rect"}, ("CellTerm", "lo"): {"kind": "ranks"},
    ("CellTerm", "hi"): {"kind": "ranks"}, ("CellTerm", "step"): {"kind": "ranks"},
    ("CellTerm", "expr"): {"kind": "where"}, ("Leg", "range"): {"mode": "ride"},
    ("ShuffleRule", "other"): {"kind": "between"},
    ("PromotionSpec", "not_attacking"): {"in_place": "standing"},
    ("PromotionSpec", "not_giving_check"): {"in_place": "standing"},
    ("PromotionSpec", "condition"): {"in_place": "standing"},
    ("DrawingSpec", "points"): {"plain": True},
}


def _strip(annotation):
    """The annotation without Optional / Annotated wrappers."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            args = [a for a in get_args(annotation) if a is not type(None)]
            if len(args) != 1:
                return annotation
            annotation = args[0]
        else:
            return annotation


def _union_sample(annotation, name: str):
    members = get_args(annotation)
    if S.Ref in members:
        return S.Ref(path=["in_check"])
    if S.BetzaPattern in members:
        return S.BetzaPattern(text="W")
    if S.GridGen in members:
        return S.GridGen(files=8, ranks=8)
    if str in members:
        return NAMED.get(name, "sample")
    raise AssertionError(f"no sample for the union {annotation} of field {name}")


def sample_value(annotation, name: str):
    """A plausible value of a field, by its name and type."""
    annotation = _strip(annotation)
    origin = get_origin(annotation)
    if origin is Literal:
        return get_args(annotation)[0]
    if origin in (Union, types.UnionType):
        return _union_sample(annotation, name)
    if origin is list:
        item = _strip(get_args(annotation)[0])
        if name in NAMED_LISTS and not (inspect.isclass(item) and issubclass(item, S.Node)):
            return list(NAMED_LISTS[name])
        return [sample_value(get_args(annotation)[0], name)]
    if origin is dict:
        key_type, value_type = get_args(annotation)
        key = {"per_army": "white", "players": "one", "pieces": "Knight", "zones": "sample"}.get(name, "sample")
        return {key: sample_value(value_type, name)}
    if origin is tuple:
        return tuple(sample_value(a, name) for a in get_args(annotation))
    if inspect.isclass(annotation) and issubclass(annotation, S.Node):
        return sample(annotation)
    if annotation is bool:
        return True
    if annotation is int:
        return NAMED_INTS.get(name, 2)
    if annotation is float:
        return 1.5
    if annotation is str:
        return NAMED.get(name, "sample")
    raise AssertionError(f"no sample for {annotation} of field {name}")


def sample(cls, **overrides):
    """An instance of ``cls`` with every required field filled in and ``overrides`` applied."""
    values = dict(BASES.get(cls.__name__, {}))
    for name, field in cls.model_fields.items():
        if name in ("loc", "locs") or name in values or not field.is_required():
            continue
        values[name] = sample_value(field.annotation, name)
    if cls is S.ZoneSpec and "shared" not in overrides and "per_army" not in overrides:
        values["shared"] = sample(S.CellSet)
    values.update(overrides)
    return cls(**values)


def english_for(node) -> str:
    spec = node if isinstance(node, S.VariantSpec) else load_spec("chess")
    return English(spec).render(node)


def assert_readable(text: str, what: str) -> None:
    assert text.strip(), f"{what}: empty English"
    found = PLACEHOLDER.search(text)
    assert found is None, f"{what}: placeholder {found.group()!r} in {text!r}"


def _fields(cls):
    return [(n, f) for n, f in cls.model_fields.items() if n not in ("loc", "locs")]


@pytest.mark.parametrize("cls", MODELS, ids=lambda c: c.__name__)
def test_every_model_renders(cls):
    assert_readable(english_for(sample(cls)), cls.__name__)


LITERALS = [(cls, name, value) for cls in MODELS for name, field in _fields(cls)
            for inner in [_strip(field.annotation)]
            for literal in [get_args(inner)[0] if get_origin(inner) is list else inner]
            if get_origin(_strip(literal)) is Literal and len(get_args(_strip(literal))) > 1
            for value in get_args(_strip(literal))]


def _with_literal(cls, name, value):
    field = cls.model_fields[name]
    is_list = get_origin(_strip(field.annotation)) is list
    return sample(cls, **{name: [value] if is_list else value})


@pytest.mark.parametrize("cls, name, value", LITERALS, ids=lambda x: getattr(x, "__name__", str(x)))
def test_every_literal_value_renders_distinctly(cls, name, value):
    text = english_for(_with_literal(cls, name, value))
    assert_readable(text, f"{cls.__name__}.{name} = {value!r}")
    others = [v for c, n, v in LITERALS if c is cls and n == name and v != value]
    for other in others:
        assert english_for(_with_literal(cls, name, other)) != text, \
            f"{cls.__name__}.{name}: {value!r} and {other!r} read the same"


def _changed(cls, name, field, base):
    """A value of the field other than the one the sample has."""
    current = getattr(sample(cls, **base), name)
    annotation = _strip(field.annotation)
    if get_origin(annotation) is Literal:
        return next(v for v in get_args(annotation) if v != current)
    if not field.is_required() and current == field.get_default(call_default_factory=True):
        changed = sample_value(field.annotation, name)
        return None if changed == current else changed
    if isinstance(current, bool):
        return not current
    if isinstance(current, (int, float)):
        return current + 1
    if isinstance(current, str):
        return CHANGED.get(name, current + "x")
    if isinstance(current, list) and current and isinstance(current[0], str):
        return current + [current[0] + "x"]
    return None


FIELDS = [(cls, name, field) for cls in MODELS for name, field in _fields(cls)
          if (cls.__name__, name) not in NOT_RENDERED and name != "kind"]


@pytest.mark.parametrize("cls, name, field", FIELDS, ids=lambda x: getattr(x, "__name__", str(x)))
def test_every_field_shows_in_the_english(cls, name, field):
    base = FIELD_BASES.get((cls.__name__, name), {})
    changed = _changed(cls, name, field, base)
    if changed is None:
        pytest.skip("a required nested node: rendered by its own model's tests")
    before = english_for(sample(cls, **base))
    after = english_for(sample(cls, **base, **{name: changed}))
    assert before != after, f"{cls.__name__}.{name} does not change the English: {before!r}"
    assert_readable(after, f"{cls.__name__}.{name}")


@pytest.mark.parametrize("name", sorted(end_rules.END_NAMES))
def test_every_condition_name_has_english(name):
    text = english_for(S.Compare(op=">=", left=S.Ref(path=[name]), right=S.Num(value=1)))
    assert "attribute" not in text, f"'{name}' is read as a cell attribute: {text!r}"
    assert_readable(text, name)


@pytest.mark.parametrize("name", sorted(end_rules.END_CALLS))
def test_every_condition_call_has_english(name):
    text = english_for(S.Call(name=name, args=[S.Ref(path=["hill"])]))
    assert "`" not in text, f"{name}(...) has no English of its own: {text!r}"
    assert_readable(text, name)


def test_every_stacking_outcome_of_the_grammar_has_english():
    grammar = (ROOT / "dsl" / "grammar.lark").read_text(encoding="utf-8")
    rule = re.search(r"^OUTCOME:(.*?)(?=^\S)", grammar, re.S | re.M).group(1)
    assert set(re.findall(r'"([^"]+)"', rule)) == set(OUTCOMES)


@pytest.mark.parametrize("name", ["chess", "locking", "superchess", "rocket"])
def test_english_matches_the_snapshot(name):
    spec = load_spec(name)
    text = English(spec).render(spec) + "\n"
    golden = GOLDEN.parent / f"english-{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), "no snapshot yet: run with UPDATE_GOLDEN=1 and read the file"
    assert text == golden.read_text(encoding="utf-8"), \
        f"the English of {name} changed: run with UPDATE_GOLDEN=1 if that is meant, and read the diff"


def test_english_of_every_bundled_variant_is_readable():
    from dsl import bundled_names
    for name in bundled_names():
        spec = load_spec(name)
        assert_readable(English(spec).render(spec), name)



def test_a_drop_outside_a_zone_of_every_cell_but_a_few_reads_as_only_there():
    """``not in zone Z`` where Z is every cell except a rank, for each army, reads "only on" that rank; a zone
    that leaves an army out keeps the literal reading (that army may drop anywhere)."""
    spec = load_spec("synochess")
    drops = spec.drops
    assert "may be dropped only on an empty cell of rank 4 (Kingdom) or rank 5 (Dynasty)" in English(spec).render(drops)
    zone = spec.board.zones["off_fourth_rank"]
    one_army = zone.model_copy(update={"per_army": {"black": zone.per_army["black"]}})
    board = spec.board.model_copy(update={"zones": {**spec.board.zones, "off_fourth_rank": one_army}})
    text = English(spec.model_copy(update={"board": board})).render(drops)
    assert "dropped only" not in text and "except" in text
