"""Text -> parse tree -> declarations, with syntax errors users can act on.

The grammar lives in ``grammar.lark`` beside this module and is compiled
with Lark's LALR parser (fast, and its errors know which tokens were
expected). Building the LALR tables takes a noticeable part of a second, so
the compiled parser is kept in the user's cache directory (see
:mod:`dsl.caching`); Lark stores a hash of the grammar in that file and
rebuilds it when the grammar changes.

The text is hostile until proven otherwise: its size, every token (strings,
names, numbers) and the nesting depth of the parser are checked against the
limits of :mod:`dsl.limits` while it is parsed, token by token, so that an
oversized or deeply nested text stops early with a located
:class:`~dsl.errors.LimitError`; the tree is transformed without recursion.
"""

from __future__ import annotations

import math
import re
import sys
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import limits as L
from .caching import cache_dir
from .errors import Loc, RulesError, RulesSyntaxError, clip, suggest
from .spec import AI_WEIGHTS
from .declarations import Decl
from .transformer import ToDecls

# How the expected-token sets of the grammar are shown to a user.
_TOKEN_WORDS = {
    "NAME": "a name",
    "STRING": "a string in double quotes",
    "INT": "a whole number",
    "NUMBER": "a number",
    "SIGNED_INT": "a whole number",
    "SIGNED_NUMBER": "a number",
    "$END": "the end of the file",
    "AI_TERM": "an evaluation term (" + ", ".join(AI_WEIGHTS) + ")",
}


@lru_cache(maxsize=2)
def grammar_parser(keep_all_tokens: bool = False) -> Lark:
    """The compiled LALR parser of the .rules grammar (read from the cache when it is there).
    With ``keep_all_tokens`` its trees keep every token, keywords and punctuation included (the
    formatter's view of a file, :mod:`dsl.formatting`); by default they keep only the named ones."""
    text = resources.files("dsl").joinpath("grammar.lark").read_text(encoding="utf-8")
    directory = cache_dir()
    kind = "-tokens" if keep_all_tokens else ""
    name = f"grammar{kind}-py{sys.version_info[0]}{sys.version_info[1]}.lark"
    cache: str | bool = str(directory / name) if directory else False
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False,
                keep_all_tokens=keep_all_tokens, cache=cache)


def _words_of(pattern) -> list[str] | None:
    """The words a terminal's pattern stands for when it is a choice of plain words
    (``FORBIDDEN: "self-check" | "partner-check" ...``, compiled by lark to ``(?:partner\\-check|...)``),
    sorted; None for any other pattern (a number, a name, a choice with a regular expression in it)."""
    if pattern.type == "str":
        return [pattern.value] if pattern.value.isalpha() else None
    body = pattern.value
    if not (body.startswith("(?:") and body.endswith(")")):
        return None
    words = [re.sub(r"\\(.)", r"\1", alternative) for alternative in body[3:-1].split("|")]
    return sorted(words) if all(re.fullmatch(r"[a-z]+(-[a-z]+)*", w) for w in words) else None


def _describe(terminal: str) -> str:
    if terminal in _TOKEN_WORDS:
        return _TOKEN_WORDS[terminal]
    try:
        pattern = grammar_parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    if pattern.type == "str":
        return repr(pattern.value)
    words = _words_of(pattern)
    if words:
        return "one of " + ", ".join(repr(w) for w in words)
    return terminal.lower().replace("_", " ")


def _keywords(expected: set[str]) -> list[str]:
    """The words that may stand where ``expected`` terminals are accepted (for "did you mean")."""
    words: list[str] = []
    for terminal in expected:
        try:
            words += _words_of(grammar_parser().get_terminal(terminal).pattern) or []
        except KeyError:
            continue
    return words


def _glued(err: UnexpectedToken) -> Token | None:
    """The token read before the unexpected one when the two are one word that the lexer cut in
    two: a keyword it accepted, then the rest of the word (``weight safetyy``: the term
    ``safety``, then ``y``). The error is the whole word where the keyword stood."""
    history = getattr(err, "token_history", None) or []
    token = err.token
    if not history or token.type == "$END":
        return None
    before = history[-1]
    end = getattr(before, "end_pos", None)
    if end is None or end != getattr(token, "start_pos", None):
        return None
    joint = str(before)[-1:] + str(token)[:1]
    return before if len(joint) == 2 and all(c.isalnum() or c == "_" for c in joint) else None


def _syntax_error(err: UnexpectedInput, path: str, text: str) -> RulesSyntaxError:
    line, column = err.line, err.column
    if isinstance(err, UnexpectedToken):
        token = err.token
        before = _glued(err)
        if before is not None:
            word = _whole_word(text, before)
            loc = Loc(path, before.line, before.column, before.column + len(word), text)
            guess = suggest(word, _keywords({before.type}))
            return RulesSyntaxError(f"unexpected '{word}'", loc, expected=_describe(before.type),
                                    hint=f"did you mean '{guess}'?" if guess and guess != word else None)
        if token.type == "$END":
            lines = text.splitlines() or [""]
            line, column = len(lines), len(lines[-1]) + 1
            found = "the end of the file"
            width = 1
        else:
            word = _whole_word(text, token)
            found = f"'{word}'"
            width = len(word)
        expected = sorted(err.accepts or err.expected)
        loc = Loc(path, line, column, column + width, text)
        hint = None
        if token.type == "NAME" or token.type.isupper():
            guess = suggest(found.strip("'"), _keywords(set(expected)))
            if guess and guess != str(token):
                hint = f"did you mean '{guess}'?"
        if hint is None and "RBRACE" in expected and token.type != "$END":
            hint = "a block may be missing its closing '}'"
        return RulesSyntaxError(
            f"unexpected {found}", loc,
            expected=", ".join(dict.fromkeys(_describe(t) for t in expected)), hint=hint,
        )
    if isinstance(err, UnexpectedCharacters):
        char = text[err.pos_in_stream] if err.pos_in_stream < len(text) else ""
        loc = Loc(path, line, column, column + 1, text)
        hint = "strings use double quotes" if char == "'" else None
        allowed = sorted(err.allowed or [])
        return RulesSyntaxError(
            f"unexpected character {char!r}", loc,
            expected=", ".join(dict.fromkeys(_describe(t) for t in allowed)) or None, hint=hint,
        )
    if isinstance(err, UnexpectedEOF):
        lines = text.splitlines() or [""]
        loc = Loc(path, len(lines), len(lines[-1]) + 1, None, text)
        return RulesSyntaxError("unexpected end of file", loc,
                                expected=", ".join(_describe(t) for t in sorted(err.expected)),
                                hint="a block may be missing its closing '}'")
    return RulesSyntaxError(str(err), Loc(path, line, column, None, text))


def _whole_word(text: str, token: Token) -> str:
    """The token's text, run on to the end of its word when the token is a keyword cut out of a
    longer word: where no name may stand, the lexer reads ``allow`` as the keyword ``all``, and the
    error must show the word the user wrote."""
    word = str(token)
    start = getattr(token, "start_pos", None)
    if start is None or not word[-1:].isalnum():
        return word
    end = start + len(word)
    while end < len(text) and (text[end].isalnum() or text[end] in "_-"):
        end += 1
    return text[start:end].rstrip("-")


def parse_text(text: str, path: str = "<string>", tokens: L.Budget | None = None) -> list[Decl]:
    """Parse the text of one ``.rules`` file into its top-level declarations.

    Raises :class:`RulesSyntaxError` (with location, expected tokens and a
    keyword suggestion) when the text does not match the grammar, and
    :class:`LimitError` when it is larger, longer or deeper than the limits
    allow. ``tokens`` is the budget of tokens the text may spend (shared by
    the files of one variant; by default a budget of its own).
    """
    text_size(text, path)
    tree = _parse_tree(text, path, tokens or L.Budget(L.TOKENS))
    try:
        return ToDecls(path, text).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, RulesError):
            raise err.orig_exc from None
        # A pydantic validation error: a value of the right token type but out of range.
        meta = getattr(err.obj, "meta", None)
        loc = Loc(path, meta.line, meta.column, None, text) if meta is not None and not meta.empty else None
        raise RulesSyntaxError(f"invalid {err.rule}: {err.orig_exc}", loc) from None


def text_size(text: str, path: str) -> int:
    """The size of ``text`` in UTF-8 bytes, checked against the limit on one file; text that
    cannot be written as UTF-8 (lone surrogates) is refused."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as err:
        line = text.count("\n", 0, err.start) + 1
        column = err.start - (text.rfind("\n", 0, err.start) + 1) + 1
        raise RulesSyntaxError("the text is not valid Unicode (a lone surrogate)", Loc(path, line, column),
                               expected="UTF-8 text") from None
    L.FILE_BYTES.check(size, Loc(path, 1, 1), "this text")
    return size


_NUMBERS = frozenset({"INT", "NUMBER", "SIGNED_INT", "SIGNED_NUMBER"})


def _parse_tree(text: str, path: str, tokens: L.Budget) -> Tree:
    """The parse tree of ``text``; every token, their number and the parser's depth are checked
    as they come."""
    parser = grammar_parser()
    interactive = parser.parse_interactive(text)
    try:
        for token in interactive.iter_parse():
            tokens.spend(1, _token_loc(token, path, text), "this variant")
            _check_token(token, path, text)
            depth = len(interactive.parser_state.state_stack)
            if depth > L.PARSE_DEPTH.value:
                raise L.PARSE_DEPTH.error("the text nests too deeply here", _token_loc(token, path, text))
        return interactive.resume_parse()
    except UnexpectedInput:
        pass
    # Parse again the usual way: its error knows every token that would have been accepted.
    try:
        return parser.parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(err, path, text) from None


def _check_token(token: Token, path: str, text: str) -> None:
    """The limits on one string, name or number."""
    if token.type == "STRING":
        quotes = 6 if token.startswith('"""') else 2
        L.STRING_CHARS.check(len(token) - quotes, _token_loc(token, path, text), "this string")
    elif token.type in _NUMBERS:
        value = float(token)
        if not math.isfinite(value) or abs(value) > L.NUMBER.value:
            raise L.NUMBER.error(f"the number {clip(token, 20)} is too large", _token_loc(token, path, text))
    elif len(token) > L.NAME_CHARS.value:
        L.NAME_CHARS.check(len(token), _token_loc(token, path, text), "this name")


def _token_loc(token: Token, path: str, text: str) -> Loc:
    end = token.end_column if token.end_line == token.line else None
    return Loc(path, token.line, token.column, end, text)


def expected_after(text: str) -> tuple[list[str], set[str]] | None:
    """What the grammar accepts right after ``text`` (the text of a file up to a cursor, a word being
    typed left out): the keywords that may stand there, sorted, and the names of every terminal
    accepted (``NAME`` where a declared name may stand). None when ``text`` is already not valid up
    to its end, so nothing can be said of what follows (the editor's completion then falls back to
    the names the file declares)."""
    interactive = grammar_parser().parse_interactive(text)
    try:
        interactive.exhaust_lexer()
        accepted = set(interactive.accepts())
    except UnexpectedInput:
        return None
    words: list[str] = []
    for terminal in accepted:
        try:
            pattern = grammar_parser().get_terminal(terminal).pattern
        except KeyError:
            continue
        words += _words_of(pattern) or []
    return sorted(set(words)), accepted
