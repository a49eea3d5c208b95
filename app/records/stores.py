"""Choosing the store: a PostgreSQL URL opens the records in PostgreSQL, anything else is the
path of an SQLite file (the embedded default). For `cubilete server --db URL` and the like.

PostgreSQL needs the `postgres` extra (psycopg 3 and its pool): it is imported only when a URL
asks for it, so the app without the extra runs as before.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..i18n import _
from .store import RecordStore, StoreError

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | os.PathLike[str]) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def open_records(target: str | os.PathLike[str], **options: Any) -> RecordStore:
    """The store at `target`: `postgresql://…` (or `postgres://…`) -> `PostgresStore`, else
    the SQLite database at that path -> `SQLiteStore`; `options` go to the store (e.g.
    `busy_timeout`). Raises a StoreError whose message is one line (the database cannot be
    reached, is damaged, is too new, the extra is missing...)."""
    if is_postgres(target):
        assert isinstance(target, str)
        try:
            from .postgres import PostgresStore
        except ImportError:
            raise StoreError(
                _("PostgreSQL needs the postgres extra: pip install 'cubilete[postgres]'")
            ) from None
        return PostgresStore(target, **options)
    from .sqlite import SQLiteStore

    return SQLiteStore(Path(target), **options)
