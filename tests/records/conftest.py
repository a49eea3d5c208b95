"""The stores the records tests run against: SQLite (a file in the test's temp dir) and
PostgreSQL (a fresh database of the session's private cluster: `postgres_url`, in
tests/conftest.py).

A test that takes `store` (or `stores`, or `store_target`) runs once on each."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from app.records.store import RecordStore
from app.records.stores import open_records

STORES = ("sqlite", "postgres")


@pytest.fixture(params=STORES)
def store_target(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """Where the test's records are: an SQLite file's path, or a PostgreSQL URL."""
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "records.db")


@pytest.fixture
def stores(store_target: str) -> Iterator[Callable[..., RecordStore]]:
    """Opens stores on the test's one database (two windows, or two servers); all closed at
    the end."""
    opened: list[RecordStore] = []

    def open_one(**options: Any) -> RecordStore:
        opened.append(open_records(store_target, **options))
        return opened[-1]

    yield open_one
    for store in opened:
        store.close()


@pytest.fixture
def store(stores: Callable[..., RecordStore]) -> RecordStore:
    return stores()
