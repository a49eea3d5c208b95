"""`cubilete web` on the command line: flags passed on to every tab's game, clear failures."""

from __future__ import annotations

import sys

import pytest

from app import cli


@pytest.mark.parametrize(
    ("argv", "passed_on"),
    [
        (["web"], []),
        (["web", "--game", "generala", "--no-animation"], ["--game", "generala", "--no-animation"]),
        (["web", "--dice", "6 1 2", "--port", "9000"], ["--dice", "6,1,2"]),
        (["--seed", "7", "web", "--game", "barco"], ["--seed", "7", "--game", "barco"]),
    ],
)
def test_the_game_flags_are_passed_on_to_each_tab(argv, passed_on):
    args = cli.build_parser().parse_args(argv)
    assert args.command == "web"
    assert cli.game_args(args) == passed_on


def test_the_web_defaults_keep_the_server_private():
    args = cli.build_parser().parse_args(["web"])
    assert (args.host, args.port, args.max_sessions) == ("127.0.0.1", 8000, 8)
    assert (args.max_per_client, args.starts_per_minute) == (3, 10)
    assert args.trust_proxy is False  # forwarded headers are ignored unless asked for
    assert args.allowed_host == []


def test_more_host_names_can_be_allowed_one_flag_each():
    argv = ["web", "--allowed-host", "games.lan", "--allowed-host", "box.local"]
    assert cli.build_parser().parse_args(argv).allowed_host == ["games.lan", "box.local"]


@pytest.mark.parametrize(
    "argv",
    [
        ["web", "--max-sessions", "0"],
        ["web", "--port", "70000"],
        ["web", "--grace", "x"],
        ["web", "--max-per-client", "0"],
        ["web", "--starts-per-minute", "-1"],
        ["web", "--public-url", "games.example.org/cubilete"],
        ["web", "--public-url", "ftp://games.example.org"],
        ["web", "--public-url", "https://games.example.org/?x=1"],
    ],
)
def test_nonsense_web_flags_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    assert capsys.readouterr().out == ""


def test_without_textual_serve_web_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "textual_serve", None)
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    monkeypatch.delitem(sys.modules, "app.web", raising=False)
    monkeypatch.delattr("app.web", raising=False)
    assert cli.main(["web"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "pip install textual-serve" in err


def test_a_stale_exported_size_is_dropped_on_a_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    monkeypatch.setattr(cli.os, "isatty", lambda fd: True)
    cli.forget_stale_size()
    assert "COLUMNS" not in cli.os.environ
    assert "LINES" not in cli.os.environ


def test_the_web_driver_keeps_its_size(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    monkeypatch.setattr(cli.os, "isatty", lambda fd: True)
    cli.forget_stale_size()
    assert cli.os.environ["COLUMNS"] == "100"
