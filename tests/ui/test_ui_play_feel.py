"""What a new player stumbled on at 80×24 (issue 17), driven through the real app.

- whose turn it is: during a bot's turn the status line says what the bot is doing, never
  what to press; at a table of several people it names the player to move;
- what just happened: with the coach open the status line and the log's last lines stay on
  screen; Piratas shows three lines of log; each Ship-Captain-Crew player's last throw stays
  on screen until their next one;
- the keys: the key bar shows the keys that work now, the keys that play first;
- Generala's box cursor reaches every row, and a filled box is refused with a message;
- previews are drawn in brackets, never like a written score (Generala, Multiplicación);
- the Navío sheet of three players fits beside the tray and keeps every treasure and every
  "out" once the round is over.
"""

from __future__ import annotations

import generala_script
import multiplicacion_script
import pytest
from textual.pilot import Pilot
from uihelpers import click, log_text, screen_strips, screen_text, settle, start_game

from app.dice import LoadedDice, RandomDice
from app.main import CubileteApp
from app.quiet.key_bar import KeyBar
from app.screens.confirm import ConfirmScreen
from app.screens.generala import GeneralaScreen
from app.table import Seat
from app.widgets.coach_panel import CoachPanel
from app.widgets.scoresheet import Scoresheet
from kits import KITS
from rules.generala import BOXES, Box

SIZE = (80, 24)


async def press(pilot: Pilot, *keys: str) -> None:
    """Press `keys` one by one; when Generala asks whether to write a 0, say yes."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot)
        if isinstance(pilot.app.screen, ConfirmScreen):
            await pilot.press("y")
            await settle(pilot)


def status(app: CubileteApp) -> str:
    return " ".join(str(app.screen.query_one("#status").render()).split())


def key_bar(app: CubileteApp) -> str:
    return screen_text(app).split("\n")[-1]


def keys_shown(app: CubileteApp) -> list[str]:
    """The key bar's entries, e.g. ["space Throw", "h Coach", ...] (the palette left out)."""
    return [entry.strip() for entry in key_bar(app).split("▏")[0].split("  ") if entry.strip()]


# -- 4: whose turn, and what a bot is doing ----------------------------------------------------
@pytest.mark.parametrize("game", list(KITS))
async def test_in_a_bots_turn_the_status_says_what_the_bot_does_not_what_to_press(game):
    app = CubileteApp(dice=RandomDice(5), animate=False, bot_pace=600)  # the bot never moves
    async with app.run_test(size=SIZE) as pilot:
        bots = [Seat(name="Ana", kind="medium"), Seat(name="Bruno", kind="easy")]
        await start_game(pilot, game, bots)
        screen = app.screen
        bot = screen.table.seats[screen.table.current_player()].name
        line = status(app)
        assert f"{bot} (bot) is" in line or f"{bot} (bot) has" in line, line
        for instruction in ("press", "space", "click", "(s)", "enter"):
            assert instruction not in line.lower(), line
        shown = keys_shown(app)
        assert "f Hurry bots" in shown
        assert not [key for key in shown if key.split()[0] in ("space", "s", "1-5", "⏎", "a")]


async def test_at_a_table_of_people_the_status_names_who_is_to_move():
    app = CubileteApp(dice=LoadedDice(generala_script.loaded_faces()), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "generala", ["Ana", "Bruno"])
        assert status(app).startswith("Ana: press space")
        await press(pilot, "space", "enter")  # Ana writes 3 in Ones
        assert status(app).startswith("Bruno: press space")
        await press(pilot, "space")
        assert status(app).startswith("Bruno: hold dice")


async def test_navios_roll_limit_names_the_player_to_move_on_one_line_at_80_columns():
    """Ana leads with 6 in one throw: Bruno, then Carla, may use one throw."""
    faces = [6, 2, 3, 6, 5, 4, 3, 3, 6, 5, 4, 5, 5]
    app = CubileteApp(dice=LoadedDice(faces), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        seats = ["Ana", "Bruno", "Carla"]
        await start_game(pilot, "navio", seats, {"rounds": 3})
        await press(pilot, "space", "s")
        assert "Bruno may use 1 throw: Ana leads with 6" in notes_lines(app)
        await press(pilot, "space")  # Bruno: 10 in his one throw, his turn is over
        assert "Carla may use 1 throw: Bruno leads with 10" in notes_lines(app)
        assert "You have" not in screen_text(app)


def notes_lines(app: CubileteApp) -> list[str]:
    """The lines under the Ship-Captain-Crew tray, each as the screen shows it."""
    region = app.screen.query_one("#tray-notes").region
    lines = screen_text(app).split("\n")[region.y : region.bottom]
    return [line[region.x : region.right].strip() for line in lines]


# -- 5: what just happened ---------------------------------------------------------------------
def log_rows(app: CubileteApp) -> int:
    """Rows of log text on screen (inside the log's border)."""
    log = app.screen.query_one("#log")
    return log.content_region.height if log.region.bottom <= SIZE[1] - 1 else 0


LOG_LINES = {"piratas": 2}
"""The least lines of log in view at 80×24: three, and two under Piratas' board (its 17 rows
leave the log five, its closed box two of them: issue 27, item 10)."""


def assert_in_view(app: CubileteApp) -> None:
    """The status line and the last three lines of the log (two in Piratas) are on screen,
    unhidden, in the log's closed box."""
    screen = app.screen
    text = screen_text(app)
    assert status(app) and status(app)[:30] in " ".join(text.split())
    assert screen.query_one("#status").region.height >= 1
    assert log_rows(app) >= LOG_LINES.get(getattr(screen, "game_id", ""), 3), text
    log = screen.query_one("#log")
    last = " ".join(log.lines[-1].text.split())  # type: ignore[attr-defined]
    assert last in " ".join(text.split()), (last, text)


OPENING_KEYS = {
    "generala": ["space", "enter", "space", "enter", "space"],
    "barco": ["space", "space", "space", "space"],
    "navio": ["space", "space", "space", "space"],
    "multiplicacion": ["space", "space", "space", "a", "space"],
    "piratas": ["space", "enter", "space", "enter", "space"],
}


@pytest.mark.parametrize("way", ["keyboard", "mouse"])
@pytest.mark.parametrize("game", list(KITS))
async def test_with_the_coach_open_the_status_and_the_last_events_stay_in_view(game, way):
    app = CubileteApp(dice=RandomDice(11), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, game, ["Ana", "Bruno"])
        for key in OPENING_KEYS[game]:
            if app.screen.table.current_player() is not None:
                await press(pilot, key)
        if way == "keyboard":
            await press(pilot, "h")
        else:
            row = key_bar(app)
            assert await pilot.click(KeyBar, offset=(row.index("h Coach"), 0))
            await settle(pilot)
        panel = app.screen.query_one(CoachPanel)
        assert panel.display and not panel.has_class("-hidden")
        assert panel.region.height >= 3 and panel.region.bottom <= SIZE[1] - 1
        assert "Coach" in screen_text(app)
        assert_in_view(app)
        await press(pilot, "h")
        assert panel.has_class("-hidden")
        assert_in_view(app)


async def test_piratas_shows_two_lines_of_the_log_at_80x24():
    app = CubileteApp(dice=RandomDice(3), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "piratas", ["Ana", "Bruno"])
        await press(pilot, "space")
        assert_in_view(app)


async def test_each_players_last_throw_stays_on_screen_until_their_next_one():
    """Navío, Ana and Bruno: Ana stops with 6 5 4 and 3 3; Bruno's throws replace her tray,
    but her last throw stays in view beside the sheet, and his joins it when he is done."""
    faces = [6, 2, 6, 5, 4, 3, 3, 6, 5, 2, 1, 1]
    app = CubileteApp(dice=LoadedDice(faces), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "navio", ["Ana", "Bruno"], {"rounds": 2})
        assert "Last throws" not in screen_text(app)
        await press(pilot, "space", "s")
        await press(pilot, "space")  # Bruno: ship and captain, his only throw: out
        lines = [" ".join(line.split()) for line in screen_text(app).split("\n")]
        assert any("│ Ana 6 5 4 3 3 6 │" in line for line in lines)
        assert any("│ Bruno 6 5 · ↩ 2 1 1 out │" in line for line in lines)


async def test_barco_keeps_the_last_throw_of_a_player_by_mouse():
    faces = [1, 1, 1, 1, 1, 6, 6, 6, 6, 6]  # the roll-off: Ana's 5 is the lowest, she starts
    faces += [6, 5, 4, 3, 3, 6, 5, 4, 1, 2]
    app = CubileteApp(dice=LoadedDice(faces), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "barco", ["Ana", "Bruno"], {"rounds": 2})
        await click(pilot, "#throw")
        await click(pilot, "#stop")
        await settle(pilot)
        await click(pilot, "#throw")  # Bruno's tray replaces Ana's
        await settle(pilot)
        assert any("Ana    6 5 4  3 3    6" in line for line in screen_text(app).split("\n"))


# -- 8: the keys that work now ----------------------------------------------------------------
async def test_the_key_bar_offers_only_the_keys_that_work_now_the_play_keys_first():
    app = CubileteApp(dice=LoadedDice(generala_script.loaded_faces()), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Resume" not in key_bar(app)  # nothing to resume yet
        await start_game(pilot, "generala", [Seat(name="Ana"), Seat(name="Bruno", kind="medium")])
        app.bot_pace = 600
        assert keys_shown(app)[0] == "space Throw"
        assert not {"⏎ Choose box", "1-5 Hold"} & set(keys_shown(app))
        await press(pilot, "space")
        assert keys_shown(app)[:3] == ["space Throw", "1-5 Hold", "⏎ Choose box"]
        assert "f1 Rules" in keys_shown(app)
        await press(pilot, "space", "space")
        assert keys_shown(app)[0] == "⏎ Choose box"
        assert not {"space Throw", "1-5 Hold"} & set(keys_shown(app))
        await press(pilot, "space")  # a key that does not work now says why
        assert "No throws left" in status(app)
        await press(pilot, "enter")  # Ana writes in Ones; Bruno, a bot, is to move
        # until Bruno throws, Ana may take her box back
        assert keys_shown(app)[:3] == ["u Undo", "h Coach", "f Hurry bots"]
        assert "f1 Rules" in keys_shown(app)
        await press(pilot, "space")
        assert "Bruno (a bot) is playing" in status(app)
        await press(pilot, "escape")  # back to the lobby: now there is a game to resume
        assert "f3 Resume" in key_bar(app)


# -- 9: every row of the sheet is reachable ------------------------------------------------------
async def generala_with_filled_boxes(pilot: Pilot) -> tuple[GeneralaScreen, Scoresheet]:
    """Ana fills Poker and Full in her first two turns (Bruno fills Ones and Twos), then
    throws in her third turn, her cursor on Escalera larga."""
    screen = await start_game(pilot, "generala", ["Ana", "Bruno"])
    sheet = screen.query_one(Scoresheet)
    for box in (Box.POKER, Box.ONES, Box.FULL, Box.TWOS):
        await press(pilot, "space")
        sheet.cursor = BOXES.index(box)
        await press(pilot, "enter")
        if "Write 0" in screen_text(pilot.app):
            await press(pilot, "y")
    await press(pilot, "space")
    sheet.cursor = BOXES.index(Box.ESCALERA_LARGA)
    return screen, sheet


async def test_the_arrows_reach_every_box_and_a_filled_one_is_refused():
    app = CubileteApp(dice=RandomDice(21), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen, sheet = await generala_with_filled_boxes(pilot)
        await press(pilot, "up", "up", "up")  # Full, Poker, Trío
        assert sheet.cursor_key == Box.TRIO.value
        await press(pilot, "down")
        assert sheet.cursor_key == Box.POKER.value
        before = screen.table.state
        await press(pilot, "enter")
        assert "Poker already holds" in status(app)
        assert "choose an empty box" in status(app)
        assert screen.table.state == before


async def test_a_click_on_a_filled_box_is_refused_with_a_message():
    app = CubileteApp(dice=RandomDice(21), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen, sheet = await generala_with_filled_boxes(pilot)
        before = screen.table.state
        await click(pilot, "#sheet", (4, 2 + BOXES.index(Box.FULL)))
        assert sheet.cursor_key == Box.FULL.value
        assert "Full already holds" in status(app)
        assert screen.table.state == before


# -- 11, 12: previews in brackets ---------------------------------------------------------------
def sheet_row(app: CubileteApp, label: str) -> list[str]:
    """The words of the scoresheet's row `label` as the screen shows them (inside its border)."""
    region = app.screen.query_one(Scoresheet).region
    lines = screen_text(app).split("\n")[region.y + 1 : region.bottom - 1]
    rows = [line[region.x + 1 : region.right - 1].replace("›", "").split() for line in lines]
    found = [row for row in rows if row and " ".join(row).startswith(label + " ")]
    assert found, (label, rows)
    return found[0]


async def test_a_preview_is_drawn_in_brackets_and_a_written_score_plainly():
    app = CubileteApp(dice=LoadedDice(generala_script.loaded_faces()), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "generala", ["Ana", "Bruno"])
        await press(pilot, "space", "enter", "space", "enter", "space")  # Ana: 2 2 3 4 6
        assert sheet_row(app, "Ones") == ["Ones", "3", "3"]
        assert sheet_row(app, "Twos") == ["Twos", "(4)", "·"]
        assert sheet_row(app, "Full") == ["Full", "(0)", "·"]
        sheet = app.screen.query_one(Scoresheet)
        strip = screen_strips(app)[sheet.region.y + 2 + 1]
        styles = [segment.style for segment in strip if "(4)" in segment.text]
        assert styles and not any(style and style.italic for style in styles)


async def test_multiplicacion_shows_the_score_before_the_multiplier_is_accepted_as_a_preview():
    app = CubileteApp(dice=LoadedDice(multiplicacion_script.loaded_faces()), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "multiplicacion", ["Ana", "Bruno"])
        await press(pilot, "space", "space", "space")  # Ana: 1 4 5, 2 3, the multiplier 5
        assert sheet_row(app, "1") == ["1", "(40)", "·"]
        assert app.screen.table.state.sheets[0] == ()
        await press(pilot, "a")
        assert sheet_row(app, "1") == ["1", "40", "·"]


# -- 13: the Navío sheet of three players ------------------------------------------------------
async def test_the_navio_sheet_of_three_players_fits_and_keeps_every_treasure():
    """Ana stops with 6, Bruno makes 10 in his one throw, Carla is out: Bruno wins round 1."""
    faces = [6, 2, 3, 6, 5, 4, 3, 3, 6, 5, 4, 5, 5, 1, 2, 3, 2, 1]
    app = CubileteApp(dice=LoadedDice(faces), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        seats = ["Ana", "Bruno", "Carla"]
        await start_game(pilot, "navio", seats, {"rounds": 3})
        await press(pilot, "space", "s", "space", "space")
        sheet = app.screen.query_one(Scoresheet)
        assert sheet.region.right <= SIZE[0]
        side = app.screen.query_one("#side")
        assert side.max_scroll_x == 0  # no horizontal scrollbar
        assert sheet_row(app, "Round") == ["Round", "Ana", "▸Bruno", "Carla", "Pot"]
        assert sheet_row(app, "1") == ["1", "6", "★10", "✗", "3"]
        assert sheet_row(app, "2") == ["2", "·", "·", "·", "3"]
        assert "Carla has no ship" in log_text(app)
