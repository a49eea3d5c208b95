"""`cubilete --server SOCKET` in a real terminal (a tmux pane), at the same table as a Pilot
client: the command line finds the server, the lobby lists its tables, a click on Join seats
the pane's person (known to the server by their Unix user), and each sees the other's move."""

from __future__ import annotations

import getpass
import sys
from pathlib import Path

import pytest
from termhelpers import Pane, cubilete, needs_tmux, wait_until

from app.main import CubileteApp
from app.screens.generala import GeneralaScreen
from app.screens.open_table import OpenTableScreen
from app.screens.waiting import WaitingScreen
from app.server.address import ServerAddress
from rules.generala import BOXES

sys.path[:0] = [str(Path(__file__).parents[1] / "server"), str(Path(__file__).parents[1] / "ui")]
from serverhelpers import SECRET, server_process  # noqa: E402  (after the path)
from uihelpers import click, until  # noqa: E402

pytestmark = [
    needs_tmux,
    pytest.mark.skipif(sys.platform != "linux", reason="the server's socket is Linux's"),
]


def title(pane: Pane) -> str:
    """The pane's title, as the app set it (OSC 2)."""
    return pane.tmux("display-message", "-p", "-t", "0", "#{pane_title}")


async def test_the_command_line_joins_a_table_of_the_server_by_its_socket(tmp_path):
    with server_process("--bot-pace", "0", tcp=True) as server:
        address = ServerAddress(tcp=server.tcp, hello={"secret": SECRET, "user": "ana"})
        ana = CubileteApp(animate=False, game="generala", server=address)
        async with ana.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: ana.screen.query("#tables"), "Ana's list of tables")
            await pilot.press("f7")
            await until(pilot, lambda: isinstance(ana.screen, OpenTableScreen), "the sheet")
            await pilot.press("f2")
            await until(pilot, lambda: isinstance(ana.screen, WaitingScreen), "Ana waiting")
            with Pane(100, 30) as pane:
                data = tmp_path / "pane-data"
                pane.start(
                    cubilete("--server", str(server.socket), "--no-animation"),
                    env={"CUBILETE_DATA_DIR": str(data)},
                )
                pane.wait_for(r"ana, –", timeout=30)
                column, row = pane.find(r"Join")
                pane.click(column + 1, row)
                await until(pilot, lambda: isinstance(ana.screen, GeneralaScreen), "the game")
                pane.wait_for("Scoresheet", timeout=30)
                me = getpass.getuser()
                table = ana.screen.table
                assert table.players == ("ana", me)
                if table.current_player() == 0:  # Ana first: the pane waits its turn
                    pane.wait_for(r"ana is playing: wait for your turn")
                    await pilot.press("space")
                    await until(pilot, lambda: table.state.throws == 1, "Ana's throw")
                    pane.wait_for(r"ana throws", timeout=15)
                    pane.keys("Space")  # not the pane's turn: refused, nothing sent
                    pane.wait_for(r"It is ana's turn: wait for them")
                    assert table.state.throws == 1
                    await click(pilot, "#sheet", (4, 2 + len(BOXES) - 1))  # Libre
                    await until(pilot, lambda: table.current_player() == 1, "the pane's turn")
                # the pane's turn: its terminal's title says so, and its keys play
                wait_until(lambda: "Your turn" in title(pane), 15, "the title")
                pane.keys("Space")
                await until(pilot, lambda: table.state.throws == 1, "the pane's throw")
                pane.wait_for(rf"{me} throws")


def test_local_play_whatever_server_answers(tmp_path):
    """`cubilete --local`, and `CUBILETE_SERVER=none`, play here only: with a server listening
    where the game would find it (the user's own socket, or `$CUBILETE_SERVER`), the lobby
    offers no shared tables and the server sees no connection. (Without them the same
    lobby connects: the server's tables are offered, F7 to open one.)"""
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    own_socket = runtime / "cubilete" / "server.sock"
    own_socket.parent.mkdir(mode=0o700)
    with server_process("--socket", str(own_socket)) as server:
        home = {"XDG_RUNTIME_DIR": str(runtime), "CUBILETE_DATA_DIR": str(tmp_path / "data")}
        runs: list[tuple[list[str], dict[str, str | None]]] = [
            (cubilete("--no-animation"), home | {"CUBILETE_SERVER": None}),
            (cubilete("--no-animation", "--local"), home | {"CUBILETE_SERVER": str(own_socket)}),
            (cubilete("--no-animation"), home | {"CUBILETE_SERVER": "none"}),
        ]
        for number, (command, env) in enumerate(runs):
            connections = server.log().count(" is unix:")
            with Pane(100, 30) as pane:
                pane.start(command, env=env)
                pane.wait_for(r"Start \(F2\)", timeout=30)
                if number == 0:  # (it finds the server, and the lobby offers its tables)
                    pane.wait_for(r"Open a table \(F7\)", timeout=30)
                    assert server.log().count(" is unix:") == connections + 1
                else:
                    screen = pane.wait_for(r"f6 Statistics", timeout=30)  # (the key bar)
                    assert "Open a table" not in screen
                    assert server.log().count(" is unix:") == connections
                pane.keys("C-q")
                assert pane.exit_status() == 0
            if number > 0:
                assert server.log().count(" is unix:") == connections
