"""The fork server of `cubilete web`: one small process that has imported the game once and
forks a copy of itself for each browser tab.

A tab's app would otherwise start a fresh Python, import Textual, pydantic and the game (most
of its start-up CPU), and keep private copies of all of it. Forked from here, it starts with
all of that loaded, and shares those pages with every other tab until it writes to them.

Forking is only safe from a process with one thread and no event loop: the web server has
both, so it starts this process instead (`python -P -m app.web_zygote FD GAME-ARGS...`, in a
session of its own, before its event loop), and asks it to fork over a Unix socket:

- request: a JSON object `{"env": {...}}` (the tab's whole environment) with three file
  descriptors attached (SCM_RIGHTS): the pipes the child is to use as stdin, stdout, stderr,
  exactly as textual-serve would give a process it started;
- reply: `{"pid": N}` with a pidfd of the child attached (the server watches it for the exit
  and kills the child's process group by its pid), or `{"error": "..."}`.

The first message on the socket is `{"ready": true}`, once everything is loaded. The child
starts a session of its own (its pid is its process group), takes the three pipes as fds 0, 1
and 2, closes every other descriptor, takes the tab's environment, and runs `cubilete` with the
game flags. This process exits when the server closes the socket (or dies).
"""

from __future__ import annotations

import argparse
import array
import contextlib
import gc
import importlib
import json
import os
import re
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Sequence

from app.textual_private import PRELOADED_MODULES

MAX_MESSAGE = 1 << 20
"""Bytes of one request (the tab's environment) at most."""


# -- what a tab needs, loaded once ---------------------------------------------------------
PRELOAD = (
    # Textual's modules that a tab imports only once it runs (its driver, the input parser,
    # layouts), and the Markdown widget the Rules screen imports when first opened
    "queue",
    *PRELOADED_MODULES,  # (Textual's private ones, listed in app.textual_private)
    "textual.drivers.web_driver",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    # the bots and the coach think in worker threads (the executor, not a thread yet)
    "concurrent.futures.thread",
    # the game as a tab, and the screens imported when first shown
    "app.cli",
    "app.main",
    "app.web_tab",
    "app.screens.confirm",
    "app.screens.game_over",
    "app.screens.rules",
    "app.screens.too_small",
    # the lobby's list of unfinished games (a player who comes back), its records' screens
    "app.widgets.record_list",
    "app.screens.record_lines",
    "app.screens.history",
    "app.screens.statistics",
    "app.screens.replay",
    # the game's record: the store (sqlite3) opened when a game starts, a replay to resume,
    # the coach's reviews when a game ends
    "app.records.book",
    "app.records.importer",
    "app.records.recorder",
    "app.records.replay",
    "app.records.reviews",
    "app.records.sqlite",
    # what `cubilete` reads of a tab's servers before the app starts (`tab_server`), and a
    # tab of `cubilete web --server`: the connection, its tables, the screens to open and wait
    "app.server.address",
    "app.server.client",
    "app.server.remote",
    "app.screens.invite_code",
    "app.screens.open_table",
    "app.screens.waiting",
)


def preload(game_args: Sequence[str] = ()) -> argparse.Namespace:
    """Import what a tab's app imports until it shows the lobby, and what a game loads when it
    starts (its screen, rules, bots, the Generala table), so no tab pays for it again.
    Returns the game flags read, as `cubilete` reads them: every tab is given them so."""
    import rich.cells

    import bots
    import rules
    from app import games, i18n, strategy_tables
    from app.cli import parse_command_line
    from app.records.version import app_version

    for name in PRELOAD:
        importlib.import_module(name)
    rich.cells.cell_len("é·✓")  # loads rich's table of character widths
    app_version()  # what every record's header says (importlib.metadata reads it once)
    speaking = i18n.current_language()
    for code in i18n.LANGUAGES:  # each catalogue read once (gettext keeps them), for tabs
        i18n.use_language(code)  # of browsers in any language
    i18n.use_language(speaking)
    args = parse_command_line(list(game_args))
    rehearse(args)
    for game_id in games.playable():
        rules.get_game(game_id)
        games.screen_class(game_id)
        bots.coach(game_id)
        for level in bots.LEVELS:
            bots.get_bot(game_id, level)
        strategy_tables.prepare(game_id)
    return args


def rehearse(args: argparse.Namespace) -> None:
    """Open the lobby once, headless, as a tab would (the same game flags), in a throw-away
    data dir: what Textual and the app load or cache on the way (the catalogue, the rule cards,
    parsed styles, widths of characters, the interpreter's specialised bytecode) is then there
    once, here, for every tab. The event loop is closed again before any fork."""
    import asyncio
    import shutil

    from app.cli import dice_source
    from app.main import CubileteApp

    async def open_the_lobby() -> None:
        app = CubileteApp(
            dice=dice_source(args),
            animate=not args.no_animation,
            game=args.game,
            bot_pace=args.bot_pace,
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()

    scratch = tempfile.mkdtemp(prefix="cubilete-zygote-")
    saved = os.environ.get("CUBILETE_DATA_DIR")
    os.environ["CUBILETE_DATA_DIR"] = scratch
    try:
        asyncio.run(open_the_lobby())
    finally:
        if saved is None:
            os.environ.pop("CUBILETE_DATA_DIR", None)
        else:
            os.environ["CUBILETE_DATA_DIR"] = saved
        shutil.rmtree(scratch, ignore_errors=True)


_POOL_STATS = re.compile(r"^\s*\d+\s+(\d+)\s+\d+\s+\d+\s+(\d+)\s*$", re.MULTILINE)
FILLER_LIMIT = 200_000
"""Filler objects at most (about 6 MiB of this process, shared by every tab)."""


def free_small_blocks() -> dict[int, int]:
    """Free blocks in CPython's small-object pools, by size class (from its own statistics,
    which it writes to fd 2: caught in a temporary file). Empty where they are not to be had."""
    stats = getattr(sys, "_debugmallocstats", None)
    if stats is None:
        return {}
    with tempfile.TemporaryFile() as caught:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(caught.fileno(), 2)
        try:
            stats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        text = caught.read().decode("ascii", "replace")
    return {int(size): int(free) for size, free in _POOL_STATS.findall(text)}


def fill_free_blocks() -> list[bytes]:
    """Fill the free slots of the small-object pools with objects that are never touched again.

    The loaded game leaves free slots scattered over thousands of pages. A tab would put its
    own new objects there, and every page so written is copied for that tab alone; with the
    slots taken, its objects go to fresh pools, packed together. (Measured: about 0.4 MiB less
    per tab.) A bytes object of n bytes takes 33 + n: one per slot of each size class."""
    filler: list[bytes] = []
    for _round in range(3):  # the filler's own list takes slots too
        for size, free in free_small_blocks().items():
            if size >= 48 and free and len(filler) < FILLER_LIMIT:
                filler.extend(b"\0" * (size - 33) for _ in range(min(free, FILLER_LIMIT)))
    return filler


# -- one tab -------------------------------------------------------------------------------
def become_tab(
    fds: list[int], env: dict[str, str], game_args: list[str], args: argparse.Namespace
) -> None:
    """In the forked child: take the tab's pipes and environment, run the game (with the game
    flags this process read: a tab does not build the command line's parser again), exit."""
    code = 1
    try:
        os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a fresh Python
        os.environ.clear()
        os.environ.update(env)
        sys.argv = ["cubilete", *game_args]
        from app.web_tab import run

        code = run(game_args, args)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException as error:  # a tab never takes its error back into the fork server
        with_message = f"cubilete: the game stopped: {type(error).__name__}: {error}\n"
        os.write(2, with_message.encode("utf-8", "replace"))
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed pipe: nothing left to say
                stream.flush()
        os._exit(code)


# -- the loop ------------------------------------------------------------------------------
def send(sock: socket.socket, message: dict[str, object], fds: Sequence[int] = ()) -> None:
    data = json.dumps(message).encode()
    if fds:
        sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
    else:
        sock.send(data)


def serve(sock: socket.socket, game_args: list[str], args: argparse.Namespace) -> None:
    """Fork a tab for each request until the server hangs up."""
    while True:
        try:
            data, fds, _flags, _address = socket.recv_fds(sock, MAX_MESSAGE, 3)
        except ConnectionError:
            return
        if not data:
            for fd in fds:
                os.close(fd)
            return
        try:
            request = json.loads(data)
            env = {str(k): str(v) for k, v in request["env"].items()}
            if len(fds) != 3:
                raise ValueError(f"{len(fds)} descriptors, not 3")
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            for fd in fds:
                os.close(fd)
            send(sock, {"error": f"bad request: {error}"})
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.fork()
        except OSError as error:
            for fd in fds:
                os.close(fd)
            send(sock, {"error": f"fork: {error.strerror}"})
            continue
        if pid == 0:
            sock.close()
            become_tab(fds, env, game_args, args)
        for fd in fds:
            os.close(fd)
        try:
            pidfd = os.pidfd_open(pid)
        except OSError as error:
            send(sock, {"error": f"pidfd_open: {error.strerror}", "pid": pid})
            continue
        try:
            send(sock, {"pid": pid}, [pidfd])
        finally:
            os.close(pidfd)


def main(argv: list[str]) -> int:
    if not argv or not argv[0].isdigit():
        sys.stderr.write("usage: python -m app.web_zygote FD [GAME-ARGS...]\n")
        return 2
    sock = socket.socket(fileno=int(argv[0]))
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the tabs; pidfds still tell
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops us by hanging up
    try:
        args = preload(argv[1:])
    except SystemExit:  # game flags `cubilete` refuses (the server read them first)
        sys.stderr.write("cubilete web: the fork server could not read the game flags\n")
        return 1
    except Exception as error:
        sys.stderr.write(f"cubilete web: the fork server could not load the game: {error!r}\n")
        return 1
    if threading.active_count() != 1:
        sys.stderr.write("cubilete web: the fork server has threads after loading; not forking\n")
        return 1
    gc.collect()
    filler = fill_free_blocks()
    gc.freeze()  # the loaded objects leave the collector's lists: it will not touch their pages
    try:
        send(sock, {"ready": True})
        serve(sock, argv[1:], args)
        del filler
    except (BrokenPipeError, ConnectionResetError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
