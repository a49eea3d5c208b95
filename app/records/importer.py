"""Games saved by earlier versions (one JSON snapshot per game) become records.

A JSON save holds a state and its log already rendered to text, but no events. Imported, it
becomes a record whose header starts from that state (`Header.start`); its events go on from
there. Its old log is not kept (no rendered text is stored): the table talk of an imported
game begins where the import began.

Each save is read with `app.saves.read` (the reader that checks it). A save that reads is
imported in one transaction, and only then moved into `saves/imported/`, so a crash in
between leaves the file in place and the next start finds its record already there (same id)
and only moves it. A save that cannot be read is reported, as the lobby always did, and left
exactly as it is.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from rules import get_game

from ..i18n import _
from .book import pending_saves
from .events import Outcome
from .store import RecordConflict, RecordStore, StoreError

IMPORTED = "imported"
"""The folder (inside the saves folder) that imported saves are moved to."""


class Imported(NamedTuple):
    records: list[str]
    """The ids of the records made (or found made) from saves."""
    unreadable: list[Exception]
    """`saves.SaveError`s: saves that cannot be read (left as they are)."""
    failed: list[tuple[Path, StoreError]]
    """Saves that read but could not be stored now (left in place: tried again next time)."""


def import_saves(store: RecordStore, directory: Path) -> Imported:
    from .. import saves
    from ..table import new_header

    result = Imported([], [], [])
    for path in pending_saves(directory):
        try:
            saved = saves.read(path)
        except saves.SaveError as error:
            result.unreadable.append(error)
            continue
        try:
            mtime = path.stat().st_mtime
        except OSError as error:
            result.unreadable.append(saves.SaveError(path, str(error)))
            continue
        game = get_game(saved.game_id)
        state = saved.state
        header = new_header(game, saved.seats, state, saved.save_id, snapshot=True)
        header = header._replace(created=mtime, updated=mtime)
        outcome = None
        if game.is_over(state):
            outcome = Outcome(tuple(game.scores(state)), tuple(game.winners(state)))
        try:
            store.create(header, (), outcome)
        except RecordConflict:
            pass  # imported before, and the file not moved yet: the record stands
        except StoreError as error:
            result.failed.append((path, error))
            continue
        result.records.append(saved.save_id)
        try:
            move_imported(path)
        except OSError as error:
            reason = _("Could not move {path}: {error}").format(path=path, error=error)
            result.failed.append((path, StoreError(reason)))
    return result


def move_imported(path: Path) -> Path:
    folder = path.parent / IMPORTED
    folder.mkdir(mode=0o700, exist_ok=True)
    target = folder / path.name
    os.replace(path, target)
    return target

