"""A small document model and its two writers, Markdown and HTML.

The documentation generator builds a list of blocks (:class:`Heading`,
:class:`Paragraph`, :class:`Image`, :class:`Table`, :class:`Code`,
:class:`Items`, :class:`Link`) and writes it with :func:`to_markdown` or
:func:`to_html`, so both formats say the same thing. Text inside blocks
may use two inline conventions of Markdown: `code` in backticks and
**bold**; the HTML writer turns them into ``<code>`` and ``<strong>``
and escapes everything else, and the Markdown writer escapes ``<`` and
``&`` outside code: text from a rules file never becomes markup.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Image:
    path: str
    alt: str


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Items:
    """A bulleted list."""

    items: tuple[str, ...]


@dataclass(frozen=True)
class Link:
    """A paragraph ``text`` ending in a link ``label`` to ``href``, an address the generator made (the page
    of ``rules serve`` with a bundled variant's name): never one from a rules file, which stays text."""

    text: str
    label: str
    href: str


Block = Heading | Paragraph | Image | Table | Code | Items | Link

_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|(!?)\[([^\]]*)\]\(([^)]+)\)")
# The targets of the generator's own pictures and links: relative paths of plain names (no scheme,
# no '..'), files of the documentation itself.
_LOCAL = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.-]*)*")


def _md_cell(text: str) -> str:
    return md_text(text).replace("|", "\\|")


def md_text(text: str) -> str:
    """``text`` for Markdown, read as its characters wherever it came from: outside `code` spans,
    ``<`` and ``&`` are escaped (no raw HTML) and so is every link or picture whose target is
    not a file of the documentation (``![alt](piece-king.svg)``, ``[Chess](chess/index.md)``), so
    that text from a rules file cannot become markup."""
    out, last = [], 0
    for match in _INLINE.finditer(text):
        out.append(_md_plain(text[last:match.start()]))
        code, bang, label, target = match.group(1), match.group(3), match.group(4), match.group(5)
        if code is not None:
            out.append(match.group(0))
        elif target is not None and _LOCAL.fullmatch(target):
            out.append(f"{bang}[{_md_plain(label)}]({target})")
        else:
            out.append(_md_plain(match.group(0)))
        last = match.end()
    out.append(_md_plain(text[last:]))
    return "".join(out)


def _md_plain(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace("](", "]\\(")


def to_markdown(blocks: list[Block]) -> str:
    """The blocks as Markdown (CommonMark with pipe tables)."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append("#" * block.level + " " + md_text(block.text))
        elif isinstance(block, Paragraph):
            out.append(md_text(block.text))
        elif isinstance(block, Image):
            out.append(f"![{md_text(block.alt)}]({block.path})")
        elif isinstance(block, Table):
            lines = ["| " + " | ".join(_md_cell(h) for h in block.header) + " |",
                     "|" + "---|" * len(block.header)]
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in block.rows]
            out.append("\n".join(lines))
        elif isinstance(block, Code):
            out.append("```text\n" + block.text + "\n```")
        elif isinstance(block, Link):
            out.append(f"{md_text(block.text)}[{_md_plain(block.label)}]({block.href})")
        else:
            out.append("\n".join(f"- {md_text(item)}" for item in block.items))
    return "\n\n".join(out) + "\n"




def inline_html(text: str) -> str:
    """Escape ``text`` for HTML, turning `code`, **bold** and ![alt](image) (of a file of the
    documentation) into elements."""
    out, last = [], 0
    for match in _INLINE.finditer(text):
        out.append(html.escape(text[last:match.start()], quote=False))
        code, bold, bang, alt, src = match.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code, quote=False)}</code>")
        elif bold is not None:
            out.append(f"<strong>{html.escape(bold, quote=False)}</strong>")
        elif bang and _LOCAL.fullmatch(src):
            out.append(f'<img src="{html.escape(src)}" alt="{html.escape(alt)}">')
        else:  # a link, or not a picture of the page (a web address in a description): shown as text
            out.append(html.escape(match.group(0), quote=False))
        last = match.end()
    out.append(html.escape(text[last:], quote=False))
    return "".join(out)


_STYLE = ("body{font-family:sans-serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.5}"
          "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}"
          "code{background:#f3f3f3;padding:0 .2em}pre{background:#f3f3f3;padding:.6em;overflow-x:auto}"
          "img{max-width:100%}td img{height:2.2em}")


def to_html(blocks: list[Block], title: str) -> str:
    """The blocks as a standalone HTML page."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{html.escape(title)}</title>", f"<style>{_STYLE}</style>", "</head>", "<body>"]
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"<h{block.level}>{inline_html(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            out.append(f"<p>{inline_html(block.text)}</p>")
        elif isinstance(block, Image):
            out.append(f'<p><img src="{html.escape(block.path)}" alt="{html.escape(block.alt)}"></p>')
        elif isinstance(block, Table):
            head = "".join(f"<th>{inline_html(h)}</th>" for h in block.header)
            rows = "".join("<tr>" + "".join(f"<td>{inline_html(c)}</td>" for c in row) + "</tr>" for row in block.rows)
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif isinstance(block, Code):
            out.append(f"<pre><code>{html.escape(block.text, quote=False)}</code></pre>")
        elif isinstance(block, Link):
            link = f'<a href="{html.escape(block.href)}">{html.escape(block.label)}</a>'
            out.append(f"<p>{inline_html(block.text)}{link}</p>")
        else:
            out.append("<ul>" + "".join(f"<li>{inline_html(i)}</li>" for i in block.items) + "</ul>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
