"""A server killed with -9 (or stopped) mid-game, through the real app: two `cubilete server`
processes on one PostgreSQL database (a private cluster), two Pilot apps given both servers
(`--server A,B`). The server playing their table goes; each app says in one line that it is
reconnecting, connects to the other server, joins the table again with its seat's token,
catches up from the history the server sends, and the game goes on to its end. The
database's record of the game is the replicas' record, event for event.

The people reach the servers over TCP as a front end does (the shared secret and their user
names): on the Unix socket one test process is one Unix user, hence one person.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from textual.widgets import Static
from uihelpers import click, screen_text, until

from app.main import CubileteApp
from app.records.stores import open_records
from app.screens.game_over import GameOverScreen
from app.screens.navio import NavioScreen
from app.server.address import ServerAddress
from app.widgets.record_list import RecordList

sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
from serverhelpers import (
    SECRET,
    ServerProcess,
    answer,
    line_client,
    server_process,
    short_dir,
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the server's socket is Linux's")

LEASE = "2"


def person(servers: list[ServerProcess], user: str) -> CubileteApp:
    """An app given every server, in order (`cubilete --server A,B`), as `user`."""
    hello = {"secret": SECRET, "user": user}
    listed = [ServerAddress(tcp=one.tcp, hello=hello) for one in servers]
    return CubileteApp(animate=False, game="navio", server=ServerAddress.of_list(listed))


def where(server: ServerProcess) -> str:
    assert server.tcp is not None
    return f"{server.tcp[0]}:{server.tcp[1]}"




def status_line(app: CubileteApp) -> str:
    """The game screen's status line, as drawn."""
    screen = navio(app)
    assert screen is not None
    return str(screen.query_one("#status", Static).render())


def table_list(app: CubileteApp) -> RecordList | None:
    found = app.screen.query("#tables")
    return found.first(RecordList) if found else None


def navio(app: CubileteApp) -> NavioScreen | None:
    screen = app.screen
    return screen if isinstance(screen, NavioScreen) else None


async def join_first_table(pilot, app: CubileteApp) -> None:
    """A click on the join button of the lobby's first table."""
    await until(pilot, lambda: (t := table_list(app)) is not None and t.lines, "the table")
    records = app.screen.query_one("#tables", RecordList)
    width = records.scrollable_content_region.width
    spans = {button_id: start for button_id, start, _end in records._button_spans(width)}
    await click(pilot, "#tables", (spans["join"] + 2, 1))


def stored_events(url: str, players: tuple[str, ...]) -> list[list[object]]:
    store = open_records(url)
    try:
        (summary,) = [
            one
            for one in [*store.unfinished(), *store.history(limit=50).items]
            if one.players == players
        ]
        return [event.to_list() for event in store.load(summary.record_id).events]
    finally:
        store.close()


def as_json(events: list) -> list:
    return json.loads(json.dumps([list(event) for event in events]))


@pytest.mark.parametrize(
    "how",
    [
        pytest.param(signal.SIGKILL, id="killed"),
        pytest.param(signal.SIGTERM, id="stopped"),
    ],
)
async def test_a_server_gone_mid_game_its_people_play_on_at_the_other(postgres_url, how):
    """Dora opens a one-round Navío at server A for Ana, Bruno and Rita (an easy bot); Ana
    and Bruno, each given A and B, join it from their lobbies and play. A is killed with -9
    (or stopped: SIGTERM, as a restart of one server of several does) as the second
    decision of a person is due: both apps say the server was lost and they are
    reconnecting, both come back at B (which took the table over, and Rita with it) and
    play to the end.

    (The server's dice are its own: the kill must come at a point every game reaches. Each
    person decides at least once in the round, so the second decision of a person always
    comes; a third may not: when Rita starts and stops after her first throw, the limit of
    one throw leaves Ana and Bruno one decision each.)"""
    flags = ("--bot-pace", "0", "--db", postgres_url, "--lease", LEASE)
    with (
        server_process(*flags, where=short_dir(), tcp=True) as a,
        server_process(*flags, where=short_dir(), tcp=True) as b,
    ):
        dora = line_client(a, "dora")
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "easy", "name": "Rita"}]
        dora.send(
            type="open_table", ref=1, game="navio", seats=seats, options={"rounds": 1}, sit=None
        )
        opened = answer(dora, 1)
        assert opened["type"] == "opened", opened
        ana, bruno = person([a, b], "ana"), person([a, b], "bruno")
        async with ana.run_test(size=(80, 24)) as pa, bruno.run_test(size=(80, 24)) as pb:
            for app, pilot in ((ana, pa), (bruno, pb)):  # Ana sits first: seat 1
                await join_first_table(pilot, app)
            for app, pilot in ((ana, pa), (bruno, pb)):
                await until(pilot, lambda app=app: navio(app) is not None, "the game")
            assert ana.remote is not None and bruno.remote is not None
            assert str(ana.remote.address) == str(bruno.remote.address) == where(a)
            tables = {0: navio(ana).table, 1: navio(bruno).table}
            pilots = {0: pa, 1: pb}
            watched = tables[0]
            game = watched.game
            moves, killed_at = 0, None
            while not watched.over:
                seat = watched.current_player()
                if seat is None or seat == 2:  # dice on their way, or Rita (the server's)
                    events = len(watched.events)
                    await until(
                        pa, lambda e=events: len(watched.events) > e or watched.over, "news"
                    )
                    continue
                mine, pilot = tables[seat], pilots[seat]
                await until(pilot, lambda s=seat, t=mine: t.current_player() == s, "in step")
                if moves == 1 and killed_at is None:
                    # mid-game: A dies, without a word to anybody (or stops)
                    killed_at = len(watched.events)
                    before = {app: status_line(app) for app in (ana, bruno)}
                    assert not any("reconnecting" in line for line in before.values())
                    began = time.monotonic()
                    os.kill(a.pid, how)
                    a.process.wait(timeout=10)
                    for app, p in ((ana, pa), (bruno, pb)):
                        await until(
                            p,
                            lambda app=app: (
                                "The server was lost: reconnecting…" in screen_text(app)
                            ),
                            "the one-line status",
                        )
                    for app, p in ((ana, pa), (bruno, pb)):
                        remote = app.remote
                        assert remote is not None
                        await until(
                            p, lambda r=remote: r.reconnects == 1, "back at a server", timeout=60
                        )
                        assert str(remote.address) == where(b)
                        assert remote.lost is None and navio(app) is not None
                        assert [one.closed for one in remote.sessions.values()] == [None]
                        # the status line is the table's again: whose turn, what to do (the
                        # same as before the loss: nothing was played meanwhile)
                        assert status_line(app) == before[app]
                        assert not app.screen.query_one("#status").has_class("-error")
                    back = time.monotonic() - began
                    assert back < float(LEASE) + 10, back  # the lease, a renewal round, a retry
                    assert "Traceback" not in screen_text(ana) + screen_text(bruno)
                    continue
                kinds = {action.kind for action in game.legal_actions(mine.state)}
                events = len(mine.events)
                await pilot.press("s" if "stop" in kinds else "space")
                await until(pilot, lambda e=events, t=mine: len(t.events) > e, "the answer")
                moves += 1
            assert killed_at is not None and killed_at < len(watched.events)
            await until(pa, lambda: isinstance(ana.screen, GameOverScreen), "Ana's game over")
            await until(pb, lambda: isinstance(bruno.screen, GameOverScreen), "Bruno's too")
            assert tables[0].state == tables[1].state and tables[0].over
            assert as_json(tables[0].events) == as_json(tables[1].events)
            seqs = [event[0] for event in tables[0].events]
            assert seqs == list(range(1, len(seqs) + 1))  # nothing lost, nothing twice
        dora.close()
        players = ("ana", "bruno", "Rita")
        assert as_json(stored_events(postgres_url, players)) == as_json(tables[0].events)
        with line_client(b, "lister") as lister:
            lister.send(type="list_tables", ref=2)
            (listed,) = answer(lister, 2)["tables"]
        assert listed["status"] == "over" and listed["events"] == len(tables[0].events)
