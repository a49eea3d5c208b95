"""The web server's log: plain lines on stderr, one per event, never a header's value.

textual-serve logs through rich (wrapped at the console's 80 columns, tracebacks with every
local variable), and aiohttp logs a malformed request as a full traceback whose locals hold
the raw request, `Authorization` and `Cookie` included. Here every record becomes one line:
a bad request is "bad request from ADDRESS: <kind> (400)", an exception is its type and the
place in our code it came from, and a line break inside a message is written as `\\n`.
"""

from __future__ import annotations

import logging
import re
import sys
import traceback
from pathlib import Path
from typing import TextIO

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.http_exceptions import HttpProcessingError

LOGGERS = ("cubilete.web", "textual-serve", "aiohttp", "asyncio")
"""Every logger the web server's records come from (aiohttp's children included)."""

_DATA_START = re.compile(r"[\n'\"\\`<{\[(]|:\s*$|: b?['\"]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_PACKAGE = Path(__file__).resolve().parent
"""This package (app/): an exception is placed at its deepest frame in here."""
MAX_TARGET = 200
"""Characters of a request's path and query kept in the access log."""


def printable(text: str, limit: int = MAX_TARGET) -> str:
    """`text` on one line, in plain ASCII, at most `limit` characters."""
    text = text.encode("ascii", "backslashreplace").decode("ascii")
    text = _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def problem(error: BaseException) -> str:
    """What went wrong with a request, without the request's own bytes.

    aiohttp's messages quote the offending line (a header line, with its value) after a colon
    or in quotes, and Python's quote the value they could not read: keep only the words
    before that (an OSError: its strerror).
    """
    if isinstance(error, HttpProcessingError):
        message = error.message
    elif isinstance(error, OSError):
        message = error.strerror or ""
    else:
        message = str(error)
    words = _DATA_START.split(str(message), maxsplit=1)[0].strip(" :")
    kind = type(error).__name__
    return printable(f"{kind}: {words}" if words else kind, 120)


def origin_of(error: BaseException) -> str:
    """Where an exception was raised: the deepest frame in this package, else the last one."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [frame for frame in frames if Path(frame.filename).is_relative_to(_PACKAGE)]
    if not (ours or frames):
        return ""
    frame = (ours or frames)[-1]
    path = Path(frame.filename)
    shown = path.relative_to(_PACKAGE.parent) if path.is_relative_to(_PACKAGE) else path.name
    return f" at {shown}:{frame.lineno}"


class OneLineFormatter(logging.Formatter):
    """`time level: message`, an exception shortened to its type and place, on one line."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(message)s", "%Y-%m-%d %H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        error = record.exc_info[1] if record.exc_info else None
        saved = record.exc_info, record.exc_text, record.stack_info
        record.exc_info = record.exc_text = record.stack_info = None
        try:
            line = super().format(record)
        finally:
            record.exc_info, record.exc_text, record.stack_info = saved
        if error is not None:
            line += f": {problem(error)}{origin_of(error)}"
        return line.replace("\r", "\\r").replace("\n", "\\n")


class BadRequestFilter(logging.Filter):
    """aiohttp's "Error handling request" with a traceback becomes "bad request from X: why".

    aiohttp logs the first request of a connection that is not HTTP at all (TLS to a plain
    port, a port scanner) at debug level: it is raised to a warning like any other bad request,
    so each one is one line. Other debug records are dropped.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError) and str(record.msg).startswith(
            "Error handling request"
        ):
            peer = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            record.msg = "bad request from %s: %s (%s)"
            record.args = (peer, problem(error), error.code)
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            return True
        return record.levelno > logging.DEBUG


class AccessLogger(AbstractAccessLogger):
    """`client "METHOD /path" status bytes seconds`: no header is ever written.

    The line for a request aiohttp could not parse is left out: the bad-request warning above
    already said what it was.
    """

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        if request.method == "UNKNOWN" and response.status == 400:
            return
        client = request.get("client") or request.remote or "-"
        self.logger.info(
            '%s "%s %s" %s %s %.3fs',
            printable(str(client), 64),
            printable(request.method, 16),
            printable(request.rel_url.raw_path_qs),
            response.status,
            response.body_length if response.content_length is None else response.content_length,
            time,
        )


def setup(stream: TextIO | None = None, *, debug: bool = False) -> logging.Handler:
    """Send every web-server record to `stream` (stderr) through the one-line formatter."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(OneLineFormatter())
    handler.setLevel(logging.DEBUG if debug else logging.INFO)
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            logger.removeHandler(old)
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG if debug else logging.INFO)
        logger.propagate = False
    server = logging.getLogger("aiohttp.server")
    server.setLevel(logging.DEBUG)  # to see the debug-level bad requests (raised above)
    if not any(isinstance(f, BadRequestFilter) for f in server.filters):
        server.addFilter(BadRequestFilter())
    return handler
