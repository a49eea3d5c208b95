"""Strategy tables shipped in `assets/`, read once and handed to the bots.

A game's kit names its tables (`kits.StrategyTable`): Generala's value table (the expected
points still to come from every set of filled boxes, 2^13 entries) takes a few seconds of pure
Python to solve, so the app reads it from `assets/generala_table.bin` instead — the values as
little-endian IEEE 754 doubles (64 KB for Generala), read straight into an `array('d')` (no
parsing, 64 KB in memory rather than 8,192 float objects) — after checking it against its
SHA-256 in `assets/generala_table.sha256`. A table that is missing or does not match is not
used: the bots then solve it themselves, as before. Rebuild every table and its checksum with
`python -m app.strategy_tables`.

Generala's other presets and option sets (issue 30) have a table each, solved on first use in
well under a second (`bots.generala_solver`, numpy) and kept in the data dir,
`tables/generala-v1-<key>.bin` with its `.sha256` beside it, written the same way:
`prepare_options(game_id, options)` reads it back, or solves and writes it (a data dir that
cannot be written only means solving again next time).
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any, Protocol, cast

from kits import KITS, StrategyTable, kit, load

ASSETS = Path(__file__).resolve().parents[1] / "assets"

_installed: set[StrategyTable] = set()


class Holder(Protocol):
    """What a kit's `StrategyTable.holder` names: the bots' table."""

    def load(self, values: Sequence[float]) -> None: ...

    def values(self) -> list[float]: ...


def table_files(table: StrategyTable) -> tuple[Path, Path]:
    """The table's values and its checksum, in `assets/`."""
    return ASSETS / f"{table.asset}.bin", ASSETS / f"{table.asset}.sha256"


def read_table(path: Path, checksum: Path) -> array[float]:
    """A shipped table; ValueError if it is missing, damaged or not the one checksummed."""
    try:
        data = path.read_bytes()
        expected = checksum.read_text(encoding="utf-8").split()[0]
    except (OSError, IndexError) as error:
        raise ValueError(f"no strategy table: {error}") from None
    if hashlib.sha256(data).hexdigest() != expected:
        raise ValueError(f"{path} does not match its checksum")
    if len(data) % 8:
        raise ValueError(f"{path} holds {len(data)} bytes, not a whole number of doubles")
    values = array("d")
    values.frombytes(data)
    if sys.byteorder != "little":
        values.byteswap()
    return values


def holder(table: StrategyTable) -> Holder:
    return cast(Holder, load(table.holder))


def prepare(game_id: str) -> None:
    """Install what the bots of `game_id` can use from the shipped tables (each once)."""
    for table in kit(game_id).tables:
        if table in _installed:
            continue
        try:
            holder(table).load(read_table(*table_files(table)))
        except ValueError:
            continue  # the bots solve it themselves (a holder refuses a table of another size)
        _installed.add(table)


PRESET_TABLE_VERSION = 1
"""Part of a cached table's name: raised whenever the solver's tables change meaning."""


def preset_table_files(key: str, folder: Path | None = None) -> tuple[Path, Path]:
    """A Generala option set's cached table and its checksum, in the data dir's `tables/`."""
    from .locations import data_dir

    base = (folder or data_dir() / "tables") / f"generala-v{PRESET_TABLE_VERSION}-{key}"
    return base.with_suffix(".bin"), base.with_suffix(".sha256")


def write_table(values: Sequence[float], path: Path, checksum: Path) -> None:
    """Values as little-endian doubles and their SHA-256, each file replaced whole."""
    data = array("d", values)
    if sys.byteorder != "little":
        data.byteswap()
    raw = data.tobytes()
    digest = hashlib.sha256(raw).hexdigest()
    path.parent.mkdir(parents=True, exist_ok=True)
    for target, content in ((path, raw), (checksum, f"{digest}  {path.name}\n".encode())):
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(content)
        partial.replace(target)


def prepare_options(game_id: str, options: Any) -> None:
    """Make the bots' table for a game's options ready: the shipped one for the default
    options (`prepare`), else Generala's table of that option set, read from the data dir's
    cache when it is there and whole, otherwise solved now and cached."""
    if game_id != "generala":
        prepare(game_id)
        return
    from bots.generala import SEED, preset_table
    from bots.generala_solver import table_key
    from rules.generala import GeneralaOptions

    chosen = (
        options
        if isinstance(options, GeneralaOptions)
        else GeneralaOptions.model_validate(dict(cast(Mapping[str, Any], options or {})))
    )
    if chosen == SEED:
        prepare(game_id)
        return
    table = preset_table(chosen)
    if table.is_solved():
        return
    try:
        path, checksum = preset_table_files(table_key(chosen))
    except OSError:  # (locations.StorageError) no data dir at all
        table.solve_all()
        return
    try:
        table.load(read_table(path, checksum))
        return
    except ValueError:
        pass  # not cached yet, damaged, or of another size: solve it again
    table.solve_all()
    with suppress(OSError):  # a data dir that cannot be written: solved again next time
        write_table(table.values(), path, checksum)


def build(table: StrategyTable) -> None:
    """Solve a table from scratch and write it with its checksum."""
    path, checksum = table_files(table)
    values = array("d", holder(table).values())
    if sys.byteorder != "little":
        values.byteswap()
    data = values.tobytes()
    path.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    checksum.write_text(f"{digest}  {path.name}\n", encoding="utf-8")
    sys.stderr.write(f"wrote {path} ({len(data)} bytes), sha256 {digest}\n")


if __name__ == "__main__":
    for game in KITS.values():
        for table in game.tables:
            build(table)
