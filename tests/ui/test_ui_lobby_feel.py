"""The lobby as a new player met it in a whole evening (issue 27, items 2, 9 and 24).

- the game chosen stays chosen whatever screen is opened over the lobby (the rules, the
  history, the statistics), by keyboard and by mouse; only coming back from a game offers
  that game;
- at 80×24 with unfinished games, each game's description shows whole sentences; the key bar
  keeps F5 and F6 beside F3 (the language, which has its button, gives way first); the
  Resume button is there only when a game can be resumed;
- the next run opens on the game last played (started or resumed);
- with a server, tab goes from the game list to the list of tables (not to the setup sheet,
  where enter starts a local game); the list of tables shows its cursor only while it has
  the keyboard.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import records_fixtures
from textual.geometry import Offset
from textual.pilot import Pilot
from uihelpers import click, screen_rows, screen_text, settle, until

from app.main import CubileteApp
from app.quiet.button_row import ButtonRow
from app.quiet.game_list import GameList
from app.screens.game import GameScreen
from app.screens.lobby import LobbyScreen, blurb
from app.server.address import ServerAddress
from app.widgets.record_list import RecordList

sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
from serverhelpers import SECRET, answer, line_client, server_process

SMALL = (80, 24)
GAMES = ["barco", "navio", "multiplicacion", "piratas", "generala"]


def chosen(app: CubileteApp) -> str:
    return app.screen.query_one("#game-list", GameList).game_id


def key_bar(app: CubileteApp) -> list[str]:
    row = screen_text(app).split("\n")[-1]
    return [entry.strip() for entry in row.split("▏")[0].split("  ") if entry.strip()]


async def back_to_lobby(pilot: Pilot) -> None:
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen), "the lobby")
    await settle(pilot)


# -- 2: the game chosen stays chosen ------------------------------------------------------
@pytest.mark.parametrize("key", ["f1", "f5", "f6"])
async def test_the_game_chosen_stays_chosen_under_any_screen_by_keyboard(key):
    app = CubileteApp(animate=False, game="generala")  # (Generala: the game last played)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert chosen(app) == "generala"
        await pilot.press("up", "up")
        assert chosen(app) == "multiplicacion"
        await pilot.press(key)
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen), "the screen over")
        await settle(pilot)
        await back_to_lobby(pilot)
        assert chosen(app) == "multiplicacion"
        await pilot.press("f2")
        screen = await until(
            pilot, lambda: app.screen if isinstance(app.screen, GameScreen) else None, "a game"
        )
        assert screen.game_id == "multiplicacion"


async def test_the_game_chosen_stays_chosen_under_the_rules_by_mouse():
    app = CubileteApp(animate=False, game="generala")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        games = app.screen.query_one("#game-list", GameList)
        line = next(y for y, row in enumerate(screen_rows(app)) if "Multiplicación" in row)
        await click(pilot, "#game-list", (3, line - games.region.y))
        assert chosen(app) == "multiplicacion"
        buttons = app.screen.query_one("#lobby-buttons", ButtonRow)
        await click(pilot, "#lobby-buttons", buttons.region_of("rules").offset + Offset(1, 0))
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen), "the rules")
        await settle(pilot)
        await back_to_lobby(pilot)
        assert chosen(app) == "multiplicacion"
        await click(pilot, "#lobby-buttons", buttons.region_of("start").offset + Offset(1, 0))
        screen = await until(
            pilot, lambda: app.screen if isinstance(app.screen, GameScreen) else None, "a game"
        )
        assert screen.game_id == "multiplicacion"


async def test_back_from_a_game_the_lobby_offers_that_game():
    app = CubileteApp(animate=False, game="generala")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("up")  # Batalla de Piratas
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await settle(pilot)
        await back_to_lobby(pilot)
        assert chosen(app) == "piratas"


# -- 9: the lobby at 80×24 with unfinished games ----------------------------------------------
@pytest.fixture
def two_unfinished(private_data_dir):
    records_fixtures.unfinished(private_data_dir, "piratas", 1, 6, records_fixtures.START)
    records_fixtures.unfinished(private_data_dir, "generala", 2, 6, records_fixtures.START + 60)


def shown_blurb(app: CubileteApp) -> str:
    """The description as the screen shows it (its rows, joined)."""
    region = app.screen.query_one("#game-blurb").region
    rows = screen_rows(app)[region.y : region.bottom]
    return " ".join(" ".join(row[region.x : region.right].split()) for row in rows).strip()


@pytest.mark.usefixtures("two_unfinished")
async def test_each_description_shows_whole_sentences_at_80_by_24():
    app = CubileteApp(animate=False)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#unfinished", RecordList).lines  # (the lobby is short)
        for game in GAMES:
            games = app.screen.query_one("#game-list", GameList)
            games.highlighted = GAMES.index(game)
            await settle(pilot)
            shown = shown_blurb(app)
            full = " ".join(blurb(game).split())
            assert shown, game
            assert full.startswith(shown), (game, shown)
            assert re.search(r"[.!?]$", shown), f"{game}: cut mid-sentence: {shown!r}"


@pytest.mark.usefixtures("two_unfinished")
async def test_the_key_bar_keeps_history_and_statistics_beside_resume_at_80_columns():
    app = CubileteApp(animate=False)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert key_bar(app) == ["f2 Start", "f3 Resume", "f1 Rules", "f5 History", "f6 Statistics"]


async def test_the_resume_button_is_there_only_when_a_game_can_be_resumed():
    app = CubileteApp(animate=False, game="generala")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert "Resume" not in screen_text(app)
        assert "f3" not in key_bar(app)
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await settle(pilot)
        await pilot.press("space")  # a throw: the game can be resumed
        await settle(pilot)
        await back_to_lobby(pilot)
        assert "Resume (F3)" in screen_text(app)
        buttons = app.screen.query_one("#lobby-buttons", ButtonRow)
        assert await pilot.click("#lobby-buttons", offset=buttons.region_of("resume").offset)
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game resumed")


async def test_the_next_run_opens_on_the_game_last_started():
    app = CubileteApp(animate=False)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("down", "down")  # Multiplicación
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await settle(pilot)
        await pilot.press("ctrl+q")
    again = CubileteApp(animate=False)
    async with again.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert chosen(again) == "multiplicacion"


@pytest.mark.usefixtures("two_unfinished")
async def test_the_next_run_opens_on_the_game_last_resumed():
    app = CubileteApp(animate=False)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert chosen(app) == "barco"  # (nothing played in this data dir yet)
        unfinished = app.screen.query_one("#unfinished", RecordList)
        unfinished.focus()
        await pilot.press("down", "enter")  # the older: Batalla de Piratas
        screen = await until(
            pilot, lambda: app.screen if isinstance(app.screen, GameScreen) else None, "a game"
        )
        assert screen.game_id == "piratas"
        await settle(pilot)
        await pilot.press("ctrl+q")
    again = CubileteApp(animate=False)
    async with again.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert chosen(again) == "piratas"


# -- 24: with a server, the tables come right after the games -------------------------------
@pytest.fixture
def server():
    with server_process("--bot-pace", "0", tcp=True) as running:
        yield running


@pytest.mark.skipif(sys.platform != "linux", reason="the server's socket is Linux's")
async def test_tab_goes_from_the_games_to_the_tables_and_only_the_focus_shows_a_cursor(server):
    bruno = line_client(server, "bruno")
    bruno.send(type="open_table", ref=1, game="navio", seats=[{"kind": "human"}] * 2)
    assert answer(bruno, 1)["type"] == "opened"
    address = ServerAddress(tcp=server.tcp, hello={"secret": SECRET, "user": "ana"})
    app = CubileteApp(animate=False, game="generala", server=address)
    async with app.run_test(size=(100, 30)) as pilot:
        tables = await until(
            pilot,
            lambda: next(iter(app.screen.query("#tables").results(RecordList)), None),
            "the list of tables",
        )
        await until(pilot, lambda: bool(tables.lines), "bruno's table listed")
        await settle(pilot)
        assert app.focused is app.screen.query_one("#game-list")
        row = screen_rows(app)[tables.region.y + 1]
        assert "bruno" in row
        assert "▹" not in row and "▸" not in row, row  # the keys are on the game list
        await pilot.press("tab")
        assert app.focused is tables
        await settle(pilot)
        assert "▸" in screen_rows(app)[tables.region.y + 1]
        assert "w Watch" in key_bar(app)
        await pilot.press("shift+tab")
        assert app.focused is app.screen.query_one("#game-list")
        bruno.close()
