"""`cubilete web` without a browser: the offline page, the session cap, reaping, per-user saves."""

from __future__ import annotations

import asyncio
import json
import sys
import time

import pytest

pytest.importorskip("textual_serve", reason="cubilete web needs textual-serve")
aiohttp = pytest.importorskip("aiohttp")

from stored import records_db, stored_records  # noqa: E402
from textual_serve.download_manager import DownloadManager  # noqa: E402
from webhelpers import alive, children, wait_until, web_server  # noqa: E402

from app import web  # noqa: E402


# -- the page --------------------------------------------------------------------------------
def test_the_page_loads_nothing_from_another_site():
    template = (web.textual_serve_templates() / web.TEMPLATE_NAME).read_text(encoding="utf-8")
    assert "fonts.googleapis.com" in template  # what the installed package ships ...
    page = web.offline_page(template)
    assert "googleapis" not in page  # ... and what we serve instead
    assert "@font-face" in page
    assert web.FONT_FILE in page
    assert (web.textual_serve_templates().parent / "static" / web.FONT_FILE).is_file()


@pytest.mark.parametrize(
    "asset",
    [
        '<script src="https://cdn.example.org/x.js"></script>',
        '<img src="//cdn.example.org/x.png">',
        "<style>body { background: url(https://example.org/bg.png) }</style>",
    ],
)
def test_a_template_that_would_still_reach_out_is_refused(asset):
    with pytest.raises(ValueError, match="external asset"):
        web.offline_page(f"<html><head>{asset}</head></html>")


def test_the_full_page_says_so_plainly():
    page = web.full_page(3)
    assert "Cubilete is full" in page
    assert "All 3 tables are taken" in page
    assert "http" not in page


# -- who may connect ------------------------------------------------------------------------
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"])
def test_localhost_needs_no_warning(host):
    assert web.is_loopback(host)
    assert web.exposure_warning(host) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "games.example.org"])
def test_listening_beyond_localhost_warns_that_the_page_has_no_login(host):
    warning = web.exposure_warning(host)
    assert warning is not None
    assert "no login" in warning
    assert "reverse proxy" in warning


@pytest.mark.parametrize(
    ("user", "safe"),
    [("ana", "ana"), ("ana.perez@example.org", "ana.perez@example.org")],
)
def test_a_plain_user_name_is_its_own_folder(user, safe):
    assert web.user_dir_name(user) == safe


@pytest.mark.parametrize("user", ["..", "../etc", "a/b", "ana perez", ".hidden", "ñandú"])
def test_an_odd_user_name_becomes_a_safe_folder(user):
    name = web.user_dir_name(user)
    assert "/" not in name
    assert not name.startswith(".")
    assert name != web.user_dir_name(user + "x")


# -- sessions --------------------------------------------------------------------------------
async def wait_for(condition, timeout: float, what: str):
    end = time.monotonic() + timeout
    while not (result := condition()):
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.05)
    return result


async def first_output(ws, text: bytes, timeout: float = 20) -> bytes:
    """Read the app's output from the websocket until `text` shows up."""
    seen = b""
    async with asyncio.timeout(timeout):
        while text not in seen:
            message = await ws.receive()
            assert message.type == aiohttp.WSMsgType.BINARY, message
            seen += message.data
    return seen


async def followed_url(ws) -> str:
    """The address textual.js would open in the tab ("open_url"), read from the websocket."""
    async with asyncio.timeout(10):
        while True:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.TEXT:
                kind, data = json.loads(message.data)
                if kind == "open_url":
                    assert data["new_tab"] is False
                    return str(data["url"])
            assert message.type == aiohttp.WSMsgType.BINARY, message


async def test_the_session_cap_turns_a_second_tab_away_and_frees_the_seat_when_the_first_leaves(
    tmp_path,
):
    with web_server(tmp_path, "--max-sessions", "1", "--game", "generala") as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as client:
            async with client.get(server.url) as page:
                assert page.status == 200
            first = await client.ws_connect(ws_url)
            await first_output(first, b"Start (F2)")
            (app_pid,) = server.apps()

            async with client.get(server.url) as page:
                assert page.status == 503
                assert "Cubilete is full" in await page.text()
            second = await client.ws_connect(ws_url)
            refusal = await first_output(second, b"full")
            assert b"All 1 tables are taken" in refusal
            sent_to = await followed_url(second)  # the tab is sent to a page that says why
            assert sent_to == f"http://127.0.0.1:{server.port}/busy?why=full"
            async with client.get(sent_to) as page:
                assert page.status == 503
                assert "Cubilete is full" in await page.text()
            await second.close()
            assert server.apps() == [app_pid]

            await first.close()
            await wait_for(lambda: not alive(app_pid), 10, "the app to be gone")
            async with client.get(server.url) as page:
                assert page.status == 200
    assert server.stdout.read_bytes() == b""
    assert "serving the game" in server.stderr.read_text()


async def test_each_user_named_by_the_proxy_saves_in_a_private_folder(tmp_path, private_data_dir):
    flags = ("--user-header", "X-Remote-User", "--game", "generala")
    with web_server(tmp_path, *flags) as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as client:
            async with client.get(server.url) as page:
                assert page.status == 403
            async with client.get(server.url, headers={"X-Remote-User": "ana"}) as page:
                assert page.status == 200
            ws = await client.ws_connect(ws_url, headers={"X-Remote-User": "ana"})
            await first_output(ws, b"Start (F2)")
            (app_pid,) = server.apps()
            await ws.send_str(json.dumps(["stdin", "\x1bOQ"]))  # F2: a game starts, and is saved
            folder = private_data_dir / "web-users" / "ana"
            wait_until(lambda: stored_records(folder), 20, "Ana's recorded game")
            assert not records_db(private_data_dir).exists()
            assert folder.stat().st_mode & 0o777 == 0o700
            assert folder.parent.stat().st_mode & 0o777 == 0o700
            await ws.close()
            await wait_for(lambda: not alive(app_pid), 10, "the app to be gone")


STUBBORN_APP = """
import signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
time.sleep(60)
"""


async def test_an_app_that_ignores_quit_is_killed_with_its_group_after_the_grace_period():
    async def ignore(*_args) -> None:
        return None

    session = web.Session(
        [sys.executable, "-c", STUBBORN_APP],
        grace=0.5,
        env={},
        write_bytes=ignore,
        write_str=ignore,
        close=ignore,
        download_manager=DownloadManager(),
    )
    await session.start(80, 24)
    pid = session.pid
    assert pid is not None
    (helper,) = await wait_for(lambda: children(pid), 10, "the app to start its helper")
    started = time.monotonic()
    await session.stop()
    took = time.monotonic() - started
    assert not alive(pid)
    wait_until(lambda: not alive(helper), 5, "the helper in the app's group to be killed")
    assert 0.4 < took < 5, took
    await session.stop()  # twice is harmless


async def test_a_seat_is_free_as_soon_as_its_app_has_exited_even_before_the_server_hears_of_it():
    """The count of seats asks the kernel, not the event loop: an app that has exited while
    the loop was busy elsewhere does not keep its seat until the loop gets round to it."""

    async def ignore(*_args) -> None:
        return None

    server = web.WebServer([sys.executable, "-c", "pass"], max_sessions=1)
    session = web.Session(
        server.argv,
        grace=0.5,
        env={},
        write_bytes=ignore,
        write_str=ignore,
        close=ignore,
        download_manager=DownloadManager(),
    )
    server.sessions.add(session)
    assert server.full  # a session that is starting holds its seat
    await session.start(80, 24)
    pid = session.pid
    assert pid is not None
    wait_until(lambda: not alive(pid), 10, "the app to exit")  # the loop is not running here
    assert not server.full
    await session.stop()


async def test_stopping_the_server_stops_every_session(tmp_path):
    with web_server(tmp_path, "--game", "generala") as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as client:
            ws = await client.ws_connect(ws_url)
            await first_output(ws, b"Start (F2)")
            (app_pid,) = server.apps()
            (fork_server,) = server.fork_servers()
            server.process.terminate()  # what Ctrl+C or `systemctl stop` does
            await wait_for(lambda: server.process.poll() is not None, 15, "the server to stop")
            assert not alive(app_pid)
            assert not alive(fork_server)
            assert server.process.returncode == 0


def test_a_browser_cannot_ask_for_a_huge_terminal():
    assert web.terminal_size(80, 24) == (80, 24)
    assert web.terminal_size(10**9, 10**9) == (web.MAX_COLUMNS, web.MAX_ROWS)
    assert web.terminal_size(-5, 0) == (10, 5)
