"""A real `cubilete server` process for the tests, and plain-socket clients that speak its
protocol line by line (to send it what a well-behaved client never would)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from waiting import wait_until

from app.server.protocol import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parents[2]
SECRET = "a-secret-for-the-tests-only-0123456789"


@dataclass
class ServerProcess:
    process: subprocess.Popen[bytes]
    socket: Path
    stderr: Path
    tcp: tuple[str, int] | None

    def log(self) -> str:
        return self.stderr.read_text(encoding="utf-8", errors="replace")

    @property
    def pid(self) -> int:
        return self.process.pid


def short_dir() -> Path:
    """A temp dir with a short path: a Unix socket's path must be under 108 bytes."""
    return Path(tempfile.mkdtemp(prefix="cs-", dir="/tmp"))


def answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


@contextlib.contextmanager
def server_process(
    *flags: str,
    where: Path | None = None,
    env: dict[str, str] | None = None,
    tcp: bool = False,
    data_dir: bool = True,
    prefix: tuple[str, ...] = (),
) -> Iterator[ServerProcess]:
    """`cubilete server --socket <dir>/s.sock --data-dir <dir>/data [flags]`, listening;
    stopped by its pid at the end (SIGTERM, and it must exit 0 and remove its socket). The
    same `where` again is the same server's socket and records (a restart). `data_dir=False`:
    no `--data-dir` (the server finds its own, as `env` says). `prefix`: a command that runs
    the server (`prlimit --nofile=...`)."""
    where = where or short_dir()
    path = where / "s.sock"
    stderr = where / "server.stderr"
    command = [
        *prefix,
        sys.executable,
        *("-m", "app", "server", "--socket", str(path)),
        *(("--data-dir", str(where / "data")) if data_dir else ()),
        *flags,
    ]
    environment = os.environ | (env or {})
    if tcp:
        command += ["--listen", "127.0.0.1:0"]
        environment["CUBILETE_SERVER_SECRET"] = SECRET
    with stderr.open("ab") as err:
        process = subprocess.Popen(
            command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=err, stderr=err, env=environment
        )
    server = ServerProcess(process, path, stderr, None)
    listening = server.log().count("listening on") + 1
    try:
        wait_until(
            lambda: server.log().count("listening on") >= listening or process.poll() is not None,
            30,
            "the server to listen",
        )
        assert process.poll() is None, server.log()
        if tcp:
            found = re.findall(r"on TCP (\S+):(\d+)", server.log())
            assert found, server.log()
            host, port = found[-1]  # (this process's: a restart writes to the same log)
            server.tcp = (host, int(port))
        yield server
    finally:
        stop(server)


def stop(server: ServerProcess) -> int | None:
    """SIGTERM by pid; SIGKILL if it does not stop in 10 s. Its exit status."""
    process = server.process
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    return process.returncode


class LineClient:
    """A blocking socket client that sends raw lines and reads the server's, one JSON object
    per line."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sock.settimeout(10)
        self.buffer = b""

    @classmethod
    def unix(cls, path: Path) -> LineClient:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(str(path))
        return cls(sock)

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, **message: Any) -> None:
        self.send_raw(json.dumps(message).encode() + b"\n")

    def read(self) -> dict[str, Any] | None:
        """The server's next message; None when it has closed the connection."""
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, _newline, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def hello(self, **fields: Any) -> dict[str, Any] | None:
        self.send(type="hello", version=PROTOCOL_VERSION, client="tests", **fields)
        return self.read()

    def closed(self) -> bool:
        """Whether the server has closed the connection (after whatever it still sends)."""
        while True:
            message = self.read()
            if message is None:
                return True

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> LineClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def line_client(server: ServerProcess, user: str) -> LineClient:
    """A raw line client of the server's TCP listener, said hello to as `user` (the secret)."""
    assert server.tcp is not None
    client = LineClient(socket.create_connection(server.tcp))
    welcome = client.hello(secret=SECRET, user=user)
    assert welcome is not None and welcome["type"] == "welcome", welcome
    return client


def answer(client: LineClient, ref: int) -> dict[str, Any]:
    """The server's answer to the request numbered `ref` (what comes before it is dropped)."""
    while True:
        message = client.read()
        assert message is not None
        if message.get("ref") == ref:
            return message
