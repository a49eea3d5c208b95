"""A record as a file of its own: exported to share or keep, read back (from this machine or
another) for `cubilete replay FILE`.

The file is `Record.to_json`'s form (`{"format": "cubilete-record", "version": 1, "header":
..., "events": [[seq, kind, seat, data], ...]}`). Reading one checks everything a record from
elsewhere could get wrong: its size, its JSON, its shape, and that every event replays through
the rules; any fault is one `RecordError` line naming the file and what is wrong.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from rules import N_

from .events import Record, RecordError
from .replay import replay

MAX_BYTES = 64 * 1024 * 1024
"""The largest record file read (the longest realistic game takes well under 1 MB)."""
SUFFIX = ".cubilete.json"


def export_record(record: Record, path: Path) -> Path:
    """Write the record to `path` (a temp file beside it, then a rename: never half a file).
    OSError if it cannot be written."""
    fd, tmp = tempfile.mkstemp(prefix=".export-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(record.to_json())
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)  # (never a half-written file left behind)
        raise
    return path


def read_record_file(path: Path) -> Record:
    """The record in `path`, checked through and through (it replays to its last event).
    RecordError, one line: "<path>: <what is wrong>"."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        raise RecordError(
            N_("{path}: cannot be read ({reason})"), path=str(path), reason=error.strerror or error
        ) from None
    if len(data) > MAX_BYTES:
        raise RecordError(N_("{path}: too large to be a record"), path=str(path))
    try:
        record = Record.from_json(data)
        replay(record)
    except RecordError as error:
        raise RecordError(N_("{path}: {problem}"), path=str(path), problem=error.text) from None
    except RecursionError:
        raise RecordError(N_("{path}: not a Cubilete record"), path=str(path)) from None
    return record
