"""Piece images drawn by the project: SVG shapes in a 100 x 100 box.

Each image is a list of SVG elements in a box from (0, 0) to (100, 100),
standing on its base near y = 88, centred on x = 50. Elements are written
with three colour roles, filled in per army:

- ``{body}``: the fill of the silhouette (the army's colour);
- ``{line}``: the outline (always dark, so that light pieces show on light
  cells);
- ``{detail}``: lines and dots drawn on the body (contrasting with it).

The orthodox pieces have images of their own; they are chosen by the
piece's name (``King``, ``queen`` ...), never by the name of a game. Any
other piece gets :func:`generic_image`: a disc with its letter, and a piece with a ``glyph``
:func:`glyph_elements`: a disc with its glyph. New
pictures (a cannon, an elephant ...) are new entries of :data:`IMAGES`.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

_OUTLINE = 'fill="{body}" stroke="{line}" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"'
_DETAIL = 'fill="none" stroke="{detail}" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"'
_DOT = 'fill="{detail}" stroke="none"'
_BASE = f'<rect x="22" y="78" width="56" height="10" rx="3" {_OUTLINE}/>'

IMAGES: dict[str, list[str]] = {
    "pawn": [
        f'<path d="M50 14 a13 13 0 0 1 8.5 22.8 q7.5 4.2 7.5 11.2 h-6.5 q1.5 14 12.5 30 h-44 '
        f'q11 -16 12.5 -30 h-6.5 q0 -7 7.5 -11.2 a13 13 0 0 1 8.5 -22.8 z" {_OUTLINE}/>',
        _BASE,
    ],
    "rook": [
        f'<path d="M26 38 V14 h10 v8 h9 v-8 h10 v8 h9 v-8 h10 v24 z" {_OUTLINE}/>',
        f'<path d="M33 38 h34 l3 32 h-40 z" {_OUTLINE}/>',
        f'<rect x="27" y="68" width="46" height="10" rx="2" {_OUTLINE}/>',
        _BASE,
        f'<path d="M35 48 h30 M34 60 h32" {_DETAIL}/>',
    ],
    "bishop": [
        f'<circle cx="50" cy="12" r="5.5" {_OUTLINE}/>',
        f'<path d="M50 18 C33 32 31 52 38 64 h24 C69 52 67 32 50 18 z" {_OUTLINE}/>',
        f'<rect x="34" y="63" width="32" height="7" rx="2" {_OUTLINE}/>',
        f'<path d="M37 70 h26 l6 8 h-38 z" {_OUTLINE}/>',
        _BASE,
        f'<path d="M56 32 L45 46 M50 37 v0" {_DETAIL}/>',
    ],
    "knight": [
        f'<path d="M32 78 C31 66 37 58 47 52 C41 53 36 57 30 60 C24 63 17 60 16 53 '
        f'C15 48 26 36 36 27 L39 14 L47 21 L54 10 L57 24 C73 31 81 55 73 78 z" {_OUTLINE}/>',
        _BASE,
        f'<circle cx="42" cy="32" r="3" {_DOT}/>',
        f'<circle cx="22" cy="53" r="2" {_DOT}/>',
        f'<path d="M60 27 C70 36 74 52 69 72" {_DETAIL}/>',
    ],
    "queen": [
        f'<path d="M28 76 L18 30 L30 54 L34 22 L43 50 L50 16 L57 50 L66 22 L70 54 L82 30 L72 76 z" {_OUTLINE}/>',
        *(f'<circle cx="{x}" cy="{y}" r="5" {_OUTLINE}/>'
          for x, y in ((18, 28), (34, 20), (50, 13), (66, 20), (82, 28))),
        _BASE,
        f'<path d="M30 66 Q50 60 70 66" {_DETAIL}/>',
    ],
    "king": [
        f'<path d="M47 8 h6 v7 h7 v6 h-7 v14 h-6 v-14 h-7 v-6 h7 z" {_OUTLINE}/>',
        f'<path d="M30 76 C14 60 18 38 34 40 C42 41 47 48 50 56 C53 48 58 41 66 40 '
        f'C82 38 86 60 70 76 z" {_OUTLINE}/>',
        f'<path d="M50 56 C46 46 46 38 50 34 C54 38 54 46 50 56 z" {_OUTLINE}/>',
        _BASE,
        f'<path d="M31 66 Q50 60 69 66" {_DETAIL}/>',
    ],
    "duck": [
        f'<path d="M24 62 L9 47 L30 53 z" {_OUTLINE}/>',
        f'<ellipse cx="48" cy="62" rx="30" ry="17" {_OUTLINE}/>',
        f'<path d="M58 50 C56 42 56 36 60 30 L72 34 C68 40 68 45 70 52 z" {_OUTLINE}/>',
        '<path d="M76 28 L93 33 L77 39 z" fill="#e8891c" stroke="{line}" stroke-width="3" stroke-linejoin="round"/>',
        f'<circle cx="66" cy="30" r="13" {_OUTLINE}/>',
        f'<circle cx="69" cy="27" r="2.8" {_DOT}/>',
        f'<path d="M34 60 Q46 72 62 60" {_DETAIL}/>',
        _BASE,
    ],
}


def image_name(piece_name: str) -> str | None:
    """The key of :data:`IMAGES` for a piece name (case-insensitive), or None for a generic disc."""
    key = piece_name.lower()
    return key if key in IMAGES else None


def generic_image(letter: str) -> list[str]:
    """A disc with the piece's letter: the image of a piece without one of its own."""
    return [
        f'<circle cx="50" cy="52" r="36" {_OUTLINE}/>',
        f'<circle cx="50" cy="52" r="29" {_DETAIL}/>',
        f'<text x="50" y="66" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" '
        f'font-weight="bold" font-size="40" fill="{{detail}}">{escape(letter)}</text>',
    ]


GLYPH_FONTS = "Noto Serif CJK SC, Noto Serif CJK JP, Noto Sans CJK SC, WenQuanYi Zen Hei, AR PL UKai CN, serif"
"""Fonts for glyphs, in order of preference: none is bundled, so the reader's system supplies one."""


def glyph_elements(glyph: str, ink: str) -> str:
    """The SVG elements of a piece drawn by its glyph: an ivory disc ringed in ``ink`` with the
    glyph (one to three characters, escaped) written in ``ink``, smaller the longer it is."""
    ink = escape(ink, {'"': "&quot;"})
    size = {1: 50, 2: 34}.get(len(glyph), 25)
    return (f'<circle cx="50" cy="50" r="45" fill="#f4e4c1" stroke="{ink}" stroke-width="3"/>'
            f'<circle cx="50" cy="50" r="38" fill="none" stroke="{ink}" stroke-width="2"/>'
            f'<text x="50" y="{50 + size * 0.36:.1f}" text-anchor="middle" font-family="{GLYPH_FONTS}" '
            f'font-size="{size}" fill="{ink}">{escape(glyph)}</text>')


def piece_elements(piece_name: str, letter: str, body: str, line: str, detail: str) -> str:
    """The SVG elements of one piece image in the 100 x 100 box, in the given colours (escaped as
    attribute values whatever they are)."""
    key = image_name(piece_name)
    elements = IMAGES[key] if key else generic_image(letter)
    body, line, detail = (escape(c, {'"': "&quot;"}) for c in (body, line, detail))
    return "".join(e.format(body=body, line=line, detail=detail) for e in elements)
