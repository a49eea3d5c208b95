"""The lobby's settings file: each game's table kept between runs, written atomically, read
with care (a damaged file is refused in one line, a stale entry is dropped)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app import settings
from app.settings import SettingsError, TableSetup


def barco() -> TableSetup:
    return TableSetup(
        3,
        (("Ana", "human"), ("Zoe", "expert"), ("Luis", "easy")),
        {"end": "race", "target": "150", "stakes": True, "rate": "0.5"},
    )


def test_what_is_written_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    setups = {"barco": barco(), "generala": TableSetup(1, (("Pia", "human"),), {})}
    settings.save(setups, path)
    assert settings.load(path) == setups
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temp file left


def test_no_file_yet_is_no_settings(tmp_path: Path) -> None:
    assert settings.load(tmp_path / "settings.json") == {}


def test_the_file_lives_in_the_data_dir(private_data_dir: Path) -> None:
    settings.save({"barco": barco()})
    assert (private_data_dir / "settings.json").exists()
    assert settings.load() == {"barco": barco()}


def test_a_failed_write_leaves_the_old_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    settings.save({"barco": barco()}, path)
    before = path.read_bytes()
    broken = TableSetup(2, (), {"end": object()})  # cannot be written as JSON
    with pytest.raises(TypeError):
        settings.save({"barco": broken}, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"\xff\xfe", b"[1, 2]", b'{"format": 99, "games": {}}', b'"text"'],
)
def test_a_damaged_file_is_refused_in_one_line(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    with pytest.raises(SettingsError) as refused:
        settings.load(path)
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)


def test_a_file_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.mkdir()  # a directory where the file should be
    with pytest.raises(SettingsError):
        settings.load(path)


def write(path: Path, games: dict[str, object]) -> Path:
    path.write_text(json.dumps({"format": settings.FORMAT, "games": games}), encoding="utf-8")
    return path


def test_what_the_lobby_no_longer_offers_is_dropped_and_the_rest_kept(tmp_path: Path) -> None:
    entry = barco().to_json()
    entry["options"] |= {
        "bonus": True,  # no such option
        "settlement": "lottery",  # no such choice
        "stake": 10,  # a number option holds text as typed
        "rounds": "1e9",  # not something the sheet lets anyone type
    }
    path = write(
        tmp_path / "settings.json",
        {
            "barco": entry,
            "poker": {"count": 2, "seats": [], "options": {}},  # no such game
            "piratas": {"count": 5, "seats": [], "options": {}},  # piratas is for two
        },
    )
    assert settings.load(path) == {"barco": barco()}


def test_seats_are_kept_up_to_the_first_bad_one(tmp_path: Path) -> None:
    seats = [
        {"name": "Ana", "kind": "human"},
        {"name": "Zoe", "kind": "grandmaster"},
        {"name": "Luis", "kind": "easy"},
    ]
    path = write(tmp_path / "settings.json", {"generala": {"count": 3, "seats": seats}})
    assert settings.load(path) == {"generala": TableSetup(3, (("Ana", "human"),), {})}


def test_a_name_longer_than_the_sheet_takes_is_dropped(tmp_path: Path) -> None:
    seats = [{"name": "x" * 17, "kind": "human"}]
    path = write(tmp_path / "settings.json", {"generala": {"count": 1, "seats": seats}})
    assert settings.load(path) == {"generala": TableSetup(1, (), {})}
