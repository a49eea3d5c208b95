"""A client's list of servers (`--server A,B` or repeated): parsed in order, each once."""

from __future__ import annotations

from app.server.servers import server_list, tcp_address


def test_a_list_of_servers_keeps_its_order_and_names_each_once():
    assert server_list("a.example:7000, /run/cubilete/server.sock,,b:7001") == [
        "a.example:7000",
        "/run/cubilete/server.sock",
        "b:7001",
    ]
    assert server_list(["a:1,b:2", "b:2", " c:3 "]) == ["a:1", "b:2", "c:3"]
    assert server_list("") == []


def test_a_server_is_a_host_and_port_or_a_sockets_path():
    assert tcp_address("127.0.0.1:7000") == ("127.0.0.1", 7000)
    assert tcp_address("[::1]:7000") == ("::1", 7000)
    assert tcp_address("/tmp/x:1/s.sock") is None
    assert tcp_address("server.sock") is None
    assert tcp_address("host:port") is None
