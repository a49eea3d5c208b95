"""Tables played by the other servers on the same PostgreSQL database, served to this one's
clients: they are listed here, and a client of this server joins, watches and plays them
through a relay — a connection of this server to the table's server, as a front end that
says who the person is (the servers' shared secret), one per person and server. What the
person asks about such a table goes down the relay as it came; what the table's server
answers and every event of the table come back to the person as they are (the same bytes,
numbered by the table's server: nothing is renumbered, nothing applied here).

Each server announces its TCP address in the database (`server_nodes`, renewed with its
leases); every `REFRESH` seconds this one asks each of the others for its tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from .client import ServerClient, ServerError
from .core import Peer
from .logsafe import shown
from .protocol import (
    PROTOCOL_VERSION,
    GameEvent,
    Hello,
    Joined,
    Leave,
    ListTables,
    Opened,
    Ping,
    Pong,
    Request,
    TableEntry,
    TableEvent,
    Tables,
    decode_server,
    encode,
)

log = logging.getLogger("cubilete.server")

REFRESH = 1.0
"""Seconds between two looks at the other servers' tables."""
KEEPALIVE = 60.0
"""Seconds between the relay's own pings: a watcher who says nothing for long keeps their
relay open (the table's server closes a connection silent for its idle timeout)."""
KEEPALIVE_REF = 0
"""The `ref` of the relay's pings, whose pongs it keeps to itself (a client's refs start at
1)."""
MAX_LINE = 1 << 20


async def _ping(writer: asyncio.StreamWriter) -> None:
    while True:
        await asyncio.sleep(KEEPALIVE)
        writer.write(encode(Ping(ref=KEEPALIVE_REF)))


class Nodes(Protocol):
    def nodes(self) -> dict[str, str]:
        """The other live servers: their names and TCP addresses (`HOST:PORT`)."""
        ...


@dataclass
class Relay:
    """One person's connection to another server."""

    address: str
    tables: set[str] = field(default_factory=set)
    seats: dict[str, int] = field(default_factory=dict)
    """Table id -> the seat the table's server gave the person there (they play it through
    this server: `ServerCore._act_here`)."""
    waiting: list[tuple[str, int, bytes]] = field(default_factory=list)
    """Answers to send once the table's server has told its event: (table, record seq,
    line)."""
    outbox: list[bytes] = field(default_factory=list)
    writer: asyncio.StreamWriter | None = None
    task: asyncio.Task[None] | None = None


class RemoteTables:
    """The other servers' tables, for this server's core (`ServerCore.remote`)."""

    def __init__(self, nodes: Nodes, secret: bytes) -> None:
        self._nodes = nodes
        self._secret = secret.decode()
        self.entries: dict[str, tuple[str, TableEntry]] = {}
        """Table id -> (its server's address, its entry), as last seen."""
        self._relays: dict[tuple[Peer, str], Relay] = {}
        self._listers: dict[str, ServerClient] = {}

    # -- for the core ---------------------------------------------------------------------------
    def listed(self) -> list[TableEntry]:
        return [entry for _address, entry in self.entries.values()]

    def forward(self, peer: Peer, request: Request) -> bool:
        """Send `request` (about a table this server does not play) down the relay to the
        table's server; False if no other server plays it."""
        table = getattr(request, "table", None)
        if not isinstance(table, str):
            return False
        address = next(
            (
                key[1]
                for key, relay in self._relays.items()
                if key[0] is peer and table in relay.tables
            ),
            None,
        )
        if address is None:
            if table not in self.entries:
                return False
            address = self.entries[table][0]
        relay = self._relays.get((peer, address))
        if relay is None:
            relay = self._relays[(peer, address)] = Relay(address)
            relay.task = asyncio.get_running_loop().create_task(self._run(peer, relay))
        relay.tables.add(table)
        if isinstance(request, Leave):  # (they no longer play that seat)
            relay.seats.pop(table, None)
        line = encode(request)
        if relay.writer is None:
            relay.outbox.append(line)
        else:
            relay.writer.write(line)
        return True

    def seat_of(self, peer: Peer, table_id: str) -> int | None:
        for (who, _address), relay in self._relays.items():
            if who is peer and table_id in relay.seats:
                return relay.seats[table_id]
        return None

    def send_after(self, peer: Peer, table_id: str, seq: int, line: bytes) -> bool:
        for (who, _address), relay in self._relays.items():
            if who is peer and table_id in relay.tables:
                relay.waiting.append((table_id, seq, line))
                return True
        return False

    def relayed(self, peer: Peer) -> bool:
        """Whether `peer` sits or watches at a table played elsewhere."""
        return any(who is peer and relay.tables for (who, _a), relay in self._relays.items())

    def dropped(self, peer: Peer) -> None:
        """The person's connection to this server closed: so do their relays."""
        for key in [key for key in self._relays if key[0] is peer]:
            relay = self._relays.pop(key)
            if relay.task is not None:
                relay.task.cancel()

    # -- inside ---------------------------------------------------------------------------------
    async def _run(self, peer: Peer, relay: Relay) -> None:
        host, _colon, port = relay.address.rpartition(":")
        identity = peer.identity
        who: dict[str, Any] = {identity.kind: identity.name}  # (a Unix user stays one there)
        writer = None
        try:
            reader, writer = await asyncio.open_connection(host, int(port), limit=MAX_LINE)
            hello = Hello(version=PROTOCOL_VERSION, client="cubilete relay", secret=self._secret)
            writer.write(encode(hello.model_copy(update=who)))
            welcome = await reader.readline()
            if b'"welcome"' not in welcome:
                raise ConnectionError(welcome.decode(errors="replace")[:200])
            for line in relay.outbox:
                writer.write(line)
            relay.outbox.clear()
            relay.writer = writer
            keepalive = asyncio.get_running_loop().create_task(_ping(writer))
            try:
                await self._pass_on(reader, peer, relay)
            finally:
                keepalive.cancel()
        except (OSError, ConnectionError, ValueError) as error:
            log.warning("the relay to %s failed: %s", relay.address, shown(error))
        except asyncio.CancelledError:
            pass
        finally:
            if writer is not None:
                writer.close()
            if self._relays.get((peer, relay.address)) is relay:
                del self._relays[(peer, relay.address)]
                close = getattr(peer, "close", None)
                if callable(close):  # (its tables' server is gone: the client reconnects)
                    close()

    async def _pass_on(self, reader: asyncio.StreamReader, peer: Peer, relay: Relay) -> None:
        """Every line the table's server sends, to the person (but the relay's own pongs)."""
        pong = encode(Pong(ref=KEEPALIVE_REF))
        while line := await reader.readline():
            if line == pong:
                continue
            if b'"joined"' in line or b'"opened"' in line:  # (a rematch's new table)
                with contextlib.suppress(ValueError):
                    message = decode_server(line)
                    if isinstance(message, Joined | Opened):
                        relay.tables.add(message.table.id)
                        if message.seat is not None:
                            relay.seats[message.table.id] = message.seat
                        else:
                            relay.seats.pop(message.table.id, None)
            peer.send_line(line)
            if relay.waiting and b'"game"' in line:
                for answer in self._answered(relay, line):
                    peer.send_line(answer)

    @staticmethod
    def _answered(relay: Relay, line: bytes) -> list[bytes]:
        """The answers waiting for the record event this line tells (taken off the list)."""
        try:
            message = decode_server(line)
        except ValueError:
            return []
        if not isinstance(message, TableEvent) or not isinstance(message.body, GameEvent):
            return []
        told, seq = message.table, message.body.record[0]
        ready = [waiting for waiting in relay.waiting if waiting[0] == told and waiting[1] <= seq]
        for waiting in ready:
            relay.waiting.remove(waiting)
        return [waiting[2] for waiting in ready]

    async def refresh(self) -> None:
        """Ask each other server for its tables."""
        try:
            nodes = self._nodes.nodes()
        except Exception as error:  # (the database: the next look tries again)
            log.warning("the other servers cannot be listed: %s", error)
            return
        entries: dict[str, tuple[str, TableEntry]] = {}
        for address in sorted(set(nodes.values())):
            try:
                lister = self._listers.get(address)
                if lister is None or lister.closed.is_set():
                    host, _colon, port = address.rpartition(":")
                    lister = await ServerClient.connect_tcp(
                        host, int(port), secret=self._secret, user="cubilete-relay"
                    )
                    self._listers[address] = lister
                answer = await lister.request(ListTables(), timeout=2.0)
            except (ServerError, OSError, TimeoutError, ValueError):
                stale = self._listers.pop(address, None)
                if stale is not None:
                    await stale.close()
                continue
            if isinstance(answer, Tables):
                for entry in answer.tables:
                    entries[entry.id] = (address, entry)
            while not lister.inbox.empty():  # (nothing else comes to a lister)
                lister.inbox.get_nowait()
        self.entries = entries

    async def keep_fresh(self, every: float = REFRESH) -> None:
        while True:
            await self.refresh()
            await asyncio.sleep(every)

    async def close(self) -> None:
        for relay in list(self._relays.values()):
            if relay.task is not None:
                relay.task.cancel()
        for lister in self._listers.values():
            await lister.close()
