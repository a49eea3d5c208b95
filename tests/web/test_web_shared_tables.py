"""`cubilete web --server HOST:PORT`: each browser tab plays at the server of shared tables as
the person the web front end knows (the proxy's user, else a guest of the tab's own), over the
server's TCP listener with its shared secret. Real processes: a `cubilete server`, a
`cubilete web`, and tabs driven through their websockets as a browser drives them."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from pathlib import Path

import pyte
import pytest

pytest.importorskip("textual_serve", reason="cubilete web needs textual-serve")
aiohttp = pytest.importorskip("aiohttp")

from webhelpers import web_server  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
from serverhelpers import SECRET, LineClient, server_process  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the server's socket is Linux's")

F2, F7 = "\x1bOQ", "\x1b[18~"
WIDTH, HEIGHT = 100, 30


@pytest.fixture
def server():
    with server_process("--bot-pace", "0", tcp=True) as running:
        yield running
    assert running.process.returncode == 0, running.log()


def secret_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret"
    path.write_text(SECRET + "\n")
    path.chmod(0o600)
    return path


def tables(server) -> list[dict]:
    """The server's tables, as a front end of its own lists them."""
    with LineClient(socket.create_connection(server.tcp)) as client:
        assert client.hello(secret=SECRET, user="admin")["type"] == "welcome"
        client.send(type="list_tables", ref=1)
        while (message := client.read()) is not None:
            if message.get("ref") == 1:
                return list(message["tables"])
    raise AssertionError("the server hung up")


async def eventually(condition, timeout: float, what: str) -> None:
    """Poll `condition` (without holding up the event loop, which reads the tabs)."""
    try:
        async with asyncio.timeout(timeout):
            while not condition():
                await asyncio.sleep(0.1)
    except TimeoutError:
        raise AssertionError(f"timed out after {timeout} s waiting for {what}") from None


class Tab:
    """A browser tab: its websocket, the app's output so far and the screen it draws (read
    by a terminal emulator, as xterm.js reads it), keys typed and clicks."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.seen = b""
        self.screen = pyte.Screen(WIDTH, HEIGHT)
        self.stream = pyte.ByteStream(self.screen)

    async def read(self) -> None:
        message = await self.ws.receive()
        if message.type == aiohttp.WSMsgType.BINARY:
            self.seen += message.data
            self.stream.feed(message.data)
        elif message.type != aiohttp.WSMsgType.TEXT:
            raise AssertionError(f"the tab ended: {message}")

    async def shows(self, text: bytes, timeout: float = 30) -> None:
        """Wait until the app's output has had `text`."""
        async with asyncio.timeout(timeout):
            while text not in self.seen:
                await self.read()

    async def on_screen(self, text: str, timeout: float = 30) -> tuple[int, int]:
        """Wait until `text` is on the screen; where it is (column, row)."""
        async with asyncio.timeout(timeout):
            while not any(text in line for line in self.screen.display):
                await self.read()
        row = next(y for y, line in enumerate(self.screen.display) if text in line)
        return self.screen.display[row].index(text), row

    async def click_on(self, label: bytes, beside: str) -> None:
        """Click the button `label` on the line that shows `beside`."""
        _x, row = await self.on_screen(beside)
        column = self.screen.display[row].index(label.decode())
        where = f"{column + 2};{row + 1}"  # (SGR mouse reports count from 1)
        await self.press(f"\x1b[<0;{where}M", f"\x1b[<0;{where}m")

    async def press(self, *keys: str) -> None:
        for key in keys:
            await self.ws.send_str(json.dumps(["stdin", key]))


async def open_tab(client, server, user: str | None) -> Tab:
    headers = {"X-Remote-User": user} if user else {}
    url = f"ws://127.0.0.1:{server.port}/ws?width={WIDTH}&height={HEIGHT}"
    tab = Tab(await client.ws_connect(url, headers=headers))
    await tab.shows(b"Start (F2)")
    return tab


async def ana_opens_and_bruno_joins(server, ana: Tab, bruno: Tab) -> dict:
    """Ana's tab opens a Generala table for two (F7, F2); Bruno's lists it and joins it (a
    click on the table's Join). The table, as the server lists it."""
    await ana.press(F7)
    await ana.shows(b"Open private (F3)")
    await ana.press(F2)
    await eventually(lambda: len(tables(server)) == 1, 20, "Ana's table on the server")
    (opened,) = tables(server)
    host = opened["host"]
    await bruno.shows(f"{host}, –".encode())  # the table in Bruno's lobby
    await bruno.click_on(b"Join", beside=f"{host}, –")
    await eventually(lambda: tables(server)[0]["status"] == "playing", 20, "Bruno seated")
    return tables(server)[0]


async def test_two_tabs_of_two_users_named_by_the_proxy_sit_at_one_table(
    tmp_path, private_data_dir, server
):
    flags = (
        *("--user-header", "X-Remote-User", "--game", "generala"),
        *("--server", f"{server.tcp[0]}:{server.tcp[1]}"),
        *("--server-secret-file", str(secret_file(tmp_path))),
    )
    with web_server(tmp_path / "web", *flags) as web:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as client:
            ana = await open_tab(client, web, "ana")
            bruno = await open_tab(client, web, "bruno")
            table = await ana_opens_and_bruno_joins(server, ana, bruno)
            assert table["host"] == "ana" and table["game"] == "generala"
            assert [seat["name"] for seat in table["seats"]] == ["ana", "bruno"]
            assert all(seat["connected"] for seat in table["seats"])
            await ana.shows(b"bruno")  # her game shows him at the table
            await ana.ws.close()
            await bruno.ws.close()
    assert "TAB_SECRET" not in web.log() and SECRET not in web.log()


async def test_without_a_proxy_each_tab_is_a_guest_of_its_own(tmp_path, private_data_dir, server):
    flags = (
        *("--game", "generala", "--server", f"{server.tcp[0]}:{server.tcp[1]}"),
        *("--server-secret-file", str(secret_file(tmp_path))),
    )
    with web_server(tmp_path / "web", *flags) as web:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as client:
            ana = await open_tab(client, web, None)
            bruno = await open_tab(client, web, None)
            table = await ana_opens_and_bruno_joins(server, ana, bruno)
            names = [seat["name"] for seat in table["seats"]]
            assert all(name.startswith("Guest ") for name in names), names
            assert names[0] != names[1]  # two tabs, two people
            await ana.ws.close()
            await bruno.ws.close()


async def test_each_tab_is_given_every_server_of_the_list_and_plays_at_one_that_answers(
    tmp_path, private_data_dir, server
):
    """`cubilete web --server DEAD,LIVE`: nobody answers at the first (a port bound and not
    listening), so each tab's game, given both, plays at the second."""
    with socket.socket() as dead:
        dead.bind(("127.0.0.1", 0))  # (bound, so nobody else listens there meanwhile)
        nobody = f"127.0.0.1:{dead.getsockname()[1]}"
        flags = (
            *("--user-header", "X-Remote-User", "--game", "generala"),
            *("--server", f"{nobody},{server.tcp[0]}:{server.tcp[1]}"),
            *("--server-secret-file", str(secret_file(tmp_path))),
        )
        with web_server(tmp_path / "web", *flags) as web:
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as client:
                ana = await open_tab(client, web, "ana")
                bruno = await open_tab(client, web, "bruno")
                table = await ana_opens_and_bruno_joins(server, ana, bruno)
                assert [seat["name"] for seat in table["seats"]] == ["ana", "bruno"]
                await ana.ws.close()
                await bruno.ws.close()


def test_a_tabs_environment_names_every_server_in_order():
    """What `cubilete web` puts in a tab's environment is what the tab's game reads back:
    every server of the list, in order (an IPv6 host in brackets), one secret, one person."""
    from app.server.address import tab_server
    from app.web import SharedTables

    shared = SharedTables("10.0.0.1", 7000, "s3cret", ("::1", 7001), ("b.example", 7002))
    environ = shared.tab_env("ana")
    address = tab_server(environ)
    assert address is not None
    assert [one.tcp for one in address.every] == [
        ("10.0.0.1", 7000),
        ("::1", 7001),
        ("b.example", 7002),
    ]
    assert all(one.hello == {"secret": "s3cret", "user": "ana"} for one in address.every)
    assert "CUBILETE_TAB_SECRET" not in environ  # (taken out: nothing the tab starts sees it)


def test_web_refuses_a_server_that_is_not_host_and_port(tmp_path):
    import subprocess

    result = subprocess.run(
        [sys.executable, "-m", "app", "web", "--server", "/run/x.sock"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "is not HOST:PORT" in result.stderr and result.stdout == ""
    result = subprocess.run(  # one of a list
        [sys.executable, "-m", "app", "web", "--server", "127.0.0.1:7000,/run/x.sock"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "'/run/x.sock' is not HOST:PORT" in result.stderr and result.stdout == ""
