"""The real `cubilete` in a real terminal when the start goes wrong (issue 16, items 6 and 9).

A player never sees a traceback: an unusable data dir is one line in the lobby and the game
is played unsaved; an error nobody foresaw ends the game with one line on the terminal, the
details in `errors.log` in the data dir.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from termhelpers import Pane, cubilete, needs_tmux

NOBODY = 65534
SETPRIV = shutil.which("setpriv")


def as_a_player() -> list[str]:
    """The command prefix that runs the game as an ordinary user: nothing when the tests do
    not run as root; as `nobody` (setpriv) when they do, since root writes anywhere."""
    if os.geteuid() != 0:
        return []
    if SETPRIV is None:
        pytest.skip("running as root without setpriv: cannot run the game as a plain user")
    prefix = [SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", "import app.main"],
        capture_output=True,
        timeout=60,
        cwd="/",
    )
    if probe.returncode != 0:
        pytest.skip(f"user {NOBODY} cannot run this Python: {probe.stderr[-200:]!r}")
    return prefix


@pytest.fixture
def home_of_root() -> Iterator[Path]:
    """A home the player cannot write in (it belongs to someone else, or is read-only)."""
    home = Path(tempfile.mkdtemp(prefix="cubilete-home-"))
    home.chmod(0o755 if os.geteuid() == 0 else 0o555)
    try:
        yield home
    finally:
        home.chmod(0o700)
        shutil.rmtree(home, ignore_errors=True)


@needs_tmux
def test_a_home_the_player_cannot_write_in_is_one_line_and_the_game_plays_unsaved(
    home_of_root,
):
    env: dict[str, str | None] = {
        "HOME": str(home_of_root),
        "XDG_DATA_HOME": None,
        "CUBILETE_DATA_DIR": None,
        "TERM": "xterm-256color",
    }
    data = home_of_root / ".local" / "share" / "cubilete"
    with Pane(100, 30) as pane:
        pane.start([*as_a_player(), *cubilete("--game", "generala", "--seed", "3")], env=env)
        screen = pane.wait_for(r"Start \(F2\)")
        said = " ".join(screen.split())
        assert "⚠ Games will not be saved: cannot create" in said
        assert str(home_of_root / ".local") in said.replace(" ", "")  # (may wrap)
        assert "permission denied" in said
        assert "Traceback" not in screen
        pane.keys("F2")
        pane.wait_for(r"Bruno · round 1 of 13")  # (seed 3: Bruno wins the roll-off)
        pane.keys("Space")
        screen = pane.wait_for(r"Bruno throws \d \d \d \d \d")
        assert "Could not save" not in screen
        pane.keys("C-q")
        assert pane.exit_status() == 0
    assert not (home_of_root / ".local").exists()
    assert not data.exists()


CRASH_IN_PLAY = """
import sys
from app.screens.lobby import LobbyScreen

def start_that_fails(self):
    raise RuntimeError("a bug nobody foresaw\\nwith a second line")

LobbyScreen.action_start = start_that_fails
from app.cli import main
sys.exit(main())
"""

CRASH_BEFORE_THE_SCREEN = """
import sys
from app import main as app_main

def broken(*args, **kwargs):
    raise KeyError("lobby")

app_main.CubileteApp.__init__ = broken
from app.cli import main
sys.exit(main())
"""


@needs_tmux
def test_an_unforeseen_error_in_play_ends_with_one_line_and_the_details_in_a_log(tmp_path):
    """A fault put into the real program (a lobby action that raises), in a real terminal:
    the game ends, the terminal is given back, one line says what and where."""
    data = tmp_path / "data"
    env: dict[str, str | None] = {"CUBILETE_DATA_DIR": str(data), "TERM": "xterm-256color"}
    with Pane(100, 30) as pane:
        pane.start([sys.executable, "-c", CRASH_IN_PLAY], env=env)
        pane.wait_for(r"Start \(F2\)")
        pane.keys("F2")
        assert pane.exit_status() == 1
        # everything the terminal shows and scrolled back, wrapped lines joined
        screen = pane.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "0")
    log = data / "errors.log"
    lines = [line.strip() for line in screen.splitlines() if line.strip()]
    # (tmux's own "Pane is dead" line: under load tmux 3.3a at times marks the pane dead
    # without drawing it, even seconds later)
    if lines[-1].startswith("Pane is dead"):
        lines.pop()
    assert lines == [
        "cubilete stopped on an unexpected error (RuntimeError: a bug nobody foresaw). "
        f"Details in {log}."
    ], screen
    assert "Traceback" not in screen
    details = log.read_text()
    assert "Traceback (most recent call last)" in details
    assert "in start_that_fails" in details and "with a second line" in details
    assert oct(log.stat().st_mode & 0o777) == "0o600"


def test_an_unforeseen_error_before_the_screen_is_one_line_on_stderr(tmp_path):
    data = tmp_path / "data"
    done = subprocess.run(
        [sys.executable, "-c", CRASH_BEFORE_THE_SCREEN],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CUBILETE_DATA_DIR": str(data)},
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        "cubilete stopped on an unexpected error (KeyError: 'lobby'). "
        f"Details in {data / 'errors.log'}.\n"
    )
    details = (data / "errors.log").read_text()
    assert "in broken" in details and "KeyError: 'lobby'" in details


def test_an_unforeseen_error_with_no_data_dir_to_log_in_still_says_one_line(tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    done = subprocess.run(
        [sys.executable, "-c", CRASH_BEFORE_THE_SCREEN],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CUBILETE_DATA_DIR": str(not_a_folder)},
    )
    assert done.returncode == 1
    assert done.stderr == (
        "cubilete stopped on an unexpected error (KeyError: 'lobby'). "
        f"Details: they could not be written down: StorageError: {not_a_folder} is not a "
        "folder.\n"
    )
    assert not_a_folder.read_text() == "x"


def test_an_unknown_colour_system_is_ignored_with_one_line_in_the_lobby(tmp_path):
    """`TEXTUAL_COLOR_SYSTEM=bogus` (a typo in the SSH wrapper the guide suggests it for) was
    a KeyError at start, for every player: now the game starts in the terminal's own colours,
    the lobby says in one line that the value is ignored, and the game plays and ends as
    always. `cubilete tables` says the same on stderr, never on stdout."""
    data = tmp_path / "data"
    env: dict[str, str | None] = {
        "CUBILETE_DATA_DIR": str(data),
        "TERM": "xterm-256color",
        "TEXTUAL_COLOR_SYSTEM": "bogus",
    }
    notice = (
        "TEXTUAL_COLOR_SYSTEM='bogus' is not one of auto, standard, 256, truecolor, windows: "
        "it is ignored"
    )
    with Pane(120, 30) as pane:
        pane.start(cubilete("--local", "--no-animation"), env=env)
        pane.wait_for(r"Start \(F2\)")
        pane.wait_for(re.escape(notice))
        pane.keys("F2")
        pane.wait_for(r"Cubilete — ")
        pane.keys("C-q")
        assert pane.exit_status() == 0
    listed = subprocess.run(
        cubilete("--local", "tables", "--json"),
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CUBILETE_DATA_DIR": str(data), "TEXTUAL_COLOR_SYSTEM": "bogus"},
    )
    assert listed.stderr.splitlines()[0] == f"cubilete: {notice}"
    assert notice not in listed.stdout
