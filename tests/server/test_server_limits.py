"""What one user may hold of a shared server, run in this process on real sockets: unsent
bytes per user and in all, connections that only ping, tables nobody comes to, invite codes
and secrets guessed, the guests of one front end, `accept()` out of descriptors."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import json
import logging
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from serverhelpers import short_dir

from app.server.address import ServerAddress
from app.server.client import ServerClient, ServerError
from app.server.core import ServerCore
from app.server.limits import Backoff, Limits, connection_cap
from app.server.logsafe import LogLimiter, shown
from app.server.protocol import (
    PROTOCOL_VERSION,
    Error,
    Join,
    ListTables,
    Opened,
    OpenTable,
    Ping,
    Pong,
    SeatSpec,
    TableClosed,
    TableEvent,
    Watch,
)
from app.server.remote import RemoteServer
from app.server.transport import LIMITED, Server, quiet_accept_errors
from rules import N_, Text

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SO_PEERCRED is Linux's")

SECRET = "a-secret-of-sixteen-or-more"


@contextlib.asynccontextmanager
async def serving(
    limits: Limits, tcp: bool = False, clock: Callable[[], float] = time.monotonic
) -> AsyncIterator[Server]:
    """A server in this process on a Unix socket (`server.path`) and, with `tcp`, on
    127.0.0.1 (`server.tcp`), with the secret `SECRET`; `clock` for its back-offs."""
    path = short_dir() / "s.sock"
    core = ServerCore(None, limits=limits, clock=clock)
    server = Server(core, limits, secret=SECRET.encode(), clock=clock)
    await server.listen_unix(path)
    server.path = path  # type: ignore[attr-defined]  # (for the tests)
    if tcp:
        server.tcp = await server.listen_tcp("127.0.0.1", 0)  # type: ignore[attr-defined]
    try:
        yield server
    finally:
        await server.stop()


async def until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def said_from(
    address: str, server: Server, *lines: dict[str, object]
) -> list[dict[str, object]]:
    """Send `lines` to the server's TCP listener from `address` (127.0.0.2: another
    machine, as the server sees it) and read an answer to each."""
    reader, writer = await asyncio.open_connection(*server.tcp, local_addr=(address, 0))  # type: ignore[attr-defined]
    answers = []
    try:
        for line in lines:
            writer.write(json.dumps(line).encode() + b"\n")
            answers.append(json.loads(await reader.readline()))
    finally:
        writer.close()
    return answers


def refusal(error: pytest.ExceptionInfo[ServerError]) -> tuple[str, Text]:
    assert error.value.error is not None
    return error.value.error.code, error.value.error.words.text()


# -- unsent bytes ---------------------------------------------------------------------------
HELLO = b'{"type":"hello","version":%d}\n' % PROTOCOL_VERSION
FAST = {"messages_per_second": 1e6, "burst": 10**6}


@pytest.mark.parametrize(
    "limits",
    [
        Limits(max_output_bytes=1 << 20, output_per_identity=2 << 20, **FAST),  # type: ignore[arg-type]
        Limits(max_output_bytes=1 << 20, output_total=2 << 20, **FAST),  # type: ignore[arg-type]
    ],
    ids=["per-user", "in-all"],
)
async def test_clients_that_never_read_are_cut_off_past_what_a_user_or_all_may_have_unsent(limits):
    """Four connections that ask for the list of tables and never read: each holds less
    unsent than one connection may, together more than one user (or everyone) may. The one
    with the most is cut off, as many as it takes, no more; the reader is served."""
    async with serving(limits) as server:
        reader = await ServerClient.connect(server.path)  # type: ignore[attr-defined]
        bots = [SeatSpec(kind="easy", name=f"{'x' * 20} {n}") for n in range(8)]
        for _ in range(4):  # a list worth a few kilobytes an answer
            await reader.request(OpenTable(game="generala", seats=bots, sit=None))
        listed = await reader.request(ListTables())
        answer = len(listed.model_dump_json()) + 1
        asks = 900_000 // answer  # (under 1 MiB each, kernel's buffer or not)
        greedy = []
        for _ in range(4):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, str(server.path))  # type: ignore[attr-defined]
            greedy.append(await asyncio.open_unix_connection(sock=sock))
        await until(lambda: len(server.connections) == 5)
        for _reader, writer in greedy:
            writer.write(HELLO + b'{"type":"list_tables"}\n' * asks)
        await until(lambda: len(server.connections) < 5)
        assert isinstance(await reader.request(Ping()), Pong)
        await until(lambda: server.buffered_total <= 2 << 20)
        assert 2 <= len(server.connections) - 1 < 4  # one or two cut off, not all
        assert isinstance(await reader.request(Ping()), Pong)
        for _reader, writer in greedy:
            writer.close()
        await reader.close()


# -- connections that only ping -------------------------------------------------------------
async def test_a_connection_that_only_pings_is_closed_after_the_idle_limit_unless_at_a_table():
    limits = Limits(idle_limit=0.3)
    async with serving(limits) as server:
        sitting = await ServerClient.connect(server.path)  # type: ignore[attr-defined]
        await sitting.request(OpenTable(game="generala", seats=[SeatSpec(), SeatSpec()], sit=0))
        pinger = await ServerClient.connect(server.path)  # type: ignore[attr-defined]
        async with asyncio.timeout(10):
            while not pinger.closed.is_set():  # pings every 0.05 s, nothing else
                with contextlib.suppress(ServerError):
                    await pinger.request(Ping())
                await sitting.request(Ping())
                await asyncio.sleep(0.05)
        last = [pinger.inbox.get_nowait() for _ in range(pinger.inbox.qsize())][-1]
        assert isinstance(last, Error) and (last.code, last.fatal) == ("idle", True)
        assert last.words.text() == Text(
            N_("nothing but pings for {n} seconds, at no table: the connection is closed"),
            {"n": 1},
        )
        assert isinstance(await sitting.request(Ping()), Pong)  # (it only pinged too, seated)
        await sitting.close()


# -- tables nobody comes to -----------------------------------------------------------------
async def test_a_waiting_table_with_no_person_at_it_closes_after_the_grace():
    limits = Limits(waiting_grace=0.2)
    async with serving(limits) as server:
        core = server.core
        ana = await ServerClient.connect(server.path)  # type: ignore[attr-defined]
        two = [SeatSpec(), SeatSpec()]
        kept = (await ana.request(OpenTable(game="generala", seats=two, sit=0))).table.id  # type: ignore[union-attr]  # an Opened
        unseated = (await ana.request(OpenTable(game="generala", seats=two, sit=None))).table.id  # type: ignore[union-attr]
        bruno = await ServerClient.connect(server.path)  # type: ignore[attr-defined]
        left = (await bruno.request(OpenTable(game="generala", seats=two, sit=0))).table.id  # type: ignore[union-attr]
        await ana.request(Watch(table=unseated))  # (a watcher is no person at the table)
        await bruno.close()  # (a tab closed: the seat is free again, nobody at the table)
        await until(lambda: unseated not in core.tables and left not in core.tables, 5)
        assert kept in core.tables and core.tables[kept].status == "waiting"
        closing = [
            message.body
            for message in [ana.inbox.get_nowait() for _ in range(ana.inbox.qsize())]
            if isinstance(message, TableEvent) and message.table == unseated
        ][-1]
        assert isinstance(closing, TableClosed)
        assert closing.words.text() == Text(
            N_("nobody sat at this table for {n} seconds: it is closed"), {"n": 1}
        )
        assert isinstance(await ana.request(Ping()), Pong)
        await ana.close()


# -- invite codes and secrets ---------------------------------------------------------------
async def test_wrong_invite_codes_are_slowed_per_person_and_per_table_and_logged(caplog):
    limits = Limits(free_failures=5, free_failures_per_table=20)
    caplog.set_level(logging.INFO, "cubilete.server")
    async with serving(limits, tcp=True, clock=lambda: 1000.0) as server:  # (time stands still)
        host = await ServerClient.connect(server.path)  # type: ignore[attr-defined]
        opened = await host.request(
            OpenTable(game="generala", seats=[SeatSpec(), SeatSpec()], sit=0, private=True)
        )
        assert isinstance(opened, Opened) and opened.code is not None
        table, code = opened.table.id, opened.code
        wrong = "A" * 6 if code != "A" * 6 else "B" * 6

        async def guesses(client: ServerClient, *codes: str) -> list[str]:
            found = []
            for one in codes:
                try:
                    await client.request(Watch(table=table, code=one))
                    found.append("in")
                except ServerError as error:
                    assert error.error is not None
                    found.append(error.error.code)
            return found

        async def front_end(user: str) -> ServerClient:
            return await ServerClient.connect_tcp(*server.tcp, secret=SECRET, user=user)  # type: ignore[attr-defined]

        carla = await front_end("carla")
        assert await guesses(carla, *[wrong] * 6) == ["private"] * 6  # five free, one more
        assert await guesses(carla, wrong, code) == ["too_fast", "too_fast"]  # even the right one
        lines = [r.getMessage() for r in caplog.records if "wrong invite code" in r.getMessage()]
        assert lines == [
            f"table {table}: a wrong invite code from user:carla (1 in a row; 1 for the table)"
        ]
        # the table: 20 wrong codes from anyone (and one more), then everyone waits
        for name in ("dora", "eva", "fede"):
            assert await guesses(await front_end(name), *[wrong] * 5) == ["private"] * 5
        assert await guesses(await front_end("gus"), code) == ["too_fast"]
        with pytest.raises(ServerError) as slowed:
            await (await front_end("hugo")).request(Join(table=table, code=code))
        assert refusal(slowed) == (
            "too_fast",
            Text(N_("too many wrong invite codes: try again in {n} seconds"), {"n": 1}),
        )


async def test_wrong_secrets_are_logged_once_a_minute_per_address_and_slowed(caplog):
    limits = Limits(free_failures=5)
    caplog.set_level(logging.INFO, "cubilete.server")
    LIMITED._windows.clear()  # (the log's minute starts with this test)
    async with serving(limits, tcp=True, clock=lambda: 1000.0) as server:
        host, port = server.tcp  # type: ignore[attr-defined]
        for _ in range(6):  # five free, one more
            with pytest.raises(ServerError) as wrong:
                await ServerClient.connect_tcp(host, port, secret="x" * 20, user="ana")
            assert refusal(wrong)[0] == "auth"
        with pytest.raises(ServerError) as slowed:
            await ServerClient.connect_tcp(host, port, secret=SECRET, user="ana")
        assert refusal(slowed) == (
            "auth",
            Text(
                N_("too many wrong secrets from your address: try again in {n} seconds"),
                {"n": 1},
            ),
        )
        lines = [r.getMessage() for r in caplog.records if "wrong server secret" in r.getMessage()]
        assert len(lines) == 1 and lines[0].startswith("127.0.0.1:")
        assert lines[0].endswith(" gave a wrong server secret (1 in a row)")
        # another address is not slowed
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "secret": SECRET, "user": "ana"}
        (welcome,) = await said_from("127.0.0.2", server, hello)
        assert welcome["type"] == "welcome"


async def test_the_guests_of_one_address_share_a_limit_of_tables():
    limits = Limits(guest_tables_per_address=3)
    async with serving(limits, tcp=True) as server:
        host, port = server.tcp  # type: ignore[attr-defined]
        seats = [SeatSpec(), SeatSpec()]
        for n in range(3):
            guest = await ServerClient.connect_tcp(host, port, secret=SECRET, guest=f"Zoe {n}")
            assert isinstance(await guest.request(OpenTable(game="generala", seats=seats)), Opened)
        guest = await ServerClient.connect_tcp(host, port, secret=SECRET, guest="Zoe 4")
        with pytest.raises(ServerError) as refused:
            await guest.request(OpenTable(game="generala", seats=seats))
        assert refusal(refused) == (
            "full",
            Text(
                N_("the guests who play from where you do have {n} tables open: close one"),
                {"n": 3},
            ),
        )
        # a guest of another front end (another address) opens theirs
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "secret": SECRET, "guest": "Ana"}
        opening = {"type": "open_table", "ref": 2, "game": "generala", "seats": [{}, {}]}
        welcome, opened = await said_from("127.0.0.2", server, hello, opening)
        assert (welcome["type"], opened["type"]) == ("welcome", "opened")


# -- accept() out of descriptors ------------------------------------------------------------
CONNECTS_WHEN_TOLD = """
import socket, sys
sys.stdin.buffer.read(1)
held = []
for _ in range(3):
    one = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    one.connect(sys.argv[1])
    held.append(one)
sys.stdout.write("connected\\n"); sys.stdout.flush()
sys.stdin.buffer.read(1)
"""


async def test_accept_out_of_descriptors_is_one_log_line_a_minute_and_no_traceback(caplog):
    """The process runs out of descriptors while clients knock: asyncio's accept fails every
    second. One line is logged (no traceback), the others counted; once descriptors are free
    again the waiting clients are taken in."""
    caplog.set_level(logging.INFO)
    LIMITED._windows.clear()
    async with serving(Limits()) as server:
        quiet_accept_errors(asyncio.get_running_loop())
        knocker = subprocess.Popen(
            [sys.executable, "-c", CONNECTS_WHEN_TOLD, str(server.path)],  # type: ignore[attr-defined]
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        held: list[int] = []
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + 8, hard))
            with contextlib.suppress(OSError):
                while True:
                    held.append(os.open("/dev/null", os.O_RDONLY))
            assert knocker.stdin is not None and knocker.stdout is not None
            knocker.stdin.write(b"g")
            knocker.stdin.flush()
            await until(lambda: "accept" in LIMITED._windows, 15)
            await until(lambda: LIMITED._windows["accept"].left_out >= 2, 15)  # (a try a second)
        finally:
            for fd in held:
                os.close(fd)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        await asyncio.to_thread(knocker.stdout.readline)  # (its three connections went in)
        await until(lambda: len(server.connections) >= 3)
        knocker.stdin.write(b"q")
        knocker.stdin.close()
        await asyncio.to_thread(knocker.wait, 10)
    accepts = [r for r in caplog.records if "accept" in r.getMessage()]
    assert [r.getMessage() for r in accepts] == [
        "a connection cannot be accepted: [Errno 24] Too many open files"
    ]
    assert all(r.exc_info is None for r in caplog.records)


# -- the parts ------------------------------------------------------------------------------
def test_a_peers_value_is_shown_on_one_line_with_its_controls_visible_and_cut():
    assert shown("ana") == "ana"
    assert shown("a\nb\r\x1b[31m\x07\u202e\u2028z\\") == "a\\nb\\r\\x1b[31m\\x07\\u202e\\u2028z\\\\"
    assert shown("Zoë O'Ñandú 王") == "Zoë O'Ñandú 王"
    assert shown("x" * 200) == "x" * 80 + "…"
    assert shown(None) == "None"


def test_the_log_limiter_writes_a_line_a_minute_per_key_and_then_the_count(caplog):
    now = [0.0]
    limiter = LogLimiter(logging.getLogger("t"), period=60, burst=1, clock=lambda: now[0])
    caplog.set_level(logging.INFO, "t")
    for _ in range(5):
        limiter.warning("a", "out of %s", "files")
    limiter.warning("b", "another")
    now[0] = 61
    limiter.warning("a", "out of %s", "files")
    assert [r.getMessage() for r in caplog.records] == [
        "out of files",
        "another",
        "out of files (and 4 more like it in the last 60 seconds)",
    ]


def test_a_backoff_waits_longer_after_each_failure_past_the_free_ones():
    now = [0.0]
    backoff = Backoff(free=2, most=8, forget=100, clock=lambda: now[0])
    waits = []
    for _ in range(7):
        backoff.failed("k")
        waits.append(backoff.wait("k"))
    assert waits == [0, 0, 1, 2, 4, 8, 8]
    now[0] = 7.5
    assert backoff.wait("k") == 0.5
    backoff.succeeded("k")
    assert backoff.wait("k") == 0


def test_the_connection_caps_stay_under_the_descriptor_limit():
    assert connection_cap(Limits(), 1024).max_connections == 768
    assert connection_cap(Limits(), 192).max_connections == 64
    many = connection_cap(Limits(), 1 << 20)
    assert many.max_connections == Limits().max_connections
    assert many.connections_per_identity == 64 and many.connections_per_front_end == 256
    few = connection_cap(Limits(), 192)
    assert (few.connections_per_identity, few.connections_per_front_end) == (16, 32)


# -- what reaches the log ---------------------------------------------------------------------
SERVER_DIR = Path(__file__).resolve().parents[2] / "app" / "server"
LEVELS = {"debug", "info", "warning", "error", "exception", "critical"}
SERVERS_OWN = {
    "core.py": {
        "table.id": "a table's id: the server makes it",
        "old.id": "the same",
        "kept.table_id": "a table kept in the server's own database",
        "len(record.events)": "a number",
        "len(seats)": "a number",
        "taken": "a number",
        "index": "a seat's number",
        "grace": "a number of seconds",
        "mine": "a count",
        "theirs": "a count",
        "error": "a records error (RecordError, InvalidOptions, IllegalAction of an undo)",
    },
    "hosting.py": {
        "table_id": "a table's id, from the server's own database",
        "self.record_id": "a record's id, the server's",
        "event.text": "a bot's own error",
        "error": "an error of the server's database or its records",
    },
    "relay.py": {
        "relay.address": "another server's address, from the shared database",
        "error": "the database's error, listing the other servers",
    },
    "transport.py": {
        "rebuilt": "a number",
        "failures": "a count",
        "error": "the database's error, announcing this server",
        "limits.max_connections": "a number",
        "limits.connections_per_identity": "a number",
        "limits.connections_per_front_end": "a number",
    },
}
"""The values in the server's log lines that no peer chose, and why; every other value goes
through `logsafe.shown`."""


def log_calls(tree: ast.Module) -> list[tuple[ast.Call, list[ast.expr]]]:
    """The module's logging calls (on its `logging.getLogger(...)` and its `LogLimiter`s), each
    with the values that fill its message."""
    loggers, limiters = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            made = ast.unparse(node.value.func)
            names = {target.id for target in node.targets if isinstance(target, ast.Name)}
            if made == "logging.getLogger":
                loggers |= names
            elif made == "LogLimiter":
                limiters |= names
    calls = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        receiver = node.func.value
        if not isinstance(receiver, ast.Name) or node.func.attr not in LEVELS | {"log"}:
            continue
        if receiver.id in loggers:
            skip = 2 if node.func.attr == "log" else 1  # (the level, the message)
        elif receiver.id in limiters:
            skip = 3 if node.func.attr == "log" else 2  # (the key, the level, the message)
        else:
            continue
        calls.append((node, node.args[skip:]))
    return calls


def test_every_value_a_peer_chose_reaches_the_log_through_one_escaping_function():
    unescaped, used = [], set()
    counted = 0
    for path in sorted(SERVER_DIR.glob("*.py")):
        own = SERVERS_OWN.get(path.name, {})
        for call, values in log_calls(ast.parse(path.read_text(encoding="utf-8"))):
            counted += 1
            assert not any(isinstance(one, ast.Starred) for one in values), ast.unparse(call)
            for value in values:
                text = ast.unparse(value)
                if isinstance(value, ast.Call) and ast.unparse(value.func) == "shown":
                    continue
                if isinstance(value, ast.Constant) or text in own:
                    used.add((path.name, text))
                    continue
                unescaped.append(f"{path.name}:{call.lineno}: {text}")
    assert counted > 40  # (the scan finds the calls)
    assert unescaped == []
    listed = {(name, text) for name, texts in SERVERS_OWN.items() for text in texts}
    assert listed - used == set()  # (no entry left over from code that changed)


async def test_the_app_closed_for_only_pinging_at_no_table_connects_again_only_when_needed():
    """The app's connection, idle in the lobby, is closed by the idle limit: it is not made
    again at once (and no 'connected again' is told); one at a table stays."""
    async with serving(Limits(idle_limit=0.3)) as server:
        address = ServerAddress(path=server.path)  # type: ignore[attr-defined]
        told: list[object] = []
        idle = await RemoteServer.connect(address)
        idle.on_lost = idle.on_reconnected = told.append  # type: ignore[assignment]
        seated = await RemoteServer.connect(address)
        await seated.client.request(OpenTable(game="generala", seats=[SeatSpec()] * 2, sit=0))
        await until(lambda: idle.lost is not None)
        assert idle.lost == Text(
            N_("nothing but pings for {n} seconds, at no table: the connection is closed"),
            {"n": 1},
        )
        assert (idle.reconnects, told) == (0, [])
        await until(lambda: idle._pinger.done())  # (nothing left running for it)
        assert len(server.connections) == 1  # (the seated one)
        assert isinstance(await seated.client.request(Ping()), Pong)
        await seated.close()


# -- the list of tables ----------------------------------------------------------------------
async def test_the_list_of_tables_shows_each_change():
    async with serving(Limits()) as server:
        ana = await ServerClient.connect(server.path)  # type: ignore[attr-defined]
        bruno = await ServerClient.connect(server.path)  # type: ignore[attr-defined]
        two = [SeatSpec(), SeatSpec()]
        table = (await ana.request(OpenTable(game="generala", seats=two, sit=0))).table.id  # type: ignore[union-attr]

        async def entry() -> tuple[int, list[str | None], str]:
            (listed,) = (await bruno.request(ListTables())).tables  # type: ignore[union-attr]
            return listed.spectators, [seat.name for seat in listed.seats], listed.status

        assert await entry() == (0, ["root", None], "waiting")
        await bruno.request(Watch(table=table))
        assert await entry() == (1, ["root", None], "waiting")
        await ana.close()
        await until(lambda: server.core.tables[table].seats[0].name is None)
        assert await entry() == (1, [None, None], "waiting")
