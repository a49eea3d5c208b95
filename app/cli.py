"""`cubilete`: start the game, or `cubilete web` to serve it to browser tabs.

Nothing is printed to stdout: textual-serve uses the app's stdout as its channel. The web
server's own messages go to stderr.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any

from rules import GAME_CLASSES

from .dice import DiceSource, LoadedDice, RandomDice, SystemDice, parse_faces


def _faces(text: str) -> tuple[int, ...]:
    try:
        return parse_faces(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")
SECONDS = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6})?|\.[0-9]{1,6}")
"""Numbers as people type them, in ASCII digits only: int() and float() would also take "٣",
"1_000", " 5 " or "nan" (and "²" would get Python's own message)."""


def _positive_int(text: str) -> int:
    if not WHOLE_NUMBER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not 1 or more")
    return value


def _port(text: str) -> int:
    value = _positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (1 to 65535)")
    return value


def _seconds(text: str) -> float:
    if not SECONDS.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds")
    value = float(text)
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{value} is not 0 to 3600 seconds")
    return value


def _public_url(text: str) -> str:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text)
        ok = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:
        ok = False
    if not ok or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"{text!r} is not an http:// or https:// address")
    return text


def add_game_flags(parser: argparse.ArgumentParser, *, suppress: bool = False) -> None:
    """The flags of the game itself. `suppress`: no defaults (for `web`, so a flag given
    before the subcommand is not overwritten by the subcommand's default)."""
    default: dict[str, Any] = {"default": argparse.SUPPRESS} if suppress else {}
    parser.add_argument(
        "--dice",
        type=_faces,
        metavar="FACES",
        help="loaded dice for demos and tests, served in order: 3,3,3,4,5",
        **default,
    )
    parser.add_argument(
        "--seed", help="seeded dice, for replays (the same seed, the same game)", **default
    )
    parser.add_argument(
        "--game", choices=sorted(GAME_CLASSES), help="the game the lobby offers first", **default
    )
    parser.add_argument(
        "--no-animation", action="store_true", help="do not animate throws", **default
    )
    parser.add_argument(
        "--bot-pace",
        type=_seconds,
        metavar="SECONDS",
        help="pause between a bot's moves (default 0.8; f in a game hurries the bots)",
        **({"default": argparse.SUPPRESS} if suppress else {"default": 0.8}),
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cubilete", description="Five traditional dice games in your terminal."
    )
    add_game_flags(parser)
    commands = parser.add_subparsers(dest="command", metavar="{web}")
    web = commands.add_parser(
        "web",
        help="serve the game to browser tabs (one app process per tab)",
        description=(
            "Serve the game to browser tabs through textual-serve. Each tab runs its own app "
            "process; the game flags are passed on to it. The page has no login: keep the "
            "default 127.0.0.1, or put an authenticating reverse proxy in front."
        ),
    )
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    web.add_argument("--port", type=_port, default=8000, help="port to listen on (8000)")
    web.add_argument(
        "--max-sessions",
        type=_positive_int,
        default=8,
        metavar="N",
        help="browser sessions (app processes) at once; more get a 'full' page (8)",
    )
    web.add_argument(
        "--grace",
        type=_seconds,
        default=5.0,
        metavar="SECONDS",
        help="time an app has to quit after its tab closed, before it is killed (5)",
    )
    web.add_argument(
        "--public-url",
        type=_public_url,
        metavar="URL",
        help="the URL browsers use, when behind a reverse proxy (https://host/prefix)",
    )
    web.add_argument(
        "--user-header",
        metavar="HEADER",
        help="header in which the reverse proxy names the logged-in user (X-Remote-User): "
        "each user gets their own saves; requests without it are refused",
    )
    web.add_argument(
        "--trust-proxy",
        action="store_true",
        help="believe the X-Forwarded-Host, -Proto and -For headers (only behind a reverse "
        "proxy that sets them; any client can send them)",
    )
    web.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="one more host name browsers may use to reach the server (repeatable); the "
        "listen address, localhost and the --public-url's host are always allowed",
    )
    web.add_argument(
        "--no-fork-server",
        action="store_true",
        help="start each tab's game as a fresh process instead of forking it from a process "
        "that has loaded the game once (slower, more memory per tab)",
    )
    web.add_argument(
        "--max-per-client",
        type=_positive_int,
        default=3,
        metavar="N",
        help="sessions one client (address, or user with --user-header) may have at once (3)",
    )
    web.add_argument(
        "--starts-per-minute",
        type=_positive_int,
        default=10,
        metavar="N",
        help="sessions one client may start a minute, in bursts of up to N (10)",
    )
    add_game_flags(web, suppress=True)
    return parser


def dice_source(args: argparse.Namespace) -> DiceSource:
    if args.dice is not None:
        return LoadedDice(args.dice)
    if args.seed is not None:
        return RandomDice(args.seed)
    return SystemDice()


def game_args(args: argparse.Namespace) -> list[str]:
    """The game flags as command-line arguments again, for each web session's app."""
    argv: list[str] = []
    if args.dice is not None:
        argv += ["--dice", ",".join(str(face) for face in args.dice)]
    if args.seed is not None:
        argv += ["--seed", str(args.seed)]
    if args.game is not None:
        argv += ["--game", args.game]
    if args.no_animation:
        argv.append("--no-animation")
    if args.bot_pace != 0.8:
        argv += ["--bot-pace", f"{args.bot_pace:.6f}".rstrip("0").rstrip(".")]
    return argv


def main(argv: list[str] | None = None) -> int:
    """The `cubilete` command. Whatever goes wrong, the player gets one line on stderr and an
    exit status, never a traceback (`crash.report` keeps the details in the data dir)."""
    try:
        return run(argv)
    except KeyboardInterrupt:  # ctrl+c before the game took the terminal
        return 130
    except Exception as error:
        from .crash import report

        sys.stderr.write(report(error) + "\n")
        return 1


def run(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.dice is not None and args.seed is not None:
        parser.error("--dice and --seed cannot be used together")
    if args.command == "web":
        return serve_web(args)
    from .terminal import ascii_notice, draw_without_colour

    draw_without_colour(os.environ)  # (before Textual is imported: it reads them once)
    forget_stale_size()
    notice = ascii_notice()
    from .main import CubileteApp

    app = CubileteApp(
        dice=dice_source(args),
        animate=not args.no_animation,
        game=args.game,
        bot_pace=args.bot_pace,
        ascii_only=notice is not None,
    )
    if notice is not None:
        app.notices.append(notice)
    app.run()
    return app.return_code or 0


def forget_stale_size() -> None:
    """Drop exported COLUMNS/LINES when playing in a terminal.

    They are a snapshot of some earlier window; Textual believes them over the terminal itself,
    and would then draw at the old size and ignore every resize. (Under textual-serve the web
    driver is in charge of the size, so they are left alone there.)
    """
    if "TEXTUAL_DRIVER" in os.environ:
        return
    stdout = sys.__stdout__
    try:
        on_a_terminal = stdout is not None and os.isatty(stdout.fileno())
    except (AttributeError, ValueError, OSError):
        return
    if on_a_terminal:
        for name in ("COLUMNS", "LINES"):
            os.environ.pop(name, None)


def serve_web(args: argparse.Namespace) -> int:
    try:
        from . import web
    except ImportError as error:
        sys.stderr.write(
            f"cubilete web: {error}. Install the web server: pip install textual-serve\n"
        )
        return 2
    try:
        web.serve(
            game_args(args),
            host=args.host,
            port=args.port,
            max_sessions=args.max_sessions,
            grace=args.grace,
            public_url=args.public_url,
            user_header=args.user_header,
            trust_proxy=args.trust_proxy,
            allowed_hosts=args.allowed_host,
            per_client=args.max_per_client,
            per_minute=args.starts_per_minute,
            fork=not args.no_fork_server,
        )
    except OSError as error:
        sys.stderr.write(f"cubilete web: cannot listen on {args.host}:{args.port}: {error}\n")
        return 1
    except ValueError as error:  # the installed textual-serve's page would fetch from the net
        sys.stderr.write(f"cubilete web: {error}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
