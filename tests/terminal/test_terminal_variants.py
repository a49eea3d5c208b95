"""The game in the terminals people actually have: TERM variants, NO_COLOR, a window resized.

Each test runs `cubilete` in an 80x24 tmux pane (private socket) and reads it with
capture-pane: the plain text for what a player reads, `-e` for the colours it was drawn in.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

import pytest
from termhelpers import Pane, cubilete, needs_tmux

from app.games import playable
from rules import get_game

# Loaded dice: the roll-off (Ana 6, Bruno 1: Ana starts), Ana's first throw 1 2 3 4 5, then the
# four dice she does not hold come up 6 6 6 6.
DICE = "6,1,1,2,3,4,5,6,6,6,6"
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def colours(screen: str) -> set[tuple[str, int]]:
    """The 256-palette colours (("38", n) foreground, ("48", n) background) drawn on screen."""
    found = set()
    for params in SGR.findall(screen):
        values = params.split(";")
        for index, value in enumerate(values[:-2]):
            if value in ("38", "48") and values[index + 1] == "5":
                found.add((value, int(values[index + 2])))
    return found


def hues(screen: str) -> set[str]:
    """Every colour in the drawing that is not a shade of grey."""
    found = set()
    for params in SGR.findall(screen):
        values = [int(v) if v.isdigit() else 0 for v in params.split(";")] if params else [0]
        index = 0
        while index < len(values):
            value = values[index]
            if value in (38, 48) and index + 1 < len(values) and values[index + 1] == 5:
                colour = values[index + 2] if index + 2 < len(values) else 0
                if not is_grey_256(colour):
                    found.add(f"{value};5;{colour}")
                index += 3
            elif value in (38, 48) and index + 1 < len(values) and values[index + 1] == 2:
                r, g, b = [*values[index + 2 : index + 5], 0, 0, 0][:3]
                if not r == g == b:
                    found.add(f"{value};2;{r};{g};{b}")
                index += 5
            else:
                if 31 <= value <= 36 or 41 <= value <= 46 or 91 <= value <= 96:
                    found.add(str(value))
                if 101 <= value <= 106:
                    found.add(str(value))
                index += 1
    return found


def is_grey_256(colour: int) -> bool:
    if colour in (0, 7, 8, 15) or colour >= 232:
        return True
    if 16 <= colour <= 231:
        r, g, b = (colour - 16) // 36, (colour - 16) // 6 % 6, (colour - 16) % 6
        return r == g == b
    return False


def test_the_grey_check_tells_grey_from_colour():
    assert hues("\x1b[38;5;253;48;5;233mx\x1b[0m\x1b[1;38;5;59mx") == set()
    assert hues("\x1b[1;38;5;214;48;5;17mx") == {"38;5;214", "48;5;17"}
    assert hues("\x1b[38;2;10;10;10mx\x1b[48;2;200;10;10mx") == {"48;2;200;10;10"}
    assert hues("\x1b[31mx\x1b[0;1;7mx") == {"31"}


def start_generala(pane: Pane, env: dict[str, str | None]) -> str:
    """Start Generala, throw, hold die 1: the screen then (held die, current player)."""
    pane.start(cubilete("--game", "generala", "--dice", DICE), env=env)
    pane.wait_for(r"Start \(F2\)")
    pane.keys("F2")
    pane.wait_for(r"Ana · round 1 of 13")
    pane.keys("Space")
    pane.wait_for(r"Ana throws 1 2 3 4 5 \(throw 1 of 3\)")
    pane.keys("1")
    return pane.wait_for(r"Holding 1")


def assert_markers(screen: str) -> None:
    """Held dice and the player to play are told in text, not only in colour."""
    assert "┏━ 1 ━┓" in screen, screen  # the held die: a heavy border ...
    assert re.search(r"│\s+held\s", screen), screen  # ... and the word under it
    assert "╭─ 2 ─╮" in screen, screen  # a die not held keeps its light border
    assert re.search(r"▸Ana\s+Bruno", screen), screen  # the sheet marks whose turn it is


TERMINALS = ["xterm-256color", "xterm", "screen-256color", "tmux-256color"]


@needs_tmux
@pytest.mark.parametrize("term", TERMINALS)
def test_a_turn_and_a_resize_in_each_terminal_type(term):
    # COLUMNS/LINES exported by a shell or a script are stale after the first resize: the game
    # must follow the window, not them.
    env: dict[str, str | None] = {"TERM": term, "COLUMNS": "80", "LINES": "24"}
    env |= {"COLORTERM": None, "NO_COLOR": None}
    with Pane(80, 24) as pane:
        screen = start_generala(pane, env)
        assert_markers(screen)
        drawn = pane.capture(escapes=True)
        assert hues(drawn), "the game is drawn in colour"
        if term.endswith("256color"):
            assert colours(drawn), "a 256-colour terminal gets the 256-colour palette"

        pane.resize(60, 20)  # smaller than the game needs: it says so, and waits
        screen = pane.wait_for(r"Terminal too small")
        assert "80×24" in screen
        pane.resize(80, 24)  # and back: the game as it was
        pane.wait_for(r"Ana · round 1 of 13 · throw 1 of 3")
        screen = pane.settled()
        assert "Terminal too small" not in screen
        assert_markers(screen)

        pane.keys("r")  # play on: die 1 stays held, the other four are thrown again
        screen = pane.wait_for(r"Ana throws 1 6 6 6 6 \(throw 2 of 3\)")
        assert "┏━ 1 ━┓" in screen
        pane.keys("C-q")
        assert pane.exit_status() == 0


@needs_tmux
def test_no_color_keeps_the_held_die_and_the_player_to_play_visible():
    env: dict[str, str | None] = {"TERM": "xterm-256color", "COLORTERM": None, "NO_COLOR": "1"}
    with Pane(80, 24) as pane:
        screen = start_generala(pane, env)
        assert hues(pane.capture(escapes=True)) == set(), "NO_COLOR: shades of grey only"
        assert_markers(screen)
        pane.keys("C-q")
        assert pane.exit_status() == 0


@needs_tmux
@pytest.mark.parametrize("game_id", playable())
def test_no_color_still_marks_who_plays_in_every_game(game_id):
    """In every game (sides included) the seat to play is marked ▸, and nothing has a hue."""
    env: dict[str, str | None] = {"TERM": "xterm-256color", "COLORTERM": None, "NO_COLOR": "1"}
    with Pane(80, 24) as pane:
        pane.start(cubilete("--game", game_id, "--seed", "5"), env=env)
        pane.wait_for(r"Start \(F2\)")
        pane.keys("F2")
        pane.wait_for(re.escape(f"Cubilete — {get_game(game_id).name}"))
        screen = pane.wait_for(r"▸\s*\w+")
        assert hues(pane.capture(escapes=True)) == set(), screen
        pane.resize(60, 20)
        pane.wait_for(r"Terminal too small")
        pane.resize(80, 24)
        pane.wait_for(r"▸\s*\w+")
        pane.keys("C-q")
        assert pane.exit_status() == 0


# -- terminals that promise less (issue 16, item 18) -------------------------------------------

BASIC_SGR = {0, 1, 2, 3, 4, 7, 9, 21, 22, 23, 24, 27, 29, 39, 49}
"""Attributes and resets: everything a terminal without colour may still be sent."""


def colour_codes(screen: str) -> set[str]:
    """Every SGR colour parameter drawn: "38;2;r;g;b", "48;5;n", or a basic "31", "100"..."""
    found = set()
    for params in SGR.findall(screen):
        values = params.split(";") if params else ["0"]
        index = 0
        while index < len(values):
            value = values[index]
            if value in ("38", "48") and index + 1 < len(values):
                size = 5 if values[index + 1] == "2" else 3
                found.add(";".join(values[index : index + size]))
                index += size
                continue
            if value and int(value) not in BASIC_SGR:
                found.add(value)
            index += 1
    return found


@needs_tmux
@pytest.mark.parametrize("term", ["dumb", "unknown"])
def test_a_dumb_terminal_gets_no_colours_beyond_the_basic_greys(term):
    """TERM=dumb promises no colour: the game draws as under NO_COLOR, in the 16 basic codes
    only (it drew in 24-bit colour), and stays readable."""
    env: dict[str, str | None] = {"TERM": term, "COLORTERM": None, "NO_COLOR": None}
    with Pane(80, 24) as pane:
        screen = start_generala(pane, env)
        assert_markers(screen)
        drawn = pane.capture(escapes=True)
        codes = colour_codes(drawn)
        assert not any(code.startswith(("38;", "48;")) for code in codes), codes
        greys = {"30", "37", "90", "97", "40", "47", "100", "107"}
        assert codes <= greys, codes
        pane.keys("C-q")
        assert pane.exit_status() == 0


@needs_tmux
@pytest.mark.parametrize(
    "locale",
    [{"LANG": "C"}, {"LC_ALL": "C", "LANG": "C.UTF-8"}, {"LANG": None}, {"LC_ALL": "POSIX"}],
    ids=["LANG=C", "LC_ALL=C", "no-LANG", "LC_ALL=POSIX"],
)
def test_a_locale_that_is_not_utf8_gets_plain_ascii_and_one_line_on_what_to_set(locale):
    env: dict[str, str | None] = {"TERM": "xterm-256color", **locale}
    with Pane(80, 24) as pane:
        pane.start(cubilete("--game", "generala", "--dice", DICE), env=env)
        lobby = pane.wait_for(r"Start \(F2\)")
        said = " ".join(lobby.split())
        chosen = locale.get("LC_ALL") or locale.get("LANG") or "C"
        assert (
            f"Plain ASCII: the locale ({chosen}) is not UTF-8. For the full drawing, start "
            "Cubilete with LC_ALL=C.UTF-8."
        ) in said, lobby
        assert lobby.isascii(), [c for c in lobby if not c.isascii()]
        assert "|>Generala" in lobby
        pane.keys("F2")
        pane.wait_for(r"Ana \. round 1 of 13")
        pane.keys("Space")
        pane.wait_for(r"Ana throws 1 2 3 4 5 \(throw 1 of 3\)")
        pane.keys("1")
        screen = pane.wait_for(r"Holding 1")
        assert screen.isascii(), [c for c in screen if not c.isascii()]
        assert "+= 1 =+" in screen and "+- 2 -+" in screen, screen  # held: a heavier border
        assert re.search(r"\|\s+held\s", screen), screen
        assert re.search(r">Ana\s+Bruno", screen), screen
        pane.keys("C-q")
        assert pane.exit_status() == 0


@needs_tmux
def test_a_utf8_locale_keeps_the_full_drawing():
    env: dict[str, str | None] = {"TERM": "xterm-256color", "LANG": "C", "LC_ALL": "C.UTF-8"}
    with Pane(80, 24) as pane:
        screen = start_generala(pane, env)
        assert_markers(screen)
        assert "Plain ASCII" not in screen
        pane.keys("C-q")
        assert pane.exit_status() == 0


def idle_bytes_with_the_palette_open(seconds: float, data_dir: str) -> int:
    """Start the game in a pty (80x24), open the command palette, and count the bytes it
    writes while nobody touches anything for `seconds`."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game, as a player starts it
        env = {**os.environ, "TERM": "xterm-256color", "CUBILETE_DATA_DIR": data_dir}
        for name in ("COLUMNS", "LINES", "NO_COLOR", "COLORTERM", "LC_ALL", "LC_CTYPE"):
            env.pop(name, None)
        env["LANG"] = "C.UTF-8"
        os.execve(sys.executable, [sys.executable, "-m", "app"], env)
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        seen = bytearray()

        def read_for(timeout: float) -> bytes:
            ready, _, _ = select.select([fd], [], [], timeout)
            return os.read(fd, 65536) if ready else b""

        def read_until(marker: bytes, timeout: float = 30) -> None:
            end = time.monotonic() + timeout
            while marker not in seen:
                assert time.monotonic() < end, f"{marker!r} never came:\n{bytes(seen[-3000:])!r}"
                seen.extend(read_for(0.1))

        read_until(b"Start (F2)")
        seen.clear()
        os.write(fd, b"\x10")  # ctrl+p
        read_until(b"for commands")  # (the placeholder, after the cursor cell)
        settle = time.monotonic() + 3  # the palette's opening, drawn to the end
        while read_for(1.0) and time.monotonic() < settle:
            pass
        written, end = 0, time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            written += len(read_for(left))
        return written
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def test_the_open_command_palette_writes_nothing_while_idle(tmp_path):
    """Its blinking cursor repainted the input line twice a second: ~1 KB/s over SSH."""
    assert idle_bytes_with_the_palette_open(3.0, str(tmp_path)) == 0
