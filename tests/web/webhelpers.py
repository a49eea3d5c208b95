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


def is_fork_server(pid: int) -> bool:
    try:
        return b"app.web_zygote" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def group_members(pgid: int) -> list[int]:
    """Live processes whose process group is `pgid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
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

    def fork_servers(self) -> list[int]:
        """The server's fork server (none with --no-fork-server, or while one restarts)."""
        return [pid for pid in children(self.process.pid) if is_fork_server(pid)]

    def apps(self) -> list[int]:
        """The app processes the server runs now (one per browser session): started by the
        server itself, or forked by its fork server."""
        pids = []
        for pid in children(self.process.pid):
            pids += children(pid) if is_fork_server(pid) else [pid]
        self.seen_apps.update(pids)
        return sorted(pids)

    def log(self) -> str:
        return self.stderr.read_text()


@contextlib.contextmanager
def web_server(tmp_path: Path, *flags: str, startup: float = 30) -> Iterator[WebServer]:
    """`cubilete web` on 127.0.0.1 and a free port, its fork server ready (unless the flags
    say --no-fork-server); stopped (and its apps killed) at the end."""
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
        if "--no-fork-server" not in flags:  # tabs are forked, as by default, from the start
            wait_until(
                lambda: "fork server ready" in server.log() or process.poll() is not None,
                startup,
                "the fork server",
            )
        yield server
    finally:
        stop(server)


def stop(server: WebServer) -> None:
    """SIGTERM the server (it stops its sessions and its fork server), then SIGKILL whatever
    the test started."""
    server.apps()
    fork_servers = server.fork_servers()
    process = server.process
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    for pid in [*server.seen_apps, *fork_servers]:
        if alive(pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
