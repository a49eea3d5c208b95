"""The stores the records tests run against: SQLite (a file in the test's temp dir) and
PostgreSQL (a fresh database of a private cluster, started once for the session).

A test that takes `store` (or `stores`, or `store_target`) runs once on each."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pgcluster import PrivateCluster

from app.records.store import RecordStore
from app.records.stores import open_records

STORES = ("sqlite", "postgres")


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PrivateCluster]:
    """A private PostgreSQL for the session: initdb in a temp dir, a Unix socket there, no
    TCP, run as an unprivileged user when the tests run as root; stopped at the end, however
    the tests ended."""
    with PrivateCluster.start() as cluster:
        if cluster is None:
            pytest.skip(
                "PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin or on "
                "the PATH): apt-get install postgresql"
            )
        yield cluster


@pytest.fixture
def postgres_url(postgres_cluster: PrivateCluster) -> Iterator[str]:
    """A fresh empty database for the test, dropped after it."""
    url = postgres_cluster.new_database()
    yield url
    postgres_cluster.drop(url)


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
