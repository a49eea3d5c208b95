"""What the terminal can show (app/terminal.py): the locale a player chose, and ASCII drawing
that keeps every cell where it was."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from rich.cells import cell_len

from app.terminal import ascii_notice, chosen_locale, draw_without_colour, is_utf8, to_ascii

APP = Path(__file__).resolve().parents[1] / "app"


@pytest.mark.parametrize(
    ("environ", "utf8_mode", "chosen"),
    [
        ({"LANG": "C.UTF-8"}, False, "C.UTF-8"),
        ({"LANG": "en_US.UTF-8"}, False, "en_US.UTF-8"),
        ({"LANG": "C"}, False, "C"),
        ({"LC_ALL": "C", "LANG": "C.UTF-8"}, True, "C"),
        ({"LC_ALL": "POSIX"}, True, "POSIX"),
        ({}, False, "C"),
        ({"LANG": ""}, False, "C"),
        # Python found a C locale at start and set LC_CTYPE itself (PEP 538): not a choice
        ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, True, "C"),
        ({"LC_CTYPE": "C.UTF-8"}, True, "C"),
        # ... while a player who set LC_CTYPE gets what they set
        ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, False, "C.UTF-8"),
        # a UTF-8 locale this machine lacks: Python coerced, but the terminal is UTF-8
        ({"LANG": "pt_BR.UTF-8", "LC_CTYPE": "C.UTF-8"}, True, "pt_BR.UTF-8"),
    ],
)
def test_the_locale_a_player_chose(environ, utf8_mode, chosen):
    assert chosen_locale(environ, utf8_mode) == chosen


@pytest.mark.parametrize(
    ("name", "utf8"),
    [
        ("C.UTF-8", True),
        ("C.utf8", True),
        ("es_AR.UTF-8@euro", True),
        ("C", False),
        ("POSIX", False),
        ("pt_PT.ISO-8859-1", False),
        ("en_US", False),
    ],
)
def test_which_locales_are_utf8(name, utf8):
    assert is_utf8(name) is utf8


def test_the_browser_is_always_utf8_and_in_colour():
    web = {"TEXTUAL_DRIVER": "textual_serve", "LANG": "C", "TERM": "dumb"}
    assert ascii_notice(web) is None
    assert draw_without_colour(web) is False
    assert "NO_COLOR" not in web


def test_a_dumb_terminal_asks_textual_for_the_no_color_drawing_in_basic_codes():
    environ = {"TERM": "dumb"}
    assert draw_without_colour(environ) is True
    assert environ == {"TERM": "dumb", "NO_COLOR": "1", "TEXTUAL_COLOR_SYSTEM": "standard"}
    chosen = {"TERM": "dumb", "TEXTUAL_COLOR_SYSTEM": "256"}
    draw_without_colour(chosen)
    assert chosen["TEXTUAL_COLOR_SYSTEM"] == "256", "a player's own setting stays"
    assert draw_without_colour({"TERM": "xterm-256color"}) is False


def characters_the_app_draws() -> set[str]:
    found: set[str] = set()
    for path in [*APP.rglob("*.py"), *APP.rglob("*.tcss"), *APP.parent.glob("seeds/*.md")]:
        found |= {char for char in path.read_text(encoding="utf-8") if not char.isascii()}
    return found


BOX_AND_BLOCKS = {chr(code) for code in range(0x2500, 0x25A0)}
OTHERS = set("ñÑüÜ€£©®°±¼½¾¿¡ß🎲😀漢字\u200b\u0301\u200f\u202eé")


@pytest.mark.parametrize(
    "char", sorted(characters_the_app_draws() | BOX_AND_BLOCKS | OTHERS), ids=ascii
)
def test_each_character_becomes_ascii_of_the_same_width(char):
    plain = to_ascii(char)
    assert plain.isascii()
    assert cell_len(plain) == cell_len(char), (char, plain)
    if cell_len(char) and unicodedata.category(char)[0] not in "CZ":
        assert plain.strip(), f"{char!r} vanished"


def test_lines_keep_their_reading():
    assert to_ascii("╭─ Table talk ─╮") == "+- Table talk -+"
    assert to_ascii("┏━ 1 ━┓") == "+= 1 =+"
    assert to_ascii("Capitán y Tripulación · Navío") == "Capitan y Tripulacion . Navio"
    assert to_ascii("‹ Human ›") == "< Human >"
    assert to_ascii("▸Ana") == ">Ana"
    assert to_ascii("⚔ strikes ☠ eliminates ◇ lands") == "x strikes X eliminates o lands"
    assert to_ascii("plain text") == "plain text"
