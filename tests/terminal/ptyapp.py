"""`cubilete` in a pty of its own, read and written as a terminal would."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

F2, F3 = b"\x1bOQ", b"\x1bOR"
LOBBY, GAME = b"Start (F2)", b"Table talk"
"""What the lobby and a game screen show (the start button, the log's title)."""


class App:
    """`cubilete` in a pty of 80×24, in its own process group; its output is read as it
    comes (a full pty would stop it)."""

    def __init__(self, data_dir: Path, game: str, seed: int) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = os.environ | {"CUBILETE_DATA_DIR": str(data_dir), "TERM": "xterm-256color"}
        for name in ("COLUMNS", "LINES", "TEXTUAL_DRIVER", "NO_COLOR"):
            env.pop(name, None)
        command = [sys.executable, "-m", "app", "--game", game, "--seed", str(seed)]
        self.process = subprocess.Popen(
            [*command, "--no-animation"],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.output = bytearray()

    def read(self, wait: float = 0.0) -> None:
        end = time.monotonic() + wait
        while True:
            ready, _, _ = select.select([self.master], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                return
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk

    def shows(self, text: bytes) -> bool:
        return text in self.output

    def screen(self) -> str:
        """The screen as the terminal shows it now: the output so far, drawn by pyte."""
        import pyte

        screen = pyte.Screen(80, 24)
        pyte.ByteStream(screen).feed(bytes(self.output))
        return "\n".join(screen.display)

    def press(self, key: bytes) -> None:
        with contextlib.suppress(OSError):  # (it may have died: the test says why)
            os.write(self.master, key)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.read()
        os.close(self.master)

    def wait_for(self, text: bytes, timeout: float = 20) -> bool:
        end = time.monotonic() + timeout
        while not self.shows(text) and time.monotonic() < end and self.process.poll() is None:
            self.read(0.05)
        return self.shows(text)
