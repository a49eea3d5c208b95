"""`cubilete web` against hostile and careless clients, each a real request to a real server:
other sites' pages, other host names, malformed requests, one client wanting every seat,
forged proxy headers, and the small things a browser asks for (title, icon, listings)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import struct

import pytest

pytest.importorskip("textual_serve", reason="cubilete web needs textual-serve")
aiohttp = pytest.importorskip("aiohttp")

from webhelpers import alive, wait_until, web_server  # noqa: E402

from app import web, web_icon  # noqa: E402

TIMEOUT = aiohttp.ClientTimeout(total=30)


async def lobby(ws, timeout: float = 20) -> bytes:
    """Read a tab's terminal output until the lobby is drawn."""
    seen = b""
    async with asyncio.timeout(timeout):
        while b"Start (F2)" not in seen:
            message = await ws.receive()
            assert message.type == aiohttp.WSMsgType.BINARY, message
            seen += message.data
    return seen


async def turned_away(ws) -> tuple[str, str]:
    """What a refused tab is told in its terminal, and the page it is sent to."""
    said = b""
    async with asyncio.timeout(20):
        while True:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                said += message.data
                continue
            assert message.type == aiohttp.WSMsgType.TEXT, (message, said)
            kind, data = json.loads(message.data)
            if kind == "open_url":
                return said.decode(), data["url"]


async def handshake_status(client, url: str, **kwargs) -> int:
    """The status of a websocket handshake that is expected to be refused."""
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(url, **kwargs)
    return refused.value.status


# -- 10: other sites' pages and other host names ----------------------------------------------
async def test_a_page_of_another_site_cannot_open_a_game(tmp_path):
    with web_server(tmp_path, "--game", "generala") as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        own = f"http://127.0.0.1:{server.port}"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            for theirs in ("http://evil.example", "null", f"http://127.0.0.1:{server.port + 1}"):
                assert await handshake_status(client, ws_url, origin=theirs) == 403, theirs
            assert server.apps() == []

            ws = await client.ws_connect(ws_url, origin=own)  # the page itself
            await lobby(ws)
            assert len(server.apps()) == 1
            await ws.close()


async def test_a_name_that_is_not_this_server_is_not_served(tmp_path):
    """DNS rebinding: a site's own name made to point here carries that name as Host."""
    with web_server(tmp_path, "--allowed-host", "games.lan") as server:
        port = server.port
        url = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            for path in ("/", "/static/js/textual.js", "/favicon.ico", "/busy"):
                async with client.get(url + path, headers={"Host": f"evil.example:{port}"}) as r:
                    assert r.status == 421, path
            status = await handshake_status(
                client,
                f"ws://127.0.0.1:{port}/ws",
                headers={"Host": f"evil.example:{port}"},
                origin=f"http://evil.example:{port}",  # the page's own origin, on that name
            )
            assert status == 421
            assert server.apps() == []
            for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "games.lan"):
                async with client.get(url, headers={"Host": host}) as page:
                    assert page.status == 200, host


# -- 14: forwarded headers ---------------------------------------------------------------------
async def page_text(url: str, headers: dict[str, str]) -> str:
    async with (
        aiohttp.ClientSession(timeout=TIMEOUT) as client,
        client.get(url, headers=headers) as page,
    ):
        assert page.status == 200
        return await page.text()


async def test_forwarded_headers_are_believed_only_from_a_trusted_proxy(tmp_path):
    forged = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "games.example.org"}
    with web_server(tmp_path / "plain", "--allowed-host", "games.example.org") as server:
        page = await page_text(server.url, forged)
        own = f"127.0.0.1:{server.port}"
        assert f'data-session-websocket-url="ws://{own}/ws"' in page
        assert f'src="http://{own}/static/js/textual.js"' in page

    trusted = ("--trust-proxy", "--allowed-host", "games.example.org")
    with web_server(tmp_path / "trusted", *trusted) as server:
        page = await page_text(server.url, forged)
        assert 'data-session-websocket-url="wss://games.example.org/ws"' in page
        assert 'src="https://games.example.org/static/js/textual.js"' in page
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            evil = {"X-Forwarded-Host": "evil.example"}  # a trusted proxy still names a host
            async with client.get(server.url, headers=evil) as refused:
                assert refused.status == 421
            ws = await client.ws_connect(
                f"ws://127.0.0.1:{server.port}/ws",
                headers=forged,
                origin="https://games.example.org",
            )
            await lobby(ws)
            await ws.close()


async def test_behind_a_proxy_with_a_public_url_the_page_points_the_browser_at_it(tmp_path):
    public = "https://games.example.org/cubilete"
    with web_server(tmp_path, "--public-url", public) as server:
        page = await page_text(server.url, {"Host": "games.example.org"})  # nginx's $host
        assert 'data-session-websocket-url="wss://games.example.org/cubilete/ws"' in page
        assert 'src="https://games.example.org/cubilete/static/js/textual.js"' in page
        assert 'href="https://games.example.org/cubilete/favicon.ico"' in page
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            ws_url = f"ws://127.0.0.1:{server.port}/ws"
            ws = await client.ws_connect(ws_url, origin="https://games.example.org")
            await lobby(ws)
            await ws.close()


# -- 11: malformed requests in the log ---------------------------------------------------------
SECRET = "Basic c2VjcmV0LXBhc3N3b3Jk"  # what a browser sends after a password prompt
COOKIE = "session=COOKIE-c0ffee"

MALFORMED = [
    b"GET / HTTP/1.1\r\nHost: h\r\nAuthorization: %(a)s\r\nCookie: %(c)s\r\nBad Header\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: h\r\nAuthorization: %(a)s\r\nCookie: %(c)s\x01\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: h\r\nCookie: %(c)s\r\nContent-Length: x%(a)s\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: h\r\nCookie: %(c)s\r\nAuthorization: %(a)s"
    + b"A" * 9000
    + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nCookie: %(c)s\r\n\r\nzz\r\n",
    b"G\x00T / HTTP/1.1\r\nAuthorization: %(a)s\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03%(a)s",  # TLS to a plain port
    b"GET /\x7f HTTP/1.1\r\nHost: h\r\nCookie: %(c)s\r\n\r\n",
    b"GET / HTTP/9.9\r\nCookie: %(c)s\r\n\r\n",
]


def send_raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        reply = b""
        while chunk := sock.recv(4096):
            reply += chunk
        return reply


def test_a_malformed_request_is_one_line_in_the_log_and_no_header_value(tmp_path):
    with web_server(tmp_path) as server:
        secrets = {b"a": SECRET.encode(), b"c": COOKIE.encode()}
        for request in MALFORMED:
            reply = send_raw(server.port, request % secrets)
            assert reply.startswith(b"HTTP/1.") and b" 400 " in reply.split(b"\r\n")[0], reply
        long_path = "/" + "x" * 150
        headers = f"Host: 127.0.0.1\r\nAuthorization: {SECRET}\r\nCookie: {COOKIE}\r\n"
        headers += "Connection: close\r\n"
        reply = send_raw(server.port, f"GET {long_path} HTTP/1.1\r\n{headers}\r\n".encode())
        assert b" 404 " in reply.split(b"\r\n")[0]
        bad_lines = lambda: [  # noqa: E731
            line for line in server.stderr.read_text().splitlines() if "bad request" in line
        ]
        wait_until(lambda: len(bad_lines()) >= len(MALFORMED), 10, "the log lines")
    log = server.stderr.read_text()
    assert "c2VjcmV0" not in log and "COOKIE" not in log and "c0ffee" not in log
    assert "Traceback" not in log and "│" not in log
    assert len(bad_lines()) == len(MALFORMED), log
    for line in bad_lines():
        assert re.match(
            r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d WARNING bad request from 127.0.0.1: ", line
        )
    (found,) = [line for line in log.splitlines() if long_path in line]  # not wrapped at 80
    assert re.search(r' "GET /x{150}" 404 ', found), found
    assert server.stdout.read_bytes() == b""


# -- 12: one client, every seat ----------------------------------------------------------------
async def test_one_client_cannot_take_every_seat(tmp_path):
    flags = ("--max-sessions", "6", "--max-per-client", "2", "--game", "generala")
    with web_server(tmp_path, *flags) as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            tabs = await asyncio.gather(*(client.ws_connect(ws_url) for _ in range(6)))
            outcomes = await asyncio.gather(*(first_outcome(ws) for ws in tabs))
            assert sorted(outcomes).count("lobby") == 2, outcomes
            assert outcomes.count(f"http://127.0.0.1:{server.port}/busy?why=yours") == 4
            assert len(server.apps()) == 2
            async with client.get(server.url) as page:
                assert page.status == 429
                assert "Too many tables" in await page.text()

            neighbour = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
            async with aiohttp.ClientSession(timeout=TIMEOUT, connector=neighbour) as other:
                ws = await other.ws_connect(ws_url)  # another address still gets a seat
                await lobby(ws)
                assert len(server.apps()) == 3
                await ws.close()
            for ws in tabs:
                await ws.close()


async def first_outcome(ws) -> str:
    """ "lobby" if the tab got a table, else the page it was sent to."""
    seen = b""
    async with asyncio.timeout(20):
        while b"Start (F2)" not in seen:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.TEXT:
                kind, data = json.loads(message.data)
                if kind == "open_url":
                    return str(data["url"])
                continue
            assert message.type == aiohttp.WSMsgType.BINARY, message
            seen += message.data
    return "lobby"


async def test_a_client_that_keeps_starting_tables_is_slowed_down(tmp_path):
    flags = ("--starts-per-minute", "2", "--max-per-client", "8", "--game", "generala")
    with web_server(tmp_path, *flags) as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            for _ in range(2):  # reload, reload
                ws = await client.ws_connect(ws_url)
                await lobby(ws)
                await ws.close()
            ws = await client.ws_connect(ws_url)
            said, url = await turned_away(ws)
            assert "Slow down" in said and "Try again in" in said
            assert re.fullmatch(rf"http://127.0.0.1:{server.port}/busy\?why=rate&wait=\d+", url)
            wait = int(url.rsplit("=", 1)[1])
            assert 20 <= wait <= 30  # 2 a minute: one more in 30 s at most
            await ws.close()
            async with client.get(url) as page:
                assert page.status == 429
                assert page.headers["Retry-After"] == str(wait)

            neighbour = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
            async with aiohttp.ClientSession(timeout=TIMEOUT, connector=neighbour) as other:
                ws = await other.ws_connect(ws_url)
                await lobby(ws)
                await ws.close()


async def test_behind_the_proxy_each_user_has_their_own_share(tmp_path):
    flags = ("--user-header", "X-Remote-User", "--max-per-client", "1", "--game", "generala")
    with web_server(tmp_path, *flags) as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            ana = await client.ws_connect(ws_url, headers={"X-Remote-User": "ana"})
            await lobby(ana)
            again = await client.ws_connect(ws_url, headers={"X-Remote-User": "ana"})
            assert (await turned_away(again))[1].endswith("/busy?why=yours")
            bruno = await client.ws_connect(ws_url, headers={"X-Remote-User": "bruno"})
            await lobby(bruno)  # same address, another user
            for ws in (ana, again, bruno):
                await ws.close()


# -- 13: counting seats exactly ----------------------------------------------------------------
async def test_a_seat_is_free_the_moment_its_game_has_exited(tmp_path):
    with web_server(tmp_path, "--max-sessions", "1", "--game", "generala") as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            for _round in range(3):
                ws = await client.ws_connect(ws_url)
                await lobby(ws)
                (app_pid,) = server.apps()
                await ws.send_str(json.dumps(["stdin", "\x11"]))  # ctrl+q: the game quits
                wait_until(lambda: not alive(app_pid), 10, "the game to exit", step=0.0005)  # noqa: B023
                async with client.get(server.url) as page:
                    assert page.status == 200, "the seat of a game that has exited is still taken"
                await ws.close()


# -- 15: the small things ----------------------------------------------------------------------
async def test_the_page_has_a_title_and_an_icon_and_static_files_are_not_listed(tmp_path):
    with web_server(tmp_path) as server:
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            async with client.get(server.url) as page:
                text = await page.text()
            assert "<title>Cubilete</title>" in text
            assert f'<link rel="icon" href="{server.url}favicon.ico"' in text
            async with client.get(server.url + "favicon.ico") as icon:
                assert icon.status == 200
                assert icon.content_type == "image/x-icon"
                assert await icon.read() == web.ICON.read_bytes()
            for listing in ("static/", "static", "static/js/"):
                async with client.get(server.url + listing) as r:
                    assert r.status in (403, 404), listing
                    assert "Index of" not in await r.text()
            async with client.get(server.url + "static/js/textual.js") as script:
                assert script.status == 200


def test_the_icon_is_the_die_we_draw():
    data = web.ICON.read_bytes()
    assert data == web_icon.ico()  # `python -m app.web_icon` writes it
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind, count) == (0, 1, len(web_icon.SIZES))
    for index, size in enumerate(web_icon.SIZES):
        width, height, *_rest, length, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * index : 22 + 16 * index]
        )
        assert (width, height) == (size, size)
        image = data[offset : offset + length]
        assert image.startswith(b"\x89PNG\r\n\x1a\n")
        assert struct.unpack(">II", image[16:24]) == (size, size)


FUZZ_SEED, FUZZ_REQUESTS = 16, 400


def mutated_requests(seed: int, count: int) -> list[bytes]:
    """Valid requests that carry credentials, each damaged a few random ways (seeded)."""
    import random

    rng = random.Random(seed)
    base = [
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {SECRET}\r\nCookie: {COOKIE}\r\n\r\n",
        "GET /ws?width=80&height=24 HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n"
        f"Authorization: {SECRET}\r\nCookie: {COOKIE}\r\n\r\n",
    ]
    junk = [b"\x00", b"\r", b"\n", b"\r\n", b":", b" ", b"\xff", b"\x7f", "ñ".encode(), b'"', b"%"]
    requests = []
    for _ in range(count):
        data = bytearray(rng.choice(base).encode())
        for _change in range(rng.randint(1, 4)):
            at = rng.randrange(len(data))
            action = rng.randrange(5)
            if action == 0:
                data[at:at] = rng.choice(junk)
            elif action == 1:
                del data[at : at + rng.randint(1, 8)]
            elif action == 2:
                data[at] = rng.randrange(256)
            elif action == 3:
                data[at:at] = b"X-Long: " + b"a" * rng.choice((100, 9000)) + b"\r\n"
            else:
                data[at:at] = data[at : at + rng.randint(1, 40)]  # a stretch repeated
        requests.append(bytes(data))
    return requests


async def send_and_hang_up(port: int, data: bytes) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1):
                await reader.read(65536)
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def test_damaged_requests_never_put_a_traceback_or_a_credential_in_the_log(tmp_path):
    with web_server(tmp_path, "--max-sessions", "2") as server:
        requests = mutated_requests(FUZZ_SEED, FUZZ_REQUESTS)
        for start in range(0, len(requests), 50):
            await asyncio.gather(
                *(send_and_hang_up(server.port, data) for data in requests[start : start + 50])
            )
        wait_until(lambda: not server.apps(), 20, "the fuzzer's games to end")
        neighbour = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))  # the fuzzer is slowed
        async with (
            aiohttp.ClientSession(timeout=TIMEOUT, connector=neighbour) as client,
            client.get(server.url) as page,
        ):
            assert page.status == 200  # still serving
        apps = server.seen_apps
    log = server.stderr.read_text()
    assert server.process.returncode == 0
    assert "c2VjcmV0" not in log and "COOKIE" not in log and "c0ffee" not in log
    assert "Traceback" not in log
    lines = log.splitlines()
    assert len([line for line in lines if "bad request" in line]) > FUZZ_REQUESTS // 4
    for line in lines[2:]:  # after the two lines that say where it serves
        assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (INFO|WARNING) ", line), line
    assert all(not alive(pid) for pid in apps)
