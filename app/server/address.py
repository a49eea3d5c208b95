"""Where the server of shared tables is, for a client: light enough for the app's start (no
pydantic, no protocol: those load only once a server is found).

`find_server`: `cubilete --server PATH`, else `$CUBILETE_SERVER`, else the machine's server
(`/run/cubilete/server.sock`) or the user's own (`$XDG_RUNTIME_DIR/cubilete/server.sock`,
else `server.sock` in the data dir) if a server listens there; None: local play only.
`transport.py` holds the same paths for the server (`tests/server/test_remote.py` checks that
the two agree).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .client import ServerClient

SYSTEM_SOCKET = Path("/run/cubilete/server.sock")
SOCKET_NAME = "server.sock"


def default_socket(environ: Mapping[str, str] | None = None) -> Path:
    """Where `cubilete server` listens without `--socket` (`transport.default_socket`)."""
    from ..locations import data_dir

    environ = os.environ if environ is None else environ
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return Path(runtime) / "cubilete" / SOCKET_NAME
    return data_dir(create=False) / SOCKET_NAME


def listening(path: Path, timeout: float = 0.5) -> bool:
    """Whether a server accepts connections on the Unix socket at `path`."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(timeout)
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def find_server(
    explicit: str | None = None, environ: Mapping[str, str] | None = None
) -> Path | None:
    """The server's socket: `--server PATH` or `$CUBILETE_SERVER`, used as given (the lobby
    says so if nobody answers there); else the machine's server or the user's own if a server
    listens there; None: play locally only."""
    environ = os.environ if environ is None else environ
    if explicit:
        return Path(explicit)
    if environ.get("CUBILETE_SERVER"):
        return Path(environ["CUBILETE_SERVER"])
    for path in (SYSTEM_SOCKET, default_socket(environ)):
        if path.exists() and listening(path):
            return path
    return None


@dataclass(frozen=True)
class ServerAddress:
    """How to reach the server: its Unix socket (the server knows who you are by your Unix
    user), or TCP as a front end (`hello`: the shared `secret`, and a `user` or a `guest`)."""

    path: Path | None = None
    tcp: tuple[str, int] | None = None
    hello: Mapping[str, Any] = field(default_factory=dict)

    async def connect(self) -> ServerClient:
        """ServerError if nobody answers, or the server refuses us."""
        from .client import ServerClient

        if self.tcp is not None:
            return await ServerClient.connect_tcp(*self.tcp, **dict(self.hello))
        assert self.path is not None
        return await ServerClient.connect(self.path, **dict(self.hello))

    def __str__(self) -> str:
        if self.tcp is not None:
            return f"{self.tcp[0]}:{self.tcp[1]}"
        return str(self.path)
