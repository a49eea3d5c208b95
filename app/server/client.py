"""A client of `cubilete server` over its Unix socket: say hello, send requests, read what
comes back. `cubilete tables` uses it, and so do the tests; the lobby's will build on it.

Answers are matched to requests by `ref`; everything else the server sends (a table's events,
a refusal without a ref) waits in `inbox`, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from pathlib import Path
from typing import Any

from rules import N_, Text

from ..i18n import render
from ..records.version import app_version
from .protocol import (
    MAX_SERVER_BYTES,
    PROTOCOL_VERSION,
    Error,
    Hello,
    ProtocolError,
    Request,
    ServerMessage,
    Welcome,
    decode_server,
    encode,
)


class ServerError(Exception):
    """The server refused (`error` is its `Error`), or could not be reached or understood.
    `str()` is one line in the reader's language."""

    def __init__(self, text: Text | str, error: Error | None = None) -> None:
        self.text = text
        self.error = error
        super().__init__(str(text))

    def __str__(self) -> str:
        return render(self.text)


class ServerClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.inbox: asyncio.Queue[ServerMessage] = asyncio.Queue()
        self.welcome: Welcome | None = None
        self._refs = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[ServerMessage]] = {}
        self._reading = asyncio.create_task(self._read())
        self.closed = asyncio.Event()

    @classmethod
    async def connect(
        cls, path: Path, *, version: int = PROTOCOL_VERSION, **hello: Any
    ) -> ServerClient:
        """Connect to the Unix socket at `path` and say hello (`hello`: the `Hello`'s other
        fields). ServerError if nobody listens there or the server refuses (its `Error`
        attached)."""
        try:
            reader, writer = await asyncio.open_unix_connection(str(path), limit=MAX_SERVER_BYTES)
        except OSError as error:
            raise ServerError(
                Text(
                    N_("no Cubilete server at {path} ({error})"),
                    {"path": str(path), "error": error.strerror or str(error)},
                )
            ) from None
        return await cls._greet(reader, writer, version, hello)

    @classmethod
    async def connect_tcp(
        cls, host: str, port: int, *, version: int = PROTOCOL_VERSION, **hello: Any
    ) -> ServerClient:
        """Connect over TCP as a front end (`hello` carries the `secret` and a `user` or a
        `guest`)."""
        try:
            reader, writer = await asyncio.open_connection(host, port, limit=MAX_SERVER_BYTES)
        except OSError as error:
            raise ServerError(
                Text(
                    N_("no Cubilete server at {path} ({error})"),
                    {"path": f"{host}:{port}", "error": error.strerror or str(error)},
                )
            ) from None
        return await cls._greet(reader, writer, version, hello)

    @classmethod
    async def _greet(
        cls,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        version: int,
        hello: dict[str, Any],
    ) -> ServerClient:
        client = cls(reader, writer)
        hello.setdefault("client", f"cubilete {app_version()}")
        try:
            answer = await client.request(Hello(version=version, **hello))
        except BaseException:
            await client.close()
            raise
        if not isinstance(answer, Welcome):
            await client.close()
            raise ServerError(Text(N_("the server did not welcome us")))
        client.welcome = answer
        return client

    async def request(self, message: Request, timeout: float = 10.0) -> ServerMessage:
        """Send `message` with a fresh ref and wait for the answer. ServerError if it is
        refused, or the connection ends first."""
        if self.closed.is_set():  # (nothing would answer: say so at once)
            raise ServerError(Text(N_("the server closed the connection")))
        ref = next(self._refs)
        future: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()
        self._waiting[ref] = future
        self.send(message.model_copy(update={"ref": ref}))
        try:
            answer = await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(ref, None)
        if isinstance(answer, Error):
            raise ServerError(answer.words.text(), answer)
        return answer

    def send(self, message: Request) -> None:
        self.writer.write(encode(message))

    async def next_message(self, timeout: float = 10.0) -> ServerMessage:
        """The next message nobody asked for (an event, a refusal without a ref)."""
        return await asyncio.wait_for(self.inbox.get(), timeout)

    async def close(self) -> None:
        self._reading.cancel()
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()

    async def _read(self) -> None:
        try:
            while True:
                line = await self.reader.readline()
                if not line:
                    break
                try:
                    message = decode_server(line)
                except ProtocolError:
                    continue  # a newer server's message this client does not know
                ref = getattr(message, "ref", None)  # (a table's events have none)
                future = self._waiting.get(ref) if ref is not None else None
                if future is not None and not future.done():
                    future.set_result(message)
                    continue
                self.inbox.put_nowait(message)
                if isinstance(message, Error) and message.fatal:  # the end, whatever was asked
                    refused = ServerError(message.words.text(), message)
                    for waiting in self._waiting.values():
                        if not waiting.done():
                            waiting.set_exception(refused)
        except (ConnectionError, OSError, ValueError):
            pass
        finally:
            self.closed.set()
            gone = ServerError(Text(N_("the server closed the connection")))
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(gone)
