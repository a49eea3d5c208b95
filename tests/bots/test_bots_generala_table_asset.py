"""The Generala value table shipped in assets/: checksummed, and the same as a fresh solve."""

from __future__ import annotations

import hashlib
from array import array
from pathlib import Path

import pytest

from app import strategy_tables
from bots.generala import BOXES, Table
from kits import kit

FULL = (1 << len(BOXES)) - 1
(GENERALA,) = kit("generala").tables
VALUES, CHECKSUM = strategy_tables.table_files(GENERALA)


@pytest.fixture(scope="module")
def shipped() -> array[float]:
    return strategy_tables.read_table(VALUES, CHECKSUM)


def test_the_shipped_table_matches_its_checksum():
    data = VALUES.read_bytes()
    expected = CHECKSUM.read_text().split()[0]
    assert hashlib.sha256(data).hexdigest() == expected


def test_a_damaged_table_is_refused(tmp_path):
    damaged = tmp_path / "table.bin"
    damaged.write_bytes(VALUES.read_bytes().replace(b"\x40", b"\x41", 1))
    with pytest.raises(ValueError, match="checksum"):
        strategy_tables.read_table(damaged, CHECKSUM)


def test_a_table_of_the_wrong_size_is_refused_even_with_a_matching_checksum(tmp_path):
    def checksummed(data: bytes) -> tuple[Path, Path]:
        path, checksum = tmp_path / "table.bin", tmp_path / "table.sha256"
        path.write_bytes(data)
        checksum.write_text(hashlib.sha256(data).hexdigest() + "  table.bin\n")
        return path, checksum

    with pytest.raises(ValueError, match="doubles"):
        strategy_tables.read_table(*checksummed(VALUES.read_bytes()[:-3]))
    one_short = strategy_tables.read_table(*checksummed(VALUES.read_bytes()[8:]))
    with pytest.raises(ValueError, match="values"):
        Table().load(one_short)


def test_the_table_has_one_value_per_sheet_and_nothing_left_on_a_full_sheet(shipped):
    assert len(shipped) == FULL + 1
    assert shipped[FULL] == 0
    assert all(value >= 0 for value in shipped)


def test_the_table_is_8192_doubles_read_as_one_array(shipped):
    """64 KB on disk and in memory, read without parsing: not 8,192 float objects."""
    assert VALUES.stat().st_size == (FULL + 1) * 8
    assert isinstance(shipped, array) and shipped.typecode == "d"


# Sheets with few boxes left: a fresh solve of each costs at most 2^6 turn solutions.
SAMPLE = [FULL ^ (1 << i) for i in range(len(BOXES))] + [
    FULL ^ 0b1_0000_0000_0011,
    FULL ^ 0b0_0111_0000_0000,
    FULL ^ 0b0_0000_0011_1100,
    FULL ^ 0b1_1000_0100_0001,
    FULL ^ 0b0_1010_1010_0000,
]


@pytest.mark.parametrize("mask", SAMPLE, ids=lambda m: f"{m:013b}")
def test_a_sample_of_entries_recomputed_from_scratch_agrees(shipped, mask):
    assert Table().value(mask) == pytest.approx(shipped[mask], abs=1e-9)


def test_the_app_hands_the_shipped_table_to_the_bots(shipped):
    from bots.generala import TABLE

    strategy_tables.prepare("generala")
    assert TABLE.complete
    assert TABLE.value(0) == shipped[0]
    assert TABLE.values() == list(shipped)
