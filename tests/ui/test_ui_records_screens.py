"""The records' screens, by keyboard and by mouse: the lobby's unfinished games (resume any,
abandon with a confirm), the history (pages, filters), the replay (steps, the coach, the next
mistake, export), `cubilete replay FILE`, the statistics, and undo before the dice."""

from __future__ import annotations

import pytest
from records_fixtures import START, finished, history, play, stored, unfinished, utc, write
from uihelpers import click, notifications, screen_text, settle, until

from app.cli import main
from app.coach_words import rating_line
from app.dice import LoadedDice, RandomDice
from app.main import CubileteApp
from app.quiet.button_row import ButtonRow
from app.records import replay as records_replay
from app.records.files import read_record_file
from app.records.reviews import reviewed_decisions
from app.screens import replay as replay_module
from app.screens.confirm import ConfirmScreen
from app.screens.history import HistoryScreen
from app.screens.lobby import LobbyScreen
from app.screens.replay import ReplayScreen
from app.screens.statistics import StatisticsScreen
from app.table import Seat, Table
from app.widgets.record_list import RecordList


@pytest.fixture(autouse=True)
def in_utc(monkeypatch):
    utc(monkeypatch)


def new_app(**options) -> CubileteApp:
    return CubileteApp(animate=False, game="generala", **options)


async def click_list_button(pilot, selector: str, line: int, label: str) -> None:
    """Click a line's button (by its label) in a RecordList."""
    records = pilot.app.screen.query_one(selector, RecordList)
    width = records.scrollable_content_region.width
    spans = {button_id: start for button_id, start, _end in records._button_spans(width)}
    start = spans[label]
    y = line - round(records.scroll_offset.y)
    top, left = records.styles.border.top[0] != "", records.styles.border.left[0] != ""
    await click(pilot, selector, (start + 1 + int(left), y + int(top)))


async def click_row_button(pilot, selector: str, button_id: str) -> None:
    row = pilot.app.screen.query_one(selector, ButtonRow)
    await until(pilot, lambda: row.pressed is None, "the buttons to take clicks")
    region = row.region_of(button_id)
    assert await pilot.click(selector, offset=(region.x + 1, 0))
    await pilot.pause()


# -- the lobby ----------------------------------------------------------------------------------
async def test_the_lobby_lists_every_unfinished_game_and_resumes_any_by_keyboard(private_data_dir):
    older = unfinished(private_data_dir, "generala", 1, 7, START)
    newer = unfinished(private_data_dir, "barco", 2, 5, START + 3600)
    store = stored(private_data_dir)
    rounds = [
        records_replay.round_of(records_replay.replay(store.load(record_id)))
        for record_id in (newer, older)
    ]
    store.close()
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        records = await until(pilot, lambda: app.screen.query("#unfinished").first(), "the list")
        await until(pilot, lambda: all("…" not in line for line in records.lines), "the rounds")
        assert [line[:3] for line in records.lines] == [
            ("Barco, Capitán y Tripulación", "Ana, Bruno (bot)", f"round {rounds[0]}"),
            ("Generala", "Ana, Bruno (bot)", f"round {rounds[1]}"),
        ]
        text = screen_text(app)
        assert "2026-05-28 21:26" in text and "2026-05-28 20:26" in text
        while app.focused is not records:
            await pilot.press("tab")
        await pilot.press("down", "enter")  # the older game
        screen = await until(pilot, lambda: getattr(app.screen, "table", None), "a game")
        assert screen.save_id == older
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("f3")  # F3: the newest game, as before
        screen = await until(pilot, lambda: getattr(app.screen, "table", None), "a game")
        assert screen.save_id == newer


async def test_a_resumed_game_shows_the_coachs_ratings_in_the_talk_as_if_never_left(
    private_data_dir,
):
    from app.i18n import render

    table = play("generala", [Seat(name="Ana"), Seat(name="Bruno", kind="medium")], 5, 12)
    record_id = write(private_data_dir, table.record, START)
    reviews = reviewed_decisions(table.record)
    assert reviews  # (Ana's choices, rated)
    names = table.players
    ratings = {one.seq: render(rating_line(names[one.seat], one.review)) for one in reviews}
    # as it was told live: each rating right after the line telling the move it rates (a
    # decision with the throws it caused), before what followed
    moves: list[tuple[int, list[str]]] = []
    for event, lines in records_replay.narrated(table.record):
        if event.kind != "chance" or not moves:
            moves.append((event.seq, []))
        moves[-1][1].extend(render(line) for line in lines)
    expected = []
    for seq, told in moves:
        expected += [*told[:1], *([ratings[seq]] if seq in ratings else []), *told[1:]]
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.query("#unfinished").first(), "the list")
        await pilot.press("f3")
        screen = await until(pilot, lambda: hasattr(app.screen, "table") and app.screen, "it")
        assert screen.table.save_id == record_id
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert [render(line) for line in screen.host.logged] == expected
        written = " ".join(" ".join(strip.text.split()) for strip in screen.query_one("#log").lines)
        assert all(" ".join(rating.split()) in written for rating in ratings.values())


async def test_a_resumed_ship_game_shows_every_players_last_throws_as_if_never_left(
    private_data_dir,
):
    seats = [Seat(name="Ana"), Seat(name="Bruno", kind="medium"), Seat(name="Carla", kind="easy")]
    table = play("barco", seats, 7, 9)
    seen = {}  # what the screen saw live: the last turn after each move
    again = Table.new("barco", seats, None, RandomDice(7))
    for event in table.events:
        if event.kind == "action":
            again.act(event.data)
            if again.state.last_turn is not None:
                seen[again.state.last_turn.seat] = again.state.last_turn
    assert again.state == table.state and len(seen) == 3
    write(private_data_dir, table.record, START)
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.query("#unfinished").first(), "the list")
        await pilot.press("f3")
        screen = await until(pilot, lambda: hasattr(app.screen, "table") and app.screen, "it")
        await settle(pilot)
        assert screen.last_hands == seen
        box = str(screen.query_one("#last-throws").content)
        assert [line.split()[0] for line in box.splitlines()] == ["Ana", "Bruno", "Carla"]


async def test_an_unfinished_game_is_abandoned_by_mouse_after_a_confirm(private_data_dir):
    kept = unfinished(private_data_dir, "generala", 1, 7, START)
    gone = unfinished(private_data_dir, "generala", 2, 3, START + 3600)
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.screen.query("#unfinished").first(), "the list")
        await click_list_button(pilot, "#unfinished", 0, "abandon")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert "Abandon Generala with Ana, Bruno" in screen_text(app)
        await click(pilot, "#no")  # no: nothing happens
        assert len(app.screen.query_one("#unfinished", RecordList).lines) == 2
        await click_list_button(pilot, "#unfinished", 0, "abandon")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await click(pilot, "#yes")
        records = app.screen.query_one("#unfinished", RecordList)
        await until(pilot, lambda: len(records.lines) == 1, "one game left")
    store = stored(private_data_dir)
    try:
        assert [game.record_id for game in store.unfinished()] == [kept]
        assert store.load(gone).header.status == "abandoned"
    finally:
        store.close()


async def test_abandoning_by_keyboard_asks_first_and_the_last_game_takes_the_list_away(
    private_data_dir,
):
    unfinished(private_data_dir, "generala", 1, 3, START)
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        records = await until(pilot, lambda: app.screen.query("#unfinished").first(), "the list")
        while app.focused is not records:
            await pilot.press("tab")
        assert "Abandon" in screen_text(app).splitlines()[-1]  # the key bar offers delete
        await pilot.press("delete")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await until(pilot, lambda: not app.screen.query("#unfinished"), "the list to go")
        assert app.screen.query_one(ButtonRow).button("resume").hidden


# -- the history --------------------------------------------------------------------------------
async def test_the_history_pages_and_filters_by_keyboard(private_data_dir):
    history(private_data_dir, 60)
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f5")
        screen = await until(
            pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen, "history"
        )
        assert "1–50 of 60" in screen_text(app)
        first = screen.items[0]
        assert first.updated == START + 3600 * 59  # the newest first
        await pilot.press("right")
        assert "51–60 of 60" in screen_text(app)
        assert len(screen.items) == 10
        await pilot.press("left")
        assert screen.items[0] == first
        await pilot.press("g")  # Barco, Capitán y Tripulación
        assert {item.game_id for item in screen.items} == {"barco"}
        assert "1–20 of 20" in screen_text(app)
        await pilot.press("p")  # the first player with Barco games
        assert screen.filters.player is not None
        await pilot.press("G")  # back to every game
        assert screen.filters.game_id is None
        await pilot.press("enter")
        replay = await until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen, "the replay"
        )
        assert replay.record.header.record_id == screen.items[0].record_id
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the history again")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")


async def test_the_history_by_mouse(private_data_dir):
    history(private_data_dir, 55)
    app = new_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bottom = screen_text(app).split("\n")[-1]  # the key bar: a click presses a key
        assert await pilot.click("KeyBar", offset=(bottom.index("f5 History") + 1, 0))
        screen = await until(
            pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen, "history"
        )
        await click_row_button(pilot, "#pages", "older")
        assert "51–55 of 55" in screen_text(app)
        await click_row_button(pilot, "#filters", "game")
        assert {item.game_id for item in screen.items} == {"barco"}
        await click_list_button(pilot, "#history", 1, "replay")
        replay = await until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen, "the replay"
        )
        assert replay.record.header.record_id == screen.items[1].record_id


async def test_an_empty_history_says_so(private_data_dir):
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f5")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "history")
        assert "No finished game here yet." in screen_text(app)
        await pilot.press("right", "left", "enter", "p", "g")  # nothing to do: no harm
        assert isinstance(app.screen, HistoryScreen)


# -- the replay ---------------------------------------------------------------------------------
async def open_replay(pilot, record_id: str) -> ReplayScreen:
    pilot.app.show_replay(record_id)
    screen = await until(
        pilot, lambda: isinstance(pilot.app.screen, ReplayScreen) and pilot.app.screen, "replay"
    )
    await until(pilot, lambda: screen.decisions is not None, "the coach's reviews")
    await settle(pilot)
    return screen


async def test_the_replay_steps_through_the_game_as_it_was_played(private_data_dir):
    record = finished("generala", 1)
    record_id = write(private_data_dir, record, START)
    steps = list(records_replay.steps(record))
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_replay(pilot, record_id)
        # a move is a decision with the throws it caused, as at the table: the replay stops
        # where the game waits for a decision (the first: after the roll-off)
        game = screen.table.game
        settled = [n for n, step in enumerate(steps, 1) if game.pending_throw(step.after) is None]
        assert screen.stops == settled
        assert screen.table.state == steps[settled[0] - 1].after
        for _ in range(5):
            await pilot.press("right")
        assert screen.position == settled[5] and screen.table.state == steps[settled[5] - 1].after
        assert f"Move 5 of {len(settled) - 1}" in screen_text(app)
        await pilot.press("left")
        assert screen.table.state == steps[settled[4] - 1].after
        await pilot.press("end")
        assert screen.table.state == steps[-1].after and screen.table.over
        assert "Ana:" in screen_text(app)  # the coach's count of Ana's choices
        await pilot.press("home")
        start = screen.position
        assert start == settled[0]
        await pilot.press("space", "1", "enter", "u", "f")  # the game's keys play nothing
        assert screen.position == start and len(screen.table.events) == start
        await pilot.press("m")  # the first mistake: the easy bot made Ana's moves
        mistake = screen.decision_here()
        assert mistake is not None and mistake.review.rating.name in ("MISTAKE", "BLUNDER")
        assert "mistake" in screen_text(app) or "blunder" in screen_text(app)
        await pilot.press("h")  # the coach: the options Ana had, the best starred
        assert "★" in screen_text(app)


async def test_the_replay_by_mouse(private_data_dir):
    record_id = write(private_data_dir, finished("barco", 2), START)
    app = new_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_replay(pilot, record_id)
        stops = screen.stops
        await click_row_button(pilot, "#replay-controls", "step-on")
        await click_row_button(pilot, "#replay-controls", "step-on")
        assert screen.position == stops[2]
        await click_row_button(pilot, "#replay-controls", "go-end")
        assert screen.position == stops[-1] == len(screen.steps)
        await click_row_button(pilot, "#replay-controls", "step-back")
        assert screen.position == stops[-2]
        await click_row_button(pilot, "#replay-controls", "go-start")
        assert screen.position == stops[0]


async def test_the_replay_exports_the_record_and_cubilete_replay_opens_it(
    private_data_dir, tmp_path, monkeypatch
):
    record = finished("multiplicacion", 3)
    record_id = write(private_data_dir, record, START)
    monkeypatch.setattr(replay_module, "export_folder", lambda: tmp_path)
    app = new_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_replay(pilot, record_id)
        await pilot.press("x")
        await app.workers.wait_for_complete()
        (exported,) = tmp_path.glob("*.cubilete.json")
        assert any(
            str(exported.parent) in note and exported.name in note for note in notifications(app)
        )
    again = read_record_file(exported)
    assert again.events == record.events
    opened = new_app(replay=(again, exported))
    async with opened.run_test(size=(80, 24)) as pilot:
        screen = await until(
            pilot, lambda: isinstance(opened.screen, ReplayScreen) and opened.screen, "replay"
        )
        await until(pilot, lambda: screen.steps is not None, "the steps")
        assert len(screen.steps) == len(record.events)


def test_cubilete_replay_of_a_bad_file_says_so_in_one_line(tmp_path, capsys):
    bad = tmp_path / "game.cubilete.json"
    bad.write_text('{"format": "cubilete-record", "version": 1, "header": {}}')
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "Traceback" not in err
    assert main(["replay", str(tmp_path / "none.json")]) == 1
    assert "cannot be read" in capsys.readouterr().err


async def test_an_unfinished_game_replays_too(private_data_dir, tmp_path):
    record_id = unfinished(private_data_dir, "piratas", 4, 6, START)
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_replay(pilot, record_id)
        await pilot.press("end")
        assert not screen.table.over
        assert screen.table.events == list(screen.record.events)


# -- statistics ---------------------------------------------------------------------------------
async def test_the_statistics_by_keyboard_and_by_mouse(private_data_dir):
    history(private_data_dir, 6)
    app = new_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f6")
        screen = await until(
            pilot, lambda: isinstance(app.screen, StatisticsScreen) and app.screen, "statistics"
        )
        await app.workers.wait_for_complete()
        assert screen.filters.player == "Ana"
        text = screen_text(app)
        assert "Games and wins" in text and "Choose a game (g)" in text
        await pilot.press("g")  # Barco: its scores are plotted
        assert screen.filters.game_id == "barco"
        assert "Choose a game" not in screen_text(app)
        await click_row_button(pilot, "#filters", "player")
        assert screen.filters.player == "Bruno"
        assert "Bruno (bot)" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")


def figures_row(text: str, *words: str) -> list[str]:
    """The cells of the first row of the figures' box holding every one of `words`."""
    for row in text.splitlines():
        cells = row.strip().strip("│").split()
        if cells and cells[0] == words[0] and all(word in row for word in words):
            return cells
    raise AssertionError(f"no row with {words} in:\n{text}")


async def open_statistics(pilot) -> StatisticsScreen:
    await pilot.press("f6")
    screen = await until(
        pilot,
        lambda: isinstance(pilot.app.screen, StatisticsScreen) and pilot.app.screen,
        "statistics",
    )
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)
    return screen


async def test_the_statistics_at_80x24_show_the_figures_on_top_and_a_view_below(
    private_data_dir, monkeypatch
):
    """The key facts (games, wins, average beside the expert's) are on the first rows, with
    nothing to scroll; one view below, chosen by ← →, 1-4 or a click, and marked ▸ in the
    text (NO_COLOR shows no colour to tell it by)."""
    history(private_data_dir, 9)
    monkeypatch.setenv("NO_COLOR", "1")
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_statistics(pilot)
        await pilot.press("g")  # Barco
        await settle(pilot)
        rows = screen_text(app).splitlines()
        top = "\n".join(rows[:10])
        assert "Games" in top and "Wins" in top and "Average" in top and "Expert" in top
        assert figures_row(top, "Ana")[-1] == "43.2"  # Barco's 10 rounds: 10 × 4.316
        assert "▸Scores" in screen_text(app) and "Scores, oldest to newest" in screen_text(app)
        await pilot.press("right")
        assert screen.view == "distribution"
        assert "▸Distribution" in screen_text(app) and "▸Scores" not in screen_text(app)
        assert "How often each score" in screen_text(app)
        await pilot.press("4")
        assert screen.view == "mistakes"
        text = screen_text(app)
        assert "Costliest kinds of decision" in text
        assert "Throwing again:" in text or "Stopping:" in text
        assert "reroll" not in text and "stop:" not in text
        await pilot.press("left")
        assert screen.view == "loss"
        await click_row_button(pilot, "#views", "scores")
        assert screen.view == "scores"
        await pilot.press("g", "g")  # (Navio, then) Multiplicación
        await settle(pilot)
        assert figures_row(screen_text(app), "Ana")[-1] == "363.4"


async def test_games_without_an_expected_score_show_none_and_say_why(private_data_dir):
    write(private_data_dir, finished("navio", 4), START)
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_statistics(pilot)
        text = screen_text(app)
        assert figures_row(text, "Ana", "Navio")[-1] == "—"
        assert "no expected score for Navio" in text


async def test_the_statistics_in_spanish(private_data_dir):
    history(private_data_dir, 3)
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.set_language("es", remember=False)
        await open_statistics(pilot)
        await pilot.press("g", "4")
        await settle(pilot)
        text = screen_text(app)
        assert "Experto" in text and "▸Errores" in text
        assert "Volver a tirar:" in text or "Plantarse:" in text
        app.set_language("en", remember=False)


async def test_the_costliest_mistakes_say_each_unit_once_and_no_negative_zero(private_data_dir):
    """Multiplicación is played for the round's points, its last round for the win: the
    mistakes view says each unit once, on top of its kinds; "1 mistake", never "1 mistakes";
    a loss that rounds to zero is 0.00 or 0.0%, never −0.00. By keyboard and by mouse."""
    write(private_data_dir, finished("multiplicacion", 3), START)
    app = new_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_statistics(pilot)
        for _ in range(5):
            if screen.filters.game_id == "multiplicacion":
                break
            await pilot.press("g")
        assert screen.filters.game_id == "multiplicacion"
        await click_row_button(pilot, "#views", "mistakes")
        assert screen.view == "mistakes"
        await until(pilot, lambda: "Losses in" in screen_text(app), "the coach's reviews")
        text = screen_text(app)
        assert text.count("Losses in expected round score:") == 1
        assert text.count("Losses in chance to win:") == 1
        assert "Refusing the multiplier: 1 mistake in 3; −30.50 (worst −30.50)" in text
        assert "Taking the multiplier: 3 mistakes in 6; −25.50 (worst −13.50)" in text
        assert "Throwing a pair or triple again: 0 mistakes in 1; 0.00 (worst 0.00)" in text
        assert "Refusing the multiplier: 0 mistakes in 1; 0.0% (worst 0.0%)" in text
        assert "−0.0" not in text and "1 mistakes" not in text
        await pilot.press("left", "4")  # (away and back by keyboard: drawn the same)
        assert screen_text(app) == text


# -- undo ---------------------------------------------------------------------------------------
async def test_undo_takes_back_a_box_until_the_next_throw(private_data_dir):
    from uihelpers import start_game

    from app.table import Seat

    app = CubileteApp(
        dice=LoadedDice([6, 1] + [6, 6, 6, 2, 1] + [1, 2, 3, 4, 5] * 4),
        animate=False,
        game="generala",
        bot_pace=600,  # the bot waits: its throw would make the box stand
    )
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "generala", ["Ana", Seat(name="Bot", kind="medium")])
        await pilot.press("space")
        await settle(pilot)
        assert "Undo" not in screen_text(app).splitlines()[-1]
        box_before = screen.table.state
        await pilot.press("enter")  # a box
        await settle(pilot)
        assert "u Undo" in screen_text(app).splitlines()[-1]
        await pilot.press("u")
        await settle(pilot)
        assert screen.table.state == box_before
        assert screen.table.events[-1].kind == "undo"
        assert "takes back" in screen_text(app)
        await pilot.press("u")  # nothing more to take back: the reason, nothing changes
        assert "Dice were thrown since the last decision" in screen_text(app)
        assert screen.table.state == box_before
