"""Autosave: every action is written to the user's data dir, atomically.

A save that cannot be read is reported with its path and never touched: new games are saved
under new names, so nothing a player had is overwritten or lost.

The reader trusts nothing in the saves folder: it opens regular files only (never a FIFO, a
device or a link that leads out of the folder), reads at most `MAX_SAVE_BYTES`, and checks
every field's type before the rules see the state. Whatever it finds, it answers with a
`SavedGame` or a `SaveError`, never anything else.
"""

from __future__ import annotations

import errno
import json
import os
import random
import re
import stat
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from kits import KITS
from rules import IllegalAction, Text, get_game

from .i18n import _, text_from_data, text_to_data
from .locations import StorageError, cannot_write, saves_dir

if TYPE_CHECKING:
    from .dice import DiceSource
    from .table import Seat, Table

try:
    import fcntl
except ImportError:  # (not on Windows: stale temporary files are then cleaned by age)
    fcntl = None  # type: ignore[assignment]  # the module or nothing

FORMAT = 1
MAX_SAVE_BYTES = 16 * 1024 * 1024
"""The largest file read as a save. A long game's save is well under 1 MB; anything bigger
was not written by Cubilete, and reading it whole could exhaust the memory."""
SAVE_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
"""A save id is a plain token (the app makes 32 hex digits): safe in a file name."""
SAVE_PREFIX, SAVE_SUFFIX = "game-", ".json"
TEMP_PREFIX = ".tmp-"
"""A save is written to `.tmp-XXXX.json` first, then renamed over `game-<id>.json`."""
FIELDS = frozenset({"format", "game", "save_id", "seats", "state", "log"})
STALE_TEMP_SECONDS = 3600
"""Without file locks (Windows), a temporary file this old is taken for a dead writer's."""

O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class SaveError(Exception):
    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class SavedGame(NamedTuple):
    path: Path
    game_id: str
    seats: tuple[Seat, ...]
    state: Any
    log: tuple[Text | str, ...]
    """What happened, as messages (shown in the reader's language)."""
    save_id: str

    @property
    def over(self) -> bool:
        return get_game(self.game_id).is_over(self.state)

    def summary(self) -> str:
        game = get_game(self.game_id)
        names = ", ".join(seat.name for seat in self.seats)
        return _("{game} with {players}").format(game=game.name, players=names)

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
    if not isinstance(save_id, str) or not SAVE_ID.fullmatch(save_id):
        raise ValueError(f"not a save id: {save_id!r}")
    return (directory or saves_dir()) / f"{SAVE_PREFIX}{save_id}{SAVE_SUFFIX}"


# -- writing ------------------------------------------------------------------------------------


def write(table: Table, directory: Path | None = None) -> Path:
    """Write the table to its save file: a temp file in the same dir, then a rename.

    The temp file is locked while it exists, so that `prepare` can tell a dead writer's
    leftover (unlocked: removed) from one being written by another instance (kept).
    """
    path = path_for(table.save_id, directory)
    data = {
        "format": FORMAT,
        "game": table.game.id,
        "save_id": table.save_id,
        "seats": [seat.model_dump() for seat in table.seats],
        "state": table.state.model_dump(mode="json"),
        "log": [text_to_data(line) for line in table.log],
    }
    for _attempt in range(5):
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=SAVE_SUFFIX, dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                if fcntl is not None:
                    fcntl.flock(f.fileno(), fcntl.LOCK_EX)
                    if os.fstat(f.fileno()).st_nlink == 0:
                        continue  # another instance's clean-up took it for a leftover: again
                json.dump(data, f, ensure_ascii=False)
                f.flush()
                os.fsync(f.fileno())
                os.replace(tmp, path)  # (still locked: the clean-up never sees it unlocked)
            return path
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    raise OSError(errno.EAGAIN, "the save's temporary file kept being removed", str(path))


def discard(table: Table, directory: Path | None = None) -> None:
    path_for(table.save_id, directory).unlink(missing_ok=True)


def prepare(directory: Path | None = None) -> Path:
    """Get the saves folder ready at start: made if missing, the temporary files of writes
    that were killed removed, and proved writable. StorageError says why it cannot be used."""
    folder = directory or saves_dir()
    remove_leftovers(folder)
    try:
        fd, probe = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=SAVE_SUFFIX, dir=folder)
    except OSError as error:
        raise cannot_write(folder, error) from None
    os.close(fd)
    Path(probe).unlink(missing_ok=True)
    return folder


def remove_leftovers(folder: Path) -> list[str]:
    """Remove the `.tmp-*.json` files that no live write holds (a write killed half-way
    leaves one). Only those: nothing else in the folder is touched. Returns their names."""
    removed: list[str] = []
    try:
        names = [n for n in os.listdir(folder) if _is_temp_name(n)]
    except OSError:
        return removed
    for name in names:
        path = folder / name
        try:
            fd = os.open(path, os.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        except OSError:  # gone already, a link, or not ours to open
            continue
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or not _abandoned(fd, info):
                continue
            if os.stat(path, follow_symlinks=False).st_ino == info.st_ino:
                os.unlink(path)
                removed.append(name)
        except OSError:
            continue
        finally:
            os.close(fd)  # (releases the lock)
    return removed


def _is_temp_name(name: str) -> bool:
    return name.startswith(TEMP_PREFIX) and name.endswith(SAVE_SUFFIX)


def _abandoned(fd: int, info: os.stat_result) -> bool:
    """No live writer holds this temp file (its lock is free), or, without locks, it is old."""
    if fcntl is None:
        return time.time() - info.st_mtime > STALE_TEMP_SECONDS
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


# -- reading ------------------------------------------------------------------------------------


def read(path: Path) -> SavedGame:
    """Read one save; SaveError says what is wrong with it. The file is only read."""
    raw = _read_regular_file(path)
    try:
        data = json.loads(raw)
    except RecursionError:
        raise SaveError(path, _("damaged save (nested too deeply)")) from None
    except ValueError as error:
        raise SaveError(path, _("not a readable save ({error})").format(error=error)) from None
    if not isinstance(data, dict):
        raise SaveError(path, _("not a Cubilete save"))
    found = data.get("format")
    if type(found) is not int or found != FORMAT:
        raise SaveError(
            path,
            _("saved in format {found}, this version reads {format}").format(
                found=_shown(found), format=FORMAT
            ),
        )
    try:
        return _check(path, data)
    except SaveError:
        raise
    except Exception as error:  # whatever the rules make of a hand-made state: unusable
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise SaveError(path, _("inconsistent save ({error})").format(error=reason)) from None


def _check(path: Path, data: dict[str, Any]) -> SavedGame:
    from pydantic import ValidationError  # the rules' models: loaded only when there is a save

    from .table import Seat

    def damaged(reason: str) -> SaveError:
        return SaveError(path, _("damaged save ({reason})").format(reason=reason))

    unknown = sorted(set(data) - FIELDS, key=str)
    if unknown:
        raise damaged(_("unknown field {field}").format(field=_shown(unknown[0])))
    for field in ("game", "save_id", "seats", "state"):
        if field not in data:
            raise damaged(_("no {field}").format(field=field))
    game_id, save_id, seats, state = data["game"], data["save_id"], data["seats"], data["state"]
    log = data.get("log", [])
    if not isinstance(game_id, str) or game_id not in KITS:
        raise damaged(_("no game called {game}").format(game=_shown(game_id)))
    if not isinstance(save_id, str) or not SAVE_ID.fullmatch(save_id):
        raise damaged(_("save_id {value} is not a plain name").format(value=_shown(save_id)))
    if not isinstance(seats, list) or not all(isinstance(seat, dict) for seat in seats):
        raise damaged(_("seats is not a list of seats"))
    if not isinstance(state, dict):
        raise damaged(_("state is not an object"))
    try:  # each line a message (template and values), or words (a save from before those)
        messages = tuple(text_from_data(line) for line in log) if isinstance(log, list) else None
    except (ValueError, TypeError, AttributeError, RecursionError):
        messages = None
    if messages is None:
        raise damaged(_("log is not a list of lines"))
    game = get_game(game_id)
    try:
        checked_seats = tuple(Seat.model_validate(seat, strict=True) for seat in seats)
    except ValidationError as error:
        raise damaged(_first_problem("seats", error)) from None
    try:
        checked_state = game.load_state(state)
    except ValidationError as error:
        raise damaged(_first_problem("state", error)) from None
    except (RecursionError, ValueError, TypeError):
        raise damaged(_("state is not plain JSON")) from None
    if len(checked_seats) != len(game.players(checked_state)):
        raise damaged(_("seats do not match the players"))
    _probe(game, checked_state)
    return SavedGame(path, game.id, checked_seats, checked_state, messages, save_id)


PROBES, PROBE_STEPS = 2, 40
"""Seeded random continuations a read save is played through (≈ 2 ms a save): found 36 of
the 45 hand-made contradictions that random play later tripped over, in 20,000 mutated
saves of all five games (docs/reliability.md)."""


def _probe(game: Any, state: Any) -> None:
    """A well-typed state can still contradict itself (a seat that does not exist, a round
    the sheets do not match): play it on a little, as the table would, on seeded dice. A
    state that waits for nothing (no dice, no decision, not over), a move it offers that the
    rules then refuse, or anything at all the rules raise makes `read` report the save as
    inconsistent."""
    rng = random.Random(0)
    for _probe_number in range(PROBES):
        before = state
        for _step in range(PROBE_STEPS):
            legal = game.legal_actions(before)
            pending = game.pending_throw(before)
            deciding = game.current_player(before) is not None and bool(legal)
            if (pending is not None) + deciding + game.is_over(before) != 1:
                raise ValueError(_("the game waits for nothing"))
            game.scores(before)
            if pending is not None:
                event: Any = tuple(rng.randint(1, 6) for _ in range(pending.count))
                try:
                    after = game.apply_chance(before, event)
                except IllegalAction:
                    raise ValueError(_("the dice it waits for cannot be thrown")) from None
            elif deciding:
                event = rng.choice(legal)
                try:
                    after = game.apply(before, event)
                except IllegalAction:
                    raise ValueError(_("a move it offers is refused")) from None
            else:
                break
            game.narrate(before, event, after)
            before = after


def _first_problem(where: str, error: Any) -> str:
    """`state.round: Input should be a valid integer` — the first field pydantic refused."""
    problems = error.errors()
    if not problems:
        return where
    first = problems[0]
    field = ".".join(str(part) for part in (where, *first["loc"]))
    return f"{field}: {first['msg']}"


def _read_regular_file(path: Path) -> bytes:
    """The bytes of the save at `path`, if it is a regular file in its folder (or a link to
    one in the same folder) of at most MAX_SAVE_BYTES. It is opened without blocking and
    checked again once open, so a FIFO, a device or a file swapped meanwhile is refused."""
    try:
        info = os.lstat(path)
        target = path
        if stat.S_ISLNK(info.st_mode):
            target = _link_target(path)
            info = os.stat(target, follow_symlinks=False)
        _check_kind(path, info)
        fd = os.open(target, os.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    except OSError as error:
        raise SaveError(path, _unreadable(error)) from None
    try:
        _check_kind(path, os.fstat(fd))
        chunks, size = [], 0
        while chunk := os.read(fd, min(1 << 20, MAX_SAVE_BYTES + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_SAVE_BYTES:
                raise SaveError(path, _too_large())
        return b"".join(chunks)
    except OSError as error:
        raise SaveError(path, _unreadable(error)) from None
    finally:
        os.close(fd)


def _link_target(path: Path) -> Path:
    """Where the link at `path` leads, if that is a file in the link's own folder."""
    try:
        target = Path(os.path.realpath(path, strict=True))
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise SaveError(path, _("a link that loops back on itself")) from None
        raise SaveError(path, _("a link to a file that does not exist")) from None
    if target.parent != Path(os.path.realpath(path.parent)):
        raise SaveError(
            path,
            _("a link to {target}, outside the saves folder: not followed").format(target=target),
        )
    return target


def _check_kind(path: Path, info: os.stat_result) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise SaveError(path, _("not a regular file ({kind})").format(kind=_kind(info.st_mode)))
    if info.st_size > MAX_SAVE_BYTES:
        raise SaveError(path, _too_large())


def _kind(mode: int) -> str:
    kinds = [
        (stat.S_ISDIR, _("a folder")),
        (stat.S_ISFIFO, _("a named pipe")),
        (stat.S_ISSOCK, _("a socket")),
        (stat.S_ISCHR, _("a device")),
        (stat.S_ISBLK, _("a device")),
        (stat.S_ISLNK, _("a link")),
    ]
    return next((name for test, name in kinds if test(mode)), _("not a file"))


def _too_large() -> str:
    return _("larger than {size} MB: not a save Cubilete wrote").format(
        size=MAX_SAVE_BYTES // (1024 * 1024)
    )


def _unreadable(error: OSError) -> str:
    reason = error.strerror or str(error)
    return _("not a readable save ({error})").format(error=reason)


def _shown(value: object) -> str:
    """A value from a save as a message may quote it: its JSON, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else f"{text[:39]}…"


# -- scanning -----------------------------------------------------------------------------------


def scan(directory: Path | None = None) -> tuple[list[SavedGame], list[SaveError]]:
    """Unfinished games (newest first) and the saves that could not be read.

    Never raises: an unusable saves folder is no games; a save removed by another instance
    while this one looks is no game either (not an error)."""
    try:
        folder = directory or saves_dir()
        names = [n for n in os.listdir(folder) if n.startswith(SAVE_PREFIX)]
    except StorageError:
        return [], []
    except OSError as error:  # (the folder exists but cannot be listed)
        return [], [SaveError(folder, _unreadable(error))]
    dated: list[tuple[int, Path]] = []
    errors: list[SaveError] = []
    for name in names:
        if not name.endswith(SAVE_SUFFIX):
            continue
        path = folder / name
        try:
            dated.append((os.lstat(path).st_mtime_ns, path))
        except FileNotFoundError:
            continue
        except OSError as error:
            errors.append(SaveError(path, _unreadable(error)))
    dated.sort(key=lambda item: item[0], reverse=True)
    games: list[SavedGame] = []
    for _mtime, path in dated:
        try:
            saved = read(path)
        except SaveError as error:
            if os.path.lexists(path):
                errors.append(error)
            continue
        if not saved.over:
            games.append(saved)
    return games, errors
