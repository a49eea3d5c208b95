"""`cubilete web` forks each tab from its fork server (app/web_zygote.py): every guarantee of
the server holds for forked tabs, and the fork server itself comes and goes safely."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="cubilete web needs textual-serve")
aiohttp = pytest.importorskip("aiohttp")

from webhelpers import alive, children, group_members, wait_until, web_server  # noqa: E402

TIMEOUT = aiohttp.ClientTimeout(total=30)


async def lobby(ws, timeout: float = 20) -> bytes:
    seen = b""
    async with asyncio.timeout(timeout):
        while b"Start (F2)" not in seen:
            message = await ws.receive()
            assert message.type == aiohttp.WSMsgType.BINARY, message
            seen += message.data
    return seen


def stat_fields(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def parent_of(pid: int) -> int:
    return int(stat_fields(pid)[1])


def group_and_session(pid: int) -> tuple[int, int]:
    fields = stat_fields(pid)
    return int(fields[2]), int(fields[3])


async def test_a_tab_is_forked_in_a_session_of_its_own_and_goes_with_its_group(tmp_path):
    with web_server(tmp_path, "--game", "generala") as server:
        (fork_server,) = server.fork_servers()
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            ws = await client.ws_connect(ws_url)
            await lobby(ws)
            (app_pid,) = server.apps()
            assert parent_of(app_pid) == fork_server  # forked, not started afresh
            assert group_and_session(app_pid) == (app_pid, app_pid)
            assert ", forked)" in server.log()
            await ws.close()
            wait_until(lambda: not alive(app_pid), 10, "the tab's game to end")
            wait_until(lambda: not group_members(app_pid), 10, "its process group to be empty")
            assert server.fork_servers() == [fork_server]  # the fork server stays


async def test_a_forked_game_that_does_not_quit_is_killed_after_the_grace_period(tmp_path):
    with web_server(tmp_path, "--grace", "1") as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            ws = await client.ws_connect(ws_url)
            await lobby(ws)
            (app_pid,) = server.apps()
            os.kill(app_pid, signal.SIGSTOP)  # it can no longer hear "quit"
            try:
                left = time.monotonic()
                await ws.close()
                wait_until(lambda: not alive(app_pid), 10, "the stopped game to be killed")
                assert time.monotonic() - left >= 0.9  # after the grace period, not before
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(app_pid, signal.SIGCONT)


async def test_tabs_start_afresh_while_the_fork_server_is_gone_and_it_comes_back(tmp_path):
    with web_server(tmp_path) as server:
        (first,) = server.fork_servers()
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        os.kill(first, signal.SIGKILL)  # a fork server that dies (our own test's)
        wait_until(lambda: "lost: it exited" in server.log(), 10, "the server to notice")
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            ws = await client.ws_connect(ws_url)
            await lobby(ws)
            (fresh,) = server.apps()
            assert parent_of(fresh) == server.process.pid  # started the plain way meanwhile
            await ws.close()
            wait_until(lambda: not alive(fresh), 10, "the fresh tab to end")

            wait_until(lambda: server.log().count("fork server ready") == 2, 30, "a new one")
            (second,) = server.fork_servers()
            assert second != first
            ws = await client.ws_connect(ws_url)
            await lobby(ws)
            (forked,) = server.apps()
            assert parent_of(forked) == second
            await ws.close()
    assert "Traceback" not in server.log()


async def test_when_the_server_is_killed_outright_its_tabs_and_fork_server_go_too(tmp_path):
    with web_server(tmp_path) as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            ws = await client.ws_connect(ws_url)
            await lobby(ws)
            (app_pid,) = server.apps()
            (fork_server,) = server.fork_servers()
            server.process.kill()  # SIGKILL: the server can stop nothing itself
            server.process.wait()
            wait_until(lambda: not alive(fork_server), 10, "the fork server to go")
            wait_until(lambda: not alive(app_pid), 15, "the orphaned tab to end")
            with contextlib.suppress(aiohttp.ClientError):
                await ws.close()


async def test_many_tabs_leave_no_descriptor_or_process_behind(tmp_path):
    flags = ("--max-sessions", "4", "--max-per-client", "4", "--starts-per-minute", "60")
    with web_server(tmp_path, *flags) as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        descriptors = Path(f"/proc/{server.process.pid}/fd")
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            ws = await client.ws_connect(ws_url)  # one tab first: whatever is opened once
            await lobby(ws)
            await ws.close()
            wait_until(lambda: not server.apps(), 10, "the first tab to end")
            before = len(list(descriptors.iterdir()))
            for _round in range(3):
                tabs = await asyncio.gather(*(client.ws_connect(ws_url) for _ in range(4)))
                await asyncio.gather(*(lobby(ws) for ws in tabs))
                pids = server.apps()
                assert len(pids) == 4
                for ws in tabs:
                    await ws.close()
                wait_until(lambda: not server.apps(), 15, "the tabs to end")
                assert all(not group_members(pid) for pid in pids)
            wait_until(
                lambda: len(list(descriptors.iterdir())) <= before, 10, "the descriptors to close"
            )
            assert len(server.fork_servers()) == 1
            assert children(server.fork_servers()[0]) == []


async def test_a_forked_game_plays_on_keys_from_the_tab(tmp_path):
    flags = ("--game", "generala", "--dice", "6,1,1,2,3,4,5")
    with web_server(tmp_path, *flags) as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            ws = await client.ws_connect(ws_url)
            await lobby(ws)
            await ws.send_str(json.dumps(["stdin", "\x1bOQ"]))  # F2
            seen = b""
            async with asyncio.timeout(20):
                while b"round 1 of 13" not in seen:
                    seen += (await ws.receive()).data
            (app_pid,) = server.apps()
            assert parent_of(app_pid) == server.fork_servers()[0]
            await ws.close()


async def test_without_the_fork_server_each_tab_is_a_fresh_process(tmp_path):
    with web_server(tmp_path, "--no-fork-server") as server:
        assert server.fork_servers() == []
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            ws = await client.ws_connect(ws_url)
            await lobby(ws)
            (app_pid,) = server.apps()
            assert parent_of(app_pid) == server.process.pid
            assert group_and_session(app_pid) == (app_pid, app_pid)
            assert ", fresh)" in server.log()
            await ws.close()


def test_the_fork_server_answers_a_bad_request_and_goes_on_forking(tmp_path, private_data_dir):
    """The fork server's own protocol, spoken directly: a request it cannot read gets an error,
    the next one a game on the three pipes it was given, and a pidfd that tells its end."""
    import array
    import select
    import socket
    import subprocess
    import sys

    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    command = [sys.executable, "-P", "-m", "app.web_zygote", str(theirs.fileno())]
    env = dict(os.environ, TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver")
    zygote = subprocess.Popen(
        command,
        pass_fds=[theirs.fileno()],
        env=env,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    theirs.close()
    ours.settimeout(60)
    try:
        assert json.loads(ours.recv(4096)) == {"ready": True}

        ours.send(b"not json")
        assert "bad request" in json.loads(ours.recv(4096))["error"]

        pipes = [os.pipe() for _ in range(3)]
        child_ends = [pipes[0][0], pipes[1][1], pipes[2][1]]
        rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", child_ends))]
        ours.sendmsg([json.dumps({"env": env | {"COLUMNS": "80", "ROWS": "24"}}).encode()], rights)
        for fd in child_ends:
            os.close(fd)
        data, fds, _flags, _address = socket.recv_fds(ours, 4096, 1)
        pid = json.loads(data)["pid"]
        (pidfd,) = fds
        stdout = os.fdopen(pipes[1][0], "rb", buffering=0)
        assert stdout.readline() == b"__GANGLION__\n"  # textual-serve's prelude: a Textual app
        assert group_and_session(pid) == (pid, pid)
        os.close(pipes[0][1])  # the server hangs up: stdin ends, stdout has no reader
        stdout.close()
        os.close(pipes[2][0])
        assert select.select([pidfd], [], [], 20)[0] == [pidfd], "the game did not end"
        os.close(pidfd)
        assert zygote.poll() is None  # still serving
    finally:
        ours.close()  # the fork server ends when the server hangs up
        zygote.wait(timeout=10)
    assert zygote.returncode == 0


TAB_RECORDER = """
import os, sys

if b"app.web_zygote" in open("/proc/self/cmdline", "rb").read():  # in the fork server only

    def note(what):
        with open(os.path.join(RECORD, str(os.getpid())), "a") as out:
            out.write(what + "\\n")

    class TabImports:
        # first on a tab's meta path: told of every module the tab looks for (one that is
        # not loaded yet)

        @staticmethod
        def find_spec(name, path=None, target=None):
            note("imported " + name)
            return None

    def opened(event, args):
        if event == "open" and str(args[0]).endswith(".mo"):
            note("read the catalogue " + str(args[0]))

    def in_a_tab():
        sys.meta_path.insert(0, TabImports)
        sys.addaudithook(opened)
        import app.cli

        build_parser = app.cli.build_parser

        def building(*args, **kwargs):
            note("built the command line's parser")
            return build_parser(*args, **kwargs)

        app.cli.build_parser = building

    os.register_at_fork(after_in_child=in_a_tab)
"""

ANSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


async def drawn(ws, marker: bytes, timeout: float = 20) -> None:
    seen = b""
    async with asyncio.timeout(timeout):
        while marker not in ANSI.sub(b"", seen):
            message = await ws.receive()
            assert message.type == aiohttp.WSMsgType.BINARY, message
            seen += message.data


async def test_a_forked_tab_finds_what_it_uses_loaded_and_read_by_the_fork_server(
    tmp_path, monkeypatch
):
    """Real tabs of a real server, as browsers drive them: the lobby, a Generala game, the
    rules; a Spanish browser's lobby. What a tab imports, reads or builds for itself is private
    memory of every tab (its command line imported `app.server.address`: 0.46 MiB more per tab
    in the lobby; a Spanish tab read its catalogue: 0.4 MiB), so the fork server does it once.
    (A recording hook in the fork server, by PYTHONPATH, notes what each tab still does.)"""
    record, hook = tmp_path / "record", tmp_path / "hook"
    record.mkdir()
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(TAB_RECORDER.replace("RECORD", repr(str(record))))
    paths = [str(hook), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path for path in paths if path))
    flags = ("--game", "generala", "--dice", "6,1,1,2,3,4,5")
    with web_server(tmp_path / "web", *flags) as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
            ws = await client.ws_connect(ws_url)
            await lobby(ws)
            (tab,) = server.apps()
            assert parent_of(tab) == server.fork_servers()[0]
            await ws.send_str(json.dumps(["stdin", "\x1bOQ"]))  # F2: a game
            await drawn(ws, b"round 1 of 13")
            await ws.send_str(json.dumps(["stdin", "\x1bOP"]))  # F1: its rules (Markdown)
            await drawn(ws, b"Who starts")
            await ws.close()
            wait_until(lambda: not alive(tab), 10, "the tab's game to end")

            spanish = {"Accept-Language": "es-AR,es;q=0.9"}
            ws = await client.ws_connect(ws_url, headers=spanish)
            await drawn(ws, b"Empezar (F2)")
            (tab,) = server.apps()
            await ws.close()
            wait_until(lambda: not alive(tab), 10, "the Spanish tab's game to end")
    done = sorted({line for tab in record.iterdir() for line in tab.read_text().splitlines()})
    assert done == []  # nothing left for a tab to do by itself
