"""What the player's terminal can show, read from the environment before Textual starts.

- `TERM=dumb` (or `unknown`) promises no colour at all, but Textual would draw in 24-bit
  colour (it takes "no colour system" for "truecolor"). Such a terminal gets the `NO_COLOR`
  drawing, in the 16 basic codes only.
- A locale that is not UTF-8 (`LANG=C`, `LC_ALL=C`, nothing set at all) means the terminal may
  not show UTF-8; Python and Textual write UTF-8 whatever the locale. Like tmux and ncurses
  programs, the game then draws in ASCII (`AsciiOnly`), and the lobby says what to set.
- A `TEXTUAL_COLOR_SYSTEM` that is not a colour system (a typo) is ignored, and said so: left
  as it is, Textual would stop at its start.

Neither applies to the browser (`cubilete web`): textual-serve's page is always UTF-8 and in
colour, whatever the server's environment says.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Mapping, MutableMapping
from functools import lru_cache
from typing import TYPE_CHECKING

from rules import N_, Text

if TYPE_CHECKING:
    from textual.filter import LineFilter

DUMB_TERMS = frozenset({"dumb", "unknown"})
COERCED_LC_CTYPE = frozenset({"C.UTF-8", "C.utf8", "UTF-8"})
"""What Python puts in LC_CTYPE when it finds a C locale at start (PEP 538)."""


def in_a_browser(environ: Mapping[str, str]) -> bool:
    return "TEXTUAL_DRIVER" in environ


def is_dumb(environ: Mapping[str, str]) -> bool:
    return environ.get("TERM", "").strip().lower() in DUMB_TERMS


def draw_without_colour(environ: MutableMapping[str, str]) -> bool:
    """On a dumb terminal, ask Textual (through its own settings, before it is imported) for
    the NO_COLOR drawing in the basic colour codes. True if it did."""
    if in_a_browser(environ) or not is_dumb(environ):
        return False
    environ.setdefault("NO_COLOR", "1")
    environ.setdefault("TEXTUAL_COLOR_SYSTEM", "standard")
    return True


COLOUR_SYSTEMS = ("auto", "standard", "256", "truecolor", "windows")
"""What `TEXTUAL_COLOR_SYSTEM` may say (Rich's colour systems, and "auto")."""


def forget_unknown_colour_system(environ: MutableMapping[str, str]) -> Text | None:
    """An unknown `TEXTUAL_COLOR_SYSTEM` (a typo in an SSH wrapper) would stop Textual as it
    starts, for every player: it is taken out of `environ` (call it before Textual is
    imported: it reads it once), and the one line that says so is returned (None: it is
    known, or not set)."""
    value = environ.get("TEXTUAL_COLOR_SYSTEM")
    if value is None or value in COLOUR_SYSTEMS:
        return None
    del environ["TEXTUAL_COLOR_SYSTEM"]
    return Text(
        N_("TEXTUAL_COLOR_SYSTEM={value} is not one of {known}: it is ignored"),
        {"value": ascii(value), "known": ", ".join(COLOUR_SYSTEMS)},
    )


def chosen_locale(environ: Mapping[str, str], utf8_mode: bool | None = None) -> str:
    """The locale the player chose for characters: the first of LC_ALL, LC_CTYPE and LANG
    that is set ("C" if none is, as POSIX says). An LC_CTYPE that Python set itself when it
    found a C locale (PEP 538 coercion, which also turns on its UTF-8 mode) is not a choice
    and is passed over."""
    if utf8_mode is None:
        utf8_mode = bool(sys.flags.utf8_mode)
    coerced = utf8_mode and environ.get("LC_CTYPE") in COERCED_LC_CTYPE
    for name in ("LC_ALL", "LANG") if coerced else ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(name, "")
        if value:
            return value
    return "C"


def is_utf8(locale_name: str) -> bool:
    charset = locale_name.partition(".")[2].partition("@")[0]
    return charset.replace("-", "").lower() == "utf8"


def ascii_notice(environ: Mapping[str, str] = os.environ) -> Text | None:
    """If the terminal should get ASCII only: the one line that says why and what to set
    (a message: the lobby shows it in the language of the moment)."""
    if in_a_browser(environ):
        return None
    chosen = chosen_locale(environ)
    if is_utf8(chosen):
        return None
    plain = N_(
        "Plain ASCII: the locale ({locale}) is not UTF-8. For the full drawing, start "
        "Cubilete with LC_ALL=C.UTF-8."
    )
    return Text(plain, {"locale": chosen})


# -- drawing in ASCII ---------------------------------------------------------------------------

ASCII_FOR = {
    "→": ">", "←": "<", "↑": "^", "↓": "v", "↩": "<", "⏎": "<",
    "▸": ">", "▶": ">", "►": ">", "◂": "<", "◀": "<", "▲": "^", "▼": "v",
    "›": ">", "‹": "<", "»": ">", "«": "<",
    "·": ".", "•": "*", "…": ".", "×": "x", "−": "-", "–": "-", "—": "-", "≈": "~",
    "‘": "'", "’": "'", "“": '"', "”": '"', "⌈": "[", "⌉": "]", "⌊": "[", "⌋": "]",
    "●": "o", "○": "o", "◇": "o", "◆": "*", "■": "#", "□": "#", "★": "*", "☆": "*",
    "⚠": "!", "✓": "v", "✔": "v", "✗": "x", "✘": "x",
    "⚔": "x", "☠": "X", "♥": "+", "⌂": "H", "⭘": "O", "Σ": "S",
}  # fmt: skip
"""Characters the app draws, each as the ASCII character that reads most like it. Held apart:
a strike (x) and an elimination (X); a winner (*) and a landing (o)."""


@lru_cache(maxsize=4096)
def ascii_char(char: str) -> str:
    """`char` in ASCII, as many cells wide as the terminal would have drawn it."""
    from rich.cells import get_character_cell_size

    width = get_character_cell_size(char)
    if width == 0:
        return ""
    found = ASCII_FOR.get(char) or _by_name(char)
    return (found * width)[:width] if len(found) == 1 else found[:width].ljust(width)


def _by_name(char: str) -> str:
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        return _box(name)
    if name.endswith(("BLOCK", "SHADE")) or "EIGHTH" in name or "QUADRANT" in name:
        if ("LEFT" in name and "EIGHTH" in name) or "RIGHT ONE EIGHTH" in name:
            return "|"
        if "LOWER ONE EIGHTH" in name:
            return "_"
        if "UPPER ONE EIGHTH" in name:
            return "-"
        return "#"
    if name.startswith("BRAILLE"):
        return ":"
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    return plain[:1] or "?"


def _box(name: str) -> str:
    across = any(word in name for word in ("HORIZONTAL", "LEFT", "RIGHT"))
    along = any(word in name for word in ("VERTICAL", "UP", "DOWN"))
    if "DIAGONAL" in name:
        return "X" if "CROSS" in name else "/" if "UPPER RIGHT" in name else "\\"
    if across and along:
        return "+"
    if across:
        return "=" if "HEAVY" in name or "DOUBLE" in name else "-"
    return "|"


def to_ascii(text: str) -> str:
    if text.isascii():
        return text
    return "".join(char if char.isascii() else ascii_char(char) for char in text)


def ascii_filter() -> LineFilter:
    """A Textual line filter that redraws every non-ASCII character in ASCII, cell for cell.

    (Built on demand: Textual is imported only by the app.)"""
    from rich.segment import Segment
    from textual.color import Color
    from textual.filter import LineFilter

    class AsciiOnly(LineFilter):
        def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
            return [
                segment
                if segment.control or segment.text.isascii()
                else Segment(to_ascii(segment.text), segment.style, segment.control)
                for segment in segments
            ]

    return AsciiOnly()
