"""Which Host names and websocket origins `cubilete web` serves, who a client is, and the limits
each client gets (app/web_guard.py, without a server; the real server is tested in
test_web_hardening.py)."""

from __future__ import annotations

import pytest

from app.web_guard import Gate, Limits, client_of_address, origin, split_host


# -- Host ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "host",
    ["127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000", "127.0.0.2", "localhost."],
)
def test_a_loopback_server_answers_to_its_local_names(host):
    assert Gate("127.0.0.1", machine_name="box").host_allowed(host)


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:8000",
        "127.0.0.1.nip.io:8000",  # a name that resolves to loopback is still someone's name
        "box:8000",  # the machine's name only when listening on every interface
        "192.168.1.5:8000",
        "",
        None,
        "127.0.0.1@evil.example",
        "evil.example/127.0.0.1",
        "local host",
    ],
)
def test_a_loopback_server_refuses_every_other_name(host):
    assert not Gate("127.0.0.1", machine_name="box").host_allowed(host)


def test_the_public_url_and_the_allowed_names_are_served():
    gate = Gate(
        "127.0.0.1",
        public_url="https://Games.Example.org/cubilete",
        allowed_hosts=("play.lan",),
        machine_name="box",
    )
    assert gate.host_allowed("games.example.org")
    assert gate.host_allowed("games.example.org:8443")  # the proxy may keep or drop the port
    assert gate.host_allowed("PLAY.LAN:8000")
    assert not gate.host_allowed("example.org")
    assert not gate.host_allowed("evil.games.example.org")


def test_a_server_on_every_interface_answers_to_addresses_and_its_own_name():
    gate = Gate("0.0.0.0", machine_name="box")
    assert gate.host_allowed("192.168.1.5:8000")
    assert gate.host_allowed("[fe80::1]:8000")
    assert gate.host_allowed("box:8000")
    assert gate.host_allowed("localhost:8000")
    assert not gate.host_allowed("evil.example:8000")


def test_a_server_on_one_address_answers_to_that_address():
    gate = Gate("192.168.1.5", machine_name="box")
    assert gate.host_allowed("192.168.1.5:8000")
    assert not gate.host_allowed("192.168.1.6:8000")
    assert not gate.host_allowed("localhost:8000")


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        ("Example.org:80", ("example.org", 80)),
        ("[::1]:8000", ("::1", 8000)),
        ("example.org.", ("example.org", None)),
        ("a b", None),
        ("x:99999", None),
    ],
)
def test_a_host_header_is_read_as_a_name_and_a_port(value, parsed):
    assert split_host(value) == parsed


# -- Origin ----------------------------------------------------------------------------------
PAGE = "http://127.0.0.1:8000"


@pytest.mark.parametrize("theirs", [PAGE, "http://127.0.0.1:8000/", "HTTP://127.0.0.1:8000"])
def test_the_page_itself_may_open_a_game(theirs):
    assert Gate("127.0.0.1").origin_allowed(theirs, PAGE)


@pytest.mark.parametrize(
    "theirs",
    [
        "http://evil.example",
        "http://127.0.0.1:8001",  # another program on this machine is another origin
        "https://127.0.0.1:8000",
        "http://localhost:8000",  # a page at localhost when this one was served at 127.0.0.1
        "null",  # a sandboxed frame or a file
        "",
        "file://",
    ],
)
def test_any_other_page_may_not(theirs):
    assert not Gate("127.0.0.1").origin_allowed(theirs, PAGE)


def test_the_public_url_may_open_a_game():
    gate = Gate("127.0.0.1", public_url="https://games.example.org/cubilete")
    assert gate.origin_allowed("https://games.example.org", PAGE)
    assert gate.origin_allowed("https://games.example.org:443", PAGE)
    assert not gate.origin_allowed("http://games.example.org", PAGE)


def test_a_client_that_is_not_a_browser_page_sends_no_origin():
    assert Gate("127.0.0.1").origin_allowed(None, PAGE)


def test_an_origin_is_its_scheme_host_and_port():
    assert origin("https://a.example/x?y") == ("https", "a.example", 443)
    assert origin("http://[::1]:8000") == ("http", "::1", 8000)
    assert origin("null") is None


# -- clients and limits ----------------------------------------------------------------------
def test_an_ipv6_client_counts_by_its_64():
    assert client_of_address("2001:db8:1:2::5") == client_of_address("2001:db8:1:2:ffff::9")
    assert client_of_address("2001:db8:1:2::5") != client_of_address("2001:db8:1:3::5")
    assert client_of_address("::ffff:10.0.0.1") == "10.0.0.1"
    assert client_of_address("10.0.0.1") == "10.0.0.1"


def test_a_client_has_its_share_of_the_tables():
    limits = Limits(per_client=2, per_minute=10)
    assert not limits.too_many("a", ["a", "b", "b"])
    assert limits.too_many("a", ["a", "b", "a"])
    assert not limits.too_many("c", ["a", "a", "b", "b"])


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_starts_are_allowed_in_a_burst_then_at_the_rate():
    clock = Clock()
    limits = Limits(per_client=5, per_minute=6, clock=clock)
    for _ in range(6):
        assert limits.wait("a") == 0
        limits.take("a")
    assert limits.wait("a") == pytest.approx(10.0)  # 6 a minute: one every 10 s
    assert limits.wait("b") == 0  # another client is not held back
    clock.now += 5
    assert limits.wait("a") == pytest.approx(5.0)
    clock.now += 5
    assert limits.wait("a") == 0
    limits.take("a")
    assert limits.wait("a") == pytest.approx(10.0)
    clock.now += 3600
    for _ in range(6):  # a long pause refills the bucket, never beyond the burst
        assert limits.wait("a") == 0
        limits.take("a")
    assert limits.wait("a") > 0


def test_the_limits_forget_clients_who_have_waited_long_enough():
    clock = Clock()
    limits = Limits(per_client=5, per_minute=6, clock=clock)
    limits.MAX_CLIENTS_KEPT = 3
    for name in "abc":
        limits.take(name)
    clock.now += 60
    limits.take("d")
    assert set(limits.buckets) == {"d"}
