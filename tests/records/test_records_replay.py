"""A record replayed through the rules is the game: the same state, the same table talk (said
afresh, in the viewer's language), and a clear error at the first event that is wrong."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recordhelpers import GAME_SEATS, bot_move, new_table, play

from app.dice import LoadedDice, RandomDice
from app.i18n import render_all, speaking
from app.records.events import Event, Record, RecordError
from app.records.replay import decisions, replay, replay_with_log, standing, steps
from app.table import Seat, Table


@pytest.mark.parametrize("game_id", sorted(GAME_SEATS))
def test_a_whole_game_replays_to_the_same_state_and_table_talk(game_id):
    table = play(new_table(game_id, seed=7))
    assert table.over
    again = Table.from_record(table.record)
    assert again.state == table.state
    assert again.log == table.log
    assert again.over


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game_id=st.sampled_from(sorted(GAME_SEATS)),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 60),
    undo_every=st.integers(1, 6),
)
def test_any_game_cut_anywhere_with_undos_replays_to_the_live_table(
    game_id, seed, moves, undo_every
):
    table = new_table(game_id, seed=seed)
    for done in range(moves):
        if table.over:
            break
        if done % undo_every == 0 and table.can_undo():
            table.undo()
        else:
            table.act(bot_move(table))
    again = Table.from_record(table.record)
    assert again.state == table.state
    assert again.log == table.log
    assert [d.seq for d in decisions(table.record)] == [
        e.seq for e in standing(table.events) if e.kind == "action"
    ]


def test_the_table_talk_of_a_record_is_said_in_the_viewers_language():
    table = new_table("generala", seed=3)
    _state, log = replay_with_log(table.record)
    assert log == table.log  # messages, not text: each reader renders them
    assert render_all(log[:3]) == [
        "Ana rolls 2 for the start",
        "Bruno rolls 5 for the start",
        "Bruno starts",
    ]
    with speaking("es"):
        assert render_all(log[:3]) == [
            "Ana tira 2 para ver quién sale",
            "Bruno tira 5 para ver quién sale",
            "Sale Bruno",
        ]


def ana_and_beto_record(*events: Event) -> Record:
    table = Table.new("generala", [Seat(name="Ana"), Seat(name="Beto")], dice=LoadedDice([6, 1]))
    return Record(table.header, (*table.events, *events))


ROLL = {"kind": "roll", "hold": []}


@pytest.mark.parametrize(
    ("events", "problem"),
    [
        ((Event(3, "action", 1, ROLL),), "event 3: seat 1 decides, but it is seat 0's turn"),
        (
            (Event(3, "action", 0, {"kind": "fill", "box": "ones"}),),
            "event 3 is not allowed here: Throw the dice",
        ),
        (
            (Event(3, "action", 0, {"kind": "jump"}),),
            "event 3 is not allowed here: That is not a move of Generala",
        ),
        ((Event(3, "chance", 0, [1, 2]),), "event 3: a throw when nobody throws"),
        (
            (Event(3, "action", 0, ROLL), Event(4, "chance", 0, [1, 2])),
            "event 4 is not allowed here: Expected 5 dice",
        ),
        ((Event(3, "action", 0, ROLL), Event(4, "chance", 1, [1] * 5)), "event 4: a throw by"),
        ((Event(4, "action", 0, ROLL),), "event 3 is missing"),
    ],
)
def test_a_record_that_is_wrong_stops_at_the_first_wrong_event(events, problem):
    with pytest.raises(RecordError, match=problem):
        replay(ana_and_beto_record(*events))


def test_an_undo_cannot_take_back_a_throw_or_reach_past_one():
    thrown = (Event(3, "action", 0, ROLL), Event(4, "chance", 0, [1, 2, 3, 4, 5]))
    with pytest.raises(RecordError, match="event 5: event 3 cannot be taken back"):
        replay(ana_and_beto_record(*thrown, Event(5, "undo", 0, {"to": 3})))
    with pytest.raises(RecordError, match="event 5: event 4 cannot be taken back"):
        replay(ana_and_beto_record(*thrown, Event(5, "undo", 0, {"to": 4})))


def test_a_seat_cannot_take_back_another_seats_decision():
    filled = (
        Event(3, "action", 0, ROLL),
        Event(4, "chance", 0, [1, 2, 3, 4, 5]),
        Event(5, "action", 0, {"kind": "fill", "box": "ones"}),
    )
    with pytest.raises(RecordError, match="seat 1 takes back another seat's decision"):
        replay(ana_and_beto_record(*filled, Event(6, "undo", 1, {"to": 5})))
    state = replay(ana_and_beto_record(*filled, Event(6, "undo", 0, {"to": 5})))
    assert state.sheets[0][0] is None and state.dice == (1, 2, 3, 4, 5)


def test_every_step_has_the_state_before_and_after_it():
    table = play(new_table("multiplicacion", seed=2), moves=10)
    record = table.record
    states = [step.after for step in steps(record)]
    assert len(states) == len(record.events)
    assert states[-1] == table.state
    for earlier, later in zip(steps(record), list(steps(record))[1:], strict=False):
        assert earlier.after == later.before


def test_a_record_with_seats_that_do_not_match_its_start_is_refused():
    table = new_table("generala", seed=1)
    header = table.header._replace(start=table.state.model_dump(mode="json"))
    header = header._replace(seats=header.seats[:1])
    with pytest.raises(RecordError, match="seats do not match"):
        replay(Record(header, ()))


def test_a_record_of_an_unknown_game_is_refused():
    table = Table.new("generala", [Seat(name="Ana")], dice=RandomDice(1))
    with pytest.raises(RecordError, match="no game called 'yahtzee'"):
        replay(Record(table.header._replace(game_id="yahtzee"), ()))
