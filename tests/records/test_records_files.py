"""A record as a file: exported whole, read back checked through and through, and any bad
file (from another machine, edited, cut short) refused with one line naming it."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recordhelpers import GAME_SEATS, new_table, play

from app.records.events import Record, RecordError
from app.records.files import MAX_BYTES, export_record, read_record_file
from app.records.replay import replay, round_of
from app.table import Table


@pytest.mark.parametrize("game_id", sorted(GAME_SEATS))
def test_an_exported_record_reads_back_the_same_and_replays_to_the_same_game(tmp_path, game_id):
    table = play(new_table(game_id, seed=5), moves=15)
    path = export_record(table.record, tmp_path / "game.cubilete.json")
    assert [p.name for p in tmp_path.iterdir()] == ["game.cubilete.json"]  # no temp file left
    record = read_record_file(path)
    assert record == table.record
    assert Table.from_record(record).state == table.state


def record_file(tmp_path, data) -> object:
    path = tmp_path / "bad.cubilete.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def a_record() -> dict:
    return json.loads(play(new_table("generala", seed=2), moves=6).record.to_json())


def with_faces(faces) -> dict:
    data = a_record()
    throw = next(e for e in data["events"] if e[1] == "chance" and len(e[3]) == 5)
    throw[3] = faces
    return data


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{", "not JSON"),
        ({"format": "something else"}, "not a Cubilete record"),
        ({**a_record(), "version": 7}, "a record of version 7"),
        ({**a_record(), "header": {**a_record()["header"], "game": "chess"}}, "no game called"),
        (with_faces([1, 2, 3]), ": Expected 5 dice, got 3"),  # a throw of five dice
        (with_faces([1, 2, 3, 4, 7]), "a throw is a list of faces 1 to 6"),
    ],
)
def test_a_bad_record_file_is_one_line_naming_the_file(tmp_path, content, problem):
    path = record_file(tmp_path, content)
    with pytest.raises(RecordError) as error:
        read_record_file(path)
    message = str(error.value)
    assert message.startswith(f"{path}: ") and problem in message
    assert "\n" not in message


def test_a_missing_or_huge_file_is_refused_without_reading_it_all(tmp_path):
    with pytest.raises(RecordError, match="cannot be read"):
        read_record_file(tmp_path / "nothing.json")
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(MAX_BYTES + 10)
    with pytest.raises(RecordError, match="too large"):
        read_record_file(huge)


RECORD_TEXT = play(new_table("barco", seed=4), moves=10).record.to_json()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    position=st.integers(min_value=0, max_value=len(RECORD_TEXT) - 1),
    length=st.integers(min_value=1, max_value=8),
    replacement=st.text(alphabet='0123456789[]{}",:-.aeknrtu ', max_size=8),
)
def test_any_edit_of_a_record_file_reads_as_a_record_or_one_clear_error(
    tmp_path, position, length, replacement
):
    text = RECORD_TEXT[:position] + replacement + RECORD_TEXT[position + length :]
    path = record_file(tmp_path, text)
    try:
        record = read_record_file(path)
    except RecordError as error:
        assert str(error).startswith(f"{path}: ") and "\n" not in str(error)
    else:
        assert isinstance(record, Record)
        replay(record)


def test_the_round_of_a_game_is_what_its_screen_counts():
    table = play(new_table("generala", seed=1), moves=40)
    assert round_of(table.state) == table.state.round > 1
    assert round_of(new_table("piratas", seed=1).state) is None  # a race has no rounds


@pytest.mark.parametrize(
    ("code", "content", "words"),
    [
        ("es", {"format": "something else"}, "no es un registro de Cubilete"),
        ("pt", {"format": "something else"}, "não é um registro do Cubilete"),
        ("es", with_faces([1, 2, 3, 4, 7]), "un tiro es una lista de caras del 1 al 6"),
        ("pt", {**a_record(), "version": 7}, "um registro da versão 7; esta versão lê a 1"),
    ],
)
def test_a_bad_record_file_is_told_in_the_readers_language(tmp_path, code, content, words):
    from app import i18n

    path = record_file(tmp_path, content)
    with pytest.raises(RecordError) as error:
        read_record_file(path)
    i18n.use_language(code)
    try:
        message = str(error.value)  # (rendered when read: in the language of that moment)
    finally:
        i18n.use_language("en")
    assert message.startswith(f"{path}: ") and words in message and "\n" not in message


def test_a_refused_move_in_a_record_is_told_in_the_readers_language(tmp_path):
    """The rules' own refusal (an IllegalAction's message) inside the record's error."""
    from app import i18n

    data = a_record()
    fill = {"kind": "fill", "box": "ones"}
    first_roll = next(e for e in data["events"] if e[1] == "action")
    first_roll[3] = fill  # a box before any throw
    path = record_file(tmp_path, data)
    with pytest.raises(RecordError) as error:
        read_record_file(path)
    assert "Throw the dice before choosing a box" in str(error.value)
    i18n.use_language("es")
    try:
        spanish = str(error.value)
    finally:
        i18n.use_language("en")
    assert spanish.startswith(f"{path}: el evento {first_roll[0]} no vale acá: ")
    assert "Throw the dice" not in spanish


def test_every_record_error_in_the_app_is_a_marked_message():
    """A RecordError is made of a template marked N_ (in the catalogue) and its values,
    never of words already put together (an f-string, or text of one language)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "app"
    found = 0
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
                node.func, "id", ""
            )
            if name != "RecordError":
                continue
            found += 1
            first = node.args[0] if node.args else None
            marked = (
                isinstance(first, ast.Call)
                and getattr(first.func, "id", "") == "N_"
                and isinstance(first.args[0], ast.Constant)
            )
            assert marked, f"{path.relative_to(root.parent)}:{node.lineno}"
    assert found >= 38
