"""The client side of a server lost mid-game (`RemoteServer` reconnecting to the next server
of its list), against two real `cubilete server` processes on one PostgreSQL database (a
private cluster). People reach the servers over TCP with the shared secret and their names.

Each server numbers a table's events its own way: the one that takes a table over rebuilds
it from its record and numbers it afresh, so what a client had from the lost server (chat,
people coming and going) does not count there; only the game's record numbers are the same.
"""

from __future__ import annotations

import os
import signal
import sys

import pytest
from serverhelpers import SECRET, ServerProcess, server_process, short_dir
from test_remote import PEOPLE, move, until

from app.i18n import render
from app.server.address import ServerAddress
from app.server.remote import TABLE_LOST, RemoteServer

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the server's socket is Linux's")

LEASE = "2"


async def person(servers: list[ServerProcess], user: str) -> RemoteServer:
    """`user`, given every server in order (`--server A,B`)."""
    hello = {"secret": SECRET, "user": user}
    listed = [ServerAddress(tcp=one.tcp, hello=hello) for one in servers]
    return await RemoteServer.connect(ServerAddress.of_list(listed))


def kill(server: ServerProcess) -> None:
    os.kill(server.pid, signal.SIGKILL)
    server.process.wait(timeout=10)


async def test_the_talk_at_the_lost_server_does_not_put_the_replicas_out_of_step(postgres_url):
    """Ana and Bruno play a Generala at A and say ten lines there; A is killed. At B the
    table's events are numbered afresh, far behind A's count: both replicas still take every
    new move, and the table talk is not told twice."""
    flags = ("--bot-pace", "0", "--db", postgres_url, "--lease", LEASE)
    with (
        server_process(*flags, where=short_dir(), tcp=True) as a,
        server_process(*flags, where=short_dir(), tcp=True) as b,
    ):
        ana, bruno = await person([a, b], "ana"), await person([a, b], "bruno")
        first = await ana.open("generala", {}, PEOPLE)
        second = await bruno.join(first.table_id)
        await until(lambda: first.ready and second.ready, "the game to begin for both")
        sessions = [first, second]
        for session in sessions:
            assert session.host is not None
            session.host.start()
        await move(sessions)
        for n in range(5):  # (a chat's burst each)
            first.chat(f"line {n}")
            second.chat(f"line {n}")
        said = lambda session: [render(line) for line in session.host.table.log]  # noqa: E731
        heard = ("ana: line 4", "bruno: line 4")
        await until(lambda: all(x in said(s) for s in sessions for x in heard), "the talk")
        kill(a)
        await until(lambda: ana.reconnects == bruno.reconnects == 1, "both back", timeout=30)
        assert str(ana.address) == str(bruno.address) == f"{b.tcp[0]}:{b.tcp[1]}"
        for _ in range(4):
            await move(sessions)
        tables = [session.host.table for session in sessions if session.host is not None]
        assert [list(e) for e in tables[0].events] == [list(e) for e in tables[1].events]
        assert tables[0].state == tables[1].state
        assert first.problem is None and second.problem is None
        log = said(second)
        assert log.count("ana: line 4") == log.count("bruno: line 0") == 1
        assert log.count("Every seat is taken: the game begins") == 1
        await ana.close()
        await bruno.close()


async def test_a_table_still_waiting_for_its_people_is_lost_with_its_server(postgres_url):
    """Only a game being played is kept: Ana's table, still waiting for a second person
    when A is killed, is not looked for at B (a minute of retries), it is told lost, and
    Ana is connected to B at once."""
    flags = ("--bot-pace", "0", "--db", postgres_url, "--lease", LEASE)
    with (
        server_process(*flags, where=short_dir(), tcp=True) as a,
        server_process(*flags, where=short_dir(), tcp=True) as b,
    ):
        ana = await person([a, b], "ana")
        waiting = await ana.open("generala", {}, PEOPLE)
        assert waiting.status == "waiting"
        kill(a)
        await until(lambda: ana.reconnects == 1, "Ana at B", timeout=15)
        assert ana.lost is None and waiting.closed is not None
        assert render(waiting.closed) == TABLE_LOST
        assert await ana.tables() == []  # (and B answers her)
        await ana.close()
