"""Shared test setup: a private data dir per test, a stable look for snapshots, and a private
PostgreSQL cluster for the tests that run on PostgreSQL (the records', the server's)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from pgcluster import PrivateCluster

# Colour and theme settings change what snapshots look like: clear them before Textual loads.
os.environ.pop("NO_COLOR", None)
os.environ.pop("TEXTUAL_THEME", None)
os.environ.pop("TEXTUAL_ANIMATIONS", None)
# The tests read English unless they choose a language: the machine's own must not leak in.
for _variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_variable, None)
os.environ["LANG"] = "C.UTF-8"


@pytest.fixture(autouse=True)
def english_unless_chosen():
    """A test that switches the language (or whose app does) leaves English behind it."""
    yield
    from app import i18n

    if i18n.current_language() != i18n.SOURCE:
        i18n.use_language(i18n.SOURCE)


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path, monkeypatch):
    """Every test saves into its own empty data dir, never the user's."""
    path = tmp_path / "data"
    monkeypatch.setenv("CUBILETE_DATA_DIR", str(path))
    return path


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
