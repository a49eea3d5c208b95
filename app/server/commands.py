"""`cubilete server` and `cubilete tables`: what the command line runs (its parsers are in
`app/cli.py`). The server logs to stderr; `tables` writes its list to stdout (it is a
command for scripts and people, not the app, which never writes to stdout)."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import re
import socket
import sys
from pathlib import Path
from typing import Any

from kits import KITS
from rules import C_, N_

from ..games import SEAT_KINDS
from ..i18n import _, parse_number, tr
from ..locations import data_dir
from ..records.store import StoreError
from .client import ServerClient, ServerError
from .core import HOLD_SECONDS
from .hosting import DEFAULT_PACE, LEASE_SECONDS, ServerHosting
from .identity import SecretError, load_secret
from .limits import Limits
from .protocol import (
    MAX_NAME_CHARS,
    CloseTable,
    ListTables,
    Opened,
    OpenTable,
    Request,
    SeatSpec,
    ServerMessage,
    TableEntry,
    Tables,
)
from .transport import ListenError, Listening, client_socket, default_socket, run_server

SERVER_FOLDER = "server"
"""Without `--data-dir`, the server keeps its records in this folder of the data dir: apart
from the records of the user running it (else their lobby would list the shared tables as
their own unfinished games)."""

STATUS_WORDS = {
    "waiting": C_("table", "waiting"),
    "playing": C_("table", "playing"),
    "over": C_("table", "over"),
}

KIND_WORDS = {
    "easy": N_("Easy bot"),
    "medium": N_("Medium bot"),
    "expert": N_("Expert bot"),
}
"""A bot's level, in the lobby's words (`app.quiet.setup_model.KIND_LABELS`)."""


def host_port(text: str) -> tuple[str, int]:
    """`HOST:PORT` (`[::1]:PORT` for IPv6) for `--listen`."""
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isascii() or not port.isdigit():
        raise argparse.ArgumentTypeError(tr(N_("{text!r} is not HOST:PORT"), text=text))
    number = int(port)
    if not 0 <= number <= 65535:  # (0: any free port, which the log names)
        raise argparse.ArgumentTypeError(tr(N_("{value} is not a port (1 to 65535)"), value=number))
    return host, number


SECONDS = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6})?|\.[0-9]{1,6}")


def seconds(text: str) -> float:
    """A number of seconds, 0,5 as well as 0.5 (as `app.cli`'s, which this module cannot
    import: the CLI loads the web server's modules)."""
    figures = parse_number(text)
    if not SECONDS.fullmatch(figures):
        raise argparse.ArgumentTypeError(tr(N_("{text!r} is not a number of seconds"), text=text))
    value = float(figures)
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(
            tr(N_("{value} is not more than 0 and at most 3600 seconds"), value=value)
        )
    return value


def pace(text: str) -> float:
    """Seconds before each bot decision: 0 (as fast as it goes) to 60."""
    figures = parse_number(text)
    if not SECONDS.fullmatch(figures) or not 0 <= float(figures) <= 60:
        raise argparse.ArgumentTypeError(
            tr(N_("{text!r} is not a number of seconds from 0 to 60"), text=text)
        )
    return float(figures)


def socket_mode(text: str) -> int:
    """An octal mode for the socket file: 600, 660 or 666 (who may connect)."""
    try:
        mode = int(text, 8)
    except ValueError:
        mode = -1
    if not 0 <= mode <= 0o777:
        raise argparse.ArgumentTypeError(tr(N_("{text!r} is not a mode such as 660"), text=text))
    return mode


def add_server_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    path = _(C_("metavar", "PATH"))
    server = commands.add_parser(
        "server",
        help=_("run the server of shared tables (people in other terminals play together)"),
        description=_(
            "Run the server that holds the shared tables: people in other terminals and "
            "browser tabs of this machine connect to its Unix socket and play at one table. "
            "Stop it with ctrl+c or SIGTERM."
        ),
    )
    server.add_argument(
        "--socket",
        metavar=path,
        help=tr(N_("the Unix socket to listen on (default {path})"), path=default_socket()),
    )
    server.add_argument(
        "--socket-mode",
        type=socket_mode,
        default=0o600,
        metavar=_(C_("metavar", "MODE")),
        help=_(
            "who may connect to the socket: 600 only you (default), 660 your group, 666 "
            "every user of the machine (each is known by their own Unix user)"
        ),
    )
    server.add_argument(
        "--listen",
        type=host_port,
        metavar=_(C_("metavar", "HOST:PORT")),
        help=_("also listen on TCP, for front ends on other machines (needs a shared secret)"),
    )
    server.add_argument(
        "--secret-file",
        type=Path,
        metavar=path,
        help=_("the file with the TCP front ends' shared secret (else $CUBILETE_SERVER_SECRET)"),
    )
    server.add_argument(
        "--idle-timeout",
        type=seconds,
        default=Limits.idle_timeout,
        metavar=_(C_("metavar", "SECONDS")),
        help=_("close a connection silent for this long (300)"),
    )
    server.add_argument(
        "--idle-limit",
        type=seconds,
        default=Limits.idle_limit,
        metavar=_(C_("metavar", "SECONDS")),
        help=_(
            "close a connection that sends nothing but pings for this long, unless it sits "
            "or watches at a table (3600)"
        ),
    )
    server.add_argument(
        "--waiting-grace",
        type=seconds,
        default=Limits.waiting_grace,
        metavar=_(C_("metavar", "SECONDS")),
        help=_("close a table still waiting for its people with none of them at it (120)"),
    )
    server.add_argument(
        "--bot-pace",
        type=pace,
        default=DEFAULT_PACE,
        metavar=_(C_("metavar", "SECONDS")),
        help=_("seconds before each bot decision (0.8; 0: as fast as it goes)"),
    )
    server.add_argument(
        "--hold",
        type=seconds,
        default=HOLD_SECONDS,
        metavar=_(C_("metavar", "SECONDS")),
        help=_(
            "how long a person's seat waits for them after their connection drops, before "
            "a bot plays it (600)"
        ),
    )
    server.add_argument(
        "--data-dir",
        type=Path,
        metavar=path,
        help=_(
            "where the server keeps its records and its tables being played (default: the "
            "folder server in $CUBILETE_DATA_DIR, else in the user's data dir)"
        ),
    )
    server.add_argument(
        "--lease",
        type=seconds,
        default=LEASE_SECONDS,
        metavar=_(C_("metavar", "SECONDS")),
        help=_(
            "with several servers on one PostgreSQL database: how long a server's hold on "
            "its tables lasts unrenewed; another server takes them over at most this long "
            "after it died (10)"
        ),
    )
    server.add_argument(
        "--db",
        metavar=_(C_("metavar", "URL|PATH")),
        help=_(
            "the database of its records and tables being played: a postgresql:// URL "
            "(PostgreSQL, needs the postgres extra) or an SQLite file's path (default: "
            "records.db in the data dir)"
        ),
    )
    tables = commands.add_parser(
        "tables",
        help=_("list the tables open on the server"),
        description=_("List the tables open on the server of shared tables."),
    )
    server_help = _(
        "the server's socket (default: $CUBILETE_SERVER, else /run/cubilete/server.sock, "
        "else your own server's)"
    )
    tables.add_argument("--server", metavar=path, help=server_help)
    tables.add_argument(
        "--json",
        action="store_true",
        help=_(
            "write the list as JSON: each table's id, game, host, seats (name, kind, "
            "connected), status, spectators, events and options"
        ),
    )
    actions = tables.add_subparsers(dest="tables_command", metavar="{open,close}")
    opening = actions.add_parser(
        "open",
        help=_("open a table (a table of bots only plays by itself, for watching)"),
        description=_(
            "Open a table on the server. Seats for people are taken by whoever joins; a "
            "table whose seats are all bots plays by itself, and people can watch it."
        ),
    )
    opening.add_argument("game", choices=list(KITS), metavar=_(C_("metavar", "GAME")))
    opening.add_argument(
        "--seat",
        dest="seats",
        action="append",
        type=seat_spec,
        required=True,
        metavar=_(C_("metavar", "NAME:KIND")),
        help=_(
            "a seat, in play order (repeat it): KIND is human, easy, medium or expert; a "
            "person's NAME is theirs when they sit down (give any, or leave it out: :human)"
        ),
    )
    opening.add_argument(
        "--private",
        action="store_true",
        help=_("joining or watching needs the invite code (written out)"),
    )
    opening.add_argument(
        "--option",
        dest="options",
        action="append",
        type=option_pair,
        default=[],
        metavar=_(C_("metavar", "NAME=VALUE")),
        help=_("one of the game's options (repeat it), e.g. --option rounds=3"),
    )
    opening.add_argument("--json", action="store_true", help=_("write the table as JSON"))
    opening.add_argument("--server", metavar=path, help=server_help, default=argparse.SUPPRESS)
    closing = actions.add_parser(
        "close",
        help=_("close a table (yours, or any if you run the server)"),
        description=_("Close a table: its game ends where it is; its record is kept."),
    )
    closing.add_argument("table", metavar=_(C_("metavar", "ID")))
    closing.add_argument("--server", metavar=path, help=server_help, default=argparse.SUPPRESS)


def seat_spec(text: str) -> SeatSpec:
    """`NAME:KIND` (`:human`, `Ana:human`, `Rita:expert`, `expert`) as a seat."""
    name, _colon, kind = text.rpartition(":")
    if kind not in SEAT_KINDS:
        raise argparse.ArgumentTypeError(
            tr(
                N_("{text!r}: a seat is NAME:KIND, KIND one of {kinds}"),
                text=text,
                kinds=", ".join(SEAT_KINDS),
            )
        )
    if kind == "human" or not name.strip():
        return SeatSpec(kind=kind)
    try:
        return SeatSpec(kind=kind, name=name.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            tr(N_("{text!r}: a name has at most {n} characters"), text=text, n=MAX_NAME_CHARS)
        ) from None


def option_pair(text: str) -> tuple[str, Any]:
    """`NAME=VALUE`; the value read as JSON if it is (3, true, "x"), else as the text."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(tr(N_("{text!r} is not NAME=VALUE"), text=text))
    try:
        parsed: Any = json.loads(value)
    except ValueError:
        parsed = value
    return name.strip(), parsed


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="cubilete server: %(message)s"
    )
    secret = None
    if args.listen is not None:
        try:
            secret = load_secret(args.secret_file)
        except SecretError as error:
            sys.stderr.write(f"cubilete server: {error}\n")
            return 2
    path = Path(args.socket) if args.socket else default_socket()
    if not args.socket:
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            sys.stderr.write(
                tr(
                    N_("cubilete server: cannot create {path}: {error}"),
                    path=path.parent,
                    error=error.strerror,
                )
                + "\n"
            )
            return 1

    def ready(listening: Listening) -> None:
        where = tr(
            N_("listening on {path} (mode {mode:o})"),
            path=listening.socket_path,
            mode=args.socket_mode,
        )
        if listening.tcp is not None:
            host, port = listening.tcp
            where += tr(N_(" and on TCP {host}:{port}"), host=host, port=port)
        logging.getLogger("cubilete.server").info("%s", where)

    limits = Limits(
        idle_timeout=args.idle_timeout,
        idle_limit=args.idle_limit,
        waiting_grace=args.waiting_grace,
    )
    try:
        where = args.data_dir
        if args.db is not None:
            pass  # (the records are where --db says; the data dir is not needed)
        else:
            if where is None:  # (apart from the user's own records, which their lobby lists)
                where = data_dir() / SERVER_FOLDER
            where.mkdir(mode=0o700, parents=True, exist_ok=True)
        hosting = ServerHosting(
            where,
            pace=args.bot_pace,
            db=args.db,
            holder=f"{socket.gethostname()}:{path.resolve()}",  # (the same after a restart)
            lease=args.lease,
        )
    except (OSError, StoreError) as error:
        sys.stderr.write(
            tr(N_("cubilete server: cannot keep the records: {error}"), error=error) + "\n"
        )
        return 1
    try:
        return run_server(
            path,
            mode=args.socket_mode,
            listen=args.listen,
            secret=secret,
            limits=limits,
            on_ready=ready,
            hosting=hosting,
            hold=args.hold,
        )
    except ListenError as error:
        sys.stderr.write(f"cubilete server: {error.strerror}\n")
        return 1
    finally:
        hosting.close()


def list_tables(args: argparse.Namespace) -> int:
    """`cubilete tables` (and its `open` and `close`)."""
    path = client_socket(args.server)
    command = getattr(args, "tables_command", None)
    try:
        if command == "open":
            return _open_table(path, args)
        if command == "close":
            return _close_table(path, args.table)
        tables = asyncio.run(_fetch_tables(path))
    except ServerError as error:
        sys.stderr.write(f"cubilete tables: {error}\n")
        return 1
    if args.json:
        data = [table.model_dump(mode="json") for table in tables]
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write("".join(line + "\n" for line in table_lines(tables)))
    return 0


def _open_table(path: Path, args: argparse.Namespace) -> int:
    request = OpenTable(
        game=args.game,
        seats=args.seats,
        options=dict(args.options),
        private=args.private,
        sit=None,
    )
    opened = asyncio.run(_ask(path, request))
    assert isinstance(opened, Opened)
    if args.json:
        data = {"table": opened.table.model_dump(mode="json"), "code": opened.code}
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return 0
    line = tr(N_("table {id} opened"), id=opened.table.id)
    if opened.code is not None:
        line += "  " + tr(N_("invite code: {code}"), code=opened.code)
    sys.stdout.write(line + "\n")
    return 0


def _close_table(path: Path, table: str) -> int:
    if not re.fullmatch(r"[a-z0-9]{1,16}", table):
        sys.stderr.write(tr(N_("cubilete tables: there is no table {table}"), table=table) + "\n")
        return 1
    asyncio.run(_ask(path, CloseTable(table=table)))
    sys.stdout.write(tr(N_("table {id} closed"), id=table) + "\n")
    return 0


async def _ask(path: Path, request: Request) -> ServerMessage:
    client = await ServerClient.connect(path)
    try:
        return await client.request(request)
    finally:
        await client.close()


async def _fetch_tables(path: Path) -> list[TableEntry]:
    client = await ServerClient.connect(path)
    try:
        answer = await client.request(ListTables())
    finally:
        await client.close()
    assert isinstance(answer, Tables)
    return answer.tables


def table_lines(tables: list[TableEntry]) -> list[str]:
    """The tables for a person to read, one line each."""
    if not tables:
        return [_("No tables are open.")]
    lines = []
    for table in tables:
        seats = ", ".join(
            (seat.name or _("(free)"))
            + ("" if seat.kind == "human" else f" ({_(KIND_WORDS[seat.kind])})")
            + ("" if seat.connected or seat.name is None else " " + _("(away)"))
            for seat in table.seats
        )
        game = KITS[table.game].name if table.game in KITS else table.game
        lines.append(
            tr(
                N_("{id}  {game}  {status}  opened by {host}  seats: {seats}  watching: {n}"),
                id=table.id,
                game=game,
                status=_(STATUS_WORDS[table.status]),
                host=table.host,
                seats=seats,
                n=table.spectators,
            )
            + ("  " + _("(private)") if table.private else "")
        )
    return lines
