"""The server in this process, on a real socket: how the table host layer plugs in (the
server's own `ServerHosting`, on seeded dice, its bots at full speed), and a client that
never reads."""

from __future__ import annotations

import asyncio
import socket
import sys

import pytest
from serverhelpers import short_dir
from tableclient import Player

from app.dice import RandomDice
from app.server.client import ServerClient, ServerError
from app.server.core import ServerCore
from app.server.hosting import HostedTable, ServerHosting
from app.server.limits import Limits
from app.server.protocol import (
    PROTOCOL_VERSION,
    Act,
    AnswerUndo,
    Done,
    GameEvent,
    Join,
    Joined,
    ListTables,
    OpenTable,
    Ping,
    Pong,
    ProposeUndo,
    SeatSpec,
    StatusChanged,
    TableEvent,
    UndoProposed,
    UndoSettled,
    Watch,
)
from app.server.transport import Server
from rules import N_, Text
from rules.generala import Fill, Roll

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SO_PEERCRED is Linux's")


def seeded_hosting() -> ServerHosting:
    return ServerHosting(short_dir(), pace=0, dice=lambda: RandomDice(7))


async def running_server(limits: Limits, hosting: ServerHosting | None = None):
    path = short_dir() / "s.sock"
    server = Server(ServerCore(hosting, limits=limits), limits)
    await server.listen_unix(path)
    return server, path


async def game_events(client: ServerClient) -> list[GameEvent]:
    """The game events waiting in the inbox (and whatever else came with them, checked)."""
    seen = []
    while not client.inbox.empty():
        message = client.inbox.get_nowait()
        assert isinstance(message, TableEvent)
        if isinstance(message.body, GameEvent):
            seen.append(message.body)
    return seen


async def test_a_full_table_starts_its_game_with_the_host_and_the_owner_of_the_turn_plays():
    hosting = seeded_hosting()
    server, path = await running_server(Limits(), hosting)
    try:
        ana, bruno = await ServerClient.connect(path), await ServerClient.connect(path)
        opened = await ana.request(
            OpenTable(game="generala", seats=[SeatSpec(), SeatSpec()], sit=0)
        )
        table_id = opened.table.id  # type: ignore[union-attr]  # an Opened
        own = await ana.next_message()  # the table's history: her own seat
        assert isinstance(own, TableEvent) and own.seq == 1
        joined = await bruno.request(Join(table=table_id, seat=1))
        assert joined.table.status == "waiting"  # type: ignore[union-attr]  # (until it starts)
        seated = await ana.next_message()
        assert isinstance(seated, TableEvent) and seated.seq == 2
        status = await ana.next_message()
        assert isinstance(status, TableEvent) and status.body == StatusChanged(status="playing")
        hosted = server.core.tables[table_id].hosted
        assert isinstance(hosted, HostedTable)
        record = hosted.table.events
        assert record, "the roll-off is thrown at the start"
        for number, event in enumerate(record, start=status.seq + 1):
            message = await ana.next_message()
            assert isinstance(message, TableEvent) and message.seq == number
            assert isinstance(message.body, GameEvent)
            assert message.body.record == tuple(event.to_list())

        (entry,) = (await bruno.request(ListTables())).tables  # type: ignore[union-attr]  # Tables
        assert (entry.status, entry.events) == ("playing", len(record))

        turn = hosted.table.current_player()
        assert turn is not None
        action = hosted.table.game.legal_actions(hosted.table.state)[0].model_dump(mode="json")
        mover, other = (ana, bruno) if turn == 0 else (bruno, ana)
        with pytest.raises(ServerError) as refused:
            await other.request(Act(table=table_id, seat=1 - turn, action=action))
        assert refused.value.error is not None and refused.value.error.code == "illegal"
        assert refused.value.error.words.text() == Text(
            N_("{player} decides now, not {other}"),
            {"player": hosted.table.seats[turn].name, "other": hosted.table.seats[1 - turn].name},
        )
        known = len(hosted.table.events)
        assert isinstance(await mover.request(Act(table=table_id, seat=turn, action=action)), Done)
        told = await game_events(other)
        assert [e.record[0] for e in told[-(len(hosted.table.events) - known) :]] == list(
            range(known + 1, len(hosted.table.events) + 1)
        )
        assert told[-1].record == tuple(hosted.table.events[-1].to_list())

        await bruno.close()
        while server.core.tables[table_id].seats[1].connected:
            await asyncio.sleep(0.01)
        await ana.close()
    finally:
        await server.stop()
    assert hosted.host._closed


async def test_a_client_that_reads_nothing_is_cut_off_and_the_others_are_served():
    limits = Limits(max_output_bytes=64 * 1024, messages_per_second=1e6, burst=10**6)
    server, path = await running_server(limits)
    try:
        opener = await ServerClient.connect(path)
        for _ in range(4):  # a list of tables worth a few hundred bytes an answer
            await opener.request(
                OpenTable(
                    game="generala",
                    seats=[SeatSpec(kind="easy", name=f"{'x' * 20} {n}") for n in range(8)],
                    sit=None,
                )
            )
        greedy = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        greedy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        greedy.setblocking(False)
        greedy.connect(str(path))
        _reader, writer = await asyncio.open_unix_connection(sock=greedy)
        hello = b'{"type":"hello","version":%d}\n' % PROTOCOL_VERSION  # (not refused for it)
        writer.write(hello + b'{"type":"list_tables"}\n' * 2000)
        while len(server.connections) > 1:  # the greedy one goes
            assert isinstance(await opener.request(Ping()), Pong)
            await asyncio.sleep(0.01)
        assert isinstance(await opener.request(Ping()), Pong)
        writer.close()
        await opener.close()
    finally:
        await server.stop()


async def test_a_finished_table_nobody_is_at_leaves_the_list_and_one_watched_stays():
    limits = Limits()
    path = short_dir() / "s.sock"
    core = ServerCore(seeded_hosting(), limits=limits, over_seconds=0.05)
    server = Server(core, limits)
    await server.listen_unix(path)
    try:
        client = await ServerClient.connect(path)
        bots = [SeatSpec(kind="easy", name="Rita"), SeatSpec(kind="easy", name="Bo")]
        for _ in range(2):
            await client.request(
                OpenTable(game="navio", options={"rounds": 1}, seats=bots, sit=None)
            )
        watched, alone = list(core.tables)
        await client.request(Watch(table=watched))
        while alone in core.tables:  # over, then dropped: nobody watched it
            await asyncio.sleep(0.01)
        assert core.tables[watched].status == "over"
        await asyncio.sleep(0.2)
        assert watched in core.tables  # still watched
        await client.close()
        while watched in core.tables:
            await asyncio.sleep(0.01)
    finally:
        await server.stop()


async def test_a_guest_with_their_seats_token_needs_no_invite_code_to_come_back():
    limits = Limits()
    path = short_dir() / "s.sock"
    server = Server(ServerCore(seeded_hosting(), limits=limits), limits, secret=b"x" * 16)
    await server.listen_unix(path)
    host, port = await server.listen_tcp("127.0.0.1", 0)
    try:
        ana = await ServerClient.connect(path)
        opened = await ana.request(
            OpenTable(game="generala", seats=[SeatSpec(), SeatSpec()], private=True)
        )
        table = opened.table.id  # type: ignore[union-attr]  # an Opened
        zoe = await ServerClient.connect_tcp(host, port, secret="x" * 16, guest="Zoé")
        joined = await zoe.request(Join(table=table, code=opened.code))  # type: ignore[union-attr]  # an Opened
        await zoe.close()
        again = await ServerClient.connect_tcp(host, port, secret="x" * 16, guest="Zoé")
        with pytest.raises(ServerError) as refused:
            await again.request(Join(table=table, token="not-her-token"))
        assert refused.value.error is not None and refused.value.error.code == "private"
        back = await again.request(Join(table=table, token=joined.token))  # type: ignore[union-attr]  # a Joined
        assert isinstance(back, Joined) and back.seat == 1
    finally:
        await server.stop()


async def test_an_undo_nobody_answers_in_time_is_cancelled_and_the_game_goes_on():
    limits = Limits()
    path = short_dir() / "s.sock"
    core = ServerCore(seeded_hosting(), limits=limits, undo_seconds=0.2)
    server = Server(core, limits, b"x" * 16)
    await server.listen_unix(path)
    host, port = await server.listen_tcp("127.0.0.1", 0)
    try:
        ana, bruno = [
            Player(await ServerClient.connect_tcp(host, port, secret="x" * 16, user=name))
            for name in ("ana", "bruno")
        ]
        view = await ana.sit(OpenTable(game="generala", seats=[SeatSpec(), SeatSpec()]))
        other = await bruno.sit(Join(table=view.id))
        await ana.pump(lambda: view.state is not None and not view.game.pending_throw(view.state))
        me, my_view = (ana, view) if view.game.current_player(view.state) == 0 else (bruno, other)
        await me.act(my_view, Roll())
        await me.act(my_view, Fill(box="generala"))  # (a scratch: no throw follows)
        await me.client.request(ProposeUndo(table=view.id))
        await me.pump(lambda: isinstance(my_view.events[-1].body, UndoSettled))
        settled = my_view.events[-1].body
        assert isinstance(settled, UndoSettled) and not settled.done
        assert settled.words is not None
        assert settled.words.template == "not everyone answered in time"
        assert my_view.record[-1][1] == "action"  # nothing taken back
        await asyncio.gather(ana.play(view), bruno.play(other))
        assert view.game.is_over(view.state)
    finally:
        await server.stop()


async def test_an_undo_whose_asker_leaves_is_cancelled():
    limits = Limits()
    path = short_dir() / "s.sock"
    server = Server(ServerCore(seeded_hosting(), limits=limits), limits, b"x" * 16)
    await server.listen_unix(path)
    host, port = await server.listen_tcp("127.0.0.1", 0)
    try:
        ana, bruno = [
            Player(await ServerClient.connect_tcp(host, port, secret="x" * 16, user=name))
            for name in ("ana", "bruno")
        ]
        view = await ana.sit(OpenTable(game="generala", seats=[SeatSpec(), SeatSpec()]))
        other = await bruno.sit(Join(table=view.id))
        await ana.pump(lambda: view.state is not None and not view.game.pending_throw(view.state))
        (me, my_view), (them, their_view) = [(ana, view), (bruno, other)][:: (
            1 if view.game.current_player(view.state) == 0 else -1
        )]
        await me.act(my_view, Roll())
        await me.act(my_view, Fill(box="generala"))
        await me.client.request(ProposeUndo(table=view.id))
        await them.pump(lambda: isinstance(their_view.events[-1].body, UndoProposed))
        await me.close()
        await them.pump(lambda: isinstance(their_view.events[-1].body, UndoSettled))
        settled = their_view.events[-1].body
        assert isinstance(settled, UndoSettled) and not settled.done
        assert settled.words is not None and settled.words.template == "a player left"
        with pytest.raises(ServerError) as refused:  # nothing left to answer
            await them.client.request(AnswerUndo(table=view.id, accept=True))
        assert refused.value.error is not None and refused.value.error.code == "undo"
        assert their_view.record[-1][1] == "action"
    finally:
        await server.stop()
