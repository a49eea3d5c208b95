"""The Generala value table shipped in assets/: checksummed, and the same as a fresh solve."""

from __future__ import annotations

import hashlib

import pytest

from app import strategy_tables
from bots.generala import BOXES, Table
from kits import kit

FULL = (1 << len(BOXES)) - 1
(GENERALA,) = kit("generala").tables
VALUES, CHECKSUM = strategy_tables.table_files(GENERALA)


@pytest.fixture(scope="module")
def shipped() -> list[float]:
    return strategy_tables.read_table(VALUES, CHECKSUM)


def test_the_shipped_table_matches_its_checksum():
    data = VALUES.read_bytes()
    expected = CHECKSUM.read_text().split()[0]
    assert hashlib.sha256(data).hexdigest() == expected


def test_a_damaged_table_is_refused(tmp_path):
    damaged = tmp_path / "table.json"
    damaged.write_bytes(VALUES.read_bytes().replace(b"1", b"2", 1))
    with pytest.raises(ValueError, match="checksum"):
        strategy_tables.read_table(damaged, CHECKSUM)


def test_the_table_has_one_value_per_sheet_and_nothing_left_on_a_full_sheet(shipped):
    assert len(shipped) == FULL + 1
    assert shipped[FULL] == 0
    assert all(value >= 0 for value in shipped)


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
