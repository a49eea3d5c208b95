"""The lobby's memory: each game's table as it was last set up (how many play, each seat's
name and who plays it, the options as typed), kept between games and between runs.

One small JSON file in the data dir (`locations.settings_path()`), written atomically (a temp
file beside it, then a rename). What is read is checked against the catalogue: a game, an
option or a value the lobby no longer offers is dropped, and the rest is kept. A file that
cannot be read at all is ignored (the lobby says so in one line and starts from its defaults);
it is replaced the next time the settings are written. No Textual here: plain data.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple, cast

from .catalog import GameInfo, OptionField, catalog
from .games import SEAT_KINDS, SeatKind
from .i18n import LANGUAGES, _
from .locations import StorageError, data_dir, settings_path

FORMAT = 1
SETTINGS_FILE = "settings.json"
MAX_SEATS = 8
NAME_WIDTH = 16
"""A seat's name is at most this long (the sheet's name field)."""
NUMBER_CHARS = {"int": "0123456789-", "float": "0123456789.-"}
"""What may be typed into a number option."""


class TableSetup(NamedTuple):
    """One game's table as the lobby's sheet holds it."""

    players: int
    """How many sit at the table."""
    seats: tuple[tuple[str, SeatKind], ...]
    """Name and kind of each seat, from the first (as many as were set up, up to 8)."""
    options: Mapping[str, Any]
    """Option name -> value as typed: bools and choices as they are, numbers as text."""

    def to_json(self) -> dict[str, Any]:
        return {
            "count": self.players,
            "seats": [{"name": name, "kind": kind} for name, kind in self.seats],
            "options": dict(self.options),
        }


class SettingsError(Exception):
    """The settings file exists but cannot be used; `str()` is one line for the lobby."""


Setups = dict[str, TableSetup]


def load(path: Path | None = None) -> Setups:
    """Each game's setup from the settings file ({} when there is none yet). Anything the
    catalogue does not offer is dropped. Raises SettingsError if the file cannot be read."""
    try:
        path = path or settings_path()
        raw = path.read_bytes()
    except (FileNotFoundError, StorageError):
        # (no file yet; or no usable data dir, which the lobby already says once)
        return {}
    except OSError as error:
        raise SettingsError(f"{error.filename or path}: {error.strerror or error}") from None
    try:
        data = json.loads(raw)
    except ValueError as error:
        raise SettingsError(f"{path}: " + _("damaged ({error})").format(error=error)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SettingsError(f"{path}: " + _("not settings this version reads"))
    games = data.get("games")
    if not isinstance(games, dict):
        return {}
    known = catalog()
    setups: Setups = {}
    for game_id, entry in games.items():
        if game_id in known and isinstance(entry, dict):
            setup = checked(known[game_id], entry)
            if setup is not None:
                setups[game_id] = setup
    return setups


def save(
    setups: Mapping[str, TableSetup], path: Path | None = None, last_game: str | None = None
) -> None:
    """Write every game's setup, and the game last played (None: kept as it was),
    atomically (the language kept as it was). Raises OSError."""
    path = path or settings_path()
    data: dict[str, Any] = {
        "format": FORMAT,
        "games": {game: setup.to_json() for game, setup in setups.items()},
    }
    if (language := remembered_language(path)) is not None:
        data["language"] = language
    if (last_game := last_game or remembered_game(path)) is not None:
        data["last_game"] = last_game
    _write(data, path)


def remembered_game(path: Path | None = None) -> str | None:
    """The game last played (started or resumed), for the lobby to offer first at the next
    start. Never fails: a missing, unreadable or unknown value means "none"."""
    try:
        path = path or data_dir(create=False) / SETTINGS_FILE
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError, StorageError):
        return None
    game = data.get("last_game") if isinstance(data, dict) else None
    return game if isinstance(game, str) and game in catalog() else None


# -- the language ---------------------------------------------------------------------------
def remembered_language(path: Path | None = None) -> str | None:
    """The language the player chose in the lobby or the palette, if any. Never fails: a
    missing, unreadable or unknown value means "not chosen". Reading leaves no trace (no data
    dir is made: `cubilete --help` reads it too)."""
    try:
        path = path or data_dir(create=False) / SETTINGS_FILE
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    code = data.get("language") if isinstance(data, dict) else None
    return code if code in LANGUAGES else None


def remember_language(code: str, path: Path | None = None) -> None:
    """Keep the player's language for the next start, beside each game's setup (a file that
    cannot be read is replaced). Raises OSError if it cannot be written."""
    path = path or settings_path()
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        data = {"format": FORMAT, "games": {}}
    data["language"] = code
    _write(data, path)


def _write(data: Mapping[str, Any], path: Path) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-settings-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# -- checking what was read against the catalogue ------------------------------------------
def checked(game: GameInfo, entry: Mapping[str, Any]) -> TableSetup | None:
    """A game's setup as read, keeping only what the game offers now; None if nothing is
    left worth keeping (no valid player count)."""
    count = entry.get("count")
    low, high = game.min_players, min(game.max_players, MAX_SEATS)
    if not isinstance(count, int) or isinstance(count, bool) or not low <= count <= high:
        return None
    seats: list[tuple[str, SeatKind]] = []
    raw_seats = entry.get("seats")
    for seat in raw_seats[:MAX_SEATS] if isinstance(raw_seats, list) else []:
        name = seat.get("name") if isinstance(seat, dict) else None
        kind = seat.get("kind") if isinstance(seat, dict) else None
        if not (isinstance(name, str) and _is_name(name) and kind in SEAT_KINDS):
            break  # the seats after a bad one would shift: keep those before it only
        seats.append((name, cast(SeatKind, kind)))
    raw_options = entry.get("options")
    options = {}
    if isinstance(raw_options, dict):
        for field in game.options:
            value = raw_options.get(field.name)
            if value is not None and valid_value(field, value):
                options[field.name] = value
    return TableSetup(count, tuple(seats), options)


def _is_name(name: str) -> bool:
    return len(name) <= NAME_WIDTH and name.isprintable()


def valid_value(field: OptionField, value: Any) -> bool:
    """Whether `value` is something the sheet could hold for this option."""
    if field.kind == "bool":
        return isinstance(value, bool)
    if field.kind == "choice":
        return value in field.choices
    if field.kind in NUMBER_CHARS:
        allowed = NUMBER_CHARS[field.kind]
        return isinstance(value, str) and len(value) <= NAME_WIDTH and set(value) <= set(allowed)
    return isinstance(value, str) and len(value) <= NAME_WIDTH and value.isprintable()
