"""A player's own text on screen (names now, chat later), shown literally.

Most of Textual reads markup in the strings it is given (`Static`, `Button`, border titles,
`DataTable` cells, notifications): a player named `[/]` raised `MarkupError` in the middle of a
game, and again on every resume of its save. And nothing between a string and the terminal
stops a control character: an ESC in a name reached the terminal as ESC.

So every string that can hold a player's text goes on screen through here:

- `plain(*lines)` for widgets that read markup: a `Content` is drawn as it is;
- `visible(text)` for text drawn as a Rich `Text` or into a log (no markup is read there, but
  control characters would still pass).

What the terminal may receive of such text: control characters (C0, DEL, C1) become their
visible symbols (ESC shows as ␛, a newline as ␊), invisible formatting characters (zero-width
spaces and joiners, bidi overrides and isolates) are left out, and a broken surrogate (possible
in a hand-edited save) shows as �. Variation selectors are left out too: a character is drawn
in its default presentation, at the width Textual and terminals agree on (Textual counts ❤ with
VS16, "❤️", as two cells; tmux draws it in one, and the rest of the row slid left). Everything
else is drawn as written: brackets, emoji, Chinese, right-to-left scripts.

A player's text is measured and padded in cells, never in characters (`cells`, `clip`, `pad`):
a Chinese character takes two.
"""

from __future__ import annotations

import unicodedata
from typing import Literal

from rich.cells import cell_len
from textual.content import Content

REPLACEMENT = "\N{REPLACEMENT CHARACTER}"
VARIATION_SELECTORS = frozenset({*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)})
_SYMBOLS = {
    **{code: chr(0x2400 + code) for code in range(0x20)},  # ␀ … ␟
    0x7F: "\N{SYMBOL FOR DELETE}",
    **{code: REPLACEMENT for code in range(0x80, 0xA0)},  # C1 controls (CSI is one of them)
}


def _shown_as(char: str) -> str:
    code = ord(char)
    if code in _SYMBOLS:
        return _SYMBOLS[code]
    if code in VARIATION_SELECTORS:
        return ""
    category = unicodedata.category(char)
    if category == "Cf":  # format: zero-width, joiners, bidi overrides, BOM
        return ""
    if category in ("Cs", "Zl", "Zp"):  # lone surrogate; line and paragraph separators
        return REPLACEMENT if category == "Cs" else " "
    return char


def visible(text: str) -> str:
    """`text` with nothing in it that a terminal would act on rather than draw."""
    if text.isprintable() and not any(ord(char) in VARIATION_SELECTORS for char in text):
        return text  # (the usual case: letters, digits, spaces, brackets, emoji)
    return "".join(_shown_as(char) for char in text)


def plain(*lines: str) -> Content:
    """The lines, one under the other, as content drawn literally: no markup is read and no
    control character is sent (a newline inside a line shows as ␊)."""
    return Content("\n".join(visible(line) for line in lines))


def cells(text: str) -> int:
    """How many cells `text` takes on screen, shown as `visible` shows it."""
    return cell_len(visible(text))


def clip(text: str, width: int, ellipsis: str = "") -> str:
    """`text` as shown, cut to at most `width` cells; a cut one ends with `ellipsis`."""
    shown = visible(text)
    if cell_len(shown) <= width:
        return shown
    room = width - cell_len(ellipsis)
    while shown and cell_len(shown) > room:
        shown = shown[:-1]
    return shown + ellipsis if room >= 0 else ""


def pad(text: str, width: int, align: Literal["left", "right"] = "left") -> str:
    """`text` as shown, cut to `width` cells and padded with spaces to exactly `width`."""
    shown = clip(text, width)
    blanks = " " * (width - cell_len(shown))
    return shown + blanks if align == "left" else blanks + shown
