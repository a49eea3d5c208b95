"""Strategy tables shipped in `assets/`, read once and handed to the bots.

The Generala value table (the expected points still to come from every set of filled boxes,
2^13 entries) takes a few seconds of pure Python to solve; the app reads it from
`assets/generala_table.bin` instead — the 8,192 values as little-endian IEEE 754 doubles,
64 KB, read straight into an `array('d')` (no parsing, 64 KB in memory rather than 8,192 float
objects) — after checking it against its SHA-256 in `assets/generala_table.sha256`. A table
that is missing or does not match is not used: the bots then solve it themselves, as before.
Rebuild both files with `python -m app.strategy_tables`.
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from pathlib import Path

ASSETS = Path(__file__).resolve().parents[1] / "assets"
GENERALA_TABLE = ASSETS / "generala_table.bin"
GENERALA_SUM = ASSETS / "generala_table.sha256"
ENTRIES = 1 << 13
"""One value per set of filled boxes of the 13-box sheet."""

_installed: set[str] = set()


def read_generala_table(
    path: Path = GENERALA_TABLE, checksum: Path = GENERALA_SUM
) -> array[float]:
    """The shipped table; ValueError if it is missing, damaged or not the one checksummed."""
    try:
        data = path.read_bytes()
        expected = checksum.read_text(encoding="utf-8").split()[0]
    except (OSError, IndexError) as error:
        raise ValueError(f"no Generala table: {error}") from None
    if hashlib.sha256(data).hexdigest() != expected:
        raise ValueError(f"{path} does not match its checksum")
    if len(data) != ENTRIES * 8:
        raise ValueError(f"{path} holds {len(data)} bytes, not {ENTRIES} doubles")
    values = array("d")
    values.frombytes(data)
    if sys.byteorder != "little":
        values.byteswap()
    return values


def prepare(game_id: str) -> None:
    """Install what the bots of `game_id` can use from the shipped tables (once)."""
    if game_id != "generala" or game_id in _installed:
        return
    from bots.generala import TABLE

    try:
        TABLE.load(read_generala_table())
    except ValueError:
        return  # the bots solve it themselves
    _installed.add(game_id)


def build_generala_table() -> None:
    """Solve the table from scratch and write it with its checksum."""
    from bots.generala import Table

    values = array("d", Table().values())
    if sys.byteorder != "little":
        values.byteswap()
    data = values.tobytes()
    GENERALA_TABLE.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    GENERALA_SUM.write_text(f"{digest}  {GENERALA_TABLE.name}\n", encoding="utf-8")
    sys.stderr.write(f"wrote {GENERALA_TABLE} ({len(data)} bytes), sha256 {digest}\n")


if __name__ == "__main__":
    build_generala_table()
