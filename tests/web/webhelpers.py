"""Start `cubilete web` for a test, find the app processes it started, stop it all by pid."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from waiting import wait_until


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def children(pid: int) -> list[int]:
    """Live direct children of `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def accepts(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class WebServer:
    process: subprocess.Popen[bytes]
    port: int
    stdout: Path
    stderr: Path
    seen_apps: set[int] = field(default_factory=set)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def apps(self) -> list[int]:
        """The app processes the server runs now (one per browser session)."""
        pids = children(self.process.pid)
        self.seen_apps.update(pids)
        return pids


@contextlib.contextmanager
def web_server(tmp_path: Path, *flags: str, startup: float = 20) -> Iterator[WebServer]:
    """`cubilete web` on 127.0.0.1 and a free port; stopped (and its apps killed) at the end."""
    port = free_port()
    tmp_path.mkdir(parents=True, exist_ok=True)
    out, err = tmp_path / "web.stdout", tmp_path / "web.stderr"
    command = [sys.executable, "-m", "app", "web", "--port", str(port), *flags]
    with out.open("wb") as stdout, err.open("wb") as stderr:
        process = subprocess.Popen(
            command, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL, start_new_session=True
        )
    server = WebServer(process, port, out, err)
    try:
        wait_until(
            lambda: accepts(port) or process.poll() is not None, startup, "the server to listen"
        )
        assert process.poll() is None, err.read_text()
        yield server
    finally:
        stop(server)


def stop(server: WebServer) -> None:
    """SIGTERM the server (it stops its sessions), then SIGKILL whatever the test started."""
    server.apps()
    process = server.process
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    for pid in server.seen_apps:
        if alive(pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
