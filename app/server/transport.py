"""The server's listeners: a Unix socket (always) and TCP (with `--listen`, for front ends on
other machines), each connection read line by line within its limits.

A connection must say hello first (`protocol.Hello`): its version is checked, then who it is
(`identity.py`), then the core takes its requests one by one. What a client does wrong —
a line that is not a message, one too long, too many at once — gets a refusal (`Error`) and
changes nothing; after `Limits.strikes` refusals in a row the connection is closed. Nothing a
client sends can stop the server or hold up the others: the core never waits, a client that
does not read what it is sent is cut off, and an error nobody foresaw while carrying out a
request is logged and answered, and the server goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import signal
import socket
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

from rules import N_, Text

from ..i18n import _, tr
from ..records.store import StoreError
from ..records.version import app_version
from .core import HOLD_SECONDS, ServerCore, TableHosting
from .identity import (
    Identity,
    IdentityError,
    identify_front_end,
    identify_unix,
    peer_uid,
)
from .limits import Limits, TokenBucket
from .protocol import (
    PROTOCOL_VERSION,
    Error,
    ErrorCode,
    Hello,
    LineSplitter,
    Message,
    ProtocolError,
    TooLong,
    Welcome,
    Words,
    decode_client,
    encode,
    ref_of,
    version_of_hello,
)
from .protocol import Limits as LimitsMessage

log = logging.getLogger("cubilete.server")

SYSTEM_SOCKET = Path("/run/cubilete/server.sock")
"""Where a server run for the whole machine listens (systemd's `RuntimeDirectory=cubilete`,
docs/shared-server.md); clients look there first."""
SOCKET_NAME = "server.sock"
READ_CHUNK = 64 * 1024


def default_socket(environ: dict[str, str] | None = None) -> Path:
    """Where `cubilete server` listens without `--socket`: `$XDG_RUNTIME_DIR/cubilete/server.sock`
    (private to the user who runs it), else `server.sock` in the data dir."""
    from ..locations import data_dir

    environ = dict(os.environ) if environ is None else environ
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return Path(runtime) / "cubilete" / SOCKET_NAME
    return data_dir(create=False) / SOCKET_NAME


def client_socket(explicit: str | None = None, environ: dict[str, str] | None = None) -> Path:
    """The socket a client connects to: `--server PATH`, else `$CUBILETE_SERVER`, else the
    machine's server (`SYSTEM_SOCKET`) if it is running, else the user's own
    (`default_socket`)."""
    environ = dict(os.environ) if environ is None else environ
    if explicit:
        return Path(explicit)
    if environ.get("CUBILETE_SERVER"):
        return Path(environ["CUBILETE_SERVER"])
    if SYSTEM_SOCKET.exists():
        return SYSTEM_SOCKET
    return default_socket(environ)


class ListenError(OSError):
    """The server cannot listen where it was asked to; the message is one line for the admin."""


# -- one connection ----------------------------------------------------------------------------
class Connection:
    """A client's connection: what the core sees as a `Peer` once it has said hello."""

    def __init__(
        self,
        writer: asyncio.StreamWriter,
        via: Literal["unix", "tcp"],
        limits: Limits,
        name: str,
    ) -> None:
        self.writer = writer
        self.via = via
        self.limits = limits
        self.name = name
        """For the log: the Unix user id, or the TCP address."""
        self._identity: Identity | None = None
        self.messages = TokenBucket(limits.messages_per_second, limits.burst)
        self.strikes = TokenBucket(1 / limits.strike_forgiven, limits.strikes)
        self.closing = False

    @property
    def identity(self) -> Identity:
        assert self._identity is not None, "a connection has an identity once it said hello"
        return self._identity

    def send(self, message: Message) -> None:
        self.send_line(encode(message))

    def send_line(self, line: bytes) -> None:
        if self.closing:
            return
        transport = self.writer.transport
        if transport.is_closing():
            self.closing = True
            return
        self.writer.write(line)
        if transport.get_write_buffer_size() > self.limits.max_output_bytes:
            log.warning("%s reads nothing of what it is sent: cut off", self.name)
            self.closing = True
            transport.abort()

    def refuse(
        self, code: ErrorCode, text: Text, ref: int | None = None, fatal: bool = False
    ) -> None:
        """Refuse what the client sent; past its strikes, close the connection."""
        if not fatal and not self.strikes.take():
            code, text, fatal = (
                "too_many_errors",
                Text(N_("too many refused messages: the connection is closed")),
                True,
            )
        self.send(Error(ref=ref, code=code, words=Words.of(text), fatal=fatal))
        if fatal:
            self.close()

    def close(self) -> None:
        if not self.closing:
            self.closing = True
            self.writer.close()


# -- the server --------------------------------------------------------------------------------
@dataclass
class Listening:
    """Where a running server listens."""

    socket_path: Path
    tcp: tuple[str, int] | None


class Server:
    """The listeners around a `ServerCore`."""

    def __init__(self, core: ServerCore, limits: Limits, secret: bytes | None = None) -> None:
        self.core = core
        self.limits = limits
        self.secret = secret
        self.connections: set[Connection] = set()
        self._servers: list[asyncio.AbstractServer] = []
        self._lock: IO[bytes] | None = None
        self._socket_path: Path | None = None
        self._socket_inode: int | None = None

    # -- listening -------------------------------------------------------------------------
    async def listen_unix(self, path: Path, mode: int = 0o600) -> None:
        sock, self._lock = bind_unix_socket(path, mode)
        self._socket_path = path
        self._socket_inode = os.stat(path).st_ino
        server = await asyncio.start_unix_server(
            lambda r, w: self._connection(r, w, "unix"), sock=sock, limit=READ_CHUNK
        )
        self._servers.append(server)

    async def listen_tcp(self, host: str, port: int) -> tuple[str, int]:
        if self.secret is None:
            raise ListenError(errno.EINVAL, _("TCP needs a shared secret"))
        try:
            server = await asyncio.start_server(
                lambda r, w: self._connection(r, w, "tcp"), host, port, limit=READ_CHUNK
            )
        except OSError as error:
            raise ListenError(
                error.errno or 0,
                tr(
                    N_("cannot listen on {host}:{port}: {error}"), host=host, port=port, error=error
                ),
            ) from None
        self._servers.append(server)
        address = server.sockets[0].getsockname()
        return str(address[0]), int(address[1])

    async def serve_until(self, stop: asyncio.Event) -> None:
        for server in self._servers:
            await server.start_serving()
        await stop.wait()
        await self.stop()

    async def stop(self) -> None:
        for server in self._servers:
            server.close()
        self.core.shutdown()
        for connection in list(self.connections):
            connection.send(
                Error(
                    code="shutdown", words=Words.of(Text(N_("the server is stopping"))), fatal=True
                )
            )
            connection.close()
        for server in self._servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 2)
        self._remove_socket()

    def _remove_socket(self) -> None:
        """Unlink our socket file (if it is still ours) and let go of the lock."""
        path = self._socket_path
        if path is not None:
            with contextlib.suppress(OSError):
                if os.stat(path).st_ino == self._socket_inode:
                    path.unlink()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    # -- a connection ------------------------------------------------------------------------
    async def _connection(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        via: Literal["unix", "tcp"],
    ) -> None:
        name = _peer_name(writer, via)
        connection = Connection(writer, via, self.limits, name)
        if len(self.connections) >= self.limits.max_connections:
            connection.refuse("full", Text(N_("the server is full: try again later")), fatal=True)
            return
        self.connections.add(connection)
        try:
            await self._read(reader, connection)
        except (ConnectionError, OSError):
            pass
        finally:
            self.connections.discard(connection)
            if connection._identity is not None:
                self.core.disconnected(connection)
                log.info("%s (%s) left", name, connection.identity.key)
            connection.close()

    async def _read(self, reader: asyncio.StreamReader, connection: Connection) -> None:
        loop = asyncio.get_running_loop()
        splitter = LineSplitter(self.limits.max_message_bytes)
        deadline = loop.time() + self.limits.hello_timeout
        while not connection.closing:
            try:
                async with asyncio.timeout_at(deadline):
                    data = await reader.read(READ_CHUNK)
            except TimeoutError:
                if connection._identity is None:
                    words = Text(N_("no hello in time: the connection is closed"))
                else:
                    words = Text(N_("nothing heard for a long time: the connection is closed"))
                connection.refuse("idle", words, fatal=True)
                return
            if not data:
                return
            for line in splitter.feed(data):
                if connection.closing:
                    return
                if isinstance(line, TooLong):
                    connection.refuse(
                        "too_long",
                        Text(
                            N_("a message has at most {n} bytes"),
                            {"n": self.limits.max_message_bytes},
                        ),
                        ref=line.ref,
                    )
                    continue
                if not connection.messages.take():
                    connection.refuse(
                        "too_fast",
                        Text(
                            N_("too many messages: at most {n} a second"),
                            {"n": self.limits.messages_per_second},
                        ),
                        ref=ref_of(line),  # (so that the client knows which was refused)
                    )
                    continue
                self._line(connection, line)
                if connection._identity is not None:  # (a hello must come in its own time)
                    deadline = loop.time() + self.limits.idle_timeout

    def _line(self, connection: Connection, line: bytes) -> None:
        hello = connection._identity is None
        if hello:
            claimed = version_of_hello(line)
            if claimed is not None and claimed[0] != PROTOCOL_VERSION:
                version, ref = claimed
                words = N_(
                    "this server speaks protocol version {server}, your client {client}: "
                    "use the same version of Cubilete"
                )
                connection.refuse(
                    "version",
                    Text(words, {"server": PROTOCOL_VERSION, "client": version}),
                    ref=ref,
                    fatal=True,
                )
                return
        try:
            message = decode_client(line)
        except ProtocolError as error:
            connection.refuse(error.code, error.words, ref=ref_of(line))
            return
        if hello:
            if not isinstance(message, Hello):
                connection.refuse("hello_first", Text(N_("say hello first")), ref=message.ref)
                return
            self._hello(connection, message)
            return
        try:
            self.core.handle(connection, message)
        except Exception:  # a bug in carrying it out: logged, answered, the server goes on
            log.exception("request %s from %s failed", message.type, connection.identity.key)
            connection.send(
                Error(
                    ref=message.ref,
                    code="illegal",
                    words=Words.of(Text(N_("the server could not do that (an error of its own)"))),
                )
            )

    def _hello(self, connection: Connection, hello: Hello) -> None:
        try:
            if connection.via == "unix":
                sock = connection.writer.get_extra_info("socket")
                identity = identify_unix(hello, peer_uid(sock))
            else:
                assert self.secret is not None
                identity = identify_front_end(hello, self.secret)
        except IdentityError as error:
            connection.refuse("auth", error.words, ref=hello.ref, fatal=True)
            return
        connection._identity = identity
        self.core.connected(connection)
        log.info("%s is %s (%s)", connection.name, identity.key, hello.client or "?")
        limits = self.limits
        connection.send(
            Welcome(
                ref=hello.ref,
                server=app_version(),
                user=identity.name,
                identity=identity.kind,
                limits=LimitsMessage(
                    max_message_bytes=limits.max_message_bytes,
                    max_chat_chars=limits.chat_chars,
                    messages_per_second=limits.messages_per_second,
                    burst=limits.burst,
                    idle_timeout=limits.idle_timeout,
                ),
            )
        )


def _peer_name(writer: asyncio.StreamWriter, via: str) -> str:
    if via == "unix":
        sock = writer.get_extra_info("socket")
        try:
            return f"uid {peer_uid(sock)}"
        except (IdentityError, OSError):
            return "unix peer"
    peer = writer.get_extra_info("peername")
    return f"{peer[0]}:{peer[1]}" if peer else "tcp peer"


# -- the socket file ----------------------------------------------------------------------------
def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def bind_unix_socket(path: Path, mode: int = 0o600) -> tuple[socket.socket, IO[bytes]]:
    """A listening Unix socket at `path`, with `mode`, and its lock. Only one server per
    path: the lock file beside it (`server.sock.lock`) is held (open) while the server runs;
    a socket left by a server that died is replaced, a live server's never. ListenError says
    why it cannot."""
    if len(os.fsencode(path)) >= 108:
        raise ListenError(
            errno.ENAMETOOLONG, tr(N_("the socket path {path} is too long"), path=path)
        )
    lock_path = _lock_path(path)
    try:
        lock = open(lock_path, "ab")  # noqa: SIM115  (held open for the server's life)
    except OSError as error:
        raise ListenError(
            error.errno or 0,
            tr(N_("cannot use {path}: {error}"), path=lock_path, error=error.strerror),
        ) from None
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise ListenError(
            errno.EADDRINUSE, tr(N_("a server is already listening on {path}"), path=path)
        ) from None
    try:
        try:
            existing = os.lstat(path)
        except FileNotFoundError:
            pass
        else:
            if not stat.S_ISSOCK(existing.st_mode):
                raise ListenError(
                    errno.EEXIST, tr(N_("{path} exists and is not a socket"), path=path)
                )
            path.unlink()  # a dead server's: we hold the lock
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o177)  # never, even for a moment, more open than 0600
        try:
            sock.bind(os.fspath(path))
        except OSError as error:
            sock.close()
            raise ListenError(
                error.errno or 0,
                tr(N_("cannot listen on {path}: {error}"), path=path, error=error.strerror),
            ) from None
        finally:
            os.umask(old_umask)
        os.chmod(path, mode)
        sock.listen(128)
        sock.setblocking(False)
    except BaseException:
        lock.close()
        raise
    return sock, lock


# -- running it ----------------------------------------------------------------------------------
def run_server(
    socket_path: Path,
    *,
    mode: int = 0o600,
    listen: tuple[str, int] | None = None,
    secret: bytes | None = None,
    limits: Limits | None = None,
    on_ready: Callable[[Listening], None] | None = None,
    hosting: TableHosting | None = None,
    hold: float = HOLD_SECONDS,
) -> int:
    """Serve until SIGTERM or SIGINT, the tables' games played by `hosting` (the tables it
    kept rebuilt first). ListenError if it cannot listen."""
    limits = limits or Limits()
    core = ServerCore(hosting, limits=limits, hold=hold)
    return asyncio.run(_main(core, socket_path, mode, listen, secret, on_ready))


async def _main(
    core: ServerCore,
    socket_path: Path,
    mode: int,
    listen: tuple[str, int] | None,
    secret: bytes | None,
    on_ready: Callable[[Listening], None] | None,
) -> int:
    limits = core.limits
    server = Server(core, limits, secret)
    await server.listen_unix(socket_path, mode)
    try:
        tcp = await server.listen_tcp(*listen) if listen is not None else None
    except BaseException:
        server._remove_socket()
        raise
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    rebuilt = core.restore()
    if rebuilt:
        log.info("%d tables rebuilt from their records", rebuilt)
    if on_ready is not None:
        on_ready(Listening(socket_path, tcp))
    every = getattr(core.hosting, "renew_every", None)
    tasks = [] if every is None else [asyncio.create_task(_keep_leases(core, every))]
    stop_listening = None
    follow = getattr(core.hosting, "listen", None)
    if follow is not None:  # (several servers on one database: each hears the others' events)

        def heard(record_id: str | None, seq: int) -> None:
            with contextlib.suppress(RuntimeError):  # (the loop is closed: the server stops)
                loop.call_soon_threadsafe(core.heard, record_id, seq)

        stop_listening = follow(heard)
    remote = None
    shared = getattr(core.hosting, "shared", lambda: None)()
    if shared is not None and tcp is not None and secret is not None:
        from .relay import RemoteTables  # (several servers on one database only)

        try:
            shared.announce(f"{tcp[0]}:{tcp[1]}")
        except StoreError as error:  # (announced again at each renewal of the leases)
            log.warning("this server cannot announce itself to the others: %s", error)
        remote = core.remote = RemoteTables(shared, secret)
        tasks.append(asyncio.create_task(remote.keep_fresh()))
    try:
        await server.serve_until(stop)
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if remote is not None:
            await remote.close()
        if stop_listening is not None:
            await asyncio.to_thread(stop_listening)
    return 0


async def _keep_leases(core: ServerCore, every: float) -> None:
    """On a database shared with other servers: every `every` seconds, renew this server's
    leases and take over the tables of a server that stopped renewing its own."""
    while True:
        await asyncio.sleep(every)
        try:
            core.take_over()
        except Exception:  # (logged; the next round tries again: the server goes on)
            log.exception("the leases could not be renewed")
