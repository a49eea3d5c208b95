"""The client side of shared tables (`app/server/remote.py`, `app/server/address.py`) against a
real `cubilete server` process: the replica a person, a late watcher and a returning player
rebuild from the server's record events, chat as plain text, private tables, undo with the
other person's consent, rematch. People reach the server over TCP with the shared secret and
their names (one test process is one Unix user)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from serverhelpers import SECRET, server_process, short_dir

from app.host import HostEvent, Moved, Rated
from app.i18n import render
from app.server import address, transport
from app.server.address import ServerAddress, find_server
from app.server.client import ServerError
from app.server.protocol import SeatSpec
from app.server.remote import RemoteServer, RemoteSession
from app.table import CannotUndo
from rules.generala import Fill

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SO_PEERCRED is Linux's")
PEOPLE = [SeatSpec(kind="human"), SeatSpec(kind="human")]


@pytest.fixture
def server():
    with server_process("--bot-pace", "0", tcp=True) as running:
        yield running
    assert running.process.returncode == 0, running.log()


async def person(server, user: str) -> RemoteServer:
    return await RemoteServer.connect(
        ServerAddress(tcp=server.tcp, hello={"secret": SECRET, "user": user})
    )


async def until(condition, what: str, timeout: float = 20.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not (result := condition()):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
    return result


async def table_for_two(ana: RemoteServer, bruno: RemoteServer, **open_args):
    first = await ana.open("generala", {}, PEOPLE, **open_args)
    second = await bruno.join(first.table_id, code=first.code)
    await until(lambda: first.ready and second.ready, "the game to begin for both")
    for session in (first, second):
        assert session.host is not None
        session.host.start()
    return first, second


async def move(sessions: list[RemoteSession], action_of=None) -> None:
    """The seat to move plays (its first legal action, or `action_of(state)`), and every
    session's replica takes it in."""
    host = sessions[0].host
    assert host is not None
    seat = host.current_player()
    assert seat is not None
    mover = next(s for s in sessions if s.seat == seat)
    assert mover.host is not None
    table = mover.host.table
    count = len(table.events)
    action = action_of(table.state) if action_of else table.game.legal_actions(table.state)[0]
    mover.host.act(seat, action)
    await until(
        lambda: (
            all(s.host is not None and len(s.host.table.events) > count for s in sessions)
            and all(s.host.table.game.pending_throw(s.host.table.state) is None for s in sessions)
        ),
        "the move to reach everyone",
    )


def test_the_client_looks_for_the_server_where_the_server_listens(tmp_path):
    for environ in ({"XDG_RUNTIME_DIR": str(tmp_path)}, {}):
        assert address.default_socket(environ) == transport.default_socket(environ)
    assert address.SYSTEM_SOCKET == transport.SYSTEM_SOCKET
    assert find_server("/some/where.sock", {}) == Path("/some/where.sock")
    assert find_server(None, {"CUBILETE_SERVER": "/x.sock"}) == Path("/x.sock")
    nobody = {"XDG_RUNTIME_DIR": str(tmp_path)}
    if not address.SYSTEM_SOCKET.exists():
        assert find_server(None, nobody) is None  # no server: local play only


def test_a_list_of_servers_is_given_with_commas_and_kept_in_its_order():
    """`--server A,B` (or `$CUBILETE_SERVER=A,B`): every server, in order, each once."""
    found = address.find_servers(" /a.sock, /b.sock,,/a.sock ", {})
    assert found == [Path("/a.sock"), Path("/b.sock")]
    assert address.find_servers(None, {"CUBILETE_SERVER": "/x.sock,/y.sock"}) == [
        Path("/x.sock"),
        Path("/y.sock"),
    ]
    assert find_server("/a.sock,/b.sock", {}) == Path("/a.sock")
    listed = ServerAddress.of_list([ServerAddress(path=path) for path in found])
    assert listed.every == (
        ServerAddress(path=Path("/a.sock")),
        ServerAddress(path=Path("/b.sock")),
    )
    assert str(listed) == "/a.sock,/b.sock"
    # a browser tab of `cubilete web` given several TCP listeners: all of them, one hello
    environ = {address.TAB_SERVER: "h:1,[::1]:2", address.TAB_SECRET: "s", address.TAB_USER: "a"}
    tab = address.tab_server(environ)
    assert tab is not None and [one.tcp for one in tab.every] == [("h", 1), ("::1", 2)]
    assert {tuple(one.hello.items()) for one in tab.every} == {(("secret", "s"), ("user", "a"))}
    environ = {address.TAB_SERVER: "h:1,/no", address.TAB_SECRET: "s", address.TAB_USER: "a"}
    assert address.tab_server(environ) is None  # (one that is not HOST:PORT: none)


async def test_the_client_connects_to_the_first_server_of_its_list_that_answers():
    """Nobody at the first socket: the second answers. After losing the second, the next
    round starts after it (the one lost is tried last)."""
    where = short_dir()
    nobody = ServerAddress(path=where / "nobody.sock")
    with server_process(where=short_dir()) as one, server_process(where=short_dir()) as two:
        first, second = ServerAddress(path=one.socket), ServerAddress(path=two.socket)
        listed = ServerAddress.of_list([nobody, first, second])
        found, client = await listed.connect_any()
        assert found == first and client.welcome is not None
        await client.close()
        found, client = await listed.connect_any(after=first)
        assert found == second
        await client.close()
        found, client = await listed.connect_any(after=second)
        assert found == first  # round the list, past the one nobody answers at
        await client.close()
    with pytest.raises(ServerError):
        await ServerAddress.of_list([nobody]).connect_any()


def test_a_server_listening_on_the_default_socket_is_found():
    runtime = short_dir()
    (runtime / "cubilete").mkdir()
    socket_path = address.default_socket({"XDG_RUNTIME_DIR": str(runtime)})
    assert socket_path == runtime / "cubilete" / "server.sock"
    with server_process("--socket", str(socket_path), where=runtime):
        if not address.SYSTEM_SOCKET.exists():  # (the machine's server would come first)
            assert find_server(None, {"XDG_RUNTIME_DIR": str(runtime)}) == socket_path
    assert not address.listening(socket_path)
    assert find_server(None, {"XDG_RUNTIME_DIR": str(runtime)}) in (None, address.SYSTEM_SOCKET)


async def test_every_replica_is_the_servers_game_and_a_late_watcher_catches_up(server):
    ana, bruno, carla = [await person(server, name) for name in ("ana", "bruno", "carla")]
    try:
        first, second = await table_for_two(ana, bruno)
        for _ in range(6):
            await move([first, second])
        # Carla comes late: the table's history is sent again and replayed
        watching = await carla.watch(first.table_id)
        await until(lambda: watching.ready, "Carla to catch up")
        assert watching.host is not None and first.host is not None
        assert watching.host.table.state == first.host.table.state
        assert watching.host.table.events == first.host.table.events
        seen: list[HostEvent] = []
        watching.host.subscribe(seen.append)
        watching.host.start()
        await move([first, second, watching])
        moved = [event for event in seen if isinstance(event, Moved)]
        assert moved and moved[-1].state == first.host.table.state
        # a spectator acts on nothing
        with pytest.raises(Exception, match="watching"):
            watching.host.act(0, first.host.table.game.legal_actions(first.host.table.state)[0])
    finally:
        for one in (ana, bruno, carla):
            await one.close()


async def test_each_persons_own_client_rates_their_choices_and_nobody_elses(server):
    ana, bruno = [await person(server, name) for name in ("ana", "bruno")]
    try:
        first, second = await table_for_two(ana, bruno)
        sessions = [first, second]
        told: dict[int, list[HostEvent]] = {}
        for session in sessions:
            assert session.host is not None and session.seat is not None
            session.host.subscribe(told.setdefault(session.seat, []).append)
        for _ in range(12):
            mover = next(s for s in sessions if s.seat == first.host.current_player())
            assert mover.host is not None
            await mover.host.idle()  # they think: their coach has its hint ready
            await move(sessions)
        for seat, events in told.items():
            rated = [i for i, event in enumerate(events) if isinstance(event, Rated)]
            assert rated, f"seat {seat}: the choices after a throw are rated"
            for i in rated:
                rating, moved = events[i], events[i - 1]
                assert isinstance(rating, Rated) and rating.seat == seat  # their own only
                # told with the move it rates, not after it
                assert isinstance(moved, Moved) and (moved.seq, moved.seat) == (rating.seq, seat)
    finally:
        for one in (ana, bruno):
            await one.close()


async def test_a_chat_line_is_plain_text_exactly_as_typed(server):
    ana, bruno = await person(server, "ana"), await person(server, "bruno")
    try:
        first, second = await table_for_two(ana, bruno)
        assert first.host is not None and second.host is not None
        first.host.chat("[b]not bold[/b] {player}")
        await until(
            lambda: any("[b]not bold[/b] {player}" in render(line) for line in second.host.logged),
            "the line at Bruno's table",
        )
        line = next(render(x) for x in second.host.logged if "[b]" in render(x))
        assert line == "ana: [b]not bold[/b] {player}"
    finally:
        await ana.close()
        await bruno.close()


async def test_a_private_table_needs_its_invite_code(server):
    ana, bruno = await person(server, "ana"), await person(server, "bruno")
    try:
        first = await ana.open("generala", {}, PEOPLE, private=True)
        assert first.code is not None
        with pytest.raises(ServerError, match="private"):
            await bruno.join(first.table_id)
        with pytest.raises(ServerError, match="private"):
            await bruno.watch(first.table_id, code="WRONG1")
        second = await bruno.join(first.table_id, code=first.code.lower())
        await until(lambda: second.ready, "the game to begin")
    finally:
        await ana.close()
        await bruno.close()


async def test_an_undo_needs_the_other_persons_consent(server):
    ana, bruno = await person(server, "ana"), await person(server, "bruno")
    try:
        first, second = await table_for_two(ana, bruno)
        sessions = [first, second]
        assert first.host is not None and second.host is not None
        mover = first if first.host.current_player() == first.seat else second
        other = second if mover is first else first
        assert mover.host is not None and other.host is not None
        await move(sessions)  # the first throw of the turn
        before = mover.host.table.state
        await move(sessions, lambda state: Fill(box="libre"))
        assert mover.host.table.state != before
        with pytest.raises(CannotUndo):  # the other person has nothing to take back
            other.host.undo()
        mover.host.undo()  # asks
        await until(lambda: other.host.undo_question == mover.seat, "the question")
        other.host.answer_undo(True)
        await until(
            lambda: mover.host.table.state == before and other.host.table.state == before,
            "the undo on both tables",
        )
        assert mover.host.table.events[-1].kind == "undo"
    finally:
        await ana.close()
        await bruno.close()


async def test_a_rematch_seats_the_same_people_again(server):
    ana, bruno = await person(server, "ana"), await person(server, "bruno")
    rematches: list[RemoteSession] = []
    ana.on_session = bruno.on_session = rematches.append
    try:
        first, second = await table_for_two(ana, bruno)
        assert first.host is not None
        while not first.host.over:
            await move([first, second])
        first.host.rematch()
        await until(lambda: second.rematch_table is not None, "Bruno to hear of it")
        assert second.host is not None
        second.host.rematch()
        await until(lambda: len(rematches) == 2, "both seated again")
        await until(lambda: all(one.ready for one in rematches), "the new game to begin")
        assert {one.table_id for one in rematches} == {second.rematch_table}
        assert rematches[0].host is not None
        assert rematches[0].host.table.players == first.host.table.players
    finally:
        await ana.close()
        await bruno.close()


async def test_a_person_who_leaves_a_game_under_way_comes_back_to_their_seat(server):
    ana, bruno = await person(server, "ana"), await person(server, "bruno")
    try:
        first, second = await table_for_two(ana, bruno)
        for _ in range(3):
            await move([first, second])
        seat = first.seat
        first.leave()  # back to the lobby: the seat is kept
        await until(
            lambda: any("ana is away" in render(line) for line in second.host.logged),
            "Bruno to hear that Ana is away",
        )
        again = await ana.join(first.table_id)
        await until(lambda: again.ready, "Ana to catch up")
        assert again.seat == seat
        assert again.host is not None and second.host is not None
        assert again.host.table.state == second.host.table.state
        await until(
            lambda: any("ana is back" in render(line) for line in second.host.logged),
            "Bruno to hear that Ana is back",
        )
        again.host.start()
        await move([again, second])
    finally:
        await ana.close()
        await bruno.close()


@pytest.mark.parametrize("game", ["barco", "navio", "multiplicacion", "piratas", "generala"])
async def test_every_games_replica_follows_the_server(server, game):
    """Each game, 40 decisions (or to its end) by two people: both replicas and a watcher's
    are the same game, move after move."""
    ana, bruno, carla = [await person(server, name) for name in ("ana", "bruno", "carla")]
    try:
        first = await ana.open(game, {}, PEOPLE)
        second = await bruno.join(first.table_id)
        await until(lambda: first.ready and second.ready, "the game to begin")
        watching = await carla.watch(first.table_id)
        await until(lambda: watching.ready, "the watcher to catch up")
        sessions = [first, second, watching]
        for session in sessions:
            assert session.host is not None
            session.host.start()
        assert first.host is not None
        for _ in range(40):
            if first.host.over:
                break
            await move(sessions)
            states = [s.host.table.state for s in sessions if s.host is not None]
            assert states[0] == states[1] == states[2]
    finally:
        for one in (ana, bruno, carla):
            await one.close()


def test_a_browser_tab_looks_for_no_server(monkeypatch):
    """A tab of `cubilete web` runs as the web server's account: at a server's tables every
    tab would be one person. So a tab does not look for a server (not even $CUBILETE_SERVER,
    which it inherits), and the app starts without one."""
    import app.main
    from app import cli

    made = []

    class Recorded(app.main.CubileteApp):
        def run(self, *args, **kwargs):  # the app as made, not run (no terminal here)
            made.append(self)

    monkeypatch.setattr(app.main, "CubileteApp", Recorded)
    monkeypatch.setenv("TERM", "xterm-256color")  # (the start reads the terminal from it)
    monkeypatch.setenv("CUBILETE_SERVER", "/somewhere/server.sock")
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert cli.run([]) == 0
    assert made[-1].server_address is None
    monkeypatch.delenv("TEXTUAL_DRIVER")
    assert cli.run([]) == 0
    assert made[-1].server_address is not None
    assert str(made[-1].server_address) == "/somewhere/server.sock"


def test_a_browser_tab_of_web_with_a_server_plays_there_as_the_person_web_names(monkeypatch):
    """`cubilete web --server HOST:PORT` tells each tab where the server's TCP listener is,
    its secret, and who the tab's person is: the tab connects as a front end does, and the
    secret leaves its environment."""
    import os

    import app.main
    from app import cli

    made = []

    class Recorded(app.main.CubileteApp):
        def run(self, *args, **kwargs):
            made.append(self)

    monkeypatch.setattr(app.main, "CubileteApp", Recorded)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    monkeypatch.setenv(address.TAB_SERVER, "127.0.0.1:7010")
    monkeypatch.setenv(address.TAB_SECRET, SECRET)
    monkeypatch.setenv(address.TAB_USER, "ana")
    assert cli.run([]) == 0
    tab = made[-1].server_address
    assert tab == ServerAddress(tcp=("127.0.0.1", 7010), hello={"secret": SECRET, "user": "ana"})
    assert address.TAB_SECRET not in os.environ
    # a guest's tab; and a tab told no secret, or no HOST:PORT, plays here only
    environ = {address.TAB_SERVER: "[::1]:7010", address.TAB_SECRET: "s", address.TAB_GUEST: "G 1"}
    assert address.tab_server(environ) == ServerAddress(
        tcp=("::1", 7010), hello={"secret": "s", "guest": "G 1"}
    )
    assert address.tab_server({address.TAB_SERVER: "x:1", address.TAB_USER: "ana"}) is None
    for where in ("/run/s.sock", "host:0", "host:99999", ":7010"):
        environ = {address.TAB_SERVER: where, address.TAB_SECRET: "s", address.TAB_USER: "a"}
        assert address.tab_server(environ) is None
