"""Generala's preset tables: the optimal expected scores docs/strategy.md gives, recomputed
from scratch, and the tables the app caches in its data dir (checksummed, read back, solved
again when damaged)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from app import strategy_tables
from bots import generala
from bots.generala_solver import PresetTable, table_key
from rules.generala import GeneralaOptions

DOCS = Path(__file__).resolve().parents[1] / "docs" / "strategy.md"

DOCUMENTED = {
    "Argentina": GeneralaOptions(preset="argentina"),
    "Argentina + escalera al as": GeneralaOptions(preset="argentina", escalera_al_as=True),
    "Argentina + servido +10": GeneralaOptions(preset="argentina", servido=10),
    "Familia": GeneralaOptions(preset="familia"),
}


def documented_scores() -> dict[str, float]:
    """The rows `| <option set> (…) | **<score>** |` of docs/strategy.md's presets table."""
    found = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"\| ([^|(]+?)(?: \([^|]*\))? \| \*\*(\d+\.\d{4})\*\* \|", line)
        if match:
            found[match.group(1)] = float(match.group(2))
    return found


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A data dir of the test's own, and no table of an option set solved yet."""
    monkeypatch.setenv("CUBILETE_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(generala, "PRESET_TABLES", {})
    return tmp_path


def test_the_docs_give_the_four_option_sets():
    assert set(documented_scores()) == set(DOCUMENTED)


@pytest.mark.parametrize("name", list(DOCUMENTED))
def test_each_documented_score_is_recomputed_from_scratch_and_is_the_cached_tables(name, data_dir):
    options = DOCUMENTED[name]
    fresh = PresetTable(options).values()
    assert round(fresh[0], 4) == documented_scores()[name]
    strategy_tables.prepare_options("generala", options)
    cached = strategy_tables.read_table(*strategy_tables.preset_table_files(table_key(options)))
    assert list(cached) == pytest.approx(fresh, abs=1e-9)
    assert generala.preset_table(options).value(0) == pytest.approx(fresh[0], abs=1e-9)


def test_the_first_use_writes_the_table_and_its_checksum(data_dir):
    options = GeneralaOptions(preset="familia", obligada=True)
    strategy_tables.prepare_options("generala", options.model_dump())
    path, checksum = strategy_tables.preset_table_files(table_key(options))
    assert path.parent == data_dir / "tables"
    assert path.name == "generala-v1-familia-servido10-noalas-doble-obligada.bin"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert checksum.read_text() == f"{digest}  {path.name}\n"
    assert not list(path.parent.glob("*.partial"))


def test_a_cached_table_is_read_back_rather_than_solved(data_dir):
    """Proof that the file is read: a table cached with one value changed (and a checksum
    that matches it) is the table the bots then use."""
    options = GeneralaOptions(preset="argentina", obligada=True)
    values = PresetTable(options).values()
    values[0] += 1000.0
    strategy_tables.write_table(values, *strategy_tables.preset_table_files(table_key(options)))
    strategy_tables.prepare_options("generala", options)
    assert generala.preset_table(options).value(0) == values[0]


def test_a_damaged_table_is_solved_again_and_rewritten(data_dir):
    options = GeneralaOptions(preset="argentina", obligada=True)
    path, _ = strategy_tables.preset_table_files(table_key(options))
    strategy_tables.prepare_options("generala", options)
    good = path.read_bytes()
    path.write_bytes(good[:8] + bytes(len(good) - 8))  # the checksum no longer matches
    generala.PRESET_TABLES.clear()
    strategy_tables.prepare_options("generala", options)
    assert generala.preset_table(options).value(0) == pytest.approx(74.9371, abs=1e-4)
    assert path.read_bytes() == good


def test_a_data_dir_that_cannot_be_written_only_costs_a_solve(data_dir):
    (data_dir / "tables").write_text("a file where the folder should be")
    options = GeneralaOptions(preset="familia", obligada=True)
    strategy_tables.prepare_options("generala", options)
    assert generala.preset_table(options).value(0) == pytest.approx(99.3982, abs=1e-4)


def test_the_seeds_game_uses_the_shipped_table_and_caches_nothing(data_dir):
    strategy_tables.prepare_options("generala", {})
    strategy_tables.prepare_options("barco", {})
    assert generala.PRESET_TABLES == {}
    assert not (data_dir / "tables").exists()
    assert generala.TABLE.complete
