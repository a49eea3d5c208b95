"""What a hostile or broken client sends — lines that are not messages, messages out of
shape, lines too long, floods, silence — is refused, and the server goes on serving everyone
else. Hypothesis writes the input; a real server process reads it."""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serverhelpers import LineClient, server_process

from app.server.limits import Limits
from app.server.protocol import MAX_CHAT_CHARS, MAX_CLIENT_BYTES, PROTOCOL_VERSION

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SO_PEERCRED is Linux's")

REFUSALS = {"malformed", "too_long", "hello_first"}


@pytest.fixture(scope="module")
def server():
    with server_process() as running:
        yield running
    assert running.process.returncode == 0, running.log()


@pytest.fixture(scope="module")
def bystander(server):
    """A well-behaved client connected all along: it must be served after every attack."""
    with LineClient.unix(server.socket) as client:
        assert client.hello()["type"] == "welcome"
        yield client


def still_serves(server, bystander: LineClient, ref: int) -> None:
    """The client connected all along is answered, and so is a new one. (Call it once per
    test, or per example with `bystander=None`: the bystander keeps to the rate limit.)"""
    if bystander is not None:
        bystander.send(type="ping", ref=ref)
        assert bystander.read() == {"type": "pong", "ref": ref}
    with LineClient.unix(server.socket) as newcomer:
        assert newcomer.hello()["type"] == "welcome"
        newcomer.send(type="ping", ref=ref)
        assert newcomer.read() == {"type": "pong", "ref": ref}


def refused_then_served(server, line: bytes, after_hello: bool) -> dict:
    """Send `line` (after a hello, or as the first line): the answer must be a refusal that
    leaves the connection open, and the connection must still work."""
    with LineClient.unix(server.socket) as client:
        if after_hello:
            assert client.hello()["type"] == "welcome"
        client.send_raw(line + b"\n")
        answer = client.read()
        assert answer is not None and answer["type"] == "error", answer
        assert not answer["fatal"]
        if after_hello:
            client.send(type="ping", ref=7)
            assert client.read() == {"type": "pong", "ref": 7}
        else:
            assert client.hello()["type"] == "welcome"
        return answer


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
TYPES = [
    "hello",
    "list_tables",
    "open_table",
    "join",
    "watch",
    "act",
    "chat",
    "leave",
    "close_table",
    "hand_to_bot",
    "propose_undo",
    "answer_undo",
    "rematch",
    "ping",
    "nonsense",
]
FIELDS = [
    *("ref", "table", "seat", "code", "token", "text", "action", "game", "seats", "options"),
    "accept",
]
almost_messages = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={name: json_values for name in FIELDS},
)
"""Objects shaped like messages, with any values: many are refused, some are fine."""

slow = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@slow
@given(data=st.binary(max_size=300).filter(lambda b: b"\n" not in b))
def test_random_bytes_are_refused_and_the_server_serves_on(server, bystander, data):
    try:
        json.loads(data)
    except ValueError:
        pass
    else:
        return  # (the odd valid JSON: the next tests cover those)
    assert refused_then_served(server, data, after_hello=True)["code"] == "malformed"
    still_serves(server, None, 1)


@slow
@given(value=json_values)
def test_json_that_is_no_message_is_refused(server, bystander, value):
    line = json.dumps(value).encode()
    assert refused_then_served(server, line, after_hello=True)["code"] in REFUSALS
    still_serves(server, None, 2)


@slow
@given(message=almost_messages)
def test_anything_shaped_like_a_message_is_answered_and_never_breaks_the_server(
    server, bystander, message
):
    """A message with any values gets an answer (its result, or a refusal with a template to
    render) and the connection stays usable; a hello after the hello is refused too."""
    with LineClient.unix(server.socket) as client:
        assert client.hello()["type"] == "welcome"
        client.send(**{**message, "ref": 99})
        answer = client.read()
        assert answer is not None, "the server hung up on a message"
        assert answer["type"] != "welcome"
        if answer["type"] == "error":
            assert isinstance(answer["words"]["template"], str | list)
            assert not answer["fatal"]
        client.send(type="ping", ref=100)
        while (reply := client.read()) is not None and reply.get("ref") != 100:
            pass  # (the events of a table opened by the message)
        assert reply == {"type": "pong", "ref": 100}
        client.send(type="list_tables", ref=101)
        while (tables := client.read()) is not None and tables.get("ref") != 101:
            pass  # (a table of bots opened by the message plays on)
        assert tables is not None and tables["type"] == "tables"
        for table in tables["tables"]:  # leave nothing behind for the next example
            client.send(type="close_table", table=table["id"], ref=102)
            while (reply := client.read()) is not None and reply.get("ref") != 102:
                pass
    still_serves(server, None, 3)


@slow
@given(message=almost_messages)
def test_before_the_hello_only_a_hello_is_heard(server, bystander, message):
    if message["type"] == "hello":
        return
    answer = refused_then_served(server, json.dumps(message).encode(), after_hello=False)
    assert answer["code"] in {"hello_first", "malformed"}
    still_serves(server, None, 4)


def test_a_line_too_long_is_refused_whole_and_the_next_one_is_read(server, bystander):
    for size in (MAX_CLIENT_BYTES, MAX_CLIENT_BYTES * 4, 3 * 1024 * 1024):
        padding = "x" * size
        line = json.dumps({"type": "chat", "table": "abc", "text": padding}).encode()
        assert refused_then_served(server, line, after_hello=True)["code"] == "too_long"
    still_serves(server, bystander, 5)


def test_a_request_refused_as_malformed_or_too_long_is_answered_with_its_ref(server, bystander):
    """A chat line one character too long, a 9,000-byte line with its ref first or last: each
    refusal carries the ref the request gave, so that the client knows which was refused."""
    too_long_chat = {"type": "chat", "table": "abc", "text": "x" * (MAX_CHAT_CHARS + 1)}
    padding = "y" * 9_000
    with LineClient.unix(server.socket) as client:
        assert client.hello()["type"] == "welcome"
        client.send(ref=11, **too_long_chat)
        assert client.read() | {"words": None} == {
            "type": "error", "ref": 11, "code": "malformed", "words": None, "fatal": False
        }  # fmt: skip
        client.send(ref=12, type="chat", table="abc", text=padding)
        answer = client.read()
        assert (answer["code"], answer["ref"]) == ("too_long", 12)
        client.send(type="chat", table="abc", text=padding, ref=13)  # (the ref written last)
        answer = client.read()
        assert (answer["code"], answer["ref"]) == ("too_long", 13)
        client.send_raw(b'{"type": "chat", "text": "' + b"z" * 9_000 + b'"}\n')  # no ref
        answer = client.read()
        assert (answer["code"], answer["ref"]) == ("too_long", None)
    still_serves(server, bystander, 8)


def test_a_deeply_nested_message_is_refused(server, bystander):
    depth = MAX_CLIENT_BYTES // 2 - 10
    line = b"[" * depth + b"]" * depth
    assert refused_then_served(server, line, after_hello=True)["code"] == "malformed"
    line = b'{"type":"hello","version":' + b"[" * 3000 + b"]" * 3000 + b"}"
    assert refused_then_served(server, line, after_hello=False)["code"] == "malformed"
    still_serves(server, bystander, 6)


def test_a_flood_is_refused_then_cut_off_while_others_are_served(server, bystander):
    limits = Limits()
    flood = 400
    with LineClient.unix(server.socket) as flooder:
        assert flooder.hello()["type"] == "welcome"
        flooder.send_raw(b"".join(b'{"type":"ping","ref":%d}\n' % n for n in range(flood)))
        answers = []
        while (message := flooder.read()) is not None:
            answers.append(message)
    pongs = [a for a in answers if a["type"] == "pong"]
    refusals = [a["code"] for a in answers if a["type"] == "error"]
    assert limits.burst - 1 <= len(pongs) < limits.burst + 10  # (the hello took one; a few refill)
    assert refusals[:-1] == ["too_fast"] * (len(refusals) - 1)
    assert refusals[-1] == "too_many_errors" and answers[-1]["fatal"]
    assert len(refusals) == limits.strikes + 1
    still_serves(server, bystander, 7)


def test_refusals_in_a_row_past_the_strikes_close_the_connection(server):
    """Malformed lines, each refused, until the strikes run out: then the last refusal is
    fatal and the server hangs up. (The forgiving of strikes over time is not tested here.)"""
    limits = Limits()
    with LineClient.unix(server.socket) as client:
        assert client.hello()["type"] == "welcome"
        for _ in range(limits.strikes):
            client.send_raw(b"not json\n")
            assert client.read()["code"] == "malformed"
        client.send_raw(b"not json\n")
        last = client.read()
        assert last is not None and (last["code"], last["fatal"]) == ("too_many_errors", True)
        assert client.closed()


def test_a_silent_connection_is_closed_after_the_idle_timeout():
    with server_process("--idle-timeout", "0.5") as running:
        with LineClient.unix(running.socket) as client:
            assert client.hello()["type"] == "welcome"
            answer = client.read()  # nothing sent: the server speaks first, then hangs up
            assert answer is not None and (answer["code"], answer["fatal"]) == ("idle", True)
            assert client.closed()
        with LineClient.unix(running.socket) as other:
            assert other.hello()["type"] == "welcome"


def test_the_version_refusal_comes_before_any_other_check(server):
    with LineClient.unix(server.socket) as client:
        client.send(type="hello", version=PROTOCOL_VERSION + 7, unknown_field=[1, 2])
        answer = client.read()
        assert answer is not None and (answer["code"], answer["fatal"]) == ("version", True)
        assert client.closed()


def test_the_bystander_was_served_after_every_property(server, bystander):
    still_serves(server, bystander, 9)
