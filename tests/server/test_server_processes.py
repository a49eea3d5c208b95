"""`cubilete server` as a real process, and several clients at once: the hello and its
version, who a connection is, tables opened, joined, watched and listed, chat, and every
refusal a stranger meets — each changing nothing."""

from __future__ import annotations

import json
import os
import pwd
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from serverhelpers import ROOT, SECRET, LineClient, answers, server_process, short_dir, stop

from app.i18n import render
from app.server.client import ServerClient, ServerError
from app.server.identity import NAME_RULE
from app.server.protocol import (
    MAX_NAME_CHARS,
    PROTOCOL_VERSION,
    Act,
    Chat,
    ChatLine,
    CloseTable,
    Done,
    Error,
    Join,
    Joined,
    Leave,
    Left,
    ListTables,
    Opened,
    OpenTable,
    Ping,
    Pong,
    Seated,
    SeatSpec,
    Spectators,
    TableClosed,
    TableEvent,
    Tables,
    Unseated,
    Watch,
)
from rules import Text

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SO_PEERCRED is Linux's")

ME = pwd.getpwuid(os.getuid()).pw_name
PEER_CLIENT = Path(__file__).with_name("peer_client.py")


@pytest.fixture
def server():
    with server_process(tcp=True) as running:
        yield running
    assert running.process.returncode == 0, running.log()
    assert not running.socket.exists()


async def person(server, name: str) -> ServerClient:
    """A person the web front end vouches for, over TCP with the shared secret."""
    assert server.tcp is not None
    return await ServerClient.connect_tcp(*server.tcp, secret=SECRET, user=name)


def generala_for(*kinds: str, private: bool = False, sit: int | None = 0) -> OpenTable:
    return OpenTable(
        game="generala",
        seats=[SeatSpec(kind=kind) for kind in kinds],  # type: ignore[arg-type]  # kinds the tests name
        private=private,
        sit=sit,
    )


async def sit(client: ServerClient, request):
    """Open, join or watch: the answer, once the table's history that follows it (events 1 to
    its `seq`, in order) has been read."""
    answer = await client.request(request)
    assert isinstance(answer, Opened | Joined), answer
    history = [await event(client) for _ in range(answer.seq)]
    assert [one.seq for one in history] == list(range(1, answer.seq + 1))
    return answer


async def refusal(client: ServerClient, request) -> Error:
    with pytest.raises(ServerError) as refused:
        await client.request(request)
    assert refused.value.error is not None
    return refused.value.error


async def event(client: ServerClient) -> TableEvent:
    message = await client.next_message()
    assert isinstance(message, TableEvent), message
    return message


def tables_json(server, *flags: str) -> list[dict]:
    result = subprocess.run(
        [sys.executable, "-m", "app", "tables", "--server", str(server.socket), "--json", *flags],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(result.stdout)


# -- hello ---------------------------------------------------------------------------------
async def test_the_unix_socket_knows_who_connects_by_their_unix_user(server):
    client = await ServerClient.connect(server.socket)
    assert client.welcome is not None
    assert client.welcome.user == ME
    assert client.welcome.identity == "unix"
    assert client.welcome.version == PROTOCOL_VERSION
    assert isinstance(await client.request(Ping()), Pong)
    await client.close()


async def test_a_client_of_another_protocol_version_is_told_so_and_let_go(server):
    with pytest.raises(ServerError) as refused:
        await ServerClient.connect(server.socket, version=PROTOCOL_VERSION + 1)
    error = refused.value.error
    assert error is not None and error.code == "version" and error.fatal
    assert f"protocol version {PROTOCOL_VERSION}, your client {PROTOCOL_VERSION + 1}" in str(
        refused.value
    )
    # a future hello with fields this server does not know gets the same clear answer
    with LineClient.unix(server.socket) as raw:
        raw.send(type="hello", version=PROTOCOL_VERSION + 1, compression="zstd")
        answer = raw.read()
        assert answer is not None and answer["code"] == "version"
        assert raw.closed()


async def test_on_the_unix_socket_nobody_can_claim_a_name(server):
    for claim in ({"user": "root"}, {"guest": "Ana"}, {"secret": SECRET}):
        with pytest.raises(ServerError) as refused:
            await ServerClient.connect(server.socket, **claim)
        assert refused.value.error is not None and refused.value.error.code == "auth"
    assert isinstance(await (await ServerClient.connect(server.socket)).request(Ping()), Pong)


async def test_tcp_needs_the_shared_secret(server):
    for secret in (None, "wrong-secret-wrong-secret", SECRET[:-1]):
        with pytest.raises(ServerError) as refused:
            await ServerClient.connect_tcp(*server.tcp, secret=secret, user="ana")
        assert refused.value.error is not None and refused.value.error.code == "auth"
    ana = await person(server, "ana")
    assert ana.welcome is not None and (ana.welcome.user, ana.welcome.identity) == ("ana", "user")
    guest = await ServerClient.connect_tcp(*server.tcp, secret=SECRET, guest="  Zoé  ")
    assert guest.welcome is not None and (guest.welcome.user, guest.welcome.identity) == (
        "Zoé",
        "guest",
    )


async def test_a_name_is_what_its_rule_says_and_a_newline_is_refused(server):
    """The rule a refused name is told names everything a name may hold: letters of any
    alphabet, digits, spaces and . - _ '. Such a name is taken as it is; a newline in a
    guest's or a bot's name is refused with that rule, not turned into a space."""
    rule = render(Text(NAME_RULE, {"most": MAX_NAME_CHARS}))
    assert rule == "a name has 1 to 24 characters: letters, digits, spaces and . - _ '"
    zoe = await ServerClient.connect_tcp(*server.tcp, secret=SECRET, guest="Zoë O'Ñandú-Bo_2.")
    assert zoe.welcome is not None and zoe.welcome.user == "Zoë O'Ñandú-Bo_2."
    for name in ("Ana\nroot", "Ana\tBo", "Ana!", "Ana\u202eoB"):
        with pytest.raises(ServerError) as refused:
            await ServerClient.connect_tcp(*server.tcp, secret=SECRET, guest=name)
        error = refused.value.error
        assert error is not None and error.code == "auth"
        assert render(error.words.text()) == rule
    ana = await person(server, "ana")
    bad_bot = OpenTable(game="generala", seats=[SeatSpec(), SeatSpec(kind="easy", name="Bo\nt")])
    error = await refusal(ana, bad_bot)
    assert (error.code, render(error.words.text())) == ("bad_setup", f"seat 2: {rule}")
    good_bot = OpenTable(game="generala", seats=[SeatSpec(), SeatSpec(kind="easy", name="Ñandú")])
    opened = await sit(ana, good_bot)
    assert isinstance(opened, Opened) and opened.table.seats[1].name == "Ñandú"


async def test_only_hello_comes_first(server):
    with LineClient.unix(server.socket) as raw:
        raw.send(type="list_tables", ref=4)
        answer = raw.read()
        assert answer is not None and (answer["code"], answer["ref"]) == ("hello_first", 4)
        assert raw.hello()["type"] == "welcome"


# -- tables ----------------------------------------------------------------------------------
async def test_people_open_join_watch_and_chat_and_everyone_sees_the_same_numbered_events(
    server,
):
    ana, bruno, carla = [await person(server, name) for name in ("ana", "bruno", "carla")]
    opened = await sit(ana, generala_for("human", "human", "medium", "human"))
    assert isinstance(opened, Opened)
    table = opened.table.id
    assert (opened.seat, opened.seq, opened.code) == (0, 1, None)
    assert [seat.name for seat in opened.table.seats] == ["ana", None, "Bot 3", None]

    joined = await sit(bruno, Join(table=table))
    assert isinstance(joined, Joined) and joined.seat == 1 and joined.token
    assert (await event(ana)).body == Seated(seat=1, name="bruno")

    watching = await sit(carla, Watch(table=table))
    assert isinstance(watching, Joined) and watching.seat is None
    for player in (ana, bruno):
        seen = await event(player)
        assert (seen.seq, seen.body) == (3, Spectators(count=1))

    assert isinstance(await bruno.request(Chat(table=table, text=" ¡Suerte! ")), Done)
    for everyone in (ana, bruno, carla):
        seen = await event(everyone)
        assert (seen.seq, seen.body) == (4, ChatLine(seat=1, name="bruno", text="¡Suerte!"))
    assert isinstance(await carla.request(Chat(table=table, text="[b]hola[/b]")), Done)
    for everyone in (ana, bruno, carla):
        seen = await event(everyone)
        assert (seen.seq, seen.body) == (5, ChatLine(seat=None, name="carla", text="[b]hola[/b]"))

    listed = await carla.request(ListTables())
    assert isinstance(listed, Tables)
    (entry,) = listed.tables
    assert (entry.status, entry.spectators, entry.events, entry.host) == ("waiting", 1, 0, "ana")

    (data,) = tables_json(server)
    assert data == {
        "id": table,
        "game": "generala",
        "host": "ana",
        "private": False,
        "seats": [
            {"name": "ana", "kind": "human", "connected": True},
            {"name": "bruno", "kind": "human", "connected": True},
            {"name": "Bot 3", "kind": "medium", "connected": True},
            {"name": None, "kind": "human", "connected": False},
        ],
        "status": "waiting",
        "spectators": 1,
        "events": 0,
        "options": {},
    }

    assert isinstance(await bruno.request(Leave(table=table)), Left)
    assert (await event(ana)).body == Unseated(seat=1)
    await carla.close()  # a closed connection leaves its tables
    assert (await event(ana)).body == Spectators(count=0)
    (data,) = tables_json(server)
    assert [seat["name"] for seat in data["seats"]] == ["ana", None, "Bot 3", None]
    assert data["spectators"] == 0


async def test_cubilete_tables_lists_them_for_people_too(server):
    ana = await person(server, "ana")
    await sit(ana, generala_for("human", "expert", private=True))
    result = subprocess.run(
        [sys.executable, "-m", "app", "tables", "--server", str(server.socket)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    (line,) = result.stdout.splitlines()
    assert "Generala  playing  opened by ana  seats: ana, Bot 2 (Expert bot)" in line
    assert line.endswith("(private)")


def test_cubilete_tables_without_a_server_says_so_in_one_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "app", "tables", "--server", str(tmp_path / "none.sock")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith("cubilete tables: no Cubilete server at ")
    assert len(result.stderr.splitlines()) == 1


async def test_only_a_seats_owner_acts_for_it(server):
    ana, bruno, carla = [await person(server, name) for name in ("ana", "bruno", "carla")]
    table = (await sit(ana, generala_for("human", "human", "human"))).table.id  # type: ignore[union-attr]  # an Opened
    await sit(bruno, Join(table=table))
    await sit(carla, Watch(table=table))
    roll = {"kind": "roll", "hold": []}
    error = await refusal(bruno, Act(table=table, seat=0, action=roll))
    assert error.code == "not_your_seat"
    assert error.words.template == "seat {seat} is not yours: only who sits there plays it"
    assert (await refusal(carla, Act(table=table, seat=1, action=roll))).code == "spectator"
    stranger = await person(server, "mallory")
    assert (await refusal(stranger, Act(table=table, seat=0, action=roll))).code == "not_your_seat"
    assert (await refusal(stranger, Act(table=table, seat=7, action=roll))).code == "not_your_seat"
    assert (await refusal(stranger, CloseTable(table=table))).code == "not_host"
    # the owner is let through to the game, which has not started (a seat is free)
    assert (await refusal(ana, Act(table=table, seat=0, action=roll))).code == "not_started"
    (data,) = tables_json(server)
    assert [seat["name"] for seat in data["seats"]] == ["ana", "bruno", None]


async def test_a_private_table_needs_its_invite_code(server):
    ana, bruno = await person(server, "ana"), await person(server, "bruno")
    opened = await sit(ana, generala_for("human", "human", private=True))
    assert isinstance(opened, Opened) and opened.code is not None and len(opened.code) == 6
    table = opened.table.id
    assert (await refusal(bruno, Join(table=table))).code == "private"
    assert (await refusal(bruno, Join(table=table, code="WRONG2"))).code == "private"
    assert (await refusal(bruno, Watch(table=table))).code == "private"
    joined = await sit(bruno, Join(table=table, code=opened.code.lower()))
    assert isinstance(joined, Joined) and joined.seat == 1


async def test_a_taken_seat_stays_taken_and_a_bots_seat_is_no_ones(server):
    ana, bruno, carla = [await person(server, name) for name in ("ana", "bruno", "carla")]
    table = (await sit(ana, generala_for("human", "easy", "human"))).table.id  # type: ignore[union-attr]  # an Opened
    assert (await refusal(bruno, Join(table=table, seat=0))).code == "seat_taken"
    assert (await refusal(bruno, Join(table=table, seat=1))).code == "seat_taken"
    assert (await sit(bruno, Join(table=table))).seat == 2  # type: ignore[union-attr]  # a Joined
    assert (await refusal(carla, Join(table=table))).code == "seat_taken"
    assert (await refusal(bruno, Join(table=table))).code == "already_at_table"


async def test_a_guest_gets_a_seat_back_only_with_its_token(server):
    ana = await person(server, "ana")
    table = (await sit(ana, generala_for("human", "human", "human"))).table.id  # type: ignore[union-attr]  # an Opened
    zoe = await ServerClient.connect_tcp(*server.tcp, secret=SECRET, guest="Zoé")
    joined = await sit(zoe, Join(table=table))
    assert isinstance(joined, Joined) and joined.token
    # another guest of the same name is someone else
    other = await ServerClient.connect_tcp(*server.tcp, secret=SECRET, guest="Zoé")
    assert (await refusal(other, Join(table=table, seat=1))).code == "seat_taken"
    assert (await refusal(other, Join(table=table, seat=1, token="x" * 24))).code == "seat_taken"
    # the same tab, on a second connection, shows the token: the seat is hers again
    again = await ServerClient.connect_tcp(*server.tcp, secret=SECRET, guest="Zoé")
    back = await sit(again, Join(table=table, seat=1, token=joined.token))
    assert isinstance(back, Joined) and (back.seat, back.token) == (1, joined.token)
    assert isinstance(await zoe.next_message(), Left)  # the old connection was let go of it


async def test_bad_setups_are_refused_with_the_reason(server):
    ana = await person(server, "ana")
    cases = [
        (
            OpenTable(game="poker", seats=[SeatSpec()]),
            "there is no game {game}: the games are {games}",
        ),
        (
            OpenTable(game="piratas", seats=[SeatSpec(), SeatSpec(), SeatSpec()]),
            "{game} takes {low} to {high} players",
        ),
        (
            OpenTable(game="piratas", seats=[SeatSpec(), SeatSpec()], options={"lives": 99}),
            "option {name}: {why}",
        ),
        (
            OpenTable(game="generala", seats=[SeatSpec(kind="easy")], sit=0),
            "seat {seat} is not a seat for a person",
        ),
    ]
    for request, template in cases:
        error = await refusal(ana, request)
        assert (error.code, error.words.template) == ("bad_setup", template)
    assert (await ana.request(ListTables())).tables == []  # type: ignore[union-attr]  # Tables


async def test_chat_is_one_line_of_plain_text_at_a_limited_rate(server):
    ana = await person(server, "ana")
    table = (await sit(ana, generala_for("human", "human"))).table.id  # type: ignore[union-attr]  # an Opened
    for text in ("two\nlines", "\x1b[31mred", "a\u202eb", "   "):
        assert (await refusal(ana, Chat(table=table, text=text))).code == "chat"
    for number in range(5):
        assert isinstance(await ana.request(Chat(table=table, text=f"line {number}")), Done)
    assert (await refusal(ana, Chat(table=table, text="one too many"))).code == "too_fast"
    seen = [await event(ana) for _ in range(5)]
    assert [e.seq for e in seen] == [2, 3, 4, 5, 6]
    stranger = await person(server, "mallory")
    assert (await refusal(stranger, Chat(table=table, text="hi"))).code == "not_at_table"


async def test_the_host_closes_the_table_and_everyone_at_it_is_told(server):
    ana, bruno = await person(server, "ana"), await person(server, "bruno")
    table = (await sit(ana, generala_for("human", "human", "human"))).table.id  # type: ignore[union-attr]  # an Opened
    await sit(bruno, Join(table=table))
    await event(ana)
    assert isinstance(await ana.request(CloseTable(table=table)), Done)
    for player in (ana, bruno):
        seen = await event(player)
        assert isinstance(seen.body, TableClosed)
        assert seen.body.words.params == {"name": "ana"}
    assert (await bruno.request(ListTables())).tables == []  # type: ignore[union-attr]  # Tables
    assert (await refusal(bruno, Join(table=table))).code == "no_table"


async def test_the_account_running_the_server_may_close_any_table(server):
    ana = await person(server, "ana")
    table = (await sit(ana, generala_for("human", "human"))).table.id  # type: ignore[union-attr]  # an Opened
    admin = await ServerClient.connect(server.socket)
    assert isinstance(await admin.request(CloseTable(table=table)), Done)
    assert isinstance((await event(ana)).body, TableClosed)


# -- other Unix users -----------------------------------------------------------------------
SYSTEM_PYTHON = Path("/usr/bin/python3")
"""An interpreter another user may run (this one may live in root's home)."""
needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or not SYSTEM_PYTHON.exists(),
    reason="runs a client as another Unix user, with the system's Python",
)


def as_user(user: str, socket_path: Path, requests: list[dict]) -> subprocess.CompletedProcess:
    """Run peer_client.py as `user` (a plain user: no capabilities left)."""
    account = pwd.getpwnam(user)
    return subprocess.run(
        [
            str(SYSTEM_PYTHON),
            str(PEER_CLIENT),
            str(socket_path),
            str(PROTOCOL_VERSION),
            json.dumps(requests),
        ],
        cwd="/",
        env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
        user=account.pw_uid,
        group=account.pw_gid,
        extra_groups=[],
        capture_output=True,
        text=True,
        timeout=30,
    )


def answered(result: subprocess.CompletedProcess) -> list[dict]:
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.fixture
def open_to_all():
    """A server whose socket every user of the machine may connect to (mode 666, in a
    folder they can enter)."""
    where = short_dir()
    where.chmod(0o755)
    with server_process("--socket-mode", "666", where=where) as running:
        assert stat.S_IMODE(running.socket.stat().st_mode) == 0o666
        yield running


@needs_root
async def test_another_unix_user_is_known_by_their_own_name_and_acts_for_no_one_else(open_to_all):
    me = await ServerClient.connect(open_to_all.socket)
    opened = await sit(me, generala_for("human", "human", private=True))
    assert isinstance(opened, Opened)
    table = opened.table.id
    roll = {"kind": "roll", "hold": []}
    welcome, *answers_ = answered(
        as_user(
            "nobody",
            open_to_all.socket,
            [
                {"type": "join", "table": table},
                {"type": "watch", "table": table},
                {"type": "act", "table": table, "seat": 0, "action": roll},
                {"type": "close_table", "table": table},
                {"type": "join", "table": table, "code": opened.code},
                {"type": "act", "table": table, "seat": 0, "action": roll},
            ],
        )
    )
    assert (welcome["user"], welcome["identity"]) == ("nobody", "unix")
    assert [answer.get("code", answer["type"]) for answer in answers_] == [
        "private",
        "private",
        "not_your_seat",
        "not_host",
        "joined",
        "not_your_seat",
    ]
    assert (await event(me)).body == Seated(seat=1, name="nobody")


@needs_root
async def test_on_the_socket_a_leaked_seat_token_does_not_give_another_user_the_seat(open_to_all):
    """The kernel says who is on the socket: the seat token of this test's user, shown by the
    Unix user nobody, neither opens the private table without its invite code nor takes the
    seat; with the code, nobody sits at the free seat as themself."""
    me = await ServerClient.connect(open_to_all.socket)
    opened = await sit(me, generala_for("human", "human", "human", private=True))
    assert isinstance(opened, Opened) and opened.token is not None
    table, token = opened.table.id, opened.token
    welcome, *answers_ = answered(
        as_user(
            "nobody",
            open_to_all.socket,
            [
                {"type": "join", "table": table, "token": token},
                {"type": "join", "table": table, "seat": 0, "token": token},
                {"type": "join", "table": table, "seat": 0, "token": token, "code": opened.code},
                {"type": "join", "table": table, "code": opened.code},
            ],
        )
    )
    assert (welcome["user"], welcome["identity"]) == ("nobody", "unix")
    assert [answer.get("code", answer["type"]) for answer in answers_] == [
        "private",
        "private",
        "seat_taken",
        "joined",
    ]
    assert answers_[-1]["seat"] == 1 and answers_[-1]["token"] != token
    assert (await event(me)).body == Seated(seat=1, name="nobody")
    assert (await event(me)).body == Unseated(seat=1)  # (nobody's client ended: seat free)


@needs_root
def test_a_socket_of_mode_600_lets_no_other_user_in():
    where = short_dir()
    where.chmod(0o755)
    with server_process(where=where) as running:
        assert stat.S_IMODE(running.socket.stat().st_mode) == 0o600
        result = as_user("nobody", running.socket, [])
        assert result.returncode != 0
        assert "PermissionError" in result.stderr


# -- the server process ---------------------------------------------------------------------
def test_a_second_server_on_the_same_socket_is_refused_and_the_first_serves_on():
    with server_process() as first:
        where = first.socket.parent / "second"
        where.mkdir()
        result = subprocess.run(
            [sys.executable, "-m", "app", "server", "--socket", str(first.socket)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert result.returncode == 1
        assert "a server is already listening on" in result.stderr
        assert answers(first.socket)
        with LineClient.unix(first.socket) as client:
            assert client.hello()["type"] == "welcome"


def test_without_a_data_dir_the_server_keeps_its_records_apart_from_the_users_own():
    """The account running `cubilete server` may play too: the shared tables' records go to
    the folder `server` of its data dir, never into its own records.db (its lobby would list
    them as its own unfinished games)."""
    home = short_dir() / "data"
    environment = {"CUBILETE_DATA_DIR": str(home)}
    with (
        server_process(data_dir=False, env=environment) as running,
        LineClient.unix(running.socket) as client,
    ):
        assert client.hello()["type"] == "welcome"
        bots = [{"kind": "easy"}, {"kind": "easy"}]
        client.send(type="open_table", ref=1, game="generala", seats=bots, sit=None)
        while (message := client.read()) is not None and message.get("ref") != 1:
            pass
        assert message is not None and message["type"] == "opened", message
    assert running.process.returncode == 0, running.log()
    kept = home / "server" / "records.db"
    assert kept.exists()
    assert stat.S_IMODE((home / "server").stat().st_mode) == 0o700
    assert not (home / "records.db").exists()


def test_a_socket_left_by_a_killed_server_is_replaced():
    where = short_dir()
    with server_process(where=where) as first:
        os.kill(first.pid, 9)
        first.process.wait(timeout=10)
        assert first.socket.exists() and not answers(first.socket)
    with server_process(where=where) as second, LineClient.unix(second.socket) as client:
        assert client.hello()["type"] == "welcome"


async def test_stopping_the_server_tells_every_client():
    with server_process() as running:
        client = await ServerClient.connect(running.socket)
        assert stop(running) == 0
        message = await client.next_message()
        assert isinstance(message, Error) and (message.code, message.fatal) == ("shutdown", True)
        await client.closed.wait()
    assert not running.socket.exists()
