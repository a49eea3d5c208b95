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
import math
import os
import signal
import socket
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from rules import N_, Text

from ..i18n import _, tr
from ..records.store import StoreError
from ..records.version import app_version
from .core import HOLD_SECONDS, ServerCore, TableHosting
from .identity import (
    Identity,
    IdentityError,
    WrongSecret,
    identify_front_end,
    identify_unix,
    peer_uid,
)
from .limits import Backoff, Limits, TokenBucket, connection_cap, raise_descriptor_limit
from .logsafe import LogLimiter, shown
from .protocol import (
    PROTOCOL_VERSION,
    Error,
    ErrorCode,
    Hello,
    LineSplitter,
    Message,
    Ping,
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
LIMITED = LogLimiter(log, period=60.0, burst=1)
"""The lines a peer can cause at will: one a minute per key, then a count."""
COMINGS = LogLimiter(log, period=60.0, burst=3)
"""Who connects and leaves: three lines a minute per person, then a count."""

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
        key: str = "",
        on_buffered: Callable[[Connection, int], None] | None = None,
    ) -> None:
        self.writer = writer
        self.via = via
        self.limits = limits
        self.name = name
        """For the log: the Unix user id, or the TCP address and port."""
        self.key = key or name
        """Whose connections are counted together: `uid N` on the socket, `tcp ADDRESS`."""
        self.front_end = False
        """A TCP peer that showed the secret."""
        self.buffered = 0
        """What waited unsent for the client when it was last sent something."""
        self.active_at = 0.0
        """When it last asked for something other than a ping (the loop's clock)."""
        self.on_buffered = on_buffered
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
        size = transport.get_write_buffer_size()
        if size > self.limits.max_output_bytes:
            self.cut_off()
        elif self.on_buffered is not None:
            self.on_buffered(self, size)

    def unsent(self) -> int:
        """What waits unsent for the client now."""
        transport = self.writer.transport
        return 0 if self.closing or transport.is_closing() else transport.get_write_buffer_size()

    def cut_off(self) -> None:
        """The client reads too little of what it is sent: the connection ends at once (what
        waits for it is dropped)."""
        if self.closing:
            return
        LIMITED.warning(
            f"cut {self.key}",
            "%s reads nothing of what it is sent: cut off",
            shown(self.name),
        )
        self.closing = True
        self.writer.transport.abort()
        if self.on_buffered is not None:
            self.on_buffered(self, 0)

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

    def __init__(
        self,
        core: ServerCore,
        limits: Limits,
        secret: bytes | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.core = core
        self.limits = limits
        self.secret = secret
        self.connections: set[Connection] = set()
        self.by_key: dict[str, set[Connection]] = {}
        """Each Unix user's, each TCP address's connections."""
        self.unproven: dict[str, int] = {}
        """Each TCP address's connections that have not shown the secret yet."""
        self.buffered: dict[str, int] = {}
        """What waits unsent for each key's connections (as last seen: at most that)."""
        self.buffered_total = 0
        self.wrong_secrets = Backoff(limits.free_failures, limits.backoff_most, clock=clock)
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
        name, key = _peer_name(writer, via)
        connection = Connection(writer, via, self.limits, name, key)
        refusal = self._admit(connection)
        if refusal is not None:
            LIMITED.warning(f"full {key}", "%s refused: %s", shown(name), shown(str(refusal)))
            connection.refuse("full", refusal, fatal=True)
            return
        connection.on_buffered = self._buffered  # (counted from now on)
        self.connections.add(connection)
        self.by_key.setdefault(key, set()).add(connection)
        if via == "tcp":
            self.unproven[key] = self.unproven.get(key, 0) + 1
        try:
            await self._read(reader, connection)
        except (ConnectionError, OSError):
            pass
        finally:
            self._forget(connection)
            if connection._identity is not None:
                self.core.disconnected(connection)
                COMINGS.info(
                    f"left {connection.identity.key}",
                    "%s (%s) left",
                    shown(name),
                    shown(connection.identity.key),
                )
            connection.close()

    def _admit(self, connection: Connection) -> Text | None:
        """Why a new connection is refused (None: it is let in): the server holds as many as
        it can, or its user (its address) holds as many as one may."""
        limits = self.limits
        if len(self.connections) >= limits.max_connections:
            return Text(N_("the server is full: try again later"))
        key = connection.key
        held = len(self.by_key.get(key, ()))
        if connection.via == "unix":
            most = limits.connections_per_identity
        elif self.unproven.get(key, 0) >= limits.connections_per_identity:
            most = held = limits.connections_per_identity
        else:
            most = limits.connections_per_front_end
        if held >= most:
            return Text(
                N_("you have {n} connections to this server, the most one may have: close one"),
                {"n": most},
            )
        return None

    def _forget(self, connection: Connection) -> None:
        key = connection.key
        self.connections.discard(connection)
        group = self.by_key.get(key)
        if group is not None:
            group.discard(connection)
            if not group:
                del self.by_key[key]
        if connection.via == "tcp" and not connection.front_end:
            self._proven(connection)
        self._buffered(connection, 0)

    def _proven(self, connection: Connection) -> None:
        """`connection` no longer counts among its address's connections without the secret."""
        key = connection.key
        left = self.unproven.get(key, 0) - 1
        if left > 0:
            self.unproven[key] = left
        else:
            self.unproven.pop(key, None)

    def _buffered(self, connection: Connection, size: int) -> None:
        """What waits unsent for `connection` is `size` bytes: past what its user (address)
        or everyone together may have waiting, the connection with the most unsent (of that
        user, of all) is cut off."""
        change = self._count(connection, size)
        if change <= 0:
            return
        key, limits = connection.key, self.limits
        most = limits.output_per_front_end if connection.front_end else limits.output_per_identity
        if self.buffered.get(key, 0) > most:
            self._cut_the_most(self.by_key.get(key, set()), most)
        if self.buffered_total > limits.output_total:
            self._cut_the_most(self.connections, limits.output_total)

    def _count(self, connection: Connection, size: int) -> int:
        change = size - connection.buffered
        if change:
            key = connection.key
            connection.buffered = size
            self.buffered[key] = self.buffered.get(key, 0) + change
            if self.buffered[key] <= 0:
                del self.buffered[key]
            self.buffered_total += change
        return change

    def _cut_the_most(self, connections: set[Connection], most: int) -> None:
        """Count again what waits for each of `connections` (what was seen last may have
        been sent since); while it is more than `most` together, cut off the one with the
        most."""
        for one in list(connections):
            self._count(one, one.unsent())
        waiting = [one for one in connections if not one.closing and one.buffered]
        total = sum(one.buffered for one in waiting)
        waiting.sort(key=lambda one: one.buffered)
        while total > most and waiting:
            one = waiting.pop()
            total -= one.buffered
            one.cut_off()

    async def _read(self, reader: asyncio.StreamReader, connection: Connection) -> None:
        loop = asyncio.get_running_loop()
        splitter = LineSplitter(self.limits.max_message_bytes)
        deadline = loop.time() + self.limits.hello_timeout
        while not connection.closing:
            greeted = connection._identity is not None
            until = min(deadline, connection.active_at + self.limits.idle_limit)
            try:
                async with asyncio.timeout_at(until if greeted else deadline):
                    data = await reader.read(READ_CHUNK)
            except TimeoutError:
                if greeted and loop.time() < deadline:  # only pings for the idle limit
                    if self.core.at_a_table(connection):
                        connection.active_at = loop.time()
                        continue
                    words = Text(
                        N_(
                            "nothing but pings for {n} seconds, at no table: "
                            "the connection is closed"
                        ),
                        {"n": math.ceil(self.limits.idle_limit)},
                    )
                elif connection._identity is None:
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
                await asyncio.sleep(0)  # (the others' turn: one line at a time each)
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
        if not isinstance(message, Ping):  # (pings alone do not keep a connection: `_read`)
            connection.active_at = asyncio.get_running_loop().time()
        try:
            self.core.handle(connection, message)
        except Exception:  # a bug in carrying it out: logged, answered, the server goes on
            log.exception(
                "request %s from %s failed", shown(message.type), shown(connection.identity.key)
            )
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
                identity = self._front_end(connection, hello)
        except IdentityError as error:
            connection.refuse("auth", error.words, ref=hello.ref, fatal=True)
            return
        connection._identity = identity
        connection.active_at = asyncio.get_running_loop().time()
        self.core.connected(connection)
        COMINGS.info(
            f"hello {identity.key}",
            "%s is %s (%s)",
            shown(connection.name),
            shown(identity.key),
            shown(hello.client or "?"),
        )
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

    def _front_end(self, connection: Connection, hello: Hello) -> Identity:
        """Who a TCP peer speaks for, if it shows the secret. An address that gave wrong
        secrets too often must wait before it tries again (`Backoff`); each wrong one is
        logged, once a minute per address at most."""
        assert self.secret is not None
        key = connection.key
        wait = self.wrong_secrets.wait(key)
        if wait > 0:
            raise IdentityError(
                Text(
                    N_("too many wrong secrets from your address: try again in {n} seconds"),
                    {"n": math.ceil(wait)},
                )
            )
        try:
            identity = identify_front_end(hello, self.secret, origin=key)
        except WrongSecret:
            failures = self.wrong_secrets.failed(key)
            LIMITED.warning(
                f"secret {key}",
                "%s gave a wrong server secret (%d in a row)",
                shown(connection.name),
                failures,
            )
            raise
        self.wrong_secrets.succeeded(key)
        connection.front_end = True
        self._proven(connection)
        return identity


def _peer_name(writer: asyncio.StreamWriter, via: str) -> tuple[str, str]:
    """A peer's name for the log (`uid 1000`, `10.0.0.5:41000`) and whose connections it
    counts among (`uid 1000`, `tcp 10.0.0.5`)."""
    if via == "unix":
        sock = writer.get_extra_info("socket")
        try:
            name = f"uid {peer_uid(sock)}"
        except (IdentityError, OSError):
            name = "unix peer"
        return name, name
    peer = writer.get_extra_info("peername")
    if not peer:
        return "tcp peer", "tcp peer"
    return f"{peer[0]}:{peer[1]}", f"tcp {peer[0]}"


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
    limits = connection_cap(limits or Limits(), raise_descriptor_limit())
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
    quiet_accept_errors(loop)
    log.info(
        "at most %d connections, %d per Unix user or address (%d per front end)",
        limits.max_connections,
        limits.connections_per_identity,
        limits.connections_per_front_end,
    )
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


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """asyncio reports each `accept()` that fails (out of descriptors, of memory) with a
    traceback, and tries again a second later: the server writes one line a minute instead,
    with how many there were. Anything else goes to the handler there was."""
    before = loop.get_exception_handler()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if str(context.get("message", "")).startswith("socket.accept()"):
            LIMITED.warning(
                "accept",
                "a connection cannot be accepted: %s",
                shown(context.get("exception") or context.get("message")),
            )
            return
        if before is not None:
            before(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)


async def _keep_leases(core: ServerCore, every: float) -> None:
    """On a database shared with other servers: every `every` seconds, renew this server's
    leases and take over the tables of a server that stopped renewing its own."""
    while True:
        await asyncio.sleep(every)
        try:
            core.take_over()
        except Exception:  # (logged; the next round tries again: the server goes on)
            log.exception("the leases could not be renewed")
