"""Drive `cubilete` in a real terminal: a tmux pane on a private socket, read with capture-pane."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping
from pathlib import Path

import pytest
from waiting import wait_until

TMUX = shutil.which("tmux")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="needs tmux (apt-get install tmux)")


def cubilete(*flags: str) -> list[str]:
    """The command a player types, run by this test's Python."""
    return [sys.executable, "-m", "app", *flags]


CLICK_PACE = 0.3


class Pane:
    """One tmux server of our own (private socket), one window, one pane running the app."""

    def __init__(self, width: int = 80, height: int = 24) -> None:
        assert TMUX is not None
        self.socket = f"cubilete-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.width, self.height = width, height
        self.started = False
        self.status_file = Path(tempfile.gettempdir()) / f"{self.socket}.status"

    def tmux(self, *args: str, check: bool = True) -> str:
        result = subprocess.run(
            [TMUX, "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=10,
            stdin=subprocess.DEVNULL,
        )
        if check and result.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {result.stderr.strip()}")
        return result.stdout

    def start(self, command: list[str], env: Mapping[str, str | None] = ()) -> Pane:  # type: ignore[assignment]
        """Run `command` in a new pane; `env` sets (or, with None, unsets) variables for it.

        The pane's locale is UTF-8 unless `env` says otherwise: under a C locale the game
        draws in ASCII (as a machine without LANG would have it)."""
        settings = {"LANG": "C.UTF-8", "LC_ALL": None, "LC_CTYPE": None, **dict(env)}
        prefix = ["env"]
        prefix += [f"--unset={name}" for name, value in settings.items() if value is None]
        prefix += [f"{name}={value}" for name, value in settings.items() if value is not None]
        # tmux does not always know a dead pane's exit status: the shell writes it down.
        shell_command = f"{shlex.join([*prefix, *command])}; echo $? > {self.status_file}"
        self.started = True
        self.tmux(
            "start-server", ";",
            "set-option", "-g", "remain-on-exit", "on", ";",  # a crash leaves its last screen
            "new-session", "-d", "-x", str(self.width), "-y", str(self.height), shell_command,
        )  # fmt: skip
        return self

    def kill(self) -> None:
        if self.started:
            self.tmux("kill-server", check=False)
            self.started = False
        self.status_file.unlink(missing_ok=True)

    def __enter__(self) -> Pane:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    # -- reading -------------------------------------------------------------------------
    def capture(self, escapes: bool = False) -> str:
        return self.tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", "0")

    def lines(self) -> list[str]:
        return self.capture().split("\n")

    def wait_for(self, pattern: str, timeout: float = 15) -> str:
        """Wait until `pattern` is on screen; the screen then. Fails with the screen shown."""
        screens: list[str] = []

        def seen() -> bool:
            screens.append(self.capture())
            self.check_alive(screens[-1])
            return re.search(pattern, screens[-1]) is not None

        try:
            wait_until(seen, timeout, repr(pattern), step=0.05)
        except AssertionError:
            raise AssertionError(f"{pattern!r} not on screen:\n{screens[-1]}") from None
        return screens[-1]

    def settled(self, quiet: float = 0.3, timeout: float = 10) -> str:
        """The screen once it has stopped changing for `quiet` seconds."""
        last = [self.capture(), time.monotonic()]

        def still() -> bool:
            now = self.capture()
            if now != last[0]:
                last[:] = [now, time.monotonic()]
            return time.monotonic() - last[1] >= quiet

        wait_until(still, timeout, "the screen to settle")
        return last[0]

    def find(self, pattern: str) -> tuple[int, int]:
        """(column, row), 0-based, of the first match of `pattern` on screen."""
        for row, line in enumerate(self.lines()):
            match = re.search(pattern, line)
            if match:
                return match.start(), row
        raise AssertionError(f"{pattern!r} not on screen:\n{self.capture()}")

    def dead(self) -> bool:
        return self.tmux("display-message", "-p", "-t", "0", "#{pane_dead}").strip() == "1"

    def exit_status(self, timeout: float = 10) -> int:
        """Wait for the app to exit; its exit status."""
        wait_until(self.status_file.exists, timeout, "the app to exit")
        text = wait_until(lambda: self.status_file.read_text().strip(), 2, "the exit status")
        return int(text)

    def check_alive(self, screen: str = "") -> None:
        if self.dead() or self.status_file.exists():
            raise AssertionError(f"the app exited:\n{screen or self.capture()}")

    # -- input ---------------------------------------------------------------------------
    def keys(self, *keys: str) -> None:
        """Key names as tmux knows them: Space, Enter, F2, Escape, C-q, or plain letters."""
        for key in keys:
            self.tmux("send-keys", "-t", "0", key)

    def click(self, column: int, row: int) -> None:
        """A left click as a terminal sends it (SGR mouse), at a 0-based cell.

        Clicks come at a person's pace: a Textual button ignores a click for 0.2 s after it
        was pressed (its guard against double clicks), and a test that clicks Throw, a die
        and Throw again faster than that would see its second Throw ignored."""
        time.sleep(CLICK_PACE)
        press = f"\x1b[<0;{column + 1};{row + 1}M"
        release = f"\x1b[<0;{column + 1};{row + 1}m"
        self.tmux("send-keys", "-t", "0", "-l", press + release)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", "0", "-x", str(width), "-y", str(height))
        self.width, self.height = width, height
