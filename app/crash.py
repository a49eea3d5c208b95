"""The last resort: an error nobody foresaw ends the game with one line, never a traceback.

The player reads one line on stderr: what went wrong, in a few words, and where the details
are. The details (the traceback, the command line, the time) go to `errors.log` in the data
dir, when it can be written; the game itself was saved at its last move by the autosave.
"""

from __future__ import annotations

import os
import sys
import traceback
from datetime import UTC, datetime
from pathlib import Path

from rules import N_

LOG_NAME = "errors.log"
MAX_LOG_BYTES = 1024 * 1024
"""Past this size the log starts again (the previous one is kept as `errors.log.1`)."""


def report(error: BaseException) -> str:
    """Write down the details of `error` and return the one line for the player. Never raises."""
    try:
        written: Path | None = write_details(error)
        problem = ""
    except Exception as unwritten:  # the data dir is unusable, the disk is full...
        written, problem = None, _one_line(unwritten)
    try:  # in the player's language, if the catalogue can still be read
        from .i18n import tr

        if written is not None:
            where = tr(N_("Details in {path}."), path=written)
        else:
            unwritten_msg = N_("Details: they could not be written down: {problem}.")
            where = tr(unwritten_msg, problem=problem)
        stopped = tr(
            N_("cubilete stopped on an unexpected error ({error})."), error=_one_line(error)
        )
    except Exception:
        unwritten_words = f"Details: they could not be written down: {problem}."
        where = f"Details in {written}." if written else unwritten_words
        stopped = f"cubilete stopped on an unexpected error ({_one_line(error)})."
    return f"{stopped} {where}"


def write_details(error: BaseException) -> Path:
    from .locations import data_dir

    log = data_dir() / LOG_NAME
    try:
        if log.stat(follow_symlinks=False).st_size > MAX_LOG_BYTES:
            os.replace(log, log.with_name(LOG_NAME + ".1"))
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(log, flags, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8", errors="replace") as out:
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        out.write(f"--- {stamp} cubilete, Python {sys.version.split()[0]}, argv {sys.argv!r}\n")
        out.write("".join(traceback.format_exception(error)))
        out.write("\n")
    return log


def _one_line(error: BaseException) -> str:
    """`ValueError: the first line of its message`, at most 160 characters."""
    try:
        message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    except Exception:
        message = ""
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return text if len(text) <= 160 else f"{text[:159]}…"
