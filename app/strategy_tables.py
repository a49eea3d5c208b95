"""Strategy tables shipped in `assets/`, read once and handed to the bots.

A game's kit names its tables (`kits.StrategyTable`): Generala's value table (the expected
points still to come from every set of filled boxes, 2^13 entries) takes a few seconds of pure
Python to solve, so the app reads it from `assets/generala_table.bin` instead — the values as
little-endian IEEE 754 doubles (64 KB for Generala), read straight into an `array('d')` (no
parsing, 64 KB in memory rather than 8,192 float objects) — after checking it against its
SHA-256 in `assets/generala_table.sha256`. A table that is missing or does not match is not
used: the bots then solve it themselves, as before. Rebuild every table and its checksum with
`python -m app.strategy_tables`.
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, cast

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
