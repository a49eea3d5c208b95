"""The table's host (app/host.py): the play at a table without a screen — persons' decisions
for their seats, bots at a pace, the coach's ratings in the log's order, subscribers told of
every change. Nothing here needs Textual, and a game played through the host loads none."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from app.dice import LoadedDice, RandomDice
from app.host import (
    BotThinking,
    GameOver,
    Logged,
    Moved,
    NotYourTurn,
    Problem,
    Rated,
    ReviewsRestored,
    TableHost,
    Turn,
)
from app.i18n import render, render_all
from app.records.recorder import StoreRecorder
from app.records.replay import replay
from app.records.reviews import reviewed_decisions
from app.records.sqlite import SQLiteStore
from app.table import CannotUndo, Seat, Table
from bots import coach, get_bot
from kits import KITS
from rules import IllegalAction
from rules.generala import BOXES, Fill, Roll

ROOT = Path(__file__).resolve().parent.parent


def bots_table(
    game_id: str, seed: int, levels=("easy", "medium"), recorder: StoreRecorder | None = None
) -> Table:
    seats = [Seat(name=f"Bot {i + 1}", kind=level) for i, level in enumerate(levels)]
    return Table.new(game_id, seats, dice=RandomDice(seed), recorder=recorder)


def person_choice(table: Table) -> object:
    """What the person at the table decides: the easy bot's choice, a stand-in for a person
    who plays fairly but not always best."""
    seat = table.current_player()
    assert seat is not None
    return get_bot(table.game.id, "easy", seed=100 + seat).choose(table.state)


# -- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", list(KITS))
async def test_a_whole_game_with_bots_in_every_seat_plays_to_the_end_through_the_host(
    game_id, tmp_path
):
    store = SQLiteStore(tmp_path / "records.db")
    levels = ("expert", "medium") if game_id == "piratas" else ("expert", "medium", "easy")
    table = bots_table(game_id, seed=12, levels=levels, recorder=StoreRecorder(store))
    host = TableHost(table, pace=0)
    told = []
    host.subscribe(told.append)
    host.start()
    await asyncio.wait_for(host.idle(), 120)

    assert host.over
    winners = table.game.winners(table.state)
    assert winners
    over = [event for event in told if isinstance(event, GameOver)]
    assert over == [GameOver(tuple(table.game.scores(table.state)), tuple(winners))]
    assert told[-1] == over[0]
    assert all(event.by_bot for event in told if isinstance(event, Moved))
    assert host.reviews == []  # bots are not reviewed
    assert host.logged == table.log  # no rating: the log is the table's narration
    # the record, read back from the store, replays to the very state the game ended in
    stored = store.load(table.header.record_id)
    assert stored.events == tuple(table.events)
    assert replay(stored) == table.state
    assert store.unfinished(10) == []
    store.close()


def test_a_game_played_through_the_host_loads_no_textual():
    code = """
import asyncio, sys
from app.dice import RandomDice
from app.host import TableHost
from app.table import Seat, Table
from kits import KITS

async def play(game_id):
    seats = [Seat(name="Ana", kind="medium"), Seat(name="Bruno", kind="easy")]
    host = TableHost(Table.new(game_id, seats, dice=RandomDice(3)), pace=0)
    host.start()
    await host.idle()
    assert host.over, game_id

for game_id in KITS:
    asyncio.run(play(game_id))
print(sorted({m.split(".")[0] for m in sys.modules}))
"""
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "'app'" in result.stdout
    assert "textual" not in result.stdout


# -- a person at the table: the coach rates each real choice --------------------------------


class Mixed:
    """A game of Generala played to the end: Ana (a person, her decisions fed through the
    host) against Bruno (a medium bot). `told`: what a subscriber was told; `narration`:
    the table's narration of each move, by the number of its event."""

    def __init__(self, host: TableHost, told: list, narration: dict, opening: list) -> None:
        self.host, self.told, self.narration, self.opening = host, told, narration, opening


async def play_mixed_generala(seed: int) -> Mixed:
    table = Table.new(
        "generala", [Seat(name="Ana"), Seat(name="Bruno", kind="medium")], dice=RandomDice(seed)
    )
    host = TableHost(table, pace=0)
    told: list = []
    narration: dict = {}
    opening = list(table.log)

    def follow(event):
        told.append(event)
        if isinstance(event, Moved):
            lines = table.log[sum(map(len, narration.values())) + len(opening) :]
            narration[event.seq] = lines
            if not event.by_bot and host.reviews_pending:
                # the narration of a move being rated waits behind its rating
                assert host.logged[-len(lines) :] != lines

    host.subscribe(follow)
    host.start()
    while not host.over:
        await host.idle()
        if host.over:
            break
        assert table.current_player() == 0
        empty = [
            box for box, points in zip(BOXES, table.state.sheets[0], strict=True) if points is None
        ]
        if len(empty) == 1 and not table.state.throws:
            # her last turn: the first throw, then her last box at once, before the coach
            # has its hint ready: that choice is rated in the background, after the end
            host.act(0, Roll(hold=()))
            host.act(0, Fill(box=empty[0]))
        else:
            host.act(0, person_choice(table))
    await host.idle()
    return Mixed(host, told, narration, opening)


async def test_each_real_choice_of_a_person_is_rated_and_the_rating_follows_its_move():
    game = await play_mixed_generala(seed=1)
    host, told, table = game.host, game.told, game.host.table
    people_moves = [event for event in told if isinstance(event, Moved) and not event.by_bot]
    rated = [event for event in told if isinstance(event, Rated)]
    assert rated and len(rated) < len(people_moves)  # a turn's first throw is not rated
    for move in people_moves:
        review = coach("generala").review(move.before, move.action)
        assert (move.seq in {r.seq for r in rated}) == (not review.forced)
    for event in rated:
        assert event.seat == 0
        assert render(event.line).startswith("Coach: Ana — ")
    # the reviews are the record's (as the history and a resumed game compute them)
    assert [(one.seq, one.seat, one.review.loss) for one in reviewed_decisions(table.record)] == [
        (event.seq, event.seat, event.review.loss) for event in rated
    ]
    assert host.reviews == [(event.seat, event.review) for event in rated]
    # the log: the roll-off, then each move's narration, its rating right after the line
    # that tells the move, before what followed from it
    ratings = {event.seq: event.line for event in rated}
    expected = list(game.opening)
    for seq, lines in game.narration.items():
        expected.extend(lines[:1])
        expected.extend([ratings[seq]] if seq in ratings else [])
        expected.extend(lines[1:])
    assert host.logged == expected
    assert [line for line in host.logged if line not in ratings.values()] == table.log


async def test_a_choice_made_once_the_coach_is_ready_is_rated_with_its_move():
    # Ana thinks (the test waits for the host to be idle) before each choice but the last:
    # the coach's hint is ready, so the rating is told with the move, not after it
    game = await play_mixed_generala(seed=1)
    told = game.told
    rated = [i for i, event in enumerate(told) if isinstance(event, Rated)]
    assert len(rated) > 10
    for i in rated[:-1]:
        rating = told[i]
        move, logged = told[i - 1], told[i - 2]
        assert isinstance(move, Moved) and move.seq == rating.seq
        # one piece of news for the log: the move told, its rating, what followed from it
        assert isinstance(logged, Logged)
        lines = game.narration[move.seq]
        assert logged.lines == (*lines[:1], rating.line, *lines[1:])


async def test_the_coach_notes_count_every_rated_choice_even_the_last_after_the_end():
    game = await play_mixed_generala(seed=1)
    host, told = game.host, game.told
    last_person_move = [e for e in told if isinstance(e, Moved)][-1]
    assert last_person_move.seat == 0  # (with these dice Ana plays the game's last turn)
    game_over = next(i for i, e in enumerate(told) if isinstance(e, GameOver))
    last_rating = [i for i, e in enumerate(told) if isinstance(e, Rated)][-1]
    assert told[last_rating].seq == last_person_move.seq  # Ana's last choice was rated...
    assert last_rating > game_over  # ...after the game was over
    note, units = render_all(host.coach_notes())  # (Ana's line, then what a loss is in)
    assert note.startswith(f"Ana: {len(host.reviews)} choices, ")
    assert units == "Loss: what a choice gave up against the best move (expected final score)."


async def test_a_resumed_game_rates_the_decisions_made_before_it_again():
    game = await play_mixed_generala(seed=1)
    host = game.host
    record = host.table.record
    cut = next(e.seq for e in reversed(record.events) if e.kind == "action" and e.seat == 0)
    earlier = type(record)(record.header, record.events[: cut - 1])
    resumed = TableHost(Table.from_record(earlier), pace=0)
    told: list = []
    resumed.subscribe(told.append)
    resumed.start()
    await resumed.idle()
    assert [event for event in told if isinstance(event, ReviewsRestored)]
    assert [(seat, r.loss) for seat, r in resumed.reviews] == [
        (seat, r.loss) for seat, r in host.reviews[:-1]
    ]
    # the log as it was told live up to there: each rating right after the move it rates
    ratings = {event.seq: event.line for event in game.told if isinstance(event, Rated)}
    expected = list(game.opening)
    for seq, lines in game.narration.items():
        if seq < cut:
            expected.extend(lines[:1])
            expected.extend([ratings[seq]] if seq in ratings else [])
            expected.extend(lines[1:])
    assert render_all(resumed.logged) == render_all(expected)  # (a loss renders late)
    narration = [line for line in resumed.logged if "Coach" not in str(line)]
    assert narration == Table.from_record(earlier).log
    resumed.close()


async def test_an_undo_through_the_host_takes_the_rating_of_what_it_took_back_with_it():
    dice = LoadedDice([6, 2, 1, 2, 3, 4, 6])  # Ana starts; her first throw 1 2 3 4 6
    table = Table.new("generala", [Seat(name="Ana"), Seat(name="Bruno", kind="easy")], dice=dice)
    host = TableHost(table, pace=3600)  # Bruno waits
    told: list = []
    host.subscribe(told.append)
    host.start()
    host.act(0, Roll())
    host.act(0, Fill(box="sixes"))
    await asyncio.sleep(0.05)
    while host.reviews_pending:
        await asyncio.sleep(0.01)
    assert [seat for seat, _ in host.reviews] == [0]
    host.undo()
    assert host.reviews == []
    assert table.current_player() == 0
    (undone,) = [e for e in told if isinstance(e, Moved) and e.action is None]
    assert undone.state is table.state and undone.seat == 0
    with pytest.raises(CannotUndo):
        host.undo()  # (after dice: Ana's throw stands)
    host.close()


# -- refusals -----------------------------------------------------------------------------


async def test_a_seat_that_is_not_to_move_is_refused_and_nothing_changes():
    dice = LoadedDice([6, 2, 1, 2, 3, 4, 6])  # Ana starts
    host = TableHost.new("generala", [Seat(name="Ana"), Seat(name="Beto")], dice=dice, pace=0)
    table = host.table
    told: list = []
    host.subscribe(told.append)
    host.start()
    await host.idle()
    told.clear()
    state, events, log = table.state, list(table.events), list(host.logged)
    for seat, message in ((1, "Ana decides now, not Beto"), (7, "No one sits in seat 7")):
        with pytest.raises(NotYourTurn) as refused:
            host.act(seat, Roll())
        assert render(refused.value.text) == message
    with pytest.raises(IllegalAction):
        host.act(0, Fill(box="ones"))  # Ana's turn, but she has not thrown yet
    assert table.state is state and table.events == events and host.logged == log
    assert told == []
    host.act(0, Roll())
    assert table.state.dice == (1, 2, 3, 4, 6)


async def test_a_person_cannot_decide_for_a_bot():
    dice = LoadedDice([2, 6])  # Bruno, the bot, starts
    table = Table.new("generala", [Seat(name="Ana"), Seat(name="Bruno", kind="easy")], dice=dice)
    host = TableHost(table, pace=3600)
    host.start()
    with pytest.raises(NotYourTurn) as refused:
        host.act(1, Roll())
    assert render(refused.value.text) == "Bruno is a bot: it decides by itself"
    with pytest.raises(NotYourTurn):
        host.act(0, Roll())
    assert table.current_player() == 1 and table.state.throws == 0
    host.close()


async def test_a_bots_move_that_the_dice_cannot_follow_is_told_and_changes_nothing():
    table = Table.new(
        "generala", [Seat(name="Ana", kind="easy"), Seat(name="Bruno")], dice=LoadedDice([6, 2])
    )
    host = TableHost(table, pace=0)
    told: list = []
    host.subscribe(told.append)
    state = table.state
    host.start()
    await host.idle()
    (problem,) = [event for event in told if isinstance(event, Problem)]
    assert "dice" in render(problem.text)
    assert table.state is state


# -- the pace, and hurry ----------------------------------------------------------------


async def test_hurry_plays_the_bots_at_full_speed_until_a_person_must_decide():
    seats = [Seat(name="Ana"), Seat(name="Bruno", kind="easy"), Seat(name="Carla", kind="easy")]
    dice = LoadedDice([6, 2, 1, *([1, 2, 3, 4, 6] * 12)])  # Ana starts, then Bruno, Carla
    table = Table.new("generala", seats, dice=dice)
    host = TableHost(table, pace=3600)
    told: list = []
    host.subscribe(told.append)
    host.start()
    host.act(0, Roll())
    host.act(0, Fill(box="sixes"))
    await asyncio.sleep(0.05)
    assert table.current_player() == 1 and table.state.throws == 0  # Bruno waits his pace
    assert not host.hurrying
    host.hurry()
    assert host.hurrying
    await asyncio.wait_for(host.idle(), 30)  # both bots play, then it is Ana's turn
    assert table.current_player() == 0
    assert not host.hurrying  # a person decides: the hurry is over
    bots = {event.seat for event in told if isinstance(event, Moved) and event.by_bot}
    assert bots == {1, 2}
    turns = [event for event in told if isinstance(event, Turn)]
    assert Turn(1, True, True) in turns and turns[-1] == Turn(0, False, False)
    thinking = [event.seat for event in told if isinstance(event, BotThinking)]
    assert thinking[0] == 1 and thinking[-1] == 2
    # the next bots wait their pace again
    host.act(0, Roll())
    host.act(0, Fill(box="fives"))
    await asyncio.sleep(0.05)
    assert table.current_player() == 1 and table.state.throws == 0
    host.close()


def test_hurry_does_nothing_while_a_person_decides():
    table = Table.new("generala", [Seat(name="Ana")], dice=LoadedDice([3]))
    host = TableHost(table, pace=3600)
    host.hurry()
    assert not host.hurrying


# -- subscribers ------------------------------------------------------------------------


async def test_every_subscriber_is_told_the_same_changes_in_the_same_order():
    table = bots_table("barco", seed=4)
    opening = list(table.log)
    host = TableHost(table, pace=0)
    first: list = []
    second: list = []
    late: list = []
    host.subscribe(first.append)
    stop_second = host.subscribe(second.append)
    host.start()
    while len(first) < 20:
        await asyncio.sleep(0)
    stop_second()
    host.subscribe(late.append)
    await host.idle()
    assert host.over
    assert second == first[: len(second)]
    assert first[-len(late) :] == late
    assert len(second) + len(late) <= len(first)
    kinds = {type(event) for event in first}
    assert {Logged, Moved, Turn, BotThinking, GameOver} <= kinds
    # every log line told is in the host's log, in order
    told_lines = [line for event in first if isinstance(event, Logged) for line in event.lines]
    assert host.logged == opening + told_lines == table.log


async def test_a_moved_tells_the_dice_its_decision_threw():
    dice = LoadedDice([6, 2, 1, 2, 3, 4, 6, 5, 5])
    table = Table.new("generala", [Seat(name="Ana"), Seat(name="Beto")], dice=dice)
    host = TableHost(table, pace=0)
    told: list = []
    host.subscribe(told.append)
    host.start()
    host.act(0, Roll())
    host.act(0, {"kind": "roll", "hold": [1, 2, 3]})
    first, second = [event for event in told if isinstance(event, Moved)]
    assert first.throws == ((0, (1, 2, 3, 4, 6)),)
    assert second.action == Roll(hold=(1, 2, 3)) and second.throws == ((0, (5, 5)),)
    assert second.before is first.state and second.state is table.state
    assert [first.seq, second.seq] == [e.seq for e in table.events if e.kind == "action"]
    await host.idle()


# -- a server's table: no coach, seats handed to bots, undo by seat ------------------------


async def test_a_host_without_the_coach_rates_nothing_and_holds_back_no_line():
    dice = LoadedDice([6, 2, 1, 2, 3, 4, 6])  # Ana starts; her first throw 1 2 3 4 6
    table = Table.new("generala", [Seat(name="Ana"), Seat(name="Beto")], dice=dice)
    host = TableHost(table, pace=0, coach=False)
    told: list = []
    host.subscribe(told.append)
    host.start()
    host.act(0, Roll())
    host.act(0, Fill(box="sixes"))  # a real choice: the coach would rate it
    assert host.reviews_pending == 0
    assert host.logged == table.log  # every line at once: no rating to wait for
    await asyncio.sleep(0.05)
    await host.idle()
    assert not [event for event in told if isinstance(event, Rated)]
    assert host.reviews == []
    host.close()


async def test_a_persons_seat_handed_to_a_bot_is_played_by_the_bot_from_its_turn_on():
    dice = RandomDice(3)
    table = Table.new("generala", [Seat(name="Ana"), Seat(name="Beto")], dice=dice)
    host = TableHost(table, pace=0, coach=False)
    told: list = []
    host.subscribe(told.append)
    host.start()
    beto_to_move = table.current_player() == 1
    host.hand_to_bot(1, "medium")
    assert table.seats[1] == Seat(name="Beto", kind="medium")
    await asyncio.sleep(0.05)
    await host.idle()
    if beto_to_move:  # his turn was under way: the bot took it
        assert [e for e in told if isinstance(e, Moved) and e.by_bot and e.seat == 1]
    assert table.current_player() == 0  # and Ana's turn comes back to her
    with pytest.raises(NotYourTurn):
        host.act(1, Roll())  # Beto's seat is the bot's
    host.close()


async def test_at_a_table_of_two_people_only_an_undo_by_seat_takes_a_decision_back():
    dice = LoadedDice([6, 2, 1, 2, 3, 4, 6])  # Ana starts; her first throw 1 2 3 4 6
    table = Table.new("generala", [Seat(name="Ana"), Seat(name="Beto")], dice=dice)
    host = TableHost(table, pace=0, coach=False)
    host.start()
    host.act(0, Roll())
    before = table.state
    host.act(0, Fill(box="sixes"))
    with pytest.raises(CannotUndo):
        host.undo()  # another person plays here: a decision stands...
    with pytest.raises(CannotUndo):
        host.undo(1)  # ...and Beto has nothing to take back
    host.undo(0)  # ...unless the others agreed (a shared table asks them)
    assert table.state == before
    assert table.events[-1].kind == "undo" and table.events[-1].seat == 0
    with pytest.raises(CannotUndo):
        host.undo(0)  # her throw stands
    host.close()


async def test_a_resumed_games_talk_is_the_talk_told_live_ratings_and_undos_included():
    """Resumed from its record, the table talk reads as it did when the moves were made:
    each rating before the move it rates, a decision taken back rated too, then taken back."""
    dice = LoadedDice([6, 2, 1, 2, 3, 4, 6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5])
    table = Table.new("generala", [Seat(name="Ana"), Seat(name="Bruno", kind="easy")], dice=dice)
    host = TableHost(table, pace=3600)  # Bruno waits
    host.start()
    host.act(0, Roll())
    host.act(0, Fill(box="ones"))  # a poor box...
    while host.reviews_pending:
        await asyncio.sleep(0.01)
    host.undo()  # ...taken back
    host.act(0, Fill(box="sixes"))
    while host.reviews_pending:
        await asyncio.sleep(0.01)
    host.close()
    live = render_all(host.logged)
    assert sum(line.startswith("Coach: Ana") for line in live) == 2
    assert any("takes back" in line for line in live)
    resumed = TableHost(Table.from_record(table.record), pace=3600)
    told: list = []
    resumed.subscribe(told.append)
    resumed.start()
    while not any(isinstance(event, ReviewsRestored) for event in told):
        await asyncio.sleep(0.01)
    assert render_all(resumed.logged) == live
    assert [(seat, r.action) for seat, r in resumed.reviews] == [
        (seat, r.action) for seat, r in host.reviews
    ]
    resumed.close()
