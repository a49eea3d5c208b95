"""Where the server of shared tables is, for a client: light enough for the app's start (no
pydantic, no protocol: those load only once a server is found).

`find_server`: `cubilete --server PATH`, else `$CUBILETE_SERVER`, else the machine's server
(`/run/cubilete/server.sock`) or the user's own (`$XDG_RUNTIME_DIR/cubilete/server.sock`,
else `server.sock` in the data dir) if a server listens there; None: local play only (and
`none` for either, or `cubilete --local`: local play whatever answers).
`transport.py` holds the same paths for the server (`tests/server/test_remote.py` checks that
the two agree).
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .client import ServerClient

NO_SERVER = "none"
"""`--server none` or `CUBILETE_SERVER=none`: no server, even if one answers (`--local`)."""
SYSTEM_SOCKET = Path("/run/cubilete/server.sock")
SOCKET_NAME = "server.sock"

CONNECT_WITHIN = 5.0
"""Seconds a server of the list has to welcome the client before the next one is tried."""

TAB_SERVER = "CUBILETE_TAB_SERVER"
"""A browser tab's environment (`cubilete web --server`): HOST:PORT of the server's TCP
listener, which the tab reaches as a front end does."""
TAB_SECRET = "CUBILETE_TAB_SECRET"
"""... the server's shared secret (the tab's app takes it out of its environment)."""
TAB_USER = "CUBILETE_TAB_USER"
"""... the user the web's proxy authenticated (`--user-header`): the tab plays as them."""
TAB_GUEST = "CUBILETE_TAB_GUEST"
"""... else the guest name the tab plays as (its seats are its own by their tokens)."""


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
    found = find_servers(explicit, environ)
    return found[0] if found else None


def split_servers(text: str) -> list[str]:
    """The servers of `A,B,C`, in order, each once, blanks dropped."""
    parts = (part.strip() for part in text.split(","))
    return list(dict.fromkeys(part for part in parts if part))


def find_servers(
    explicit: str | None = None, environ: Mapping[str, str] | None = None
) -> list[Path]:
    """The servers' sockets: `--server A,B` or `$CUBILETE_SERVER` (commas between), in order,
    used as given (the client connects to the first that answers, and to the next one when
    it loses its server); else the machine's server or the user's own if a server listens
    there; []: play locally only (also when either says `none`)."""
    environ = os.environ if environ is None else environ
    for given in (explicit, environ.get("CUBILETE_SERVER")):
        named = split_servers(given or "")
        if [name.lower() for name in named] == [NO_SERVER]:
            return []
        if named:
            return [Path(name) for name in named]
    for path in (SYSTEM_SOCKET, default_socket(environ)):
        if path.exists() and listening(path):
            return [path]
    return []


@dataclass(frozen=True)
class ServerAddress:
    """How to reach the server: its Unix socket (the server knows who you are by your Unix
    user), or TCP as a front end (`hello`: the shared `secret`, and a `user` or a `guest`)."""

    path: Path | None = None
    tcp: tuple[str, int] | None = None
    hello: Mapping[str, Any] = field(default_factory=dict)
    more: tuple[ServerAddress, ...] = ()
    """The other servers of the list (several servers on one database), tried in order
    after this one, and when the connection to one is lost."""

    @classmethod
    def of_list(cls, addresses: Sequence[ServerAddress]) -> ServerAddress:
        """One address for a list of servers (the first, the others in `more`)."""
        first, *others = addresses
        return cls(first.path, first.tcp, first.hello, tuple(others))

    @property
    def every(self) -> tuple[ServerAddress, ...]:
        """Each server of the list, alone, in order."""
        return (ServerAddress(self.path, self.tcp, self.hello), *self.more)

    async def connect_any(
        self, after: ServerAddress | None = None
    ) -> tuple[ServerAddress, ServerClient]:
        """Connect to the first server of the list that answers, starting after `after` (the
        one just lost: it is tried last) and going round. The server and the connection;
        the last server's ServerError (or TimeoutError) when none answers."""
        from .client import ServerError

        order = list(self.every)
        if after is not None and after in order:
            start = order.index(after) + 1
            order = order[start:] + order[:start]
        failure: Exception | None = None
        for one in order:
            try:
                return one, await asyncio.wait_for(one.connect(), CONNECT_WITHIN)
            except (ServerError, TimeoutError) as error:
                failure = error
        assert failure is not None
        raise failure

    async def connect(self) -> ServerClient:
        """ServerError if nobody answers at this one server, or the server refuses us."""
        from .client import ServerClient

        if self.tcp is not None:
            return await ServerClient.connect_tcp(*self.tcp, **dict(self.hello))
        assert self.path is not None
        return await ServerClient.connect(self.path, **dict(self.hello))

    def __str__(self) -> str:
        where = f"{self.tcp[0]}:{self.tcp[1]}" if self.tcp is not None else str(self.path)
        return ",".join([where, *(str(one) for one in self.more)])


def parse_host_port(text: str) -> tuple[str, int] | None:
    """`HOST:PORT` (`[::1]:PORT`), or None if it is not one."""
    host, colon, port = text.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isascii() or not port.isdigit():
        return None
    number = int(port)
    return (host, number) if 0 < number <= 65535 else None


def tab_server(environ: MutableMapping[str, str]) -> ServerAddress | None:
    """The server a browser tab of `cubilete web --server` plays at: its TCP listener, as the
    person the web front end knows (the proxy's user, else the tab's guest name). None: the
    tab plays locally. The secret is taken out of `environ` (nothing the tab starts sees it)."""
    secret = environ.pop(TAB_SECRET, "")
    places = [parse_host_port(one) for one in split_servers(environ.get(TAB_SERVER, ""))]
    user, guest = environ.get(TAB_USER, ""), environ.get(TAB_GUEST, "")
    if not places or None in places or not secret or not (user or guest):
        return None
    who = {"user": user} if user else {"guest": guest}
    hello = {"secret": secret, **who}
    return ServerAddress.of_list([ServerAddress(tcp=where, hello=hello) for where in places])
