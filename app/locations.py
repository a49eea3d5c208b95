"""Where the app keeps its files: the user's own data dir, private to them.

Either folder may turn out unusable (`$CUBILETE_DATA_DIR` names a file, the home belongs to
someone else, the disk is read-only): `StorageError` then says in one line what is wrong and
where, and the app plays on without saving.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from platformdirs import user_data_dir

from .i18n import _


class StorageError(OSError):
    """A folder the app needs cannot be made or used; `str()` is one line for a player."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


def data_dir(create: bool = True) -> Path:
    """`$CUBILETE_DATA_DIR`, else the platform's user data dir; created 0700 (unless
    `create` is false: for a look that must leave no trace, such as `--help`)."""
    override = os.environ.get("CUBILETE_DATA_DIR")
    path = Path(override) if override else Path(user_data_dir("cubilete", appauthor=False))
    if not create:
        return path
    return _folder(path, parents=True)


def saves_dir() -> Path:
    return _folder(data_dir() / "saves")


def _folder(path: Path, parents: bool = False) -> Path:
    """`path` as a folder of ours: made (0700) if missing, else StorageError."""
    try:
        path.mkdir(mode=0o700, parents=parents, exist_ok=True)
    except FileExistsError:  # something that is not a folder (a file, a dangling link)
        raise StorageError(path, _("{path} is not a folder").format(path=path)) from None
    except OSError as error:
        reason = _("cannot create {path}: {reason}").format(path=path, reason=_why(error))
        raise StorageError(path, reason) from None
    return path


def settings_path() -> Path:
    """The lobby's settings (`app/settings.py`): each game's seats and options."""
    return data_dir() / "settings.json"  # (settings.SETTINGS_FILE)


def _why(error: OSError) -> str:
    """The OS's reason in a few words ("permission denied"), without its file name."""
    if error.errno == errno.ENOTDIR:
        return _("a part of the path is a file, not a folder")
    if error.errno in (errno.EACCES, errno.EPERM):
        return _("permission denied")
    if error.errno == errno.EROFS:
        return _("read-only file system")
    return (error.strerror or str(error)).lower()


def cannot_write(path: Path, error: OSError) -> StorageError:
    """The StorageError for a folder that exists but cannot be written in."""
    reason = _("cannot write in {path}: {reason}").format(path=path, reason=_why(error))
    return StorageError(path, reason)


def records_path() -> Path:
    """The database of every game's record (`app/records`), with its -wal and -shm files."""
    return data_dir() / "records.db"
