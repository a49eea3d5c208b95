"""The lobby's setup sheet as a model: rows, cursor, typing, options and the game's problems,
with no Textual loaded (the widget only draws it)."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from app import i18n
from app.catalog import game_info
from app.quiet.setup_model import Change, Row, SetupModel
from app.settings import NAME_WIDTH, TableSetup
from rules import Text


def sheet(game_id: str = "barco", **kwargs) -> SetupModel:
    info = game_info(game_id)
    counts = list(range(info.min_players, min(info.max_players, 8) + 1))
    return SetupModel(counts, info.options, **kwargs)


def to(model: SetupModel, name: str) -> SetupModel:
    model.move_to(model.rows().index(model.row_named(name)))
    return model


def test_the_model_loads_no_textual():
    code = "import sys, app.quiet.setup_model; print('textual' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


def test_the_rows_are_the_count_then_a_seat_per_player_then_each_option():
    model = sheet(count=3)
    assert model.rows()[:4] == [Row("count"), Row("seat", 0), Row("seat", 1), Row("seat", 2)]
    assert [row.number for row in model.rows()[4:]] == list(range(len(model.fields)))
    # the sheet's lines: a heading, the count and seats, a heading, the options
    assert model.line_rows()[0] is None and model.line_of(Row("count")) == 1
    assert model.line_of(Row("option", 0)) == 1 + 1 + 3 + 1


def test_the_count_steps_within_what_the_game_allows_and_lays_the_sheet_out_again():
    model = sheet("piratas")  # exactly two sides
    assert model.step(1) == Change() and model.count == 2  # nothing to draw
    model = sheet(count=2)
    assert model.step(-1) == Change(layout=True) and model.count == 1
    assert model.step(-1) == Change() and model.count == 1
    for _ in range(10):
        model.step(1)
    assert model.count == 8


def test_the_cursor_moves_row_by_row_and_stops_at_the_ends():
    model = sheet()
    assert model.move(-1) == Change()
    assert model.move(1) == Change((Row("count"), Row("seat", 0)))
    model.move(99)
    assert model.row == model.rows()[-1]


def test_the_first_key_on_a_name_replaces_it_the_next_ones_add_and_backspace_erases():
    model = to(sheet(), "seat-1")
    assert model.type_text("Zoe") == Change((Row("seat", 0),))
    assert model.names[0] == "Zoe"
    model.type_text("!")
    assert model.names[0] == "Zoe!"
    model.erase()
    assert model.names[0] == "Zoe"
    model.move(1)
    model.erase()  # the first key on another name erases it all
    assert model.names[1] == ""


def test_a_name_is_cut_at_its_width_and_keeps_only_printable_characters():
    model = to(sheet(), "seat-1")
    model.type_text("A\x07" + "b" * 40)
    assert model.names[0] == "A" + "b" * (NAME_WIDTH - 1)


def test_a_number_takes_digits_and_a_decimal_comma_is_kept_as_a_point():
    model = sheet()
    model.raw["stakes"], model.raw["settlement"] = True, "margin"
    to(model, "rounds")
    assert model.type_text("x") is None and model.raw["rounds"] == "10"
    model.type_text("12")
    assert model.raw["rounds"] == "12"
    to(model, "rate")
    model.type_text("0,25")
    assert model.raw["rate"] == "0.25"


def test_steps_change_a_number_a_choice_a_yes_or_no_and_who_plays_a_seat():
    model = to(sheet(), "rounds")
    model.step(1)
    assert model.raw["rounds"] == "11"
    to(model, "end")
    model.step(1)
    assert model.raw["end"] == "race"
    to(model, "stakes")
    model.step(1)
    assert model.raw["stakes"] is True
    to(model, "seat-2")
    model.step(1)
    assert model.kinds[1] == "easy"
    model.step(-1)
    model.step(-1)
    assert model.kinds[1] == "expert"  # round the list


def test_a_change_redraws_the_options_that_depend_on_it():
    model = to(sheet(), "end")
    end, rounds, target = (model.row_named(name) for name in ("end", "rounds", "target"))
    assert model.step(1) == Change((end, rounds, target))


def test_space_steps_a_value_but_is_part_of_a_name():
    model = to(sheet(), "stakes")
    model.key(" ")
    assert model.raw["stakes"] is True
    to(model, "seat-1")
    model.type_text("Ana")
    model.key(" ")
    assert model.names[0] == "Ana "
    assert model.seats()[0] == ("Ana", "human")  # trimmed


def test_a_letter_on_a_choice_jumps_to_the_next_value_starting_with_it():
    with i18n.speaking("en"):
        model = to(sheet(), "end")
        assert model.key("r") is not None and model.raw["end"] == "race"
        assert model.key("z") is None and model.raw["end"] == "race"


def test_an_option_that_does_not_apply_is_left_out_and_the_note_says_why():
    with i18n.speaking("en"):
        model = sheet()
        values = model.values()
        assert values["rounds"] == "10" and "target" not in values and "stake" not in values
        target = model.fields[[field.name for field in model.fields].index("target")]
        assert model.help(model.row_named("target")).startswith("Not used unless Game end is")
        assert not model.applies(target)
        model.raw["end"] = "race"
        assert model.applies(target) and model.values()["target"] == "100"


def test_the_games_problems_go_to_their_rows_and_the_cursor_to_the_first():
    model = sheet(count=3)
    to(model, "seat-2")
    model.type_text("Ana")
    model.show_problems([("players", Text("Two players have the same name")), ("rounds", "No")])
    assert model.row == Row("seat", 1) and model.marks_shown
    assert [row for row in model.rows() if model.marked(row)] == [
        Row("seat", 1),
        model.row_named("rounds"),
    ]
    model.type_text("Bea")  # typing on a marked row clears its problem
    assert model.problems_of(Row("seat", 1)) is None
    assert model.problems_of(model.row_named("rounds")) == ["No"]


def test_the_table_as_set_up_comes_back_for_the_same_game():
    model = sheet(count=3)
    to(model, "seat-3")
    model.step(1)
    model.raw["rounds"] = "7"
    kept = model.setup()
    assert kept == TableSetup(
        3, (("Ana", "human"), ("Bruno", "human"), ("Carla", "easy")), {**model.raw}
    )
    other = sheet(count=2)
    other.set_game(other.counts, other.fields, 2, kept)
    assert other.count == 3 and other.kinds[2] == "easy" and other.raw["rounds"] == "7"


KEYS = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(-3, 3)),
        st.tuples(st.just("step"), st.sampled_from([-1, 1])),
        st.tuples(st.just("key"), st.characters(codec="utf-8")),
        st.tuples(st.just("erase"), st.none()),
    ),
    max_size=60,
)


@given(st.sampled_from(["barco", "navio", "piratas", "generala"]), KEYS)
def test_no_key_takes_the_cursor_or_the_count_out_of_bounds(game_id, keys):
    model = sheet(game_id)
    for what, arg in keys:
        if what == "move":
            model.move(arg)
        elif what == "step":
            model.step(arg)
        elif what == "key":
            model.key(arg) if arg.isprintable() else None
        else:
            model.erase()
        assert 0 <= model.cursor < len(model.rows())
        assert model.count in model.counts
        assert all(len(name) <= NAME_WIDTH for name in model.names)
        assert set(model.raw) == {field.name for field in model.fields}


def test_each_sentence_of_an_options_note_begins_with_a_capital_in_every_language():
    """Issue 27, item 21: "Rounds to play. type a number" had a small letter after a stop."""
    try:
        for code in ("en", "es", "pt"):
            i18n.use_language(code)
            model = sheet("barco")
            for row in model.rows():
                note = model.help(row)
                for sentence in note.split(". ")[1:]:
                    assert sentence[:1] == sentence[:1].upper(), (code, note)
            assert model.help(model.row_named("rounds")).count(". ") == 1
    finally:
        i18n.use_language(i18n.SOURCE)
