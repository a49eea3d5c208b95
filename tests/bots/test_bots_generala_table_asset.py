"""The Generala value table shipped in assets/: checksummed, and the same as a fresh solve."""

from __future__ import annotations

import hashlib
from array import array

import pytest

from app import strategy_tables
from bots.generala import BOXES, Table

FULL = (1 << len(BOXES)) - 1


@pytest.fixture(scope="module")
def shipped() -> array[float]:
    return strategy_tables.read_generala_table()


def test_the_shipped_table_matches_its_checksum():
    data = strategy_tables.GENERALA_TABLE.read_bytes()
    expected = strategy_tables.GENERALA_SUM.read_text().split()[0]
    assert hashlib.sha256(data).hexdigest() == expected


def test_a_damaged_table_is_refused(tmp_path):
    damaged = tmp_path / "table.bin"
    damaged.write_bytes(strategy_tables.GENERALA_TABLE.read_bytes().replace(b"1", b"2", 1))
    with pytest.raises(ValueError, match="checksum"):
        strategy_tables.read_generala_table(damaged, strategy_tables.GENERALA_SUM)


def test_a_table_of_the_wrong_size_is_refused_even_with_a_matching_checksum(tmp_path):
    short = tmp_path / "table.bin"
    short.write_bytes(strategy_tables.GENERALA_TABLE.read_bytes()[:-8])
    checksum = tmp_path / "table.sha256"
    checksum.write_text(hashlib.sha256(short.read_bytes()).hexdigest() + "  table.bin\n")
    with pytest.raises(ValueError, match="doubles"):
        strategy_tables.read_generala_table(short, checksum)


def test_the_table_has_one_value_per_sheet_and_nothing_left_on_a_full_sheet(shipped):
    assert len(shipped) == FULL + 1
    assert shipped[FULL] == 0
    assert all(value >= 0 for value in shipped)


def test_the_table_is_8192_doubles_read_as_one_array(shipped):
    """64 KB on disk and in memory, read without parsing: not 8,192 float objects."""
    assert strategy_tables.GENERALA_TABLE.stat().st_size == (FULL + 1) * 8
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
