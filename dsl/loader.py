"""Find, parse and merge rules files into one :class:`~dsl.spec.VariantSpec`.

A file may ``extends`` a variant (a bundled name such as ``chess`` or a
path) and ``include`` a library (a name from ``dsl/std`` such as
``orthodox``, or a path). Both are merged at the point where they appear,
and later declarations override earlier ones:

- the file's own ``variant`` block wins over inherited ones wherever it stands;
- ``piece X`` replaces an earlier piece X as a whole;
- a ``board`` block with a generator (``grid``, ``ragged``, ``hex``)
  starts a new board; one without adds to the inherited board (explicit
  cells too; zones and direction families of the same name are replaced);
- an ``armies`` block that declares an ``army`` replaces the armies, teams,
  turn order and modes; one without adds teams, modes or a turn order;
- ``castling``, ``drops`` and ``setup`` replace earlier ones; so does a
  ``stacking`` block with interactions, while one without changes only the
  settings it states (``upper blocked by``, ``height``);
- in ``rules``, ``end`` and ``insufficient`` rules replace rules of the same
  name, ``forbid`` adds, ``clock`` and ``when no moves`` replace, ``points`` replace the values of the
  names they give;
- ``draw`` statements are part of the board (a new board starts without them): ``on points``,
  ``plain``, ``pieces facing forward`` and ``river`` set, ``diagonals`` add;
- ``ai`` weights replace inherited weights of the same name, one by one;
- ``forget`` removes an inherited declaration (see :mod:`dsl.forgetting`).

Relative paths are resolved against the directory of the file that names
them.
"""

from __future__ import annotations

from pathlib import Path

from . import limits as L
from . import spec as S
from .bounds import check_spec
from .errors import Loc, RulesSemanticError
from .forgetting import forget
from .files import (
    RULES_SUFFIX, FilePolicy, allowed_path, bundled_names, bundled_variant, library, read_text, unknown_variant,
)
from .declarations import Decl

__all__ = ["FilePolicy", "bundled_names", "find_variant", "load_spec", "load_spec_text"]

DEFAULT_POLICY = FilePolicy()


def find_variant(ref: str, policy: FilePolicy = DEFAULT_POLICY, loc: Loc | None = None) -> Path:
    """The file of a variant named by a bundled name, an alias or a path.

    A ``ref`` ending in ``.rules`` or containing ``/`` is a path; otherwise a
    bundled name or alias is preferred, then a file of that name. A path is
    allowed when the policy is ``local`` (the caller named the file) or when
    it lies inside the policy's directories; otherwise it is refused
    without being opened.
    """
    is_path = ref.endswith(RULES_SUFFIX) or "/" in ref or "\\" in ref
    if not is_path:
        path = bundled_variant(ref)
        if path is not None:
            return path
    if not policy.local:
        if is_path:
            return allowed_path(ref, Path.cwd(), policy.roots(None), loc)
    elif "\0" not in ref:
        L.PATH_CHARS.check(len(ref), loc, "this path")
        candidate = Path(ref)
        if is_path or _exists(candidate):
            return candidate
    raise unknown_variant(ref, loc)


def _exists(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the system
        return False


class _Builder:
    """Accumulates declarations in order, applying the override rules above."""

    def __init__(self, policy: FilePolicy, top: Path | None) -> None:
        self.roots = policy.roots(top)
        self.files = L.Budget(L.VARIANT_FILES)
        self.bytes = L.Budget(L.VARIANT_BYTES)
        self.tokens = L.Budget(L.TOKENS)
        self.variant: dict = {"interpretations": []}
        self.top_keys: set[str] = set()  # variant fields set by the file itself win over inherited ones
        self.board = S.BoardSpec()
        self.armies: list[S.ArmySpec] = []
        self.teams: list[S.TeamSpec] = []
        self.turn: list[str] = []
        self.modes: list[S.ModeSpec] = []
        self.pieces: dict[str, S.PieceSpec] = {}
        self.castling: S.CastlingSpec | None = None
        self.stacking: S.StackingSpec | None = None
        self.drops: S.DropsSpec | None = None
        self.rules = S.RulesSpec()
        self.setup = S.SetupSpec()
        self.ai = S.AiSpec()
        self.examples: list[S.ExampleSpec] = []
        self.stack: list[Path] = []
        self.sources: list[str] = []  # every file read, in the order read
        self.via: dict[str, Loc] = {}  # file read for the top file -> the top file's line that led to it
        self.through: Loc | None = None  # that line, while the files it names are read
        # (zone|directions, name) -> the board declaration that started a new board and so dropped it
        self.dropped: dict[tuple[str, str], Loc] = {}

    # ------------------------------------------------------------ files
    def load(self, path: Path, loc: Loc | None, top: bool, ref: str | None = None) -> None:
        """Read, parse and apply the file ``path`` (named ``ref`` at ``loc`` by the file before it)."""
        resolved = path.resolve()
        if resolved in self.stack:
            chain = " -> ".join(p.name for p in self.stack + [resolved])
            raise RulesSemanticError(f"circular extends/include: {chain}", loc)
        self.sources.append(str(resolved))
        if not top and self.through is not None:
            self.via.setdefault(str(resolved), self.through)
        self.apply_text(read_text(path, str(path), loc, ref), str(path), resolved, loc, top)

    def apply_text(self, text: str, label: str, key: Path | str, loc: Loc | None, top: bool) -> None:
        """Parse and apply ``text`` (the file ``label``; ``key`` identifies it in the chain of
        files being read, for cycles) under the limits on files, bytes and chain depth."""
        from .parser import parse_text, text_size   # lark: not needed to find a variant's file
        L.CHAIN_DEPTH.check(len(self.stack) + 1, loc, "this chain of extends and include lines")
        self.files.spend(1, loc, "this variant with its extends and include lines")
        self.bytes.spend(text_size(text, label), loc, "this variant with its extends and include lines")
        base = Path(label).parent if isinstance(key, Path) else None
        self.stack.append(key)
        for decl in parse_text(text, label, self.tokens):
            self.apply(decl, base, top)
        self.stack.pop()

    def apply(self, decl: Decl, base: Path | None, top: bool) -> None:
        kind = decl.kind
        if kind in ("extends", "include"):
            ref = decl.value
            if decl.extra["is_path"]:
                path = allowed_path(ref, base, self.roots, decl.loc)
            elif kind == "extends":
                path = bundled_variant(ref)
                if path is None:
                    raise unknown_variant(ref, decl.loc)
            else:
                path = library(ref, decl.loc)
            if top:
                self.through = decl.loc
            self.load(path, decl.loc, top=False, ref=ref)
            if top:
                self.through = None
        elif kind == "variant":
            self._variant(decl, top)
        elif kind == "board":
            self._board(decl.value, decl.loc)
        elif kind == "armies":
            self._armies(decl.value)
        elif kind == "piece":
            self.pieces[decl.value.name] = decl.value
        elif kind == "castling":
            self.castling = decl.value
        elif kind == "stacking":
            new = decl.value
            if self.stacking is not None and not new.interactions:
                # A block without interactions changes only what it states (M1 instead of M3, say).
                self.stacking = self.stacking.model_copy(update={f: getattr(new, f) for f in new.model_fields_set})
            else:
                self.stacking = new
        elif kind == "drops":
            self.drops = decl.value
        elif kind == "rules":
            self._rules(decl.value)
        elif kind == "setup":
            self.setup = decl.value
        elif kind == "example":                # a later example of the same name replaces the earlier
            self.examples = [e for e in self.examples if e.name != decl.value.name] + [decl.value]
        elif kind == "ai":
            self.ai = S.AiSpec(weights={**self.ai.weights, **decl.value.weights},
                               locs={**self.ai.locs, **decl.value.locs})
        elif kind == "forget":
            forget(self, *decl.value, decl.loc)

    def _variant(self, decl: Decl, top: bool) -> None:
        fields = dict(decl.value["fields"])
        interpretations = [v for k, v in decl.value["fields"] if k == "interpretation"]
        if top:
            self.variant["name"] = decl.value["name"]
            self.variant["name_loc"] = decl.loc
            self.variant["aliases"] = fields.get("aliases", [])
            self.variant["interpretations"].extend(interpretations)
        if "notation" in fields:   # (style, location): the location is kept for the compiler's errors
            fields["notation"], fields["notation_loc"] = fields["notation"]
        for key in ("title", "description", "source", "family", "notation", "notation_loc"):
            if key in fields and (top or key not in self.top_keys):
                self.variant[key] = fields[key]
                if top:
                    self.top_keys.add(key)

    def _board(self, stmts: list, loc: Loc | None) -> None:
        if any(key == "generator" for key, _ in stmts):
            if loc is not None:
                self.dropped.update({("zone", name): loc for name in self.board.zones})
                self.dropped.update({("directions", d.name): loc for d in self.board.directions})
            self.board = S.BoardSpec()
        board = self.board
        for key, value in stmts:
            if key == "generator":
                board.generator = value
            elif key == "cell":
                board.cells.append(value)
            elif key == "remove":
                board.removes.append(value)
            elif key == "link":
                board.links.append(value)
            elif key == "wrap":
                axes, loc = value
                board.wrap = list(dict.fromkeys(board.wrap + axes))
                board.locs["wrap"] = loc
            elif key == "attribute":
                board.attributes.append(value)
            elif key == "directions":
                board.directions = [d for d in board.directions if d.name != value.name] + [value]
            elif key == "zone":
                board.zones[value.name] = value
            elif key == "shape":
                board.shapes.append(value)
            elif key == "position":
                board.positions.append(value)
            elif key == "draw":
                _draw(board.drawing, *value)

    def _armies(self, stmts: list) -> None:
        if any(stmt[0] == "army" for stmt in stmts):
            self.armies, self.teams, self.turn, self.modes = [], [], [], []
        for stmt in stmts:
            key, value = stmt[0], stmt[1]
            if key == "army":
                self.armies.append(value)
            elif key == "team":
                self.teams = [t for t in self.teams if t.name != value.name] + [value]
            elif key == "turn":
                self.turn = value
                self.variant["turn_loc"] = stmt[2]
            elif key == "mode":
                self.modes = [m for m in self.modes if m.name != value.name] + [value]

    def _rules(self, stmts: list) -> None:
        rules = self.rules
        replaced_no_moves = False
        for key, value, loc in stmts:
            if key == "forbid":
                if value not in rules.forbid:
                    rules.forbid.append(value)
            elif key == "clock":
                rules.clock_resets = value
                rules.locs["clock"] = loc
            elif key == "end":
                rules.ends = _replace_named(rules.ends, value)
            elif key == "insufficient":
                rules.insufficient = _replace_named(rules.insufficient, value)
            elif key == "no_moves":
                if not replaced_no_moves:
                    rules.no_moves, replaced_no_moves = [], True
                rules.no_moves.append(value)
            elif key == "royal_check":
                rules.royal_check = value
            elif key == "resign":
                rules.resign = value
            elif key == "points":
                rules.points.update(value)   # a kind named again gets its new value
                rules.locs.update({f"points.{name}": at for name, at in loc.items()})
            elif key == "neutral_move":
                rules.neutral_move = value
                rules.locs["neutral_move"] = loc
            elif key == "count_checks":
                rules.count_checks = value
            elif key == "compulsory_capture":
                rules.compulsory_capture = True
            elif key == "explosion":
                rules.explosion = value
                rules.locs["explosion"] = loc
            elif key == "passing":
                rules.passing = value
            elif key == "keep_apart":
                rules.keep_apart = value
                rules.locs["keep_apart"] = loc
            elif key == "material_bonus":
                rules.material_bonus.update(value)
                rules.locs.update({f"material_bonus.{name}": loc for name in value})

    # ------------------------------------------------------------ result
    def build(self, path: Path) -> S.VariantSpec:
        name = self.variant.get("name") or path.stem
        return S.VariantSpec(
            name=name,
            title=self.variant.get("title") or name.replace("_", " ").title(),
            description=self.variant.get("description"),
            aliases=self.variant.get("aliases", []),
            source=self.variant.get("source"),
            family=self.variant.get("family"),
            notation=self.variant.get("notation"),
            interpretations=self.variant["interpretations"],
            path=str(path),
            sources=self.sources,
            inherited_via=self.via,
            board=self.board,
            armies=self.armies,
            teams=self.teams,
            turn=self.turn,
            modes=self.modes,
            pieces=self.pieces,
            castling=self.castling,
            stacking=self.stacking,
            drops=self.drops,
            rules=self.rules,
            setup=self.setup,
            ai=self.ai,
            examples=self.examples,
            locs={k: v for k, v in (("name", self.variant.get("name_loc")), ("turn", self.variant.get("turn_loc")),
                                    ("notation", self.variant.get("notation_loc"))) if v},
        )


def _draw(drawing: S.DrawingSpec, what: str, value, loc: Loc | None) -> None:
    """Apply one ``draw`` statement: ``points``, ``plain``, ``facing`` and ``river`` set (a later river
    replaces an earlier one), ``diagonals`` adds a cell set."""
    if what == "diagonals":
        drawing.diagonals.append(value)
    else:
        setattr(drawing, what, value)
    drawing.locs[what] = loc


def _replace_named(items: list, new) -> list:
    names = [item.name for item in items]
    if new.name in names:
        items = list(items)
        items[names.index(new.name)] = new
        return items
    return items + [new]


def load_spec(ref: str | Path, policy: FilePolicy = DEFAULT_POLICY) -> S.VariantSpec:
    """Parse and merge the variant named by ``ref`` (a bundled name, an alias or a path).

    ``policy`` says which files its ``extends`` and ``include`` lines may read
    (default: the bundled files and the directory of ``ref``; see
    :class:`~dsl.files.FilePolicy`). Raises :class:`VariantNotFound` for an
    unknown name, :class:`FileRefused` for a file the policy does not allow,
    :class:`LimitError` when a declared limit (:mod:`dsl.limits`) is
    exceeded, and :class:`RulesSyntaxError` / :class:`RulesSemanticError`
    for a bad file. Semantic checks that need the compiled board are made
    by the compiler (:func:`interpreter.compile_variant`).
    """
    path = find_variant(str(ref), policy)
    builder = _Builder(policy, path)
    builder.load(path, None, top=True)
    return _built(builder, path)


def load_spec_text(text: str, path: str = "<string>", policy: FilePolicy = DEFAULT_POLICY) -> S.VariantSpec:
    """Like :func:`load_spec`, for the text of a file that is not on disk (or not saved yet).

    ``path`` names the text in errors. A label in angle brackets such as
    ``<string>`` or ``<upload>`` means the text has no directory: it may
    name bundled files only, as with a policy that is not ``local``.
    Otherwise ``path`` is where the file would be: relative paths in it are
    resolved against its directory, which the policy may allow.
    """
    top = None if path.startswith("<") else Path(path)
    builder = _Builder(policy, top)
    builder.apply_text(text, path, top.resolve() if top is not None else path, None, top=True)
    return _built(builder, Path(path))


def _built(builder: _Builder, path: Path) -> S.VariantSpec:
    """The Spec the builder accumulated, checked against the declared limits."""
    spec = builder.build(path)
    check_spec(spec)
    return spec
