"""Where the app keeps its files: the user's own data dir, private to them."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir


def data_dir() -> Path:
    """`$CUBILETE_DATA_DIR`, else the platform's user data dir; created 0700."""
    override = os.environ.get("CUBILETE_DATA_DIR")
    path = Path(override) if override else Path(user_data_dir("cubilete", appauthor=False))
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def saves_dir() -> Path:
    path = data_dir() / "saves"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def settings_path() -> Path:
    """The lobby's settings (`app/settings.py`): each game's seats and options."""
    return data_dir() / "settings.json"


def records_path() -> Path:
    """The database of every game's record (`app/records`), with its -wal and -shm files."""
    return data_dir() / "records.db"
