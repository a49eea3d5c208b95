"""The expert's expected score beside a player's average: the values docs/strategy.md gives
(checked against the solvers), per game and options, and nothing where the docs give none."""

from __future__ import annotations

import pytest

from app import strategy_tables
from app.records.book import RecordBook
from app.records.events import Header, Outcome, SeatInfo
from app.records.expert import expected_score
from app.records.sqlite import SQLiteStore
from bots.barco import expected_round_score
from bots.multiplicacion import expected_turn_score


def test_the_values_are_the_solvers_own():
    strategy_tables.prepare("generala")
    from bots.generala import TABLE

    assert expected_score("generala") == pytest.approx(TABLE.value(0), abs=1e-9)
    assert expected_score("multiplicacion") == pytest.approx(float(expected_turn_score() * 10))
    assert expected_score("barco", {"end": "rounds", "rounds": 10}) == pytest.approx(
        float(expected_round_score() * 10)
    )


def test_the_values_are_those_of_the_strategy_notes():
    assert round(expected_score("generala") or 0, 4) == 215.2221
    assert round(expected_score("multiplicacion") or 0, 2) == 363.43
    assert round(expected_score("barco", {}) or 0, 2) == 43.16  # the default 10 rounds
    assert expected_score("barco", {"rounds": 3}) == pytest.approx(3 * 4.316351, abs=1e-6)


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("navio", {}), ("piratas", {"lives": 3}), ("barco", {"end": "race", "target": 100})],
)
def test_games_the_notes_give_no_expected_score_for_get_none(game_id, options):
    assert expected_score(game_id, options) is None


def finish(store: SQLiteStore, n: int, game_id: str, options: dict, names=("Ana", "Bot")) -> None:
    seats = (SeatInfo(names[0], "human"), SeatInfo(names[1], "easy"))
    header = Header(f"{game_id}-{n}", game_id, options, seats, 1000.0 + n, 1000.0 + n, "test")
    store.create(header, (), Outcome((40 + n, 30), (0,)))


def test_a_players_games_are_compared_over_the_options_they_were_played_with(tmp_path):
    store = SQLiteStore(tmp_path / "records.db")
    finish(store, 1, "barco", {"end": "rounds", "rounds": 10})
    finish(store, 2, "barco", {"end": "rounds", "rounds": 10})
    finish(store, 3, "barco", {"end": "rounds", "rounds": 4})
    finish(store, 4, "generala", {})
    finish(store, 5, "navio", {"rounds": 5})
    finish(store, 6, "barco", {"end": "race", "target": 100}, names=("Carla", "Bot"))
    finish(store, 7, "barco", {"end": "rounds", "rounds": 10}, names=("Carla", "Bot"))
    store.close()
    book = RecordBook(tmp_path / "records.db")
    stats = book.player_stats()
    expected = book.expected_scores(stats)
    ana_barco = expected["Ana", "human", "barco"]
    assert ana_barco == pytest.approx((10 + 10 + 4) / 3 * float(expected_round_score()))
    assert expected["Ana", "human", "generala"] == pytest.approx(215.2221, abs=1e-4)
    assert expected["Ana", "human", "navio"] is None
    assert expected["Carla", "human", "barco"] is None  # one of her games was a race
    assert expected["Bot", "easy", "barco"] is None  # it sat at Carla's race too
    only_ana = book.expected_scores(book.player_stats(player="Ana"), player="Ana")
    assert only_ana["Ana", "human", "barco"] == pytest.approx(ana_barco)
    book.close()


@pytest.mark.parametrize(
    "options",
    [
        {"preset": "argentina"},
        {"preset": "argentina", "escalera_al_as": True},
        {"preset": "argentina", "servido": 10},
        {"preset": "familia"},
        {"preset": "familia", "servida_wins": False},
        {},
        {"servida_wins": True},
    ],
)
def test_generalas_presets_have_the_solvers_values_by_the_options_a_record_holds(options):
    """A record holds the options as the game state writes them (only what differs from the
    preset); the value is the preset solver's own."""
    from bots.generala import preset_table
    from rules.generala import GeneralaOptions

    chosen = GeneralaOptions.model_validate(options)
    assert chosen.model_dump(mode="json") == {k: v for k, v in options.items()}
    expected = preset_table(chosen).value(0)
    assert expected_score("generala", options) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    "options",
    [
        {"preset": "argentina", "obligada": True},
        {"preset": "argentina", "generala_doble": False},
        {"preset": "familia", "servido": 0},
        {"generala_doble": True},
        {"servido": 5},
    ],
)
def test_generala_option_sets_the_notes_do_not_give_get_none(options):
    assert expected_score("generala", options) is None
