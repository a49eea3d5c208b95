"""A client's list of servers, for several `cubilete server`s on one PostgreSQL database:
`--server A,B,C` (or the option repeated) names them, and a client that loses its server
connects to the next one that answers, where it joins its tables again (with its seat
tokens: the server that took a table over knows them).

A server is a Unix socket's path or, over TCP, `HOST:PORT` (a front end's connection, with
the shared secret). The client side (`app/server/address.py`, `remote.py`) may use
`server_list` and `connect_first`; nothing else here knows the screens.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .address import parse_host_port, split_servers
from .client import ServerClient, ServerError
from .protocol import ListTables, Tables


def server_list(values: str | Sequence[str]) -> list[str]:
    """The servers of `--server A,B` (or of the option given several times, or both), in
    order, each once, blanks dropped (`address.split_servers`, the app's own reading)."""
    texts = [values] if isinstance(values, str) else list(values)
    return split_servers(",".join(texts))


def tcp_address(server: str) -> tuple[str, int] | None:
    """`HOST:PORT` as a host and a port (None: it is a socket's path)."""
    return None if "/" in server else parse_host_port(server)


async def connect_first(servers: Sequence[str], after: str | None = None, **hello: Any) -> tuple[
    str, ServerClient
]:
    """Connect to the first of `servers` that answers, starting after `after` (the one just
    lost, tried last) and going round. `hello`: the `Hello`'s other fields (`secret`,
    `user`... over TCP). The server and the client; ServerError (the last server's) when
    none answers."""
    if not servers:
        raise ValueError("no server to connect to")
    order = list(servers)
    if after in order:
        start = order.index(after) + 1
        order = order[start:] + order[:start]
    error: ServerError | None = None
    for server in order:
        address = tcp_address(server)
        try:
            if address is not None:
                return server, await ServerClient.connect_tcp(*address, **hello)
            return server, await ServerClient.connect(Path(server), **hello)
        except ServerError as refused:
            error = refused
    assert error is not None
    raise error


async def connect_to_table(
    servers: Sequence[str], table: str, after: str | None = None, **hello: Any
) -> tuple[str, ServerClient] | None:
    """Connect to the server (of `servers`, starting after `after`) that lists `table`: the
    one playing it, after its own server stopped and another took it over. None if no
    server lists it (yet: a table is taken over once its server's lease runs out)."""
    order = list(servers)
    if after in order:
        start = order.index(after) + 1
        order = order[start:] + order[:start]
    for server in order:
        try:
            _, client = await connect_first([server], **hello)
        except ServerError:
            continue
        try:
            answer = await client.request(ListTables())
        except ServerError:
            await client.close()
            continue
        if isinstance(answer, Tables) and any(entry.id == table for entry in answer.tables):
            return server, client
        await client.close()
    return None
