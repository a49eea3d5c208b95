"""What a screen shows fits the screen at 80×24 (issue 27): a question within its box, the
statistics' columns on their rows, every score of a finished game, the table talk's border.
"""

from __future__ import annotations

import re

import pytest
from records_fixtures import START, finished, play, write
from uihelpers import screen_rows, screen_text, settle, start_game, until

from app.i18n import _
from app.main import CubileteApp
from app.quiet.key_bar import KeyBar
from app.quiet.table_talk import TableTalk
from app.screens import replay as replay_module
from app.screens.confirm import ConfirmScreen
from app.screens.history import HistoryScreen
from app.screens.lobby import LobbyScreen
from app.screens.replay import ReplayScreen
from app.screens.statistics import StatisticsScreen
from app.table import Seat
from app.widgets.piratas.board import Board
from rules import game_name

SIZE = (80, 24)
LONG_NAMES = ["Maximiliano", "Bartolomeu", "Guadalupe", "Constantino", "Florentina", "Evaristo"]


def words(text: str) -> str:
    return " ".join(text.split())


# -- 4: a question fits its box --------------------------------------------------------------
@pytest.mark.parametrize("language", ["en", "es", "pt"])
@pytest.mark.parametrize(("game", "players"), [("piratas", 2), ("generala", 6)])
async def test_the_abandon_question_fits_its_box(language: str, game: str, players: int) -> None:
    """The longest questions the app asks: abandoning the game with the longest name (two
    players) or a game of six people, all with long names. The box stays on the screen and
    shows the whole question, wrapped."""
    names = LONG_NAMES[:players]
    app = CubileteApp(animate=False, bot_pace=0)
    async with app.run_test(size=SIZE) as pilot:
        app.set_language(language, remember=False)
        await start_game(pilot, game, names)
        await pilot.press("escape")
        lobby = await until(
            pilot, lambda: app.screen if isinstance(app.screen, LobbyScreen) else None, "the lobby"
        )
        await settle(pilot)
        lobby.unfinished_list().focus()  # (as tab reaches it)
        await pilot.press("delete")
        dialog = await until(
            pilot,
            lambda: isinstance(app.screen, ConfirmScreen) and app.screen.query_one("#dialog"),
            "the question",
        )
        await settle(pilot)
        question = app.screen.query_one("#question")
        asked = words(str(question.render()))
        assert all(name in asked for name in names), asked
        screen = app.screen.region
        assert screen.contains_region(dialog.region), (dialog.region, screen)
        rows = screen_rows(app)
        box = dialog.region
        # its frame is whole: both corners of its top and bottom rows are on the screen
        top, bottom = rows[box.y], rows[box.bottom - 1]
        assert top[box.x] != " " and top[box.right - 1] != " ", top
        assert bottom[box.x] != " " and bottom[box.right - 1] != " ", bottom
        # and the question is there, word for word, on the rows of its text
        shown = question.region
        text = words(" ".join(row[shown.x : shown.right] for row in rows[shown.y : shown.bottom]))
        assert text == asked


# -- 5: the statistics' rows are not wrapped -----------------------------------------------
GAMES_AND_SEEDS = [
    ("generala", 1), ("barco", 2), ("navio", 4), ("multiplicacion", 3), ("piratas", 5)
]


@pytest.mark.parametrize("language", ["en", "es", "pt"])
async def test_the_statistics_rows_keep_every_column_on_their_row(
    private_data_dir, language: str
) -> None:
    """With every game played, the figures of every game (more rows than the box shows, so it
    scrolls) and of each game alone: each player's row ends with its Expert figure, on the
    same row as its name; the header ends with Expert."""
    for index, (game, seed) in enumerate(GAMES_AND_SEEDS):
        write(private_data_dir, finished(game, seed), START + 3600 * index, new_id=True)
    app = CubileteApp(animate=False, game="generala")
    async with app.run_test(size=SIZE) as pilot:
        app.set_language(language, remember=False)
        await pilot.press("f6")
        screen = await until(
            pilot, lambda: isinstance(app.screen, StatisticsScreen) and app.screen, "statistics"
        )
        await app.workers.wait_for_complete()
        for _game in range(len(GAMES_AND_SEEDS) + 1):  # every game, then each one
            await settle(pilot)
            box = screen.query_one("#figures").region
            rows = [row[box.x + 1 : box.right - 1] for row in screen_rows(app)[box.y + 1 :]]
            rows = rows[: box.height - 2]
            expert = _("Expert")
            assert rows[0].split()[-1] == expert, rows
            players = [row for row in rows[1:] if row.split() and row.split()[0] == "Ana"]
            assert players, rows
            for row in players:  # a figure or "—" ends the row, not a name cut short
                assert re.search(r"(\d[.,]\d|—)\s*[▄▀█]*\s*$", row), rows
            for row in rows:
                assert row.split()[:1] not in ([expert], ["43.2"]), rows
            await pilot.press("g")


# -- 8: every score of a finished game in the history ------------------------------------------
FOUR = [
    Seat(name="Maximiliano"),
    Seat(name="Bartolomeu", kind="medium"),
    Seat(name="Guadalupe", kind="easy"),
    Seat(name="Constantino", kind="medium"),
]


@pytest.mark.parametrize("language", ["en", "es", "pt"])
async def test_the_history_shows_every_players_score_of_four_player_games(
    private_data_dir, language: str
) -> None:
    """Four players with long names, in every game for four (and Piratas, for two): at 80
    columns each row shows every player's score, their names shortened (…) to make room."""
    games = ["generala", "barco", "navio", "multiplicacion", "piratas"]
    outcomes = {}
    for index, game in enumerate(games):
        table = play(game, FOUR[:2] if game == "piratas" else FOUR, seed=index + 1)
        write(private_data_dir, table.record, START + 3600 * index)
        outcomes[game_name(game)] = table._outcome(table.state).scores
    app = CubileteApp(animate=False, game="generala")
    async with app.run_test(size=SIZE) as pilot:
        app.set_language(language, remember=False)
        await pilot.press("f5")
        history = await until(
            pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen, "the history"
        )
        await settle(pilot)
        box = history.query_one("#history").region
        rows = screen_rows(app)[box.y + 1 : box.bottom - 1]
        assert len([row for row in rows if "20" in row]) == len(games), rows
        for row in rows:
            found = [name for name in outcomes if name[:9] in row]
            if not found:
                continue
            scores = outcomes[found[0]]
            results = row[row.index(found[0][:9]) :]
            shown = re.findall(r"★?(\w+)…? (\d+)", results)
            assert sorted(int(score) for _name, score in shown) == sorted(scores), row
            for name, _score in shown:  # a name is shortened from its start, never dropped
                assert any(seat.name.startswith(name) for seat in FOUR), row


# -- 12: an exported record's path, whole ------------------------------------------------------
@pytest.mark.parametrize("language", ["en", "es", "pt"])
@pytest.mark.parametrize("size", [SIZE, (120, 40)])
async def test_the_export_notice_shows_the_folder_and_the_file_whole(
    private_data_dir, tmp_path, monkeypatch, language: str, size: tuple[int, int]
) -> None:
    """The folder (the home folder written ~) and the file's name are each on a row of
    their own, never cut in the middle."""
    monkeypatch.setenv("HOME", str(tmp_path))
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    monkeypatch.setattr(replay_module, "export_folder", lambda: downloads)
    record_id = write(private_data_dir, finished("multiplicacion", 3), START)
    app = CubileteApp(animate=False, game="generala")
    async with app.run_test(size=size, notifications=True) as pilot:
        app.set_language(language, remember=False)
        app.show_replay(record_id)
        screen = await until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen, "the replay"
        )
        await until(pilot, lambda: screen.steps is not None, "the steps")
        await pilot.press("x")
        await app.workers.wait_for_complete()
        (exported,) = downloads.glob("*.cubilete.json")
        toast = await until(pilot, lambda: app.screen.query("Toast").first(), "the notice")
        await settle(pilot)
        box = toast.region
        assert app.screen.region.contains_region(box), box
        rows = [row[box.x : box.right] for row in screen_rows(app)[box.y : box.bottom]]
        assert any(exported.name in row for row in rows), rows
        assert any(re.search(r"(^|\s)~/Downloads\b", row) for row in rows), rows
        assert not any(str(tmp_path) in row for row in rows), rows


# -- 10: the table talk's text keeps off its scrollbar ----------------------------------------
@pytest.mark.parametrize("size", [SIZE, (120, 40)])
async def test_the_table_talk_leaves_a_blank_column_before_its_scrollbar(size) -> None:
    """A line as long as the log is wide (a word that cannot wrap, and words that can) is
    wrapped a column short of the scrollbar: no text touches it ("the crew▂")."""
    app = CubileteApp(animate=False, bot_pace=0)
    async with app.run_test(size=size) as pilot:
        screen = await start_game(pilot, "barco", ["Ana", "Bruno"])
        log = screen.query_one("#log", TableTalk)
        for _line in range(3):
            log.write("the crew " * 40)
            log.write("x" * 300)
        await settle(pilot)
        bar = log.vertical_scrollbar.region
        assert bar.width == 1 and bar.right == log.region.right - 1  # (against the border)
        rows = screen_rows(app)[bar.y : bar.bottom]
        texts = [row[log.region.x + 1 : bar.x] for row in rows]
        assert any("x" in text for text in texts), texts
        assert all(text.endswith(" ") for text in texts), texts  # the gap
        assert max(len(text.rstrip()) for text in texts) == len(texts[0]) - 1  # (used up to it)


# -- 6: Multiplicación's multiplier slot with the coach open ---------------------------------
@pytest.mark.parametrize("size", [SIZE, (120, 40)])
@pytest.mark.parametrize("by", ["key", "click"])
async def test_multiplicacion_keeps_the_multiplier_slot_in_view_with_the_coach_open(
    size, by: str
) -> None:
    """The coach opens beside the table (by h, or a click on its key): the cup and the three
    slots, × the last, stay whole inside the tray; closed again, they are as before."""
    app = CubileteApp(animate=False, bot_pace=0)
    async with app.run_test(size=size) as pilot:
        screen = await start_game(pilot, "multiplicacion", ["Ana", "Bruno"])

        def whole() -> bool:
            tray = screen.query_one("#tray").region
            dice = [screen.query_one(f"#slot-{key}").region for key in ("a", "b", "multiplier")]
            return all(tray.contains_region(die) and die.width >= 5 for die in dice)

        before = screen.query_one("#slot-multiplier").region
        assert whole()
        if by == "key":
            await pilot.press("h")
        else:
            assert await pilot.click(KeyBar, offset=key_offset(app, "h Coach"))
        await settle(pilot)
        assert screen.has_class("-coach-open")
        assert whole(), (screen.query_one("#tray").region, screen.query_one("#slot-multiplier"))
        await pilot.press("h")
        await settle(pilot)
        assert screen.query_one("#slot-multiplier").region == before


def key_offset(app: CubileteApp, entry: str) -> tuple[int, int]:
    """Where the key bar shows `entry` (a click there presses that key)."""
    row = screen_rows(app)[-1]
    return row.index(entry) + 1, 0


# -- 18: Piratas: what enter and the letters do; the harbours' mark ---------------------------
async def test_piratas_status_says_a_letter_moves_at_once_and_enter_moves_the_highlighted():
    app = CubileteApp(animate=False, bot_pace=0, game="piratas")
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot, "piratas", ["Ana", "Bruno"])
        await pilot.press("space")
        await settle(pilot)
        said = words(str(screen.query_one("#status").render()))
        assert re.search(r"opening: The captain[^·]* · enter or its letter moves it$", said)
        before = screen.table.state
        await pilot.press("c")  # its letter: moved at once, no enter after it
        await settle(pilot)
        assert screen.table.state != before
        said = words(str(screen.query_one("#status").render()))
        assert "enter" not in said, said


@pytest.mark.parametrize("size", [SIZE, (120, 40)])
@pytest.mark.parametrize("coach", [False, True])
async def test_piratas_harbours_are_marked_in_their_squares_not_over_the_border(size, coach):
    """Squares 15 and 0 show ⌂ beside their numbers, whole with the coach open too; the top
    edge of the board is all border (a highlighted harbour keeps its top)."""
    app = CubileteApp(animate=False, bot_pace=0, game="piratas")
    async with app.run_test(size=size) as pilot:
        screen = await start_game(pilot, "piratas", ["Ana", "Bruno"])
        if coach:
            await pilot.press("h")
            await settle(pilot)
            assert screen.has_class("-coach-open")
        board = screen.query_one(Board)
        rows = [row[board.region.x : board.region.right] for row in screen_rows(app)]
        top = rows[board.region.y]
        assert re.fullmatch(r"[─┌┐┬┏┓┳━┯┱┲ ]+", top.rstrip()), top
        squares = " ".join(rows[board.region.y + 1 : board.region.y + 2])
        assert re.search(r"│15 ?⌂", squares) and re.search(r"│0 ?⌂", squares), squares
        legend = words(screen_text(app))
        if not coach:
            assert "⌂ harbours" in legend, legend
