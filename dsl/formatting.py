"""The canonical layout of a ``.rules`` file (``rules fmt``): same tokens, same comments, new spaces.

:func:`format_text` rewrites only the white space between the tokens of a file; the tokens and
the comments come out in the same order with the same text, so the formatted file means the same
game (the function checks it: it parses its own output and compares the two token streams and
comment lists, and raises :class:`FormatterError` rather than return a text that differs). The
parse tree (lark's, with every token kept) gives the structure: which tokens open a statement,
which braces pair, which expression a continuation line belongs to. The layout rules are written
for designers in ``docs/format.md``; in short:

- the author keeps the line breaks the grammar leaves free (two statements on one line, a
  statement continued over several lines, one blank line or none), as gofmt does; runs of blank
  lines become one, and there are none at a file's start or end, after ``{`` or before ``}``;
- a block written on one line stays on one line (``{ letters upper  forward n }``); a block with
  a line break or a comment inside has ``{`` end its line and ``}`` on a line of its own;
- every top-level declaration starts a line; indentation is two spaces per open block; a
  continuation line is indented four spaces past its statement, or aligned with the start of the
  expression it continues (an ``and``, ``or`` or arithmetic that began on an earlier line);
- one space between tokens, none before ``,`` ``:`` ``)``, none after ``(``, none around ``..``
  ``.`` ``/``, none after a unary ``-`` or between a function and its ``(``; two spaces between
  statements that share a line;
- the army and piece names of a ``setup { ... }`` block's lines (one placement each) are padded
  to align the columns;
- a comment on a line of its own is indented like the code that follows it; comments at the end
  of consecutive lines are aligned two spaces after the longest code, a lone one is two spaces
  after its code; a comment on the line below such a comment, right of that line's code, continues
  it and stays under it; trailing spaces go.

Strings (triple-quoted ones too) are kept byte for byte; the only token whose text changes is the
promotion option ``in place or quiet move``, whose words get one space each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lark import Token, Tree

from .parser import grammar_parser, parse_text

INDENT = 2            # spaces per open block
CONTINUATION = 2      # spaces past its statement for a continued line

# Nodes of an expression: a continuation line inside one is aligned with its start.
_EXPRESSIONS = frozenset({"or_", "and_", "not_", "compare", "arith", "neg", "call", "atom", "cellterms", "cellset"})
# Tokens that hold a value (as opposed to keywords and punctuation).
_VALUES = frozenset({"NAME", "STRING", "LABEL", "INT", "NUMBER", "SIGNED_INT", "SIGNED_NUMBER"})
_GAP = re.compile(r"\n|#[^\n]*")


class FormatterError(RuntimeError):
    """The formatter would have changed a file's tokens or comments: a bug of the formatter, never
    of the file, so the file is left as it is."""


@dataclass
class _Gap:
    """What stands between two tokens: a comment ending the previous token's line, the comments
    that continue it on the next lines (each right of that line's code: a hanging paragraph), comments on
    lines of their own (each with whether a blank line precedes it), and the line break before the
    next token (0: none, 1: a new line, 2: after a blank line)."""

    trailing: str | None = None
    hanging: list[str] = field(default_factory=list)
    comments: list[tuple[bool, str]] = field(default_factory=list)
    newlines: int = 0


def _gap(text: str, start: int, end: int, first: bool) -> _Gap:
    """The gap ``text[start:end]``; ``first``: it comes before the file's first token."""
    gap, newlines = _Gap(), 0
    code_end = start - (text.rfind("\n", 0, start) + 1)    # where the previous token's line ends its code
    for match in _GAP.finditer(text, start, end):
        if match.group() == "\n":
            newlines += 1
            continue
        comment = match.group().rstrip()
        at = match.start() - (text.rfind("\n", 0, match.start()) + 1)
        if newlines == 0 and not first and gap.trailing is None and not gap.comments:
            gap.trailing = comment
        elif newlines == 1 and gap.trailing is not None and at >= code_end and not gap.comments:
            gap.hanging.append(comment)
        else:
            gap.comments.append((newlines >= 2 and not (first and not gap.comments), comment))
        newlines = 0
    gap.newlines = min(newlines, 2)
    return gap


@dataclass
class _Structure:
    """What the parse tree says about each token (by index): its parent node, whether it opens a
    statement (and a top-level declaration), the brace that pairs with it; and the span of tokens
    of every node (by ``id``), with its parent."""

    tokens: list[Token]
    parent: list[Tree]
    statement: list[bool]
    top: list[bool]
    pair: dict[int, int]
    first: dict[int, int]              # id(node) -> index of its first token
    end: dict[int, int]                # id(node) -> index just past its last token
    up: dict[int, Tree | None]         # id(node) -> its parent node


def _structure(tree: Tree) -> _Structure:
    s = _Structure([], [], [], [], {}, {}, {}, {id(tree): None})
    stack: list[tuple[Tree | Token | None, Tree]] = [(tree, tree)]
    while stack:                       # in order, without recursion; (None, node) closes node
        item, holder = stack.pop()
        if item is None:
            s.end[id(holder)] = len(s.tokens)
        elif isinstance(item, Token):
            s.tokens.append(item)
            s.parent.append(holder)
        else:
            s.first[id(item)] = len(s.tokens)
            stack.append((None, item))
            for child in reversed(item.children):
                if isinstance(child, Tree):
                    s.up[id(child)] = item
                stack.append((child, item))
    s.statement = [False] * len(s.tokens)
    s.top = [False] * len(s.tokens)
    for decl in tree.children:
        s.top[s.first[id(decl)]] = s.statement[s.first[id(decl)]] = True
    for node in tree.iter_subtrees():
        if any(isinstance(c, Token) and c == "{" for c in node.children):
            for index in _block_statements(node, s):
                s.statement[index] = True
    return s


def _block_statements(node: Tree, s: _Structure):
    """The indices of the tokens that open the statements of a braced node, and the pairing of its
    braces (into ``s.pair``). A child opens a statement when it comes first after ``{``, or when it
    is a node or a keyword following a node or a value (``castling { king King, rook Rook  castle
    ...``: ``castle ...`` opens one, ``rook`` does not; ``example ... { moves "..."  show "..." }``:
    ``show`` does)."""
    index = s.first[id(node)]
    inside, previous, opened = False, None, -1
    for child in node.children:
        at = index
        index = s.end[id(child)] if isinstance(child, Tree) else index + 1
        if isinstance(child, Token) and child == "{" and not inside:
            inside, previous, opened = True, child, at
            continue
        if isinstance(child, Token) and child == "}" and inside:
            s.pair[opened], s.pair[at] = at, opened
            inside = False
            continue
        if inside:
            keyword = isinstance(child, Token) and child.type not in _VALUES and child.value[:1].isalpha()
            after_value = isinstance(previous, Tree) or (isinstance(previous, Token) and previous.type in _VALUES)
            if previous == "{" or ((isinstance(child, Tree) or keyword) and after_value):
                yield at
            previous = child


def _space(a: Token, b: Token, a_parent: Tree, b_parent: Tree, b_statement: bool) -> str:
    """The spaces between tokens ``a`` and ``b`` on one line."""
    if b_statement and a != "{":
        return "  "
    if b in (",", ":", ")") or a == "(" or (a == "{" and b == "}"):
        return ""
    if b == "(":
        return "" if b_parent.data == "call" else " "
    if a in ("..", ".", "/") or b in ("..", ".", "/"):
        return ""
    if a == "-" and a_parent.data == "neg":
        return ""
    return " "


def _text(token: Token) -> str:
    """How a token is written: as it is, but for the words of ``in place or quiet move``, one space apart."""
    return " ".join(token.split()) if token.type == "PLACE_MOVE" else str(token)


def format_text(text: str, path: str = "<string>") -> str:
    """The canonical layout of ``text``, the source of one ``.rules`` file (``path`` names it in
    errors). A text that does not parse raises the parser's located :class:`RulesSyntaxError` (or
    :class:`LimitError`); the result parses to the same tokens and keeps every comment."""
    text = text.replace("\r\n", "\n")
    parse_text(text, path)
    tree = grammar_parser(keep_all_tokens=True).parse(text)
    s = _structure(tree)
    tokens = s.tokens
    gaps = []
    end = 0
    for index, token in enumerate(tokens):
        gaps.append(_gap(text, end, token.start_pos, index == 0))
        end = token.end_pos
    tail = _gap(text, end, len(text), not tokens)
    multi = {}
    for opened, closed in s.pair.items():
        if opened < closed:
            broken = any(g.newlines or g.trailing or g.comments for g in gaps[opened + 1:closed + 1])
            multi[opened] = multi[closed] = broken and closed > opened + 1
    breaks = [_break(i, gaps[i], s, multi) for i in range(len(tokens))]
    widths = _setup_widths(tree, s, breaks)
    lines = _Lines()
    depth = 0
    indents = [0]                      # per depth: the indent of the line of its latest statement
    columns: dict[int, int] = {}       # the output column of every token
    for index, token in enumerate(tokens):
        gap, breaking = gaps[index], breaks[index]
        if gap.trailing is not None:
            lines.comment(gap.trailing, gap.hanging)
        if token == "}" and multi.get(index):
            depth -= 1
        if breaking:
            closing = token == "}" and bool(multi.get(index))
            indent = depth * INDENT if closing or s.statement[index] else _continued(index, s, indents[depth], columns)
            for blank, comment in gap.comments:
                lines.own(comment, indent + INDENT if closing else indent, blank and not lines.fresh_block)
            lines.start(indent, breaking == 2 and not lines.fresh_block)
            if s.statement[index] and token != "}":
                del indents[depth + 1:]
                indents[depth:] = [indent]
        elif index:
            lines.add(_space(tokens[index - 1], token, s.parent[index - 1], s.parent[index], s.statement[index]))
        columns[index] = len(lines.rows[-1][0])
        lines.add(_text(token) + widths.get(index, ""))
        lines.fresh_block = token == "{" and bool(multi.get(index))
        if token == "{" and multi.get(index):
            depth += 1
            indents[depth:] = [indents[depth - 1] + INDENT]
    if tail.trailing is not None:
        lines.comment(tail.trailing, tail.hanging)
    for blank, comment in tail.comments:
        lines.own(comment, 0, blank)
    result = lines.render()
    _same(text, result, path)
    return result


def _break(index: int, gap: _Gap, s: _Structure, multi: dict[int, bool]) -> int:
    """How token ``index`` starts: 0 on the line of the previous token, 1 on a new line, 2 after a
    blank line."""
    if index == 0:
        return 2 if gap.comments and gap.newlines == 2 else 1
    token, previous = s.tokens[index], s.tokens[index - 1]
    if (token == "}" and index in multi and not multi[index]) or (previous == "{" and not multi.get(index - 1, True)):
        return 0
    wanted = gap.newlines if not (gap.trailing or gap.comments) else max(gap.newlines, 1)
    if token == "}" and multi.get(index):
        return 1
    if previous == "{" and multi.get(index - 1):
        return max(wanted, 1)
    if s.top[index]:
        return max(wanted, 1)
    return wanted


def _continued(index: int, s: _Structure, statement: int, columns: dict[int, int]) -> int:
    """The indent of a continuation line that token ``index`` starts: the column of the innermost
    expression it belongs to that began on an earlier line, else ``statement`` (the indent of its
    statement's line) plus :data:`CONTINUATION`."""
    node = s.parent[index]
    while node is not None:
        if node.data in _EXPRESSIONS and s.first[id(node)] < index:
            return columns[s.first[id(node)]]
        node = s.up[id(node)]
    return statement + CONTINUATION


def _setup_widths(tree: Tree, s: _Structure, breaks: list[int]) -> dict[int, str]:
    """The padding after the army and piece names of a ``setup { ... }`` block's placements that
    have a line each, so that their columns align."""
    padding: dict[int, str] = {}
    for node in tree.iter_subtrees():
        if node.data != "setup_places":
            continue
        places = [c for c in node.children if isinstance(c, Tree) and c.data == "place"]
        alone = []
        for place in places:
            start = s.first[id(place)]
            after = s.end[id(place)]
            if breaks[start] and after < len(breaks) and breaks[after]:
                alone.append(start)
        for offset in (0, 1):
            width = max((len(s.tokens[i + offset]) for i in alone), default=0)
            for i in alone:
                padding[i + offset] = " " * (width - len(s.tokens[i + offset]))
    return padding


class _Lines:
    """The output, line by line: each row is its code and its comment (None: no comment)."""

    def __init__(self) -> None:
        self.rows: list[list] = []
        self.fresh_block = False

    def start(self, indent: int, blank: bool) -> None:
        """A new line of code at ``indent``, after a blank line if ``blank``."""
        if blank and self.rows:
            self.rows.append(["", None])
        self.rows.append([" " * indent, None])

    def add(self, text: str) -> None:
        head, *rest = text.split("\n")
        self.rows[-1][0] += head
        self.rows.extend([part, None] for part in rest)

    def comment(self, comment: str, hanging: list[str]) -> None:
        """A comment at the end of the current line, and the comments aligned under it."""
        self.rows[-1][1] = comment
        self.rows.extend(["", line] for line in hanging)

    def own(self, comment: str, indent: int, blank: bool) -> None:
        """A comment on a line of its own, after a blank line if ``blank``."""
        if blank and self.rows:
            self.rows.append(["", None])
        self.rows.append([" " * indent + comment, None])
        self.fresh_block = False

    def render(self) -> str:
        """The text: comments that end consecutive lines aligned two spaces after the longest code."""
        out = []
        run: list[list] = []
        for row in self.rows + [["", None]]:
            if row[1] is not None:
                run.append(row)
                continue
            if run:
                column = max(len(r[0]) for r in run) + 2
                out.extend(r[0].ljust(column) + r[1] for r in run)
                run = []
            out.append(row[0])
        while out and not out[-1].strip():
            out.pop()
        return "\n".join(out) + "\n" if out else ""


def _stream(text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The tokens of ``text`` (type and text) and its comments, in order."""
    tokens = [(t.type, _text(t)) for t in _structure(grammar_parser(keep_all_tokens=True).parse(text)).tokens]
    comments = [m.group().rstrip() for m in re.finditer(r'"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*', text)
                if m.group().startswith("#")]
    return tokens, comments


def _same(before: str, after: str, path: str) -> None:
    """Raise :class:`FormatterError` unless ``after`` has the tokens and comments of ``before``."""
    try:
        same = _stream(before) == _stream(after)
    except Exception:          # the output does not parse: the formatter broke it
        same = False
    if not same:
        raise FormatterError(f"formatting {path} would change its tokens or comments (a bug of the formatter); "
                             "the file is left as it is")
