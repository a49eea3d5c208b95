"""Whole games at shared tables, through a real `cubilete server` process: people in other
processes play to the end on the server's dice, a spectator sees every event, a client
killed mid-turn comes back to its seat, and the server killed with -9 mid-game comes back
with every table as it was.

The tests marked `ON_BOTH` run twice: the server's records in its data dir's SQLite file, and
in a PostgreSQL database (`--db postgresql://...`, a private cluster)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from serverhelpers import ROOT, SECRET, server_process, short_dir
from tableclient import Player, TableView, refused_code
from waiting import wait_until

from app.records.stores import open_records
from app.server.client import ServerClient, ServerError
from app.server.protocol import (
    Act,
    AnswerUndo,
    Away,
    Back,
    HandedToBot,
    HandToBot,
    Join,
    ListTables,
    OpenTable,
    ProposeUndo,
    Rematch,
    RematchOpened,
    SeatSpec,
    Tables,
    UndoProposed,
    UndoSettled,
    Watch,
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SO_PEERCRED is Linux's")
ON_BOTH = pytest.mark.parametrize("records", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
def where():
    return short_dir()


@pytest.fixture
def records(request: pytest.FixtureRequest) -> tuple[str, ...]:
    """The server's flags for its records: none (records.db in its data dir), or `--db` and
    a fresh PostgreSQL database for a test marked `ON_BOTH`."""
    if getattr(request, "param", "sqlite") == "postgres":
        return ("--db", str(request.getfixturevalue("postgres_url")))
    return ()


@pytest.fixture
def server(where, records):
    with server_process("--bot-pace", "0", *records, where=where, tcp=True) as running:
        yield running
    assert running.process.returncode == 0, running.log()


async def person(server, name: str, seed: int = 0) -> Player:
    """A person the web front end vouches for (over TCP, with the shared secret)."""
    assert server.tcp is not None
    client = await ServerClient.connect_tcp(*server.tcp, secret=SECRET, user=name)
    return Player(client, seed)


def table_of(game: str, *kinds: str, **options: object) -> OpenTable:
    return OpenTable(
        game=game,
        seats=[SeatSpec(kind=kind) for kind in kinds],  # type: ignore[arg-type]  # kinds the tests name
        options=dict(options),  # type: ignore[arg-type]  # JSON values
    )


def stored_record(where: Path, view: TableView, records: tuple[str, ...] = ()):
    """The server's record of the table's game, from its records.db (or its `--db`)."""
    store = open_records(records[1] if records else where / "data" / "records.db")
    try:
        (summary,) = [
            one
            for one in [*store.unfinished(), *store.history(limit=50).items]
            if one.game_id == view.entry.game and one.players == tuple(view.names)
        ]
        return store.load(summary.record_id)
    finally:
        store.close()


def same_game(*views: TableView) -> None:
    """Every view holds the same record events and the same state."""
    first = views[0]
    for view in views:
        assert view.problems == []
        assert view.record == first.record
        assert view.state == first.state


@ON_BOTH
async def test_two_people_play_a_whole_generala_game_and_a_spectator_sees_every_event(
    server, where, records
):
    ana, bruno, carla = [await person(server, name, seed) for seed, name in enumerate("abc")]
    ana_view = await ana.sit(table_of("generala", "human", "human"))
    carla_view = await carla.sit(Watch(table=ana_view.id))
    bruno_view = await bruno.sit(Join(table=ana_view.id))
    made = await asyncio.gather(ana.play(ana_view), bruno.play(bruno_view))
    await carla.pump(lambda: carla_view.over)
    await ana.pump(lambda: len(ana_view.events) >= len(carla_view.events))
    await bruno.pump(lambda: len(bruno_view.events) >= len(carla_view.events))

    assert min(made) >= 13  # a box a turn, thirteen rounds
    assert ana_view.game.is_over(ana_view.state)
    same_game(ana_view, bruno_view, carla_view)
    # the spectator got every event of the table, in order, from the first
    assert [event.seq for event in carla_view.events] == list(range(1, len(carla_view.events) + 1))
    assert carla_view.events == ana_view.events == bruno_view.events
    record = stored_record(where, ana_view, records)
    assert record.header.status == "over"
    assert [event.to_list() for event in record.events] == [list(e) for e in ana_view.record]
    listed = await ana.client.request(ListTables())
    assert isinstance(listed, Tables)
    (entry,) = listed.tables
    assert (entry.status, entry.events) == ("over", len(record.events))


async def test_a_navio_round_with_a_bot_between_two_people(server):
    ana, bruno = await person(server, "ana", 1), await person(server, "bruno", 2)
    ana_view = await ana.sit(table_of("navio", "human", "medium", "human", rounds=1))
    assert ana_view.entry.options["rounds"] == 1
    bruno_view = await bruno.sit(Join(table=ana_view.id))
    await asyncio.gather(ana.play(ana_view), bruno.play(bruno_view))
    await ana.pump(lambda: len(ana_view.events) >= len(bruno_view.events))
    same_game(ana_view, bruno_view)
    assert ana_view.game.is_over(ana_view.state)
    bots = {event[2] for event in ana_view.record if event[1] == "action"}
    assert 1 in bots  # the bot played its turn on the server


async def test_a_stranger_acting_for_another_seat_is_refused_and_the_game_goes_on(server):
    ana, bruno = await person(server, "ana", 3), await person(server, "bruno", 4)
    mallory = await person(server, "mallory")
    view = await ana.sit(table_of("generala", "human", "human"))
    bruno_view = await bruno.sit(Join(table=view.id))
    await ana.pump(lambda: view.state is not None and not view.game.pending_throw(view.state))
    turn = view.game.current_player(view.state)
    waiting, waiter = (bruno, 1) if turn == 0 else (ana, 0)
    action = view.game.legal_actions(view.state)[0].model_dump(mode="json")
    for seat in (0, 1):
        with pytest.raises(ServerError) as refused:
            await mallory.client.request(Act(table=view.id, seat=seat, action=action))
        assert refused_code(refused.value) == "not_your_seat"
    with pytest.raises(ServerError) as refused:  # out of turn
        await waiting.client.request(Act(table=view.id, seat=waiter, action=action))
    assert refused_code(refused.value) == "illegal"
    with pytest.raises(ServerError) as refused:  # for the other
        await waiting.client.request(Act(table=view.id, seat=turn, action=action))
    assert refused_code(refused.value) == "not_your_seat"
    with pytest.raises(ServerError) as refused:  # nonsense for one's own seat
        await waiting.client.request(Act(table=view.id, seat=waiter, action={"kind": "cheat"}))
    assert refused_code(refused.value) == "illegal"
    await asyncio.gather(ana.play(view), bruno.play(bruno_view))
    same_game(view, bruno_view)
    assert view.game.is_over(view.state)


KILLABLE_CLIENT = """
import asyncio, sys
from app.server.client import ServerClient
from app.server.protocol import Join

async def main(host, port, secret, table):
    client = await ServerClient.connect_tcp(host, int(port), secret=secret, user="bruno")
    await client.request(Join(table=table))
    sys.stdout.write("seated\\n")
    sys.stdout.flush()
    await asyncio.Event().wait()

asyncio.run(main(*sys.argv[1:]))
"""


async def test_a_client_killed_mid_turn_comes_back_to_its_seat(server):
    ana = await person(server, "ana", 5)
    view = await ana.sit(table_of("generala", "human", "human"))
    assert server.tcp is not None
    bruno_process = subprocess.Popen(
        [sys.executable, "-c", KILLABLE_CLIENT, *map(str, server.tcp), SECRET, view.id],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert bruno_process.stdout is not None
        assert bruno_process.stdout.readline() == "seated\n"
        # ana plays until it is bruno's turn, and he is killed in the middle of it
        await ana.pump(lambda: view.state is not None and not view.game.pending_throw(view.state))
        while view.game.current_player(view.state) != 1:
            await ana.act(view)
            await ana.pump(lambda: view.game.pending_throw(view.state) is None)
    finally:
        os.kill(bruno_process.pid, signal.SIGKILL)
        bruno_process.wait(timeout=10)
    await ana.pump(lambda: any(isinstance(e.body, Away) for e in view.events))
    away = next(e.body for e in view.events if isinstance(e.body, Away))
    assert away == Away(seat=1, seconds=600)
    listed = await ana.client.request(ListTables())
    assert isinstance(listed, Tables) and not listed.tables[0].seats[1].connected

    bruno = await person(server, "bruno", 6)
    bruno_view = await bruno.sit(Join(table=view.id))
    assert bruno_view.seat == 1
    assert bruno_view.my_turn()  # the whole table so far, his turn where it was
    await ana.pump(lambda: isinstance(view.events[-1].body, Back))
    await asyncio.gather(ana.play(view), bruno.play(bruno_view))
    same_game(view, bruno_view)
    assert view.game.is_over(view.state)


@ON_BOTH
@pytest.mark.parametrize("stop_with", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "term"])
async def test_the_server_killed_with_9_mid_game_is_restarted_and_nothing_is_lost(
    where, records, stop_with
):
    """Killed (-9) or stopped (SIGTERM): the table being played comes back as it was."""
    first = server_process("--bot-pace", "0", *records, where=where, tcp=True)
    running = first.__enter__()
    try:
        ana = await person(running, "ana", 7)
        bruno = await person(running, "bruno", 8)
        view = await ana.sit(table_of("generala", "human", "medium", "human"))
        bruno_view = await bruno.sit(Join(table=view.id))
        await asyncio.gather(
            ana.play(view, stop=lambda: len(view.record) >= 40),
            bruno.play(bruno_view, stop=lambda: len(bruno_view.record) >= 40),
        )
        await ana.pump(lambda: len(view.record) >= len(bruno_view.record))
        before = list(view.record)
        os.kill(running.pid, stop_with)
        assert running.process.wait(timeout=10) == (0 if stop_with == signal.SIGTERM else -9)
        await ana.close()
        await bruno.close()
    finally:
        first.__exit__(None, None, None)

    with server_process("--bot-pace", "0", *records, where=where, tcp=True) as again:
        assert "1 tables rebuilt from their records" in again.log()
        ana, bruno = await person(again, "ana", 9), await person(again, "bruno", 10)
        listed = await ana.client.request(ListTables())
        assert isinstance(listed, Tables)
        (entry,) = listed.tables
        assert (entry.id, entry.status) == (view.id, "playing")
        assert [seat.connected for seat in entry.seats] == [False, True, False]
        ana_view = await ana.sit(Join(table=view.id))
        bruno_view = await bruno.sit(Join(table=view.id))
        assert (ana_view.seat, bruno_view.seat) == (0, 2)
        assert ana_view.record[: len(before)] == before  # nothing lost
        await asyncio.gather(ana.play(ana_view), bruno.play(bruno_view))
        await ana.pump(lambda: len(ana_view.record) >= len(bruno_view.record))
        same_game(ana_view, bruno_view)
        assert ana_view.game.is_over(ana_view.state)
        record = stored_record(where, ana_view, records)
        assert record.header.status == "over"
        assert [event.to_list() for event in record.events] == [list(e) for e in ana_view.record]


async def test_a_seat_held_too_long_goes_to_a_bot_which_plays_it_to_the_end(where):
    with server_process("--bot-pace", "0", "--hold", "1", where=where, tcp=True) as running:
        ana, bruno = await person(running, "ana", 11), await person(running, "bruno", 12)
        view = await ana.sit(table_of("generala", "human", "human"))
        await bruno.sit(Join(table=view.id))
        await bruno.close()
        await ana.pump(lambda: any(isinstance(e.body, HandedToBot) for e in view.events))
        away, handed = [e.body for e in view.events if isinstance(e.body, Away | HandedToBot)]
        assert (away, handed) == (Away(seat=1, seconds=1), HandedToBot(seat=1, bot="medium"))
        await ana.play(view)
        assert view.game.is_over(view.state)
        assert view.problems == []
        assert {e[2] for e in view.record if e[1] == "action"} == {0, 1}


async def test_the_host_hands_the_seat_of_a_person_who_left_to_a_bot_and_no_one_else_may(
    server,
):
    ana, bruno = await person(server, "ana", 11), await person(server, "bruno", 12)
    view = await ana.sit(table_of("generala", "human", "human", "human"))
    bruno_view = await bruno.sit(Join(table=view.id))
    carla = await person(server, "carla")
    await carla.sit(Join(table=view.id))
    await carla.close()
    await ana.pump(lambda: any(isinstance(e.body, Away) for e in view.events))
    for asker, seat, code in ((bruno, 2, "not_host"), (ana, 1, "not_away"), (ana, 5, "not_away")):
        with pytest.raises(ServerError) as refused:
            await asker.client.request(HandToBot(table=view.id, seat=seat))
        assert refused_code(refused.value) == code
    await ana.client.request(HandToBot(table=view.id, seat=2))
    await asyncio.gather(ana.play(view), bruno.play(bruno_view))
    same_game(view, bruno_view)
    assert HandedToBot(seat=2, bot="medium") in [e.body for e in view.events]
    assert {e[2] for e in view.record if e[1] == "action"} == {0, 1, 2}


def settled(view: TableView) -> list[UndoSettled]:
    return [e.body for e in view.events if isinstance(e.body, UndoSettled)]


async def test_an_undo_needs_every_other_persons_consent(server):
    ana, bruno = await person(server, "ana", 13), await person(server, "bruno", 14)
    view = await ana.sit(table_of("generala", "human", "human"))
    bruno_view = await bruno.sit(Join(table=view.id))
    me, other, my_view, other_view = ana, bruno, view, bruno_view
    await ana.pump(lambda: view.state is not None and not view.game.pending_throw(view.state))
    if view.game.current_player(view.state) != 0:
        me, other, my_view, other_view = bruno, ana, bruno_view, view
    await me.pump(lambda: my_view.my_turn())
    # a decision, then an undo before any dice: refused once, agreed the second time
    while True:
        await me.act(my_view)
        await me.pump(lambda: my_view.game.pending_throw(my_view.state) is None)
        if my_view.record[-1][1] == "action":  # no throw followed: it may be taken back
            break
    decided = len(my_view.record)
    answers: list[bool] = []
    for accept in (False, True):
        await me.client.request(ProposeUndo(table=my_view.id))
        await other.pump(lambda: isinstance(other_view.events[-1].body, UndoProposed))
        with pytest.raises(ServerError) as refused:  # no one plays while it is asked
            await other.act(other_view, other_view.game.legal_actions(other_view.state)[0])
        assert refused_code(refused.value) in ("undo", "illegal")
        with pytest.raises(ServerError) as refused:  # the asker cannot answer for the others
            await me.client.request(AnswerUndo(table=my_view.id, accept=True))
        assert refused_code(refused.value) == "undo"
        await other.client.request(AnswerUndo(table=other_view.id, accept=accept))
        await me.pump(lambda: len(settled(my_view)) == 1 + len(answers))
        answers.append(accept)
        assert settled(my_view)[-1].done is accept
    await me.pump(lambda: my_view.record[-1][1] == "undo")
    assert my_view.record[-1] == (decided + 1, "undo", my_view.seat, {"to": decided})
    assert my_view.state == my_view.states[decided - 2]
    await asyncio.gather(ana.play(view), bruno.play(bruno_view))
    same_game(view, bruno_view)


async def test_a_rematch_has_the_same_seats_and_options_at_a_new_table(server):
    ana, bruno = await person(server, "ana", 15), await person(server, "bruno", 16)
    view = await ana.sit(table_of("navio", "human", "easy", "human", rounds=1))
    bruno_view = await bruno.sit(Join(table=view.id))
    with pytest.raises(ServerError) as refused:
        await ana.client.request(Rematch(table=view.id))
    assert refused_code(refused.value) == "rematch"
    await asyncio.gather(ana.play(view), bruno.play(bruno_view))
    # bruno's connection drops after the end; he comes back to the finished table, a
    # stranger may not sit there
    await bruno.close()
    bruno = await person(server, "bruno", 17)
    bruno_view = await bruno.sit(Join(table=view.id))
    assert (bruno_view.seat, bruno_view.status) == (2, "over")
    mallory = await person(server, "mallory")
    with pytest.raises(ServerError) as refused:
        await mallory.client.request(Join(table=view.id))
    assert refused_code(refused.value) == "over"
    again = await ana.sit(Rematch(table=view.id))
    assert again.id != view.id and again.seat == 0
    assert again.entry.options == view.entry.options
    assert [seat.name for seat in again.entry.seats] == view.names
    await bruno.pump(lambda: any(isinstance(e.body, RematchOpened) for e in bruno_view.events))
    (rematch,) = [e.body for e in bruno_view.events if isinstance(e.body, RematchOpened)]
    assert rematch == RematchOpened(table=again.id)
    bruno_again = await bruno.sit(Join(table=again.id))
    assert bruno_again.seat == 2
    await asyncio.gather(ana.play(again), bruno.play(bruno_again))
    same_game(again, bruno_again)
    assert again.game.is_over(again.state)


@ON_BOTH
def test_a_table_of_bots_plays_by_itself_and_closes_from_the_command_line(server):
    def tables(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "app", "tables", *arguments, "--server", str(server.socket)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        )

    opened = tables(
        "open", "navio", "--seat", "Rita:expert", "--seat", "Bo:easy", "--option", "rounds=2"
    )
    assert opened.returncode == 0, opened.stderr
    table = opened.stdout.split()[1]

    def listed() -> list[dict]:
        import json

        return json.loads(tables("--json").stdout)

    wait_until(lambda: listed()[0]["status"] == "over", 60, "the bots to finish their game")
    (entry,) = listed()
    assert entry["options"]["rounds"] == 2 and entry["events"] > 10
    private = tables("open", "generala", "--seat", ":human", "--seat", "easy", "--private")
    assert "invite code: " in private.stdout
    bad = tables("open", "generala", "--seat", "x:robot")
    assert bad.returncode == 2 and "a seat is NAME:KIND" in bad.stderr
    closed = tables("close", table)
    assert closed.returncode == 0 and closed.stdout == f"table {table} closed\n"
    assert tables("close", table).stderr.startswith("cubilete tables: there is no table")
    assert [entry["game"] for entry in listed()] == ["generala"]

