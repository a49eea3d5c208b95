"""Autosave: every action is written to the user's data dir, atomically.

A save that cannot be read is reported with its path and never touched: new games are saved
under new names, so nothing a player had is overwritten or lost.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from rules import N_, Text, UnknownGame, get_game

from .i18n import render, text_from_data, text_to_data, tr
from .locations import saves_dir

if TYPE_CHECKING:
    from .dice import DiceSource
    from .table import Seat, Table

FORMAT = 1


class SaveError(Exception):
    def __init__(self, path: Path, reason: Text) -> None:
        self.path = path
        self.why = reason
        super().__init__(f"{path}: {reason}")

    @property
    def reason(self) -> str:
        """What is wrong with the save, in the player's language."""
        return render(self.why)


class SavedGame(NamedTuple):
    path: Path
    game_id: str
    seats: tuple[Seat, ...]
    state: Any
    log: tuple[Text | str, ...]
    save_id: str

    @property
    def over(self) -> bool:
        return get_game(self.game_id).is_over(self.state)

    def summary(self) -> str:
        game = get_game(self.game_id)
        names = ", ".join(seat.name for seat in self.seats)
        return tr(N_("{game} with {players}"), game=game.name, players=names)

    def table(self, dice: DiceSource, on_change: Any = None) -> Table:
        from .table import Table

        return Table(
            get_game(self.game_id),
            self.seats,
            self.state,
            dice,
            log=self.log,
            save_id=self.save_id,
            on_change=on_change,
        )


def path_for(save_id: str, directory: Path | None = None) -> Path:
    return (directory or saves_dir()) / f"game-{save_id}.json"


def write(table: Table, directory: Path | None = None) -> Path:
    """Write the table to its save file: a temp file in the same dir, then a rename."""
    path = path_for(table.save_id, directory)
    data = {
        "format": FORMAT,
        "game": table.game.id,
        "save_id": table.save_id,
        "seats": [seat.model_dump() for seat in table.seats],
        "state": table.state.model_dump(mode="json"),
        "log": [text_to_data(line) for line in table.log],
    }
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def discard(table: Table, directory: Path | None = None) -> None:
    path_for(table.save_id, directory).unlink(missing_ok=True)


def read(path: Path) -> SavedGame:
    """Read one save; SaveError says what is wrong with it. The file is only read."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError) as error:
        raise SaveError(
            path, Text(N_("not a readable save ({error})"), {"error": str(error)})
        ) from None
    if not isinstance(data, dict):
        raise SaveError(path, Text(N_("not a Cubilete save")))
    from pydantic import ValidationError  # the rules' models: loaded only when there is a save

    from .table import Seat

    if data.get("format") != FORMAT:
        raise SaveError(
            path,
            Text(
                N_("saved in format {found}, this version reads {format}"),
                {"found": data.get("format"), "format": FORMAT},
            ),
        )
    try:
        game = get_game(str(data["game"]))
        seats = tuple(Seat.model_validate(seat) for seat in data["seats"])
        state = game.load_state(data["state"])
        log = tuple(text_from_data(line) for line in data.get("log", []))
        save_id = str(data["save_id"])
    except (KeyError, TypeError, ValueError, UnknownGame, ValidationError) as error:
        reason = str(error).splitlines()[0]
        raise SaveError(path, Text(N_("damaged save ({reason})"), {"reason": reason})) from None
    if len(seats) != len(game.players(state)):
        raise SaveError(path, Text(N_("damaged save (seats do not match the players)")))
    try:  # a well-typed state can still contradict itself: ask the rules about it once
        game.pending_throw(state)
        game.legal_actions(state)
        game.scores(state)
    except Exception as error:  # any failure at all means the save is unusable
        raise SaveError(
            path, Text(N_("inconsistent save ({error})"), {"error": str(error)})
        ) from None
    return SavedGame(path, game.id, seats, state, log, save_id)


def scan(directory: Path | None = None) -> tuple[list[SavedGame], list[SaveError]]:
    """Unfinished games (newest first) and the saves that could not be read."""
    games: list[SavedGame] = []
    errors: list[SaveError] = []
    paths = sorted(
        (directory or saves_dir()).glob("game-*.json"),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for path in paths:
        try:
            saved = read(path)
        except SaveError as error:
            errors.append(error)
            continue
        if not saved.over:
            games.append(saved)
    return games, errors
