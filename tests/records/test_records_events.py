"""A record's parts and its JSON form: what is well formed, and a clear error for what is not."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from recordhelpers import new_table, play

from app.records.events import (
    Event,
    Header,
    Record,
    RecordError,
    SeatInfo,
    check_sequence,
    pack_events,
    unpack_events,
)

HEADER = Header(
    record_id="abc",
    game_id="generala",
    options={},
    seats=(SeatInfo("Ana", "human"), SeatInfo("Bruno", "easy")),
    created=1.5,
    updated=2.5,
    app_version="0.1.0",
)


def test_a_played_game_round_trips_through_json_exactly():
    table = play(new_table("generala", seed=3), moves=20)
    record = table.record
    again = Record.from_json(record.to_json())
    assert again == record


def test_a_record_that_starts_from_a_snapshot_keeps_its_start():
    start = {"game": "generala", "players": ["Ana", "Bruno"]}
    record = Record(HEADER._replace(start=start), ())
    assert Record.from_json(record.to_json()).header.start == start


events = st.one_of(
    st.builds(
        lambda seq, seat, faces: Event(seq, "chance", seat, faces),
        st.integers(1, 10**6),
        st.none() | st.integers(0, 7),
        st.lists(st.integers(1, 6), max_size=5),
    ),
    st.builds(
        lambda seq, seat, box: Event(seq, "action", seat, {"kind": "fill", "box": box}),
        st.integers(1, 10**6),
        st.integers(0, 7),
        st.text(max_size=12),
    ),
    st.builds(
        lambda seq, seat, to: Event(seq, "undo", seat, {"to": to}),
        st.integers(1, 10**6),
        st.integers(0, 7),
        st.integers(1, 10**6),
    ),
)


@given(st.lists(events, max_size=20))
def test_events_pack_and_unpack_unchanged(items):
    assert unpack_events(pack_events(items)) == tuple(items)


@pytest.mark.parametrize(
    ("item", "problem"),
    [
        ([0, "chance", 0, [1]], "positive integer"),
        ([1, "roll", 0, [1]], "no event kind"),
        ([1, "chance", 0, [7]], "faces 1 to 6"),
        ([1, "chance", 0, [True]], "faces 1 to 6"),
        ([1, "action", 0, ["fill"]], "an object with a kind"),
        ([1, "action", None, {"kind": "roll"}], "needs the seat"),
        ([1, "undo", 0, {"to": 0}], "an undo is"),
        ([1, "chance", -1, [3]], "a seat is a number"),
        ([1, "chance", 0], "not [1, 'chance', 0]"),
    ],
)
def test_a_malformed_event_is_refused_with_what_is_wrong(item, problem):
    with pytest.raises(RecordError, match=problem.replace("[", r"\[")):
        Event.from_list(item)


def test_a_missing_event_number_is_named():
    with pytest.raises(RecordError, match="event 2 is missing"):
        check_sequence([Event(1, "chance", 0, [1]), Event(3, "chance", 0, [1])])


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{", "not JSON"),
        ("[]", "not a Cubilete record"),
        ('{"format": "cubilete-record", "version": 9, "events": []}', "version 9"),
        ('{"format": "cubilete-record", "version": 1, "events": {}}', "events are a list"),
        ('{"format": "cubilete-record", "version": 1, "events": [], "header": 3}', "header"),
    ],
)
def test_a_bad_record_file_gets_one_clear_line(text, problem):
    with pytest.raises(RecordError, match=problem) as caught:
        Record.from_json(text)
    assert "\n" not in str(caught.value)


def test_a_header_without_seats_or_with_a_bad_status_is_refused():
    data = json.loads(Record(HEADER, ()).to_json())
    data["header"]["seats"] = []
    with pytest.raises(RecordError, match="at least one seat"):
        Record.from_json(json.dumps(data))
    data["header"]["seats"] = [{"name": "Ana", "kind": "human"}]
    data["header"]["status"] = "lost"
    with pytest.raises(RecordError, match="no record status"):
        Record.from_json(json.dumps(data))
