"""What a data dir's records database holds, read the way the app reads it (for tests that
drive a real `cubilete` and check what it recorded)."""

from __future__ import annotations

import os
from pathlib import Path

from app.records.events import Record
from app.records.sqlite import SQLiteStore


def records_db(data_dir: Path | None = None) -> Path:
    return (data_dir or Path(os.environ["CUBILETE_DATA_DIR"])) / "records.db"


def stored_records(data_dir: Path | None = None) -> list[Record]:
    """Every record in the data dir's database, the unfinished first (none without one)."""
    path = records_db(data_dir)
    if not path.exists():
        return []
    store = SQLiteStore(path)
    try:
        summaries = store.unfinished() + store.history(limit=1000).items
        return [store.load(summary.record_id) for summary in summaries]
    finally:
        store.close()
