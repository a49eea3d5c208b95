"""Cubilete's performance harness (a script, not a test): the app next to a hello-world app.

Each app is started in a pty of its own (80x24, TERM=xterm-256color) that this script drives:
it writes the keys to the master side and counts the bytes the app writes back.

Per run of Cubilete (fresh $CUBILETE_DATA_DIR each time, loaded dice):
  start      spawn -> end of the first full 80x24 frame that shows the lobby
  first frame bytes: everything written from spawn to the end of that frame
  idle       after the screen settles: CPU (utime+stime from /proc) and bytes over 10 s
  peak RSS   VmHWM from /proc/<pid>/status after the idle period (start + idle)
  then F2 (2-player Generala): CPU and bytes to the game's first full frame, and bytes to
  quiescence; space (throw, with animation), 1 (hold): bytes from the key to quiescence; 10 s
  idle on the game screen; ctrl+q; wait4() gives the whole run's max RSS.
Per run of Cubilete, a second session ("play"): F2, then the rules opened and closed 5 times
  (CPU of each), then a whole scripted two-player Generala game (tests/ui/generala_script.py)
  by keyboard: the latency of every key, from the key to the end of the paint that answers it.
Per run of bench/hello_app.py: start, first frame bytes, idle, peak RSS the same way.

Runs alternate hello/app (ABBA order), after one discarded warm-up run of each; medians.
Then --start-runs (20) more runs of each that only measure the start (and the first frame's
bytes), alternating the same way: the start's medians take all of them in, and each app start
is also put over the hello start beside it (the paired ratios, printed under the table).
Then the browser tab (bench/web.py), the records (bench/records.py) and the shared tables
(bench/shared_tables.py: a real server, 200 clients at 50 tables).
Then 1, 2 and 3 servers on one PostgreSQL against one server on SQLite, and the failover
after a kill -9 (bench/pg_servers.py).
Usage: .venv/bin/python bench/run.py [--runs 5] [--start-runs 20] [--idle 10] [--json] [--no-play]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.cells import cell_len  # what Textual itself uses to measure cells

ROOT = Path(__file__).resolve().parent.parent
HELLO = Path(__file__).resolve().with_name("hello_app.py")
COLS, ROWS = 80, 24
DICE = ",".join(["6,2,3,3,3,4,5"] * 8)  # loaded dice, plenty for a roll-off and a throw

APP_MARKER = "Start (F2)"  # lobby button: the lobby is drawn
HELLO_MARKER = "Hello, world!"
GAME_MARKER = "Generala"  # the header's subtitle on the game screen
GAME_FRAME_MARKER = "Scoresheet"  # in a full frame of the game screen (never in the lobby's)
RULES_MARKER = "Rules of Generala"  # the rules screen's top line
THROWN_MARKER = "hold dice"  # Generala's status line after the first throw ("Ana: hold dice…")
HELD_MARKER = "Holding"  # Generala's status line after holding die 1

KEY_F2 = b"\x1bOQ"
KEY_DOWN = b"\x1b[B"
KEY_UP = b"\x1b[A"
KEY_SPACE = b" "
KEY_1 = b"1"
KEY_CTRL_Q = b"\x11"
KEY_F1 = b"\x1bOP"
KEY_ESCAPE = b"\x1b"
KEY_ENTER = b"\r"

QUIET = 0.5  # seconds without output that count as "settled"
KEY_QUIET = 0.4  # ... between the keys of the scripted game (the log waits <= 0.3 s for the coach)
PAINT_GAP = 0.02  # a pause this long ends the paint that answers a key (tumbles are 0.08 s apart)
RULES_CYCLES = 5
KEY_KINDS = {
    KEY_SPACE: "throw",
    b"r": "throw",
    KEY_DOWN: "cursor",
    KEY_UP: "cursor",
    KEY_ENTER: "fill",
    b"y": "zero",
}
"""What each key of the scripted game does (the digits hold a die): the medians by kind."""
SLOWEST_KEYS = 5
FRAME_TIMEOUT = 30.0  # no run may wait longer than this for its first frame
SETTLE_TIMEOUT = 10.0  # ... or for one interaction to settle
EXIT_TIMEOUT = 10.0  # ... or for the app to exit after ctrl+q
CLK_TCK = os.sysconf("SC_CLK_TCK")

CSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]")
OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
OTHER_ESC = re.compile(rb"\x1b[@-Z\\-_]")
SGR = re.compile(rb"\x1b\[[0-9;]*m")
CURSOR_MOVE = re.compile(rb"\x1b\[[0-9;]*[HfABCDGd]")


class BenchError(RuntimeError):
    """A run did not go as expected (timeout, missing frame, early exit)."""


# -- frames ---------------------------------------------------------------------------------
def _plain(data: bytes) -> str:
    """The printable text of a stretch of terminal output (escape sequences removed)."""
    data = OSC.sub(b"", data)
    data = CSI.sub(b"", data)
    data = OTHER_ESC.sub(b"", data)
    return data.replace(b"\r", b"").replace(b"\n", b"").decode("utf-8", "replace")


def _row_end(buf: bytes, start: int, cols: int) -> int | None:
    """Where the row that starts at `start` has `cols` cells painted; None if not yet."""
    cells = 0
    i = start
    while i < len(buf):
        if buf[i] == 0x1B:
            match = CSI.match(buf, i) or OSC.match(buf, i) or OTHER_ESC.match(buf, i)
            if match is None:
                return None  # an escape sequence cut by the read: wait for more
            i = match.end()
            continue
        j = i
        while j < len(buf) and buf[j] != 0x1B:
            j += 1
        chunk = buf[i:j]
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError:
            text = chunk.decode("utf-8", "ignore")  # a character cut by the read
        for position, char in enumerate(text):
            cells += cell_len(char)
            if cells >= cols:
                end = i + len(text[: position + 1].encode("utf-8"))
                while (reset := SGR.match(buf, end)) is not None:  # the row's closing ESC[0m
                    end = reset.end()
                return end
        i = j
    return None


def find_full_frame(buf: bytes, marker: str, start: int = 0) -> tuple[int, int] | None:
    """(begin, end) offsets of the first full-screen paint after `start` that shows `marker`.

    Textual paints a full screen as rows 1..ROWS, each one introduced by ESC[row;1H and painted
    across all columns; partial updates move the cursor mid-row. The frame ends when the last
    row has all its cells.
    """
    for match in re.finditer(rb"\x1b\[1;1H", buf[start:]):
        begin = start + match.start()
        position = begin
        for row in range(1, ROWS + 1):
            move = CURSOR_MOVE.search(buf, position)
            if move is None:
                return None  # the rest has not arrived yet
            if move.group(0) != b"\x1b[%d;1H" % row:
                break  # another cursor move first: a partial update, not a full paint
            position = move.end()
        else:
            end = _row_end(buf, position, COLS)
            if end is None:
                return None
            if marker in _plain(buf[begin:end]):
                return begin, end
    return None


# -- a driven pty ---------------------------------------------------------------------------
@dataclass
class Session:
    argv: list[str]
    env: dict[str, str]
    pid: int = 0
    fd: int = -1
    t0: float = 0.0
    buf: bytearray = field(default_factory=bytearray)
    eof: bool = False
    status: int | None = None
    rusage: Any = None
    arrivals: list[tuple[float, int]] = field(default_factory=list)
    """(time read, length of buf after it) for every chunk read."""

    def spawn(self) -> None:
        self.t0 = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # child: size the terminal before the app can ask, then exec
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
                os.execve(self.argv[0], self.argv, self.env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd

    def read_once(self, timeout: float) -> int:
        """Read what is there within `timeout`; the number of bytes read (0 on timeout/EOF)."""
        if self.eof:
            time.sleep(max(0.0, timeout))
            return 0
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return 0
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            chunk = b""
        if not chunk:
            self.eof = True
            return 0
        self.buf += chunk
        self.arrivals.append((time.perf_counter(), len(self.buf)))
        return len(chunk)

    def now(self) -> float:
        return time.perf_counter() - self.t0

    def wait_frame(self, marker: str, start: int = 0) -> tuple[float, int, int]:
        """(seconds since spawn, begin, end offsets) of the first full frame showing marker."""
        deadline = time.perf_counter() + FRAME_TIMEOUT
        while True:
            frame = find_full_frame(bytes(self.buf), marker, start)
            if frame is not None:
                return self.now(), *frame
            if self.eof:
                raise BenchError(f"exited before a full frame showing {marker!r}")
            left = deadline - time.perf_counter()
            if left <= 0:
                raise BenchError(f"no full frame showing {marker!r} in {FRAME_TIMEOUT:.0f} s")
            self.read_once(min(left, 0.5))

    def pump(self, seconds: float) -> int:
        """Read for `seconds`; the number of bytes read."""
        deadline = time.perf_counter() + seconds
        total = 0
        while (left := deadline - time.perf_counter()) > 0:
            total += self.read_once(left)
        return total

    def settle(self, quiet: float = QUIET, timeout: float = SETTLE_TIMEOUT) -> int:
        """Read until nothing arrives for `quiet` seconds; the number of bytes read."""
        deadline = time.perf_counter() + timeout
        total = 0
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise BenchError(f"output did not settle within {timeout:.0f} s")
            got = self.read_once(min(quiet, left))
            if self.eof:
                raise BenchError("the app exited")
            if not got and left >= quiet:
                return total
            total += got

    def key(self, data: bytes, expect: str | None = None) -> int:
        """Press a key; bytes written by the app until it settles. Checks `expect` is shown.

        A key that opens a game can be followed by a silence longer than QUIET (the game's
        rules, bots and tables load then, not at start), so with `expect` the wait goes on
        until it is drawn (up to SETTLE_TIMEOUT) and the screen settles after it."""
        mark = len(self.buf)
        os.write(self.fd, data)
        self.settle()
        deadline = time.perf_counter() + SETTLE_TIMEOUT
        while expect is not None and expect not in _plain(bytes(self.buf[mark:])):
            if self.eof or time.perf_counter() > deadline:
                raise BenchError(f"after key {data!r}: {expect!r} not drawn")
            self.read_once(0.05)
            if expect in _plain(bytes(self.buf[mark:])):
                self.settle()
        return len(self.buf) - mark

    def key_frame(self, data: bytes, marker: str) -> tuple[float, int, int, int]:
        """Press a key that opens a screen: (CPU seconds from the key to the end of the new
        screen's first full frame showing `marker`, that frame's begin and end offsets, and
        the bytes written from the key until the screen settles)."""
        mark = len(self.buf)
        cpu = self.cpu_seconds()
        os.write(self.fd, data)
        _, begin, end = self.wait_frame(marker, mark)
        cpu = round(self.cpu_seconds() - cpu, 6)  # (whole ticks: 0.15, not 0.15000000000000002)
        self.settle()
        return cpu, begin, end, len(self.buf) - mark

    def key_latency(self, data: bytes, expect: str | None = None) -> float:
        """Press a key that changes the screen: seconds from the key to the end of the paint
        that answers it (the first burst of output after the key, ended by a pause of
        PAINT_GAP). Waits for that output (and for `expect` to be drawn), then for KEY_QUIET
        seconds of quiet."""
        mark = len(self.buf)
        first = len(self.arrivals)
        sent = time.perf_counter()
        os.write(self.fd, data)
        deadline = sent + SETTLE_TIMEOUT
        while len(self.buf) == mark or (
            expect is not None and expect not in _plain(bytes(self.buf[mark:]))
        ):
            if self.eof or time.perf_counter() > deadline:
                raise BenchError(f"after key {data!r}: {expect or 'nothing'!r} drawn")
            self.read_once(0.05)
        self.settle(KEY_QUIET)
        chunks = [t for t, _ in self.arrivals[first:]]
        end = chunks[0]
        for arrival in chunks[1:]:
            if arrival - end >= PAINT_GAP:
                break
            end = arrival
        return end - sent

    def cpu_seconds(self) -> float:
        stat = Path(f"/proc/{self.pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime

    def hwm_bytes(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        raise BenchError("no VmHWM in /proc/<pid>/status")

    def quit(self) -> None:
        """ctrl+q, then reap (reading the pty meanwhile so the app never blocks writing)."""
        with contextlib.suppress(OSError):
            os.write(self.fd, KEY_CTRL_Q)
        deadline = time.perf_counter() + EXIT_TIMEOUT
        while self.status is None and time.perf_counter() < deadline:
            self.read_once(0.05)
            self._reap(os.WNOHANG)
        if self.status is None:
            self.kill()
            raise BenchError(f"did not exit within {EXIT_TIMEOUT:.0f} s of ctrl+q")

    def _reap(self, flags: int) -> None:
        pid, status, rusage = os.wait4(self.pid, flags)
        if pid == self.pid:
            self.status, self.rusage = status, rusage

    def kill(self) -> None:
        """Our own child only, by pid."""
        if self.pid and self.status is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                self._reap(0)

    def close(self) -> None:
        self.kill()
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1


# -- one run --------------------------------------------------------------------------------
def child_env(truecolor: bool, pycache: str | None) -> dict[str, str]:
    """The environment of every app run: ours, less what would change the app's output."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("TEXTUAL")
        and k not in {"COLUMNS", "LINES", "NO_COLOR", "COLORTERM", "CUBILETE_DATA_DIR"}
        and k not in {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_CTYPE"}
    }
    env["TERM"] = "xterm-256color"
    env["LANG"] = "C.UTF-8"  # English words (the markers waited for), UTF-8 cells
    if truecolor:
        env["COLORTERM"] = "truecolor"
    if pycache is not None:
        # a private bytecode cache (filled by the warm-up runs), as an installed app would
        # have; without it PYTHONDONTWRITEBYTECODE makes every start compile the app's sources
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
    return env


def app_argv() -> list[str]:
    script = Path(sys.executable).with_name("cubilete")
    if script.exists():
        return [str(script), "--local", "--dice", DICE]  # (never the machine's server)
    return [sys.executable, "-m", "app", "--local", "--dice", DICE]


def generala_index() -> int:
    """Generala's place in the lobby's game list, asked of the app as it is now (its list of
    playable games grows while it is being developed, so ask again for every run)."""
    code = "from app.games import playable; print(playable().index('generala'))"
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        return int(done.stdout)
    except (subprocess.SubprocessError, ValueError) as error:
        raise BenchError(f"cannot find Generala in the lobby: {error}") from None


def measure(
    argv: list[str],
    marker: str,
    idle: float,
    game: bool,
    env: dict[str, str],
    save_as: Path | None = None,
) -> dict[str, float]:
    data_dir = tempfile.mkdtemp(prefix="cubilete-bench-")
    session = Session(argv, env | {"CUBILETE_DATA_DIR": data_dir})
    downs = generala_index() if game else 0
    result: dict[str, float] = {}
    try:
        session.spawn()
        start, begin, end = session.wait_frame(marker)
        result["start_s"] = start
        result["start_cpu_s"] = session.cpu_seconds()
        result["first_frame_bytes"] = end
        result["frame_only_bytes"] = end - begin
        session.settle()
        result["settled_bytes"] = len(session.buf)
        cpu0, t0, b0 = session.cpu_seconds(), time.perf_counter(), len(session.buf)
        session.pump(idle)
        cpu1, t1 = session.cpu_seconds(), time.perf_counter()
        result["idle_cpu_pct"] = 100 * (cpu1 - cpu0) / (t1 - t0)
        result["idle_bytes"] = len(session.buf) - b0
        result["rss_mib"] = session.hwm_bytes() / 2**20
        if game:
            for _ in range(downs):  # the lobby highlights its first game
                session.key(KEY_DOWN)
            cpu, begin, end, written = session.key_frame(KEY_F2, GAME_FRAME_MARKER)
            result["start_game_cpu_s"] = cpu
            result["game_frame_bytes"] = end - begin
            result["start_game_bytes"] = written
            result["throw_bytes"] = session.key(KEY_SPACE, THROWN_MARKER)
            result["hold_bytes"] = session.key(KEY_1, HELD_MARKER)
            b0 = len(session.buf)
            session.pump(idle)
            result["game_idle_bytes"] = len(session.buf) - b0
        session.quit()
        result["exit_rss_mib"] = session.rusage.ru_maxrss / 1024  # KiB on Linux
        if not (os.WIFEXITED(session.status) and os.WEXITSTATUS(session.status) == 0):
            raise BenchError(f"exit status {session.status:#x}")
        return result
    finally:
        session.close()
        if save_as is not None:
            save_as.write_bytes(bytes(session.buf))
        shutil.rmtree(data_dir, ignore_errors=True)


def play_keys() -> tuple[list[int], list[tuple[bytes, str | None]]]:
    """The loaded dice and the keys of a whole two-player Generala game (Ana and Bruno, the
    lobby's default seats), from tests/ui/generala_script.py; each key with a text the screen
    must show after it (or None)."""
    sys.path.insert(0, str(ROOT / "tests" / "ui"))
    try:
        from generala_script import TURNS, loaded_faces

        from rules.generala import BOXES
    finally:
        sys.path.pop(0)
    keys: list[tuple[bytes, str | None]] = []
    for turn in TURNS:
        keys.append((KEY_SPACE, THROWN_MARKER))
        if turn.hold:
            keys += [(str(position + 1).encode(), "Holding") for position in turn.hold]
            keys.append((b"r", None))
        # the cursor is on the box to fill (boxes are filled top to bottom): down and back up
        # are two more keys that change the screen (the cursor moves), while a box below is
        # still free
        if turn.box is not BOXES[-1]:
            keys += [(KEY_DOWN, None), (KEY_UP, None)]
        keys.append((KEY_ENTER, None))
        if turn.zero:
            keys.append((b"y", None))
    keys[-1] = (keys[-1][0], "wins")
    return loaded_faces(), keys


def measure_play(
    env: dict[str, str], save_as: Path | None = None, command: list[str] | None = None
) -> dict[str, Any]:
    """Cubilete only: F2, the rules opened and closed RULES_CYCLES times, a whole scripted
    game by keyboard (every key's latency). `command`: how to start the app (by default the
    venv's `cubilete`; bench/key_ab.py starts other copies of it), its options added here."""
    faces, keys = play_keys()
    start = command if command is not None else app_argv()[:-2]
    argv = [*start, "--game", "generala", "--dice", ",".join(map(str, faces))]
    data_dir = tempfile.mkdtemp(prefix="cubilete-bench-")
    session = Session(argv, env | {"CUBILETE_DATA_DIR": data_dir})
    result: dict[str, Any] = {}
    try:
        session.spawn()
        session.wait_frame(APP_MARKER)
        session.settle()
        session.key_frame(KEY_F2, GAME_FRAME_MARKER)
        rules = []
        for _ in range(RULES_CYCLES):
            cpu = session.cpu_seconds()
            session.key_frame(KEY_F1, RULES_MARKER)
            session.key_frame(KEY_ESCAPE, GAME_FRAME_MARKER)
            rules.append(round(session.cpu_seconds() - cpu, 6))  # (whole ticks)
        result["rules_cpu_s"] = rules
        result["rules_open_cpu_s"] = statistics.median(rules)
        latencies = []
        for data, expect in keys:
            latencies.append(session.key_latency(data, expect))
        result["key_latencies_s"] = latencies
        result["key_latency_p50_s"] = statistics.median(latencies)
        result["key_latency_p99_s"] = statistics.quantiles(latencies, n=100)[98]
        result["key_latency_max_s"] = max(latencies)
        kinds = [KEY_KINDS.get(data, "hold") for data, _ in keys]
        for kind in sorted(set(kinds)):
            of_kind = [t for t, k in zip(latencies, kinds, strict=True) if k == kind]
            result[f"key_latency_{kind}_p50_s"] = statistics.median(of_kind)
        # which keys were slowest: [place in the game (0-based), kind, seconds]
        slowest = sorted(range(len(keys)), key=lambda i: -latencies[i])[:SLOWEST_KEYS]
        result["key_latency_slowest"] = [[i, kinds[i], round(latencies[i], 4)] for i in slowest]
        session.quit()
        result["play_rss_mib"] = session.rusage.ru_maxrss / 1024
        return result
    finally:
        session.close()
        if save_as is not None:
            save_as.write_bytes(bytes(session.buf))
        shutil.rmtree(data_dir, ignore_errors=True)


# -- the report -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    key: str
    label: str
    unit: str
    target: str
    check: Callable[[float, float | None], bool] | None  # (app, hello) -> pass
    ratio: bool = False
    of: str | None = None
    """A target relative to another of the app's figures (its median) rather than hello's:
    `check` gets (app, that figure), and the ratio is app / that figure."""


ROWS_REPORT = [
    Row("start_s", "start to first frame", "s", "≤ 1.25× hello", lambda a, h: a <= 1.25 * h, True),
    Row("start_cpu_s", "  CPU time used by then", "s", "", None, True),
    Row(
        "rss_mib", "peak RSS (start + idle)", "MiB", "≤ 1.3× hello", lambda a, h: a <= 1.3 * h, True
    ),
    Row("idle_cpu_pct", "idle CPU over idle period", "%", "≤ 0.5 %", lambda a, h: a <= 0.5, True),
    Row(
        "first_frame_bytes", "bytes to first frame", "B", "≤ 12 KB", lambda a, h: a <= 12_000, True
    ),
    Row("frame_only_bytes", "  of which the full frame itself", "B", "", None, True),
    Row("idle_bytes", "bytes while idle (lobby)", "B", "0", lambda a, h: a == 0),
    Row(
        "settled_bytes",
        "bytes until first screen settles",
        "B",
        "≤ 2.2× frame",
        lambda a, f: a <= 2.2 * (f or 0),
        True,
        of="frame_only_bytes",
    ),
    Row(
        "exit_rss_mib",
        "peak RSS, whole run (a game)",
        "MiB",
        "≤ 1.3× hello",
        lambda a, h: a <= 1.3 * (h or 0),
        True,
    ),
    Row("game_frame_bytes", "bytes: one full Generala frame", "B", "", None),
    Row(
        "start_game_bytes",
        "bytes: F2, lobby -> Generala",
        "B",
        "≤ 2× game frame",
        lambda a, f: a <= 2 * (f or 0),
        True,
        of="game_frame_bytes",
    ),
    Row(
        "start_game_cpu_s",
        "CPU: F2 to the game's 1st frame",
        "s",
        "≤ 0.15 s",
        lambda a, h: a <= 0.15,
    ),
    Row("throw_bytes", "bytes: one throw (animated)", "B", "≤ 8 KB", lambda a, h: a <= 8_000),
    Row("hold_bytes", "bytes: one hold toggle", "B", "≤ 2 KB", lambda a, h: a <= 2_000),
    Row("game_idle_bytes", "bytes while idle (Generala)", "B", "0", lambda a, h: a == 0),
    Row(
        "rules_open_cpu_s",
        "CPU: open + close the rules",
        "s",
        "≤ 0.05 s",
        lambda a, h: a <= 0.05,
    ),
    Row("key_latency_p50_s", "key to its paint, median", "s", "", None),
    Row(
        "key_latency_p99_s",
        "key to its paint, p99",
        "s",
        "≤ 0.03 s",
        lambda a, h: a <= 0.03,
    ),
    Row("key_latency_max_s", "key to its paint, slowest", "s", "", None),
    Row("key_latency_throw_p50_s", "  a throw (space, r), median", "s", "", None),
    Row("key_latency_hold_p50_s", "  a hold (1-5), median", "s", "", None),
    Row("key_latency_cursor_p50_s", "  a cursor move, median", "s", "", None),
    Row("key_latency_fill_p50_s", "  a box filled (enter), median", "s", "", None),
    Row("key_latency_zero_p50_s", "  a zero confirmed (y), median", "s", "", None),
    Row("play_rss_mib", "peak RSS, rules + a whole game", "MiB", "", None, True),
]


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "s":
        return f"{value:.3f} s"
    if unit == "MiB":
        return f"{value:.1f} MiB"
    if unit == "%":
        return f"{value:.2f} %"
    if unit == "ms":
        return f"{value:.2f} ms"
    if unit == "events":
        return f"{value:,.0f}"
    if unit == "MB":
        return f"{value:.1f} MB"
    if unit == "×":
        return f"{value:.2f}×"
    return f"{value:,.0f} B"


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


START_KEYS = ("start_s", "start_cpu_s", "first_frame_bytes", "frame_only_bytes")
"""What a start-only run measures (`--start-runs`): these medians take those runs in too."""


def summarize(
    runs: dict[str, list[dict[str, float]]], starts: dict[str, list[dict[str, float]]]
) -> list[dict[str, Any]]:
    rows = []
    medians: dict[str, float | None] = {}
    for row in ROWS_REPORT:
        extra = starts if row.key in START_KEYS else {"app": [], "hello": []}
        app = median([r[row.key] for r in runs["app"] + extra["app"] if row.key in r])
        hello = median([r[row.key] for r in runs["hello"] + extra["hello"] if row.key in r])
        medians[row.key] = app
        reference = hello if row.of is None else medians.get(row.of)
        ratio = app / reference if row.ratio and app is not None and reference else None
        passed = None if row.check is None or app is None else row.check(app, reference or 0.0)
        rows.append(
            dict(key=row.key, label=row.label, unit=row.unit, app=app, hello=hello, ratio=ratio)
            | dict(target=row.target, passed=passed)
        )
    return rows


def paired(runs: list[tuple[dict[str, float], dict[str, float]]]) -> list[float]:
    """Each app start over the hello start measured next to it (a slow spell of the machine
    then slows both sides of the ratio)."""
    return sorted(app["start_s"] / hello["start_s"] for app, hello in runs)


def print_table(rows: list[dict[str, Any]], runs: int, starts: int, idle: float) -> None:
    print(f"\nmedians of {runs} run(s) (start: {runs + starts}), {COLS}x{ROWS}, idle {idle:g} s\n")
    header = f"{'measure':34} {'app':>12} {'hello':>12} {'ratio':>7}  {'target':14} result"
    print(header)
    print("-" * len(header))
    for row in rows:
        ratio = f"{row['ratio']:.2f}×" if row["ratio"] is not None else ""
        result = {True: "PASS", False: "FAIL", None: ""}[row["passed"]]
        print(
            f"{row['label']:34} {fmt(row['app'], row['unit']):>12} "
            f"{fmt(row['hello'], row['unit']):>12} {ratio:>7}  {row['target']:14} {result}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each app (default 5)")
    parser.add_argument(
        "--start-runs",
        type=int,
        default=20,
        help="more runs of each app that only measure the start (default 20): on a shared "
        "machine the start time of 5 runs can swing by 0.2x of hello's",
    )
    parser.add_argument("--idle", type=float, default=10.0, help="idle period, s (default 10)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--no-warmup", action="store_true", help="skip the warm-up runs")
    parser.add_argument(
        "--no-play",
        dest="play",
        action="store_false",
        help="skip the play session (rules opened 5 times, a whole scripted game: ≈ 1 min a run)",
    )
    parser.add_argument(
        "--truecolor", action="store_true", help="COLORTERM=truecolor (24-bit colour escapes)"
    )
    parser.add_argument("--save-output", metavar="DIR", help="keep each run's raw pty output")
    parser.add_argument(
        "--records-games",
        type=int,
        default=10_000,
        help="finished games for the records' figures (bench/records.py; 0: skip them)",
    )
    parser.add_argument(
        "--records-pg-games",
        type=int,
        default=1000,
        help="games for the records on PostgreSQL against SQLite (bench/records_pg.py; "
        "0: skip them)",
    )
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="run with this shell's bytecode settings (PYTHONDONTWRITEBYTECODE compiles the "
        "app's sources at every start)",
    )
    parser.add_argument("--no-web", action="store_true", help="skip the browser-tab figures")
    parser.add_argument(
        "--no-generala-tables",
        dest="generala_tables",
        action="store_false",
        help="skip the first-use time of Generala's preset tables (bench/generala_presets.py)",
    )
    parser.add_argument(
        "--only-generala-tables",
        action="store_true",
        help="only the first-use time of Generala's preset tables (≈ 15 s): no app is started",
    )
    parser.add_argument(
        "--pg-servers-tables",
        type=int,
        default=20,
        help="four-seat tables for 1, 2, 3 servers on PostgreSQL against one on SQLite, and "
        "the failover (bench/pg_servers.py; 0: skip them)",
    )
    parser.add_argument(
        "--shared-tables",
        type=int,
        default=50,
        help="four-seat tables of simulated people for the shared tables' figures "
        "(bench/shared_tables.py: 200 clients at 50 tables; 0: skip them)",
    )
    args = parser.parse_args(argv)
    if args.only_generala_tables:
        args.runs = args.start_runs = 0
        args.no_warmup = args.no_web = True
        args.records_games = args.records_pg_games = args.pg_servers_tables = 0
        args.shared_tables = 0
        args.generala_tables = True
    pycache = None if args.no_bytecode_cache else tempfile.mkdtemp(prefix="cubilete-bench-pyc-")
    env = child_env(args.truecolor, pycache)
    try:
        return _main(args, env)
    finally:
        if pycache is not None:
            shutil.rmtree(pycache, ignore_errors=True)


def _main(args: argparse.Namespace, env: dict[str, str]) -> int:
    save_dir = Path(args.save_output) if args.save_output else None
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    apps = {
        "hello": ([sys.executable, str(HELLO)], HELLO_MARKER, False),
        "app": (app_argv(), APP_MARKER, True),
    }
    runs: dict[str, list[dict[str, float]]] = {"hello": [], "app": []}
    starts: dict[str, list[dict[str, float]]] = {"hello": [], "app": []}
    pairs: list[tuple[dict[str, float], dict[str, float]]] = []
    errors: list[str] = []

    def log(text: str) -> None:
        if not args.json:
            print(text, file=sys.stderr, flush=True)

    log(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.no_warmup:
        for name, (cmd, marker, game) in apps.items():
            log(f"warm-up: {name}")
            try:  # Cubilete's warm-up plays too: the game's modules then have bytecode as well
                measure(cmd, marker, 0.0, game, env)
            except BenchError as error:
                errors.append(f"warm-up {name}: {error}")
    for index in range(args.runs):
        order = ["hello", "app"] if index % 2 == 0 else ["app", "hello"]
        for name in order:
            cmd, marker, game = apps[name]
            try:
                save_as = save_dir / f"{name}-{index + 1}.bin" if save_dir else None
                result = measure(cmd, marker, args.idle, game, env, save_as)
            except BenchError as error:
                errors.append(f"run {index + 1} {name}: {error}")
                log(f"run {index + 1} {name}: ERROR {error}")
                continue
            if name == "app" and args.play:
                try:
                    save_as = save_dir / f"play-{index + 1}.bin" if save_dir else None
                    result |= measure_play(env, save_as)
                except BenchError as error:
                    errors.append(f"run {index + 1} play: {error}")
                    log(f"run {index + 1} play: ERROR {error}")
            runs[name].append(result)
            shown = (f"{k}={v:.4g}" for k, v in result.items() if not isinstance(v, list))
            log(f"run {index + 1} {name}: " + ", ".join(shown))
        if len(runs["app"]) == len(runs["hello"]) == index + 1:
            pairs.append((runs["app"][-1], runs["hello"][-1]))
    for index in range(args.start_runs):
        order = ["hello", "app"] if index % 2 == 0 else ["app", "hello"]
        done: dict[str, dict[str, float]] = {}
        for name in order:
            cmd, marker, _game = apps[name]
            try:
                result = measure(cmd, marker, 0.0, False, env)
            except BenchError as error:
                errors.append(f"start run {index + 1} {name}: {error}")
                continue
            done[name] = {key: result[key] for key in START_KEYS}
            starts[name].append(done[name])
        if len(done) == 2:
            pairs.append((done["app"], done["hello"]))
        shown = ", ".join(f"{name} {result['start_s']:.4f} s" for name, result in done.items())
        log(f"start run {index + 1}: {shown}")
    rows = summarize(runs, starts)
    web_report = None
    if not args.no_web:  # bench/web.py: a browser tab under `cubilete web`
        import web

        web_report = web.measure(args.runs, log=log)
        rows += web_report["summary"]
        errors += [f"web: {error}" for error in web_report["errors"]]
    records: dict[str, float] = {}
    if args.records_games:  # appends, resume, history and statistics (bench/records.py)
        import records as records_bench

        records = records_bench.measure(args.records_games, log)
        rows += records_bench.summary_rows(records)
    shared: dict[str, float] = {}
    if args.shared_tables:  # a real server, 4 clients a table (bench/shared_tables.py)
        import shared_tables

        try:
            shared = shared_tables.measure(args.shared_tables, log=log)
        except shared_tables.BenchError as error:
            errors.append(f"shared tables: {error}")
        rows += shared_tables.summary_rows(shared)
    records_pg: dict[str, float] = {}
    if args.records_pg_games:  # PostgreSQL against SQLite: appends, growth (bench/records_pg.py)
        import records_pg as records_pg_bench

        records_pg = records_pg_bench.measure(args.records_pg_games, log)
        rows += records_pg_bench.summary_rows(records_pg)
    pg_servers: dict[str, float] = {}
    if args.pg_servers_tables:  # several servers on one PostgreSQL (bench/pg_servers.py)
        import pg_servers as pg_servers_bench

        try:
            pg_servers = pg_servers_bench.measure(args.pg_servers_tables, log=log)
        except pg_servers_bench.BenchError as error:
            errors.append(f"pg servers: {error}")
        rows += pg_servers_bench.summary_rows(pg_servers)
    generala: dict[str, Any] = {}
    if args.generala_tables:  # each preset's table solved from scratch (bench/generala_presets.py)
        import generala_presets

        generala = generala_presets.measure_tables(log)
        rows += generala_presets.summary_rows(generala)
    failed = any(row["passed"] is False for row in rows)
    if args.json:
        report = dict(
            date=time.strftime("%Y-%m-%d %H:%M:%S %z"),
            size=[COLS, ROWS],
            idle_s=args.idle,
            truecolor=args.truecolor,
            bytecode_cache=not args.no_bytecode_cache,
            cpus=os.cpu_count(),
            loadavg=os.getloadavg(),
            summary=rows,
            start_paired=paired(pairs),
            runs=runs,
            start_runs=starts,
            web=web_report,
            records=records,
            shared=shared,
            records_pg=records_pg,
            pg_servers=pg_servers,
            generala_tables=generala,
            errors=errors,
        )
        print(json.dumps(report, indent=2))
    else:
        print_table(rows, args.runs, args.start_runs, args.idle)
        ratios = paired(pairs)
        if len(ratios) >= 4:
            low, middle, high = statistics.quantiles(ratios, n=4)
            print(
                f"\nstart, paired: each app run over the hello run beside it, {len(ratios)} pairs: "
                f"median {middle:.2f}×, quartiles {low:.2f}–{high:.2f}×"
            )
        print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for error in errors:
            print(f"error: {error}")
    return 2 if errors and not (runs["app"] and runs["hello"]) else (1 if failed else 0)


if __name__ == "__main__":
    sys.exit(main())
