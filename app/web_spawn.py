"""How `cubilete web` starts a tab's app: forked by the fork server (`app/web_zygote.py`), or,
while there is none, as a fresh process. Either way the server gets the same thing: an
`AppProcess` with the app's pid (also its process group), its stdin, stdout and stderr as
asyncio streams, and a pidfd that says when it has exited.

The fork server is started before the server's event loop, in a session of its own. When it
dies it is started again: at once, or after 1, 2, 4 ... up to 60 s while it keeps dying within
10 s of its start. Tabs opened meanwhile start the plain way. A fork request that fails also
falls back to a plain start for that tab, and restarts the fork server.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

log = logging.getLogger("cubilete.web")

FORK_TIMEOUT = 5.0
"""Seconds to wait for the fork server's answer before starting the tab the plain way."""
YOUNG = 10.0
"""A fork server that dies within this many seconds of starting is restarted after a pause."""
MAX_PAUSE = 60.0


def pidfd_exited(pidfd: int | None) -> bool:
    """Whether the process behind `pidfd` has exited (zombie or gone)."""
    if pidfd is None:
        return False
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    return bool(poller.poll(0))


async def readable(fd: int) -> None:
    """Until `fd` can be read (a pidfd: until its process has exited)."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, wake)
    try:
        await ready
    finally:
        loop.remove_reader(fd)


def open_pidfd(pid: int) -> int | None:
    """A pidfd for `pid` (Linux 5.3+); None where there is none."""
    try:
        return os.pidfd_open(pid)
    except (OSError, AttributeError):
        return None


class AppProcess:
    """A tab's app process, however it was started."""

    def __init__(
        self,
        pid: int,
        pidfd: int | None,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        stderr: asyncio.StreamReader,
        *,
        plain: asyncio.subprocess.Process | None = None,
    ) -> None:
        self.pid = pid
        self.pidfd = pidfd
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.plain = plain
        self.forked = plain is None

    @property
    def exited(self) -> bool:
        """True from the moment the process has exited, before the event loop hears of it:
        from the moment its main thread has, in fact (a pidfd waits for the last thread, which
        takes a moment more to be killed). While the pidfd says the process is there, its pid
        cannot have been reused, so /proc can be asked about it."""
        if self.plain is not None and self.plain.returncode is not None:
            return True
        if self.pidfd is None or pidfd_exited(self.pidfd):
            return self.pidfd is not None
        try:
            stat = Path(f"/proc/{self.pid}/stat").read_bytes()
        except OSError:
            return True
        return stat.rsplit(b")", 1)[1].split()[0] in (b"Z", b"X")

    async def wait(self) -> None:
        """Until the process has exited."""
        if self.plain is not None:
            await self.plain.wait()
            return
        if self.pidfd is None or self.exited:
            return
        await readable(self.pidfd)

    def close(self) -> None:
        """Let go of the pidfd and our end of stdin (the read ends close at EOF)."""
        with contextlib.suppress(Exception):
            self.stdin.close()
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None


async def start_plain(argv: Sequence[str], env: dict[str, str]) -> AppProcess:
    """A fresh process running `argv`, in a session (and process group) of its own."""
    process = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    return AppProcess(
        process.pid,
        open_pidfd(process.pid),
        process.stdin,
        process.stdout,
        process.stderr,
        plain=process,
    )


async def read_end(pipe: BinaryIO) -> asyncio.StreamReader:
    """An asyncio stream over the read end of a pipe (what asyncio's subprocesses have)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(loop=loop)
    protocol = asyncio.StreamReaderProtocol(reader, loop=loop)

    def the_protocol() -> asyncio.StreamReaderProtocol:
        return protocol

    await loop.connect_read_pipe(the_protocol, pipe)
    return reader


async def write_end(pipe: BinaryIO) -> asyncio.StreamWriter:
    """An asyncio stream over the write end of a pipe, with flow control (drain)."""
    loop = asyncio.get_running_loop()
    transport, flow = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, pipe)
    return asyncio.StreamWriter(transport, flow, None, loop)


def discard(exchange: asyncio.Future[AppProcess]) -> None:
    """Kill a tab nobody waits for any more (its websocket went while it was forked)."""
    if exchange.cancelled() or exchange.exception() is not None:
        return
    app = exchange.result()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(app.pid, signal.SIGKILL)
    app.close()


class ForkServerError(RuntimeError):
    """The fork server could not give us a tab."""


class ForkServer:
    """The server's side of the fork server: start it, ask it for tabs, restart it."""

    def __init__(self, game_args: Sequence[str], env: dict[str, str]) -> None:
        self.game_args = list(game_args)
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.sock: socket.socket | None = None
        self.ready = False
        self.started_at = 0.0
        self.pause = 0.0
        self.forks = 0
        self.restarts = 0
        self._lock: asyncio.Lock | None = None
        self._restart: asyncio.TimerHandle | None = None
        self._watch_fd: int | None = None
        self._waiting: asyncio.Future[None] | None = None
        self.closed = False

    def command(self, fd: int) -> list[str]:
        return [sys.executable, "-P", "-m", "app.web_zygote", str(fd), *self.game_args]

    def start(self) -> None:
        """Start the fork server (it says it is ready on the socket once it has loaded)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = subprocess.Popen(
                self.command(theirs.fileno()),
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                env=self.env,
                start_new_session=True,
            )
        except OSError as error:
            ours.close()
            log.warning("the fork server did not start: %s; tabs start the plain way", error)
            return
        finally:
            theirs.close()
        self.sock = ours
        self.ready = False
        self.started_at = time.monotonic()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Watch the socket for "ready" and the process for its end, from the server's loop."""
        self._lock = asyncio.Lock()
        if self.sock is None or self.process is None:
            return
        self.sock.setblocking(False)
        loop.add_reader(self.sock.fileno(), self._on_first_message)
        self._watch_fd = open_pidfd(self.process.pid)
        if self._watch_fd is not None:
            loop.add_reader(self._watch_fd, self._on_exit)

    def _on_first_message(self) -> None:
        loop = asyncio.get_running_loop()
        assert self.sock is not None
        loop.remove_reader(self.sock.fileno())
        try:
            message = json.loads(self.sock.recv(4096) or b"{}")
        except (OSError, ValueError):
            message = {}
        if message.get("ready"):
            self.ready = True
            log.info("fork server ready (pid %s)", self.pid)
        else:
            self.lost("it did not load the game")

    def _on_exit(self) -> None:
        self.lost("it exited")

    def lost(self, why: str) -> None:
        """The fork server is gone or useless: stop it, and start another one later."""
        if self.process is None:
            return
        log.warning("fork server (pid %s) lost: %s; tabs start the plain way", self.pid, why)
        self._shut()
        if self.closed:
            return
        young = time.monotonic() - self.started_at < YOUNG
        self.pause = min(MAX_PAUSE, max(1.0, self.pause * 2)) if young else 0.0
        loop = asyncio.get_running_loop()
        self._restart = loop.call_later(self.pause, self._start_again, loop)

    def _start_again(self, loop: asyncio.AbstractEventLoop) -> None:
        self._restart = None
        if self.closed:
            return
        self.restarts += 1
        self.start()
        self.attach(loop)

    def _shut(self) -> None:
        loop = asyncio.get_running_loop()
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_exception(ForkServerError("lost while forking"))
        if self.sock is not None:
            loop.remove_reader(self.sock.fileno())
            self.sock.close()
            self.sock = None
        if self._watch_fd is not None:
            loop.remove_reader(self._watch_fd)
            os.close(self._watch_fd)
            self._watch_fd = None
        process, self.process, self.ready = self.process, None, False
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1)

    def close(self) -> None:
        """Stop the fork server for good (the tabs it forked are the sessions' to stop)."""
        self.closed = True
        if self._restart is not None:
            self._restart.cancel()
        if self.process is not None:
            self._shut()

    async def fork(self, env: dict[str, str]) -> AppProcess:
        """A tab forked with `env`. Raises ForkServerError (and restarts the fork server).

        A request once sent is seen through even if the tab that asked goes away meanwhile
        (its reply must not be taken for the next request's); the unwanted game is then killed.
        """
        if not self.ready or self._lock is None:
            raise ForkServerError("not ready")
        exchange = asyncio.ensure_future(self._exchange(env))
        try:
            return await asyncio.shield(exchange)
        except asyncio.CancelledError:
            exchange.add_done_callback(discard)
            raise

    async def _exchange(self, env: dict[str, str]) -> AppProcess:
        assert self._lock is not None
        async with self._lock:
            asked = self.process
            if not self.ready or asked is None:
                raise ForkServerError("not ready")
            try:
                async with asyncio.timeout(FORK_TIMEOUT):
                    return await self._fork(env)
            except (OSError, ValueError, KeyError, TimeoutError, ForkServerError) as error:
                if self.process is asked:  # not one started since, which may be fine
                    self.lost(f"a fork failed: {type(error).__name__}: {error}")
                raise ForkServerError(str(error)) from None

    async def _fork(self, env: dict[str, str]) -> AppProcess:
        sock = self.sock
        if sock is None:
            raise ForkServerError("gone")
        pipes = [os.pipe() for _ in range(3)]  # (read, write) for stdin, stdout, stderr
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
        ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
        try:
            data = json.dumps({"env": env}).encode()
            rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", theirs))]
            sock.sendmsg([data], rights)
        except BaseException:
            for fd in theirs + ours:
                os.close(fd)
            raise
        for fd in theirs:
            os.close(fd)
        stdin_w = os.fdopen(ours[0], "wb", buffering=0)
        stdout_r, stderr_r = (os.fdopen(fd, "rb", buffering=0) for fd in ours[1:])
        fds: list[int] = []
        try:
            reply, fds = await self._receive(sock)
            if "pid" not in reply or len(fds) != 1:
                raise ForkServerError(str(reply.get("error", "no pid")))
            stdin = await write_end(stdin_w)
            stdout, stderr = await read_end(stdout_r), await read_end(stderr_r)
        except BaseException:
            for pipe in (stdin_w, stdout_r, stderr_r):
                pipe.close()  # a child forked all the same reads EOF and ends
            for fd in fds:
                os.close(fd)
            raise
        self.forks += 1
        return AppProcess(int(str(reply["pid"])), fds[0], stdin, stdout, stderr)

    async def _receive(self, sock: socket.socket) -> tuple[dict[str, object], list[int]]:
        """The fork server's reply; ForkServerError if it is lost while we wait."""
        loop = asyncio.get_running_loop()
        arrived: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not arrived.done():
                arrived.set_result(None)

        loop.add_reader(sock.fileno(), wake)
        self._waiting = arrived
        try:
            await arrived
        finally:
            self._waiting = None
            if sock.fileno() != -1:  # `_shut` let go of it (and its number) already otherwise
                loop.remove_reader(sock.fileno())
        data, fds, _flags, _address = socket.recv_fds(sock, 65536, 1)
        if not data:
            raise ForkServerError("hung up")
        return json.loads(data), fds
