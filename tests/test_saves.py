"""Autosave (app/saves.py, app/locations.py): atomic writes, and damaged saves left untouched."""

from __future__ import annotations

import json
import os
import stat

import pytest

from app import saves
from app.dice import LoadedDice, RandomDice
from app.locations import data_dir, saves_dir
from app.table import Seat, Table
from rules.generala import Box, Fill, Roll


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """Every test gets its own data dir; nothing touches the real one."""
    home = tmp_path / "cubilete-data"
    monkeypatch.setenv("CUBILETE_DATA_DIR", str(home))
    return home


def started_table(*names: str) -> Table:
    table = Table.new(
        "generala", [Seat(name=n) for n in names], dice=LoadedDice([6, 1, 2, 2, 2, 5, 5])
    )
    table.act(Roll())
    return table


def finished_table() -> Table:
    table = Table.new("generala", [Seat(name="Solo")], dice=RandomDice(5))
    while not table.over:
        table.act(Roll())
        table.act(next(a for a in table.game.legal_actions(table.state) if isinstance(a, Fill)))
    return table


def save_files(directory):
    return sorted(p.name for p in directory.iterdir())


# -- where saves live -------------------------------------------------------------------------


def test_the_data_dir_is_created_private_to_the_user(data_home):
    assert not data_home.exists()
    assert data_dir() == data_home
    assert stat.S_IMODE(data_home.stat().st_mode) == 0o700
    assert stat.S_IMODE(saves_dir().stat().st_mode) == 0o700
    assert saves_dir() == data_home / "saves"


# -- writing and reading ----------------------------------------------------------------------


def test_a_saved_table_reads_back_exactly():
    table = started_table("Ana", "Beto")
    path = saves.write(table)
    assert path.parent == saves_dir()
    saved = saves.read(path)
    assert saved.game_id == "generala"
    assert saved.seats == table.seats
    assert saved.state == table.state
    assert saved.log == tuple(table.log)
    assert saved.save_id == table.save_id
    assert not saved.over
    assert saved.summary() == "Generala with Ana, Beto"


def test_a_read_save_plays_on_where_it_stopped():
    table = started_table("Ana", "Beto")
    resumed = saves.read(saves.write(table)).table(LoadedDice([]))
    resumed.act(Fill(box=Box.FULL))
    assert resumed.state.sheets[0][8] == 25
    assert resumed.current_player() == 1
    assert resumed.save_id == table.save_id


def test_saving_again_replaces_the_same_file():
    table = started_table("Ana", "Beto")
    first = saves.write(table)
    table.act(Fill(box=Box.FULL))
    assert saves.write(table) == first
    assert saves.read(first).state == table.state
    assert save_files(saves_dir()) == [first.name]


def test_an_atomic_write_leaves_no_temporary_file():
    saves.write(started_table("Ana", "Beto"))
    saves.write(started_table("Caro"))
    assert all(name.startswith("game-") for name in save_files(saves_dir()))
    assert len(save_files(saves_dir())) == 2


def test_a_write_that_fails_keeps_the_previous_save_and_leaves_no_temporary_file(monkeypatch):
    table = started_table("Ana", "Beto")
    path = saves.write(table)
    before = path.read_bytes()
    table.act(Fill(box=Box.FULL))

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves.json, "dump", disk_full)
    with pytest.raises(OSError):
        saves.write(table)
    assert path.read_bytes() == before
    assert save_files(saves_dir()) == [path.name]


def test_discard_removes_the_save():
    table = started_table("Ana")
    path = saves.write(table)
    saves.discard(table)
    assert not path.exists()
    saves.discard(table)


# -- scanning ---------------------------------------------------------------------------------


def test_scan_offers_unfinished_games_newest_first():
    old, new, done = started_table("Ana"), started_table("Beto"), finished_table()
    for mtime, table in ((1_000_000, old), (3_000_000, new), (4_000_000, done)):
        path = saves.write(table)
        os.utime(path, (mtime, mtime))
    games, errors = saves.scan()
    assert [g.save_id for g in games] == [new.save_id, old.save_id]
    assert errors == []


def test_scan_of_an_empty_data_dir_finds_nothing():
    assert saves.scan() == ([], [])


def write_damaged(name: str, content: bytes):
    path = saves_dir() / name
    path.write_bytes(content)
    return path


def good_save_data() -> dict:
    return json.loads(saves.write(started_table("Ana", "Beto")).read_bytes())


def damaged_saves() -> dict[str, bytes]:
    data = good_save_data()
    wrong_format = {**data, "format": 99}
    unknown_game = {**data, "game": "parchis"}
    bad_state = {**data, "state": {**data["state"], "round": "thirteen"}}
    no_seats = {k: v for k, v in data.items() if k != "seats"}
    return {
        "game-corrupt.json": b'{"format": 1, "game": "gener',
        "game-not-utf8.json": b"\xff\xfe\x00garbage",
        "game-a-list.json": b"[1, 2, 3]",
        "game-wrong-format.json": json.dumps(wrong_format).encode(),
        "game-unknown-game.json": json.dumps(unknown_game).encode(),
        "game-hand-edited.json": json.dumps(bad_state).encode(),
        "game-no-seats.json": json.dumps(no_seats).encode(),
    }


def test_damaged_saves_are_reported_with_their_path_and_left_byte_for_byte():
    contents = damaged_saves()
    damaged = {name: write_damaged(name, content) for name, content in contents.items()}
    stamps = {name: path.stat().st_mtime_ns for name, path in damaged.items()}
    games, errors = saves.scan()
    assert len(games) == 1, "the good save is still offered"
    assert sorted(e.path.name for e in errors) == sorted(damaged)
    assert all(e.reason for e in errors)
    for name, content in contents.items():
        assert damaged[name].read_bytes() == content
        assert damaged[name].stat().st_mtime_ns == stamps[name]


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("game-corrupt.json", "not a readable save"),
        ("game-a-list.json", "not a Cubilete save"),
        ("game-wrong-format.json", "saved in format 99, this version reads 1"),
        ("game-unknown-game.json", "damaged save"),
        ("game-hand-edited.json", "damaged save"),
        ("game-no-seats.json", "damaged save"),
    ],
)
def test_each_kind_of_damage_is_explained(name, reason):
    path = write_damaged(name, damaged_saves()[name])
    with pytest.raises(saves.SaveError, match=reason) as error:
        saves.read(path)
    assert error.value.path == path


def test_a_save_whose_seats_do_not_match_the_players_is_damaged():
    data = good_save_data()
    data["seats"] = data["seats"][:1]
    path = write_damaged("game-one-seat.json", json.dumps(data).encode())
    with pytest.raises(saves.SaveError, match="seats do not match"):
        saves.read(path)


def test_a_hand_edited_state_that_contradicts_itself_is_reported_not_offered():
    data = good_save_data()
    data["state"]["sheets"] = data["state"]["sheets"][:1]
    content = json.dumps(data).encode()
    path = write_damaged("game-one-sheet.json", content)
    saved_path = saves.path_for(data["save_id"])
    saved_path.unlink()
    games, errors = saves.scan()
    assert games == []
    assert [e.path for e in errors] == [path]
    assert path.read_bytes() == content
