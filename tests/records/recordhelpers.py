"""Helpers for the records tests: tables played by bots on seeded dice, a store in a temp dir."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.dice import RandomDice
from app.records.recorder import StoreRecorder
from app.records.sqlite import SQLiteStore
from app.records.store import RecordStore
from app.table import Seat, Table
from bots import get_bot

GAME_SEATS: dict[str, tuple[Seat, ...]] = {
    "generala": (Seat(name="Ana"), Seat(name="Bruno", kind="easy")),
    "barco": (Seat(name="Ana"), Seat(name="Carla", kind="medium"), Seat(name="Diego", kind="easy")),
    "navio": (Seat(name="Elena", kind="easy"), Seat(name="Ana")),
    "multiplicacion": (Seat(name="Ana"), Seat(name="Bruno", kind="medium")),
    "piratas": (Seat(name="Ana"), Seat(name="Bruno", kind="easy")),
}
SHORT_OPTIONS: dict[str, dict[str, Any]] = {
    "barco": {"rounds": 2},
    "navio": {"rounds": 2, "mode": "points"},
    "piratas": {"lives": 1},
}


def bot_move(table: Table) -> Any:
    """What the seat to play would do if a bot played it (people play as medium bots)."""
    seat = table.current_player()
    assert seat is not None
    kind = table.seats[seat].kind
    return get_bot(table.game.id, "medium" if kind == "human" else kind, seed=seat).choose(
        table.state
    )


def play(table: Table, moves: int | None = None) -> Table:
    """Let bots play `moves` decisions (or to the end)."""
    done = 0
    while not table.over and (moves is None or done < moves):
        table.act(bot_move(table))
        done += 1
    return table


def new_table(
    game_id: str = "generala",
    seed: int = 1,
    store: RecordStore | None = None,
    seats: Sequence[Seat] | None = None,
    options: dict[str, Any] | None = None,
) -> Table:
    recorder = StoreRecorder(store) if store is not None else None
    return Table.new(
        game_id,
        list(seats or GAME_SEATS[game_id]),
        SHORT_OPTIONS.get(game_id, {}) if options is None else options,
        dice=RandomDice(seed),
        recorder=recorder,
    )


def open_store(tmp_path: Path, name: str = "records.db", **options: Any) -> SQLiteStore:
    return SQLiteStore(tmp_path / name, **options)


def is_root() -> bool:
    import os

    return os.geteuid() == 0


class Mount:
    """A tmpfs of `size` mounted on `path` (needs root: CI runs as root), unmounted on exit."""

    def __init__(self, path: Path, size: str) -> None:
        self.path, self.size = path, size

    def __enter__(self) -> Mount:
        import subprocess

        self.path.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={self.size},mode=0700", "tmpfs", str(self.path)],
            check=True,
            capture_output=True,
        )
        return self

    def read_only(self) -> None:
        import subprocess

        subprocess.run(
            ["mount", "-o", "remount,ro", str(self.path)], check=True, capture_output=True
        )

    def __exit__(self, *exc: object) -> None:
        import subprocess

        subprocess.run(["umount", "-l", str(self.path)], check=False, capture_output=True)


def can_mount(tmp_path: Path) -> str | None:
    """None if a tmpfs can be mounted here; else why not (for a skip)."""
    import subprocess

    if not is_root():
        return "mounting a tmpfs needs root (CI runs as root)"
    probe = tmp_path / "mount-probe"
    probe.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)], capture_output=True
    )
    if done.returncode != 0:
        return f"cannot mount a tmpfs: {done.stderr.decode().strip()}"
    subprocess.run(["umount", str(probe)], check=True)
    return None


ROOT = Path(__file__).resolve().parents[2]
F2, F3 = b"\x1bOQ", b"\x1bOR"


class AppInPty:
    """The real `cubilete` in a pty of its own (80x24), its screen read with pyte."""

    def __init__(self, data_dir: Path, *flags: str) -> None:
        import fcntl
        import os
        import pty
        import struct
        import sys
        import termios

        import pyte

        env = os.environ | {
            "CUBILETE_DATA_DIR": str(data_dir),
            "TERM": "xterm-256color",
            "PYTHONPATH": str(ROOT),
        }
        env.pop("NO_COLOR", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # pragma: no cover - the child
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
            os.execve(sys.executable, [sys.executable, "-m", "app", *flags], env)
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.alive = True

    def read(self) -> str:
        """The screen now, as text."""
        import os
        import select

        while select.select([self.fd], [], [], 0.02)[0]:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.stream.feed(chunk)
        return "\n".join(self.screen.display)

    def shows(self, text: str) -> bool:
        return text in " ".join(self.read().split())

    def keys(self, *keys: bytes) -> None:
        import os

        for key in keys:
            os.write(self.fd, key)

    def kill(self) -> None:
        import os
        import signal

        if self.alive:
            self.alive = False
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            os.close(self.fd)

    def __enter__(self) -> AppInPty:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


def unfinished_in(data_dir: Path) -> list[tuple[str, int]]:
    """(record id, events) of the data dir's unfinished games (none without a database)."""
    db = data_dir / "records.db"
    if not db.exists():
        return []
    store = SQLiteStore(db, check=False)
    try:
        return [(r.record_id, r.events) for r in store.unfinished()]
    finally:
        store.close()
