"""`cubilete`: start the game, `cubilete web` to serve it to browser tabs, `cubilete server`
for shared tables (`app/server/commands.py`) and `cubilete tables` to list them.

Nothing is printed to stdout: textual-serve uses the app's stdout as its channel. The web
server's own messages go to stderr.

The help and the errors are in the player's language, argparse's own words too ("usage:",
"options:"): its gettext lookups are pointed at our catalogue, which translates them.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Any, NoReturn

from kits import KITS
from rules import C_, N_, NP_

from . import i18n
from .dice import DiceSource, LoadedDice, RandomDice, SystemDice, parse_faces
from .i18n import LANGUAGES, _, tr

ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    NP_("expected %s argument", "expected %s arguments"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
"""argparse's own words that a player can meet (Python 3.11's msgids, in the `argparse`
gettext domain): our catalogue translates them, and `use_cli_language` points argparse at it."""


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
        raise argparse.ArgumentTypeError(tr(N_("{text!r} is not a whole number"), text=text))
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(tr(N_("{value} is not 1 or more"), value=value))
    return value


def _port(text: str) -> int:
    value = _positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(tr(N_("{value} is not a port (1 to 65535)"), value=value))
    return value


def _seconds(text: str) -> float:
    figures = i18n.parse_number(text)  # 0,8 as well as 0.8
    if not SECONDS.fullmatch(figures):
        raise argparse.ArgumentTypeError(tr(N_("{text!r} is not a number of seconds"), text=text))
    value = float(figures)
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(tr(N_("{value} is not 0 to 3600 seconds"), value=value))
    return value


def _public_url(text: str) -> str:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text)
        ok = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:
        ok = False
    if not ok or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(
            tr(N_("{text!r} is not an http:// or https:// address"), text=text)
        )
    return text


def add_game_flags(parser: argparse.ArgumentParser, *, suppress: bool = False) -> None:
    """The flags of the game itself. `suppress`: no defaults (for `web`, so a flag given
    before the subcommand is not overwritten by the subcommand's default)."""
    default: dict[str, Any] = {"default": argparse.SUPPRESS} if suppress else {}
    parser.add_argument(
        "--dice",
        type=_faces,
        metavar=_(C_("metavar", "FACES")),
        help=_("loaded dice for demos and tests, served in order: 3,3,3,4,5"),
        **default,
    )
    parser.add_argument(
        "--seed",
        metavar=_(C_("metavar", "SEED")),
        help=_("seeded dice, for replays (the same seed, the same game)"),
        **default,
    )
    parser.add_argument(
        "--game", choices=sorted(KITS), help=_("the game the lobby offers first"), **default
    )
    parser.add_argument(
        "--lang",
        choices=list(LANGUAGES),
        help=_(
            "the language of the game and of this help: en, es or pt (default: the one chosen "
            "in the lobby, else LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"
        ),
        **default,
    )
    parser.add_argument(
        "--no-animation", action="store_true", help=_("do not animate throws"), **default
    )
    parser.add_argument(
        "--bot-pace",
        type=_seconds,
        metavar=_(C_("metavar", "SECONDS")),
        help=_("pause between a bot's moves (default 0.8; f in a game hurries the bots)"),
        **({"default": argparse.SUPPRESS} if suppress else {"default": 0.8}),
    )


SERVER_COMMANDS = frozenset({"server", "tables"})
"""The commands whose parsers come from `app.server.commands`, which loads the shared tables'
protocol, hence pydantic (≈ 12 MiB and 0.1 s of CPU before the lobby, which loads none)."""


class _NotWithoutServer(Exception):
    """The command line is not one the parser without the server's commands reads."""


class _ParserWithoutServer(argparse.ArgumentParser):
    """A parser whose error is not the last word: the full parser reads the line again and
    says what is wrong (with every command among the choices)."""

    def error(self, message: str) -> NoReturn:
        raise _NotWithoutServer(message)


def parse_command_line(arguments: list[str]) -> argparse.Namespace:
    """The command line read. Starting the game (no command, or `web`, `replay`) does not load
    the server's command parsers: a line the parser without them reads is read the same by
    the full one, which reads every other line, the help and the errors included."""
    helping = any((len(arg) > 2 and "--help".startswith(arg)) or arg == "-h" for arg in arguments)
    if not helping and not SERVER_COMMANDS & set(arguments):
        try:
            return build_parser(server=False, parser_class=_ParserWithoutServer).parse_args(
                arguments
            )
        except _NotWithoutServer:
            pass
    return build_parser().parse_args(arguments)


def build_parser(
    *,
    server: bool = True,
    parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser,
) -> argparse.ArgumentParser:
    """The command line, in the language now in use (`use_cli_language` first); without the
    server's commands if `server` is false (`parse_command_line`)."""
    parser = parser_class(
        prog="cubilete", description=_("Five traditional dice games in your terminal.")
    )
    add_game_flags(parser)
    parser.add_argument(
        "--server",
        metavar=_(C_("metavar", "PATH")),
        help=_(
            "the socket of the server of shared tables, to play with people in other "
            "terminals; several servers of one database as PATH,PATH,...: the first that "
            "answers, and the next when it is lost (default: $CUBILETE_SERVER, else the "
            "default socket if a server listens there; with none, the games are played here "
            "only)"
        ),
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help=_(
            "play here only, even when a server of shared tables answers (as "
            "$CUBILETE_SERVER=none)"
        ),
    )
    commands = parser.add_subparsers(
        dest="command", metavar="{web,replay,server,tables}", title=_("commands")
    )
    web = commands.add_parser(
        "web",
        help=_("serve the game to browser tabs (one app process per tab)"),
        description=_(
            "Serve the game to browser tabs through textual-serve. Each tab runs its own app "
            "process; the game flags are passed on to it. The page has no login: keep the "
            "default 127.0.0.1, or put an authenticating reverse proxy in front."
        ),
    )
    number = _(C_("metavar", "N"))
    seconds = _(C_("metavar", "SECONDS"))
    web.add_argument(
        "--host",
        default="127.0.0.1",
        metavar=_(C_("metavar", "HOST")),
        help=_("address to listen on (127.0.0.1)"),
    )
    web.add_argument(
        "--port",
        type=_port,
        default=8000,
        metavar=_(C_("metavar", "PORT")),
        help=_("port to listen on (8000)"),
    )
    web.add_argument(
        "--max-sessions",
        type=_positive_int,
        default=8,
        metavar=number,
        help=_("browser sessions (app processes) at once; more get a 'full' page (8)"),
    )
    web.add_argument(
        "--grace",
        type=_seconds,
        default=5.0,
        metavar=seconds,
        help=_("time an app has to quit after its tab closed, before it is killed (5)"),
    )
    web.add_argument(
        "--public-url",
        type=_public_url,
        metavar=_(C_("metavar", "URL")),
        help=_("the URL browsers use, when behind a reverse proxy (https://host/prefix)"),
    )
    web.add_argument(
        "--user-header",
        metavar=_(C_("metavar", "HEADER")),
        help=_(
            "header in which the reverse proxy names the logged-in user (X-Remote-User): "
            "each user gets their own saves; requests without it are refused"
        ),
    )
    web.add_argument(
        "--trust-proxy",
        action="store_true",
        help=_(
            "believe the X-Forwarded-Host, -Proto and -For headers (only behind a reverse "
            "proxy that sets them; any client can send them)"
        ),
    )
    web.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar=_(C_("metavar", "NAME")),
        help=_(
            "one more host name browsers may use to reach the server (repeatable); the "
            "listen address, localhost and the --public-url's host are always allowed"
        ),
    )
    web.add_argument(
        "--no-fork-server",
        action="store_true",
        help=_(
            "start each tab's game as a fresh process instead of forking it from a process "
            "that has loaded the game once (slower, more memory per tab)"
        ),
    )
    web.add_argument(
        "--max-per-client",
        type=_positive_int,
        default=3,
        metavar=number,
        help=_("sessions one client (address, or user with --user-header) may have at once (3)"),
    )
    web.add_argument(
        "--starts-per-minute",
        type=_positive_int,
        default=10,
        metavar=number,
        help=tr(
            N_("sessions one client may start a minute, in bursts of up to {n} (10)"), n=number
        ),
    )
    web.add_argument(
        "--server",
        dest="tab_server",
        metavar=_(C_("metavar", "HOST:PORT")),
        help=_(
            "the TCP listener of the server of shared tables: each tab plays there as the "
            "user --user-header names, else as a guest; several servers of one database as "
            "HOST:PORT,HOST:PORT,...: each tab's game takes the first that answers, and the "
            "next when it is lost (default: $CUBILETE_SERVER if it is HOST:PORT; with none, "
            "tabs play here only)"
        ),
    )
    web.add_argument(
        "--server-secret-file",
        type=Path,
        metavar=_(C_("metavar", "PATH")),
        help=_("the file with that server's shared secret (else $CUBILETE_SERVER_SECRET)"),
    )
    add_game_flags(web, suppress=True)
    replay = commands.add_parser(
        "replay",
        help=_("open an exported game record (*.cubilete.json) in the replay screen"),
        description=_(
            "Open a game record exported from the replay screen (x), from this machine or "
            "another: it is checked event by event, then shown move by move with the coach's "
            "review."
        ),
    )
    replay.add_argument("file", metavar="FILE", help=_("the record file"))
    add_game_flags(replay, suppress=True)
    if server:
        from .server.commands import add_server_parsers

        add_server_parsers(commands)
    return parser


def requested_language(argv: list[str]) -> str | None:
    """The `--lang` of a command line, read before it is parsed (the help is written in
    that language); None if absent or not one the app speaks (the parser then says so)."""
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            value = argv[index + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            continue
        return value if value in LANGUAGES else None
    return None


def use_cli_language(argv: list[str]) -> str:
    """Choose the language: `--lang`, else the one the player chose in the lobby, else the
    environment's; and make argparse speak it. Returns the language in use."""
    from .settings import remembered_language

    code = i18n.use_language(requested_language(argv) or remembered_language())
    argparse._ = i18n._  # type: ignore[attr-defined]  # argparse's own words, translated
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]  # its plurals, translated too
    return code


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
    if args.lang is not None:
        argv += ["--lang", args.lang]
    return argv


def main(argv: list[str] | None = None, parsed: argparse.Namespace | None = None) -> int:
    """The `cubilete` command. Whatever goes wrong, the player gets one line on stderr and an
    exit status, never a traceback (`crash.report` keeps the details in the data dir).
    `parsed`: `argv` already read by `parse_command_line` (a browser tab forked by the fork
    server, which read the game flags once for every tab)."""
    try:
        return run(argv, parsed)
    except KeyboardInterrupt:  # ctrl+c before the game took the terminal
        return 130
    except Exception as error:
        from .crash import report

        sys.stderr.write(report(error) + "\n")
        return 1


def run(argv: list[str] | None = None, parsed: argparse.Namespace | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    use_cli_language(arguments)
    args = parse_command_line(arguments) if parsed is None else parsed
    from .terminal import forget_unknown_colour_system

    colour_notice = forget_unknown_colour_system(os.environ)  # (before Textual is imported)
    if colour_notice is not None and args.command not in (None, "replay"):  # (the game: its own)
        sys.stderr.write(f"cubilete: {i18n.render(colour_notice)}\n")
    if args.dice is not None and args.seed is not None:
        build_parser(server=False).error(_("--dice and --seed cannot be used together"))
    if args.local and args.server:
        build_parser(server=False).error(_("--local and --server cannot be used together"))
    if args.command == "web":
        return serve_web(args)
    if args.command in ("server", "tables"):
        from .server import commands

        return commands.serve(args) if args.command == "server" else commands.list_tables(args)
    opened = None
    if args.command == "replay":
        from .records.events import RecordError
        from .records.files import read_record_file

        try:
            opened = (read_record_file(Path(args.file)), Path(args.file))
        except RecordError as error:
            sys.stderr.write(tr(N_("cubilete replay: {error}"), error=error) + "\n")
            return 1
    from .terminal import ascii_notice, draw_without_colour, in_a_browser

    draw_without_colour(os.environ)  # (before Textual is imported: it reads them once)
    forget_stale_size()
    notice = ascii_notice()
    from .main import CubileteApp
    from .server.address import ServerAddress, find_servers, tab_server

    server = None
    if args.local:
        pass  # (alone, whatever server answers)
    elif opened is None and in_a_browser(os.environ) and not args.server:
        # (a browser tab runs as the account of `cubilete web`: on the Unix socket every tab
        # would be one person, so a tab plays at a server only as `cubilete web --server` says:
        # over TCP, as the person the web knows)
        server = tab_server(os.environ)
    elif opened is None:
        paths = find_servers(args.server)
        listed = [ServerAddress(path=path) for path in paths]
        server = ServerAddress.of_list(listed) if listed else None
    app = CubileteApp(
        dice=dice_source(args),
        animate=not args.no_animation,
        game=args.game,
        bot_pace=args.bot_pace,
        ascii_only=notice is not None,
        replay=opened,
        server=server,
    )
    if notice is not None:
        app.notices.append(notice)
    if colour_notice is not None:
        app.notices.append(colour_notice)
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
        install = N_("cubilete web: {error}. Install the web server: pip install textual-serve")
        sys.stderr.write(tr(install, error=error) + "\n")
        return 2
    shared = None
    where = args.tab_server or os.environ.get("CUBILETE_SERVER", "")
    if where:
        from .server.address import parse_host_port, split_servers
        from .server.identity import SecretError, load_secret

        named = split_servers(where)
        places = [parse_host_port(one) for one in named]
        wrong = [one for one, place in zip(named, places, strict=True) if place is None]
        if wrong and args.tab_server:
            not_tcp = N_("cubilete web: --server {text!r} is not HOST:PORT (a TCP listener)")
            sys.stderr.write(tr(not_tcp, text=wrong[0]) + "\n")
            return 2
        listed = [place for place in places if place is not None]
        if listed and not wrong:  # (a $CUBILETE_SERVER socket is a terminal's, not the web's)
            try:
                secret = load_secret(args.server_secret_file).decode()
            except SecretError as error:
                sys.stderr.write(f"cubilete web: {error}\n")
                return 2
            (host, port), *more = listed
            shared = web.SharedTables(host, port, secret, *more)
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
            shared=shared,
        )
    except OSError as error:
        cannot = N_("cubilete web: cannot listen on {host}:{port}: {error}")
        sys.stderr.write(tr(cannot, host=args.host, port=args.port, error=error) + "\n")
        return 1
    except ValueError as error:  # the installed textual-serve's page would fetch from the net
        sys.stderr.write(f"cubilete web: {error}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
