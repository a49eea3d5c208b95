"""Several `cubilete server` processes on one PostgreSQL database (a private cluster): each
table being played is played by one server at a time, the holder of its lease; a server
killed with -9 mid-game has its tables taken over by another within the lease time, its
people join them again there and the game goes on to the end, with nothing lost and nothing
applied twice."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time

import psycopg
import pytest
from serverhelpers import ROOT, SECRET, ServerProcess, answers, server_process, short_dir
from tableclient import Player, TableView
from waiting import wait_until

from app.records.stores import open_records
from app.server.client import ServerClient, ServerError
from app.server.identity import unix_identity
from app.server.protocol import (
    Act,
    Done,
    Join,
    ListTables,
    OpenTable,
    SeatSpec,
    Tables,
    Watch,
)
from app.server.servers import connect_to_table

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SO_PEERCRED is Linux's")

LEASE = "2"


def servers_on(url: str, count: int) -> list[tuple[str, ...]]:
    return [("--bot-pace", "0", "--db", url, "--lease", LEASE)] * count


async def person(server: ServerProcess, name: str, seed: int = 0) -> Player:
    assert server.tcp is not None
    client = await ServerClient.connect_tcp(*server.tcp, secret=SECRET, user=name)
    return Player(client, seed)


async def listed(server: ServerProcess) -> dict[str, str]:
    """The tables a server lists: id -> status."""
    client = await ServerClient.connect_tcp(*server.tcp or ("", 0), secret=SECRET, user="lister")
    try:
        answer = await client.request(ListTables())
        assert isinstance(answer, Tables)
        return {entry.id: entry.status for entry in answer.tables}
    finally:
        await client.close()


def generala(*kinds: str, sit: int | None = 0) -> OpenTable:
    seats = [SeatSpec(kind=kind) for kind in kinds]  # type: ignore[arg-type]  # kinds the tests name
    return OpenTable(game="generala", seats=seats, sit=sit)


def stored_events(url: str, view: TableView) -> list[list[object]]:
    store = open_records(url)
    try:
        (summary,) = [
            one
            for one in [*store.unfinished(), *store.history(limit=50).items]
            if one.players == tuple(view.names)
        ]
        return [event.to_list() for event in store.load(summary.record_id).events]
    finally:
        store.close()


def holder(server: ServerProcess) -> str:
    """The server's name in the leases: its host and socket."""
    return f"{socket.gethostname()}:{server.socket.resolve()}"


def holder_of(url: str, table: str) -> str | None:
    """The server whose lease on `table` runs now (None: none)."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT holder FROM server_leases WHERE table_id = %s AND expires >= now()", (table,)
        ).fetchone()
    return None if row is None else str(row[0])


async def wait_for_table(server: ServerProcess, table: str, timeout: float) -> float:
    """Seconds until `server` plays `table` (it took it over, its lease is its own) and
    lists it."""
    began = time.monotonic()
    url = server_url(server)
    while holder_of(url, table) != holder(server) or table not in await listed(server):
        assert time.monotonic() - began < timeout, server.log()
        await asyncio.sleep(0.05)
    return time.monotonic() - began


def server_url(server: ServerProcess) -> str:
    command = server.process.args
    assert isinstance(command, list)
    return str(command[command.index("--db") + 1])


@pytest.mark.parametrize("count", [2, 3])
async def test_a_server_killed_with_9_mid_game_its_tables_go_on_at_another(postgres_url, count):
    """Ana and Bruno play with a bot at server A; A is killed with -9; within the lease the
    table is taken over (by B or C), bot seat included; they join it again there and play to
    the end: their events before the kill are all there, none is repeated, and the record in
    the database is the game they saw."""
    running = [
        server_process(*flags, where=short_dir(), tcp=True)
        for flags in servers_on(postgres_url, count)
    ]
    servers = [one.__enter__() for one in running]
    try:
        a, others = servers[0], servers[1:]
        ana, bruno = await person(a, "ana", 1), await person(a, "bruno", 2)
        view = await ana.sit(generala("human", "medium", "human"))
        bruno_view = await bruno.sit(Join(table=view.id))
        await asyncio.gather(
            ana.play(view, stop=lambda: len(view.record) >= 30),
            bruno.play(bruno_view, stop=lambda: len(bruno_view.record) >= 30),
        )
        await ana.pump(lambda: len(view.record) >= len(bruno_view.record))
        before = list(view.record)
        assert holder_of(postgres_url, view.id) == holder(a)

        os.kill(a.pid, signal.SIGKILL)
        assert a.process.wait(timeout=10) == -9
        killed = time.monotonic()
        await ana.close()
        await bruno.close()
        while holder_of(postgres_url, view.id) not in [holder(other) for other in others]:
            assert time.monotonic() - killed < 30
            await asyncio.sleep(0.05)
        failover = time.monotonic() - killed
        # each person's client goes round its list of servers until one lists the table
        addresses = [f"{host}:{port}" for host, port in (one.tcp or ("", 0) for one in servers)]

        async def back(name: str, seed: int) -> tuple[str, Player]:
            while True:
                found = await connect_to_table(
                    addresses, view.id, after=addresses[0], secret=SECRET, user=name
                )
                if found is not None:
                    return found[0], Player(found[1], seed)
                await asyncio.sleep(0.05)

        (at_a, ana), (at_b, bruno) = await asyncio.wait_for(
            asyncio.gather(back("ana", 3), back("bruno", 4)), timeout=40
        )
        assert failover < float(LEASE) + 3, failover  # the lease, and a renewal round
        assert at_a == at_b != addresses[0]
        # exactly one server plays it (a server lists another's tables too, and relays)
        taker_name = holder_of(postgres_url, view.id)
        assert taker_name in [holder(other) for other in others]

        ana_view = await ana.sit(Join(table=view.id))
        bruno_view = await bruno.sit(Join(table=view.id))
        assert (ana_view.seat, bruno_view.seat) == (0, 2)
        assert ana_view.record[: len(before)] == before  # nothing lost
        await asyncio.gather(ana.play(ana_view), bruno.play(bruno_view))
        await ana.pump(lambda: len(ana_view.record) >= len(bruno_view.record))
        assert ana_view.problems == bruno_view.problems == []
        assert ana_view.record == bruno_view.record
        assert ana_view.game.is_over(ana_view.state)
        stored = stored_events(postgres_url, ana_view)
        assert stored == [list(event) for event in ana_view.record]  # nothing applied twice
        assert [event[0] for event in stored] == list(range(1, len(stored) + 1))
        await ana.close()
        await bruno.close()
    finally:
        for one in running:
            one.__exit__(None, None, None)


async def test_a_server_stopped_cleanly_hands_its_tables_over_at_once(postgres_url):
    """SIGTERM: the server lets go of its leases as it stops, and another takes its tables
    over at its next look, without waiting for the leases to run out. A watcher of the
    table at the other server sees its game to the end, played by its bots there."""
    flags = ("--bot-pace", "0.2", "--db", postgres_url, "--lease", "30")
    with server_process(*flags, where=short_dir(), tcp=True) as b:
        first = server_process(*flags, where=short_dir(), tcp=True)
        a = first.__enter__()
        try:
            ana = await person(a, "ana")
            opened = await ana.sit(generala("easy", "medium", sit=None))
            view = await ana.sit(Watch(table=opened.id))
            await ana.pump(lambda: len(view.record) >= 3)
            await ana.close()
            os.kill(a.pid, signal.SIGTERM)
            assert a.process.wait(timeout=10) == 0
        finally:
            first.__exit__(None, None, None)
        waited = await wait_for_table(b, view.id, 25)
        assert waited < 20  # not the 30 s of the lease: a renewal round of b (10 s) at most
        carla = await person(b, "carla")
        seen = await carla.sit(Watch(table=view.id))
        await carla.pump(lambda: seen.over, timeout=120)
        assert seen.problems == []
        assert seen.game.is_over(seen.state)
        assert stored_events(postgres_url, seen) == [list(event) for event in seen.record]
        await carla.close()


async def test_a_server_that_hung_past_its_lease_never_forks_the_table(postgres_url):
    """Server A stops (SIGSTOP) mid-game past its lease; B takes the table over and its bots
    play on there. When A wakes (SIGCONT), it finds its lease gone (or the records refuse its
    next move: the number is taken, and A tells nobody that move): A closes the table ("moved
    to another server"), and what A's watcher saw is a beginning of the stored record."""
    flags = ("--bot-pace", "0.2", "--db", postgres_url, "--lease", LEASE)
    with (
        server_process(*flags, where=short_dir(), tcp=True) as a,
        server_process(*flags, where=short_dir(), tcp=True) as b,
    ):
        ana = await person(a, "ana")
        opened = await ana.sit(generala("easy", "medium", sit=None))
        view = await ana.sit(Watch(table=opened.id))
        await ana.pump(lambda: len(view.record) >= 3)
        os.kill(a.pid, signal.SIGSTOP)
        try:
            await wait_for_table(b, view.id, 30)
            carla = await person(b, "carla")
            there = await carla.sit(Watch(table=view.id))
            await carla.pump(lambda: len(there.record) >= len(view.record) + 5)
        finally:
            os.kill(a.pid, signal.SIGCONT)
        await ana.pump(lambda: view.closed, timeout=30)
        # (its renewal finds the lease gone, or the records refuse its next move: either way)
        assert "taken over by another server" in a.log() or "moved on" in a.log()
        assert view.problems == []
        await carla.pump(lambda: there.over, timeout=120)
        stored = stored_events(postgres_url, there)
        assert stored == [list(event) for event in there.record]
        assert [list(event) for event in view.record] == stored[: len(view.record)]  # no fork
        assert holder_of(postgres_url, view.id) in (holder(b), None)  # (None: over)
        await ana.close()
        await carla.close()


async def test_a_table_opened_on_one_server_is_listed_joined_watched_and_played_from_another(
    postgres_url,
):
    """Ana opens a table at server A; Bruno, a client of server B, sees it listed there,
    joins it and plays it with her to the end through B; Carla watches it from B. Every view
    is the same game, every event numbered 1, 2, 3... as A numbered it, and the record is
    that game."""
    flags = ("--bot-pace", "0", "--db", postgres_url, "--lease", LEASE)
    with (
        server_process(*flags, where=short_dir(), tcp=True) as a,
        server_process(*flags, where=short_dir(), tcp=True) as b,
    ):
        ana = await person(a, "ana", 1)
        view = await ana.sit(generala("human", "easy", "human"))

        async def listed_at_b() -> None:
            while view.id not in await listed(b):
                await asyncio.sleep(0.1)

        await asyncio.wait_for(listed_at_b(), timeout=20)
        bruno, carla = await person(b, "bruno", 2), await person(b, "carla", 3)
        bruno_view = await bruno.sit(Join(table=view.id))
        carla_view = await carla.sit(Watch(table=view.id))
        assert bruno_view.seat == 2
        await asyncio.gather(ana.play(view), bruno.play(bruno_view))
        await carla.pump(lambda: carla_view.over)
        await ana.pump(lambda: len(view.events) >= len(carla_view.events))
        await bruno.pump(lambda: len(bruno_view.events) >= len(carla_view.events))
        for one in (view, bruno_view, carla_view):
            assert one.problems == []
            assert one.record == view.record
        assert view.game.is_over(view.state)
        assert carla_view.events == view.events  # the same events, numbered by A
        assert stored_events(postgres_url, view) == [list(event) for event in view.record]
        for player in (ana, bruno, carla):
            await player.close()


async def test_a_person_relayed_to_a_server_that_dies_comes_back_through_their_own(
    postgres_url,
):
    """Bruno plays at server A's table through server B; A is killed with -9: B closes
    Bruno's connection (its relay is gone), Bruno's client connects again, and once B has
    taken the table over he joins it again there and plays on with Ana (back through B
    too) to the end."""
    flags = ("--bot-pace", "0", "--db", postgres_url, "--lease", LEASE)
    with (
        server_process(*flags, where=short_dir(), tcp=True) as a,
        server_process(*flags, where=short_dir(), tcp=True) as b,
    ):
        ana = await person(a, "ana", 1)
        view = await ana.sit(generala("human", "human"))
        while view.id not in await listed(b):
            await asyncio.sleep(0.1)
        bruno = await person(b, "bruno", 2)
        bruno_view = await bruno.sit(Join(table=view.id))
        await asyncio.gather(
            ana.play(view, stop=lambda: len(view.record) >= 20),
            bruno.play(bruno_view, stop=lambda: len(bruno_view.record) >= 20),
        )
        await bruno.pump(lambda: len(bruno_view.record) >= len(view.record))
        before = list(bruno_view.record)
        os.kill(a.pid, signal.SIGKILL)
        a.process.wait(timeout=10)
        await asyncio.wait_for(bruno.client.closed.wait(), timeout=10)  # B let him go
        await ana.close()
        await bruno.close()
        await wait_for_table(b, view.id, 30)
        ana, bruno = await person(b, "ana", 3), await person(b, "bruno", 4)
        ana_view = await ana.sit(Join(table=view.id))
        bruno_view = await bruno.sit(Join(table=view.id))
        assert (ana_view.seat, bruno_view.seat) == (0, 1)
        assert bruno_view.record[: len(before)] == before
        await asyncio.gather(ana.play(ana_view), bruno.play(bruno_view))
        await ana.pump(lambda: len(ana_view.record) >= len(bruno_view.record))
        assert ana_view.problems == bruno_view.problems == []
        assert ana_view.record == bruno_view.record
        assert ana_view.game.is_over(ana_view.state)
        assert stored_events(postgres_url, ana_view) == [list(e) for e in ana_view.record]
        await ana.close()
        await bruno.close()


async def test_the_server_that_receives_a_move_validates_it_and_appends_it(postgres_url):
    """Ana plays at server A; Bruno, a client of B, sits at her table through B. With A
    stopped (SIGSTOP), Bruno's move still goes in: B validates it against the record and
    appends it (the database has it), while a move that is not his turn is refused by B at
    once. When A wakes, it hears of the new event from the database and tells everyone at
    the table, Bruno included, and the game goes on to the end as one record."""
    flags = ("--bot-pace", "0", "--db", postgres_url, "--lease", "30")
    with (
        server_process(*flags, where=short_dir(), tcp=True) as a,
        server_process(*flags, where=short_dir(), tcp=True) as b,
    ):
        ana = await person(a, "ana", 1)
        view = await ana.sit(generala("human", "human"))

        async def listed_at_b() -> None:
            while view.id not in await listed(b):
                await asyncio.sleep(0.1)

        await asyncio.wait_for(listed_at_b(), timeout=20)
        bruno = await person(b, "bruno", 2)
        bruno_view = await bruno.sit(Join(table=view.id))
        await ana.pump(
            lambda: view.state is not None and view.game.current_player(view.state) is not None
        )
        await bruno.pump(lambda: len(bruno_view.record) >= len(view.record))
        if view.my_turn():  # (Ana won the roll-off: her turn first, at A)
            await ana.play(view, stop=lambda: not view.my_turn())
            await bruno.pump(lambda: bruno_view.my_turn())
        assert bruno_view.my_turn()
        before = len(stored_events(postgres_url, view))
        os.kill(a.pid, signal.SIGSTOP)
        try:
            move = bruno.choose(bruno_view)
            request = Act(table=view.id, seat=1, action=move.model_dump(mode="json"))
            answer = asyncio.ensure_future(bruno.client.request(request, timeout=60))
            began = time.monotonic()
            while len(stored_events(postgres_url, view)) == before:  # (B appends, A sleeps)
                assert time.monotonic() - began < 20, b.log()
                await asyncio.sleep(0.05)
            assert stored_events(postgres_url, view)[before][1:3] == ["action", 1]
            assert not answer.done()  # (answered once A has told the move: events first)
        finally:
            os.kill(a.pid, signal.SIGCONT)
        assert isinstance(await answer, Done)
        await asyncio.gather(ana.play(view), bruno.play(bruno_view))
        await ana.pump(lambda: len(view.events) >= len(bruno_view.events))
        assert view.record == bruno_view.record
        assert view.problems == [] and bruno_view.problems == []
        assert stored_events(postgres_url, view) == [list(event) for event in view.record]
        await ana.close()
        await bruno.close()


async def test_three_servers_a_person_at_each_play_one_table_as_one_record(postgres_url):
    """Ana at A opens a table; Bruno at B and Carla at C sit at it through their own
    servers. Each server validates and appends its own person's moves, everyone sees every
    move in the same order with the same numbers, and the database's record is that game."""
    flags = servers_on(postgres_url, 3)
    with (
        server_process(*flags[0], where=short_dir(), tcp=True) as a,
        server_process(*flags[1], where=short_dir(), tcp=True) as b,
        server_process(*flags[2], where=short_dir(), tcp=True) as c,
    ):
        ana = await person(a, "ana", 1)
        view = await ana.sit(generala("human", "human", "human"))
        views = [view]
        people = [ana]
        for server, name, seed in ((b, "bruno", 2), (c, "carla", 3)):

            async def listed_there(server: ServerProcess = server) -> None:
                while view.id not in await listed(server):
                    await asyncio.sleep(0.1)

            await asyncio.wait_for(listed_there(), timeout=20)
            one = await person(server, name, seed)
            views.append(await one.sit(Join(table=view.id)))
            people.append(one)
        assert [one.seat for one in views] == [0, 1, 2]
        await asyncio.gather(*(one.play(seen) for one, seen in zip(people, views, strict=True)))
        longest = max(len(seen.record) for seen in views)
        for one, seen in zip(people, views, strict=True):
            await one.pump(lambda seen=seen: len(seen.record) >= longest)
            assert seen.problems == []
            assert seen.record == view.record
        assert view.game.is_over(view.state)
        assert stored_events(postgres_url, view) == [list(event) for event in view.record]
        moves = {seat: 0 for seat in range(3)}
        for event in view.record:
            if event[1] == "action":
                moves[event[2]] += 1
        assert all(count > 10 for count in moves.values())  # each person played their game
        for one in people:
            await one.close()


def test_four_servers_started_at_once_on_an_empty_database_all_come_up(postgres_cluster):
    """Four servers started at the same moment on a database nobody has used: each makes the
    schema or waits for the one that does (the migrations' lock), and all four listen and
    answer. Ten times over, each on a new empty database (one of two servers used to exit
    on `duplicate key value violates unique constraint "pg_type_typname_nsp_index"`: the
    servers' own tables were made outside the migrations)."""
    for _attempt in range(10):
        url = postgres_cluster.new_database()
        where = [short_dir() for _server in range(4)]
        processes = [
            subprocess.Popen(
                [
                    *(sys.executable, "-m", "app", "server", "--socket", str(one / "s.sock")),
                    *("--data-dir", str(one / "data"), "--db", url, "--bot-pace", "0"),
                ],
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=(one / "server.stderr").open("wb"),
            )
            for one in where
        ]
        try:
            for one, process in zip(where, processes, strict=True):
                log = one / "server.stderr"
                wait_until(
                    lambda log=log, process=process: (
                        "listening on" in log.read_text() or process.poll() is not None
                    ),
                    60,
                    "a server to listen or stop",
                )
                assert process.poll() is None, log.read_text()
                assert answers(one / "s.sock")
        finally:
            for process in processes:
                if process.poll() is None:
                    process.terminate()
            codes = [process.wait(timeout=20) for process in processes]
            postgres_cluster.drop(url)
        assert codes == [0, 0, 0, 0]


async def test_a_unix_user_relayed_to_another_server_stays_that_unix_user_there(postgres_url):
    """This test's Unix user, a client of server B's socket, sits at Ana's table of server A
    through B's relay: A keeps the seat (in the database too) for that Unix user, not for a
    front end's user of the same name. A front end with the secret that says `user: <that
    name>` at A is someone else: it gets neither the seat nor its token."""
    me = unix_identity(os.getuid()).name
    flags = ("--bot-pace", "0", "--db", postgres_url, "--lease", LEASE)
    with (
        server_process(*flags, where=short_dir(), tcp=True) as a,
        server_process(*flags, where=short_dir(), tcp=True) as b,
    ):
        ana = await person(a, "ana", 1)
        view = await ana.sit(generala("human", "human"))
        while view.id not in await listed(b):
            await asyncio.sleep(0.1)
        unix_player = Player(await ServerClient.connect(b.socket), 2)
        assert unix_player.client.welcome is not None
        assert unix_player.client.welcome.identity == "unix"
        mine = await unix_player.sit(Join(table=view.id))
        assert mine.seat == 1

        def owners() -> list[dict[str, object]] | None:
            with psycopg.connect(postgres_url, autocommit=True) as conn:
                row = conn.execute(
                    "SELECT data FROM server_tables WHERE table_id = %s", (view.id,)
                ).fetchone()
            return None if row is None else [one["owner"] for one in json.loads(row[0])["seats"]]

        wait_until(lambda: owners() is not None, 20, "the table to be kept")
        kept = owners()
        assert kept is not None
        assert [(one["kind"], one["name"]) for one in kept] == [("user", "ana"), ("unix", me)]
        forger = await ServerClient.connect_tcp(*a.tcp or ("", 0), secret=SECRET, user=me)
        for join in (Join(table=view.id, seat=1), Join(table=view.id)):
            with pytest.raises(ServerError) as refused:
                await forger.request(join)
            assert refused.value.error is not None
            assert refused.value.error.code == "seat_taken"
        await forger.close()
        await ana.close()
        await unix_player.close()
