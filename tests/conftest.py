"""Shared test setup: a private data dir per test, and a stable look for snapshots."""

from __future__ import annotations

import os

import pytest

# Colour and theme settings change what snapshots look like: clear them before Textual loads.
os.environ.pop("NO_COLOR", None)
os.environ.pop("TEXTUAL_THEME", None)
os.environ.pop("TEXTUAL_ANIMATIONS", None)


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path, monkeypatch):
    """Every test saves into its own empty data dir, never the user's."""
    path = tmp_path / "data"
    monkeypatch.setenv("CUBILETE_DATA_DIR", str(path))
    return path
