"""The lobby keeps each game's seats and options: from one game to another and back, and from
one run of the app to the next (the settings file in the data dir)."""

from __future__ import annotations

import json
from pathlib import Path

from uihelpers import (
    click,
    click_button,
    click_row,
    notifications,
    screen_text,
    sheet_to,
    start_game,
)

from app import settings
from app.main import CubileteApp
from app.screens.game import GameScreen
from app.screens.lobby import LobbyScreen


def lobby_of(app: CubileteApp) -> LobbyScreen:
    assert isinstance(app.screen, LobbyScreen)
    return app.screen


def table_of(lobby: LobbyScreen) -> tuple[list[tuple[str, str]], dict[str, object]]:
    return [(seat.name, seat.kind) for seat in lobby.seats()], lobby.sheet.values()


async def test_switching_games_keeps_each_game_s_options_and_seats() -> None:
    app = CubileteApp(game="barco")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_of(app)
        await sheet_to(pilot, "end")
        await pilot.press("right")  # a race
        await sheet_to(pilot, "target")
        await pilot.press(*"150")
        await sheet_to(pilot, "count")
        await pilot.press("right")  # three at the table
        barco = table_of(lobby)
        assert barco[1]["end"] == "race" and barco[1]["target"] == "150"
        await pilot.press("shift+tab")  # to the game list, by keyboard
        await pilot.press("end")  # Generala
        await pilot.pause()
        await sheet_to(pilot, "count")
        assert len(lobby.seats()) == 3  # a game never set up starts from the seats shown
        await pilot.press("left", "left")  # Generala alone
        assert lobby.shown_game == "generala" and len(lobby.seats()) == 1
        await pilot.press("shift+tab", "home")  # back to Barco
        await pilot.pause()
        assert lobby.shown_game == "barco"
        assert table_of(lobby) == barco
        await click(pilot, "#game-list", (3, 7))  # by mouse: Generala, as it was left
        assert lobby.shown_game == "generala"
        assert [seat.name for seat in lobby.seats()] == ["Ana"]


async def test_a_started_game_s_table_is_there_the_next_time_the_app_opens() -> None:
    app = CubileteApp(game="barco", animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_of(app)
        await sheet_to(pilot, "seat-2")
        await pilot.press(*"Zoe", "right", "right", "right")  # Zoe, the expert bot
        await click_row(pilot, "stakes", "value")  # for chips, by mouse
        await click_row(pilot, "settlement", "value")  # settled by the margin
        await sheet_to(pilot, "rate")
        await pilot.press(*"0.5")
        chosen = table_of(lobby)
        await click_button(pilot, "start")
        assert isinstance(app.screen, GameScreen)
        assert app.screen.table.state.options.rate == 0.5  # type: ignore[attr-defined]

    again = CubileteApp(game="barco")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = lobby_of(again)
        assert table_of(lobby) == chosen
        assert ("Zoe", "expert") in table_of(lobby)[0]
        assert "‹ Expert bot ›" in screen_text(again)


async def test_leaving_the_lobby_keeps_what_was_set_up_without_a_game() -> None:
    app = CubileteApp(game="navio")
    async with app.run_test(size=(80, 24)) as pilot:
        await sheet_to(pilot, "mode")
        await pilot.press("right")  # for points
        await pilot.press("ctrl+q")
        await pilot.pause()
    again = CubileteApp(game="navio")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert lobby_of(again).sheet.values()["mode"] == "points"


async def test_a_damaged_settings_file_is_said_in_one_line_and_then_replaced(
    private_data_dir: Path,
) -> None:
    path = private_data_dir / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{ this is not json", encoding="utf-8")
    app = CubileteApp(game="generala", animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = lobby_of(app)
        notices = [row for row in screen_text(app).splitlines() if "Settings ignored" in row]
        assert len(notices) == 1 and "starts from its defaults" in screen_text(app)
        assert table_of(lobby) == ([("Ana", "human"), ("Bruno", "human")], {})
        await start_game(pilot, "generala")
    assert settings.load(path)["generala"].players == 2


async def test_a_stale_option_is_dropped_and_the_rest_kept(private_data_dir: Path) -> None:
    private_data_dir.mkdir(parents=True, exist_ok=True)
    entry = {
        "count": 2,
        "seats": [{"name": "Ana", "kind": "human"}, {"name": "Zoe", "kind": "easy"}],
        "options": {"lives": "5", "curse": "on"},  # no game has a curse (any more)
    }
    (private_data_dir / "settings.json").write_text(
        json.dumps({"format": settings.FORMAT, "games": {"piratas": entry}}), encoding="utf-8"
    )
    app = CubileteApp(game="piratas")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = lobby_of(app)
        assert table_of(lobby) == ([("Ana", "human"), ("Zoe", "easy")], {"lives": "5"})
        assert "Settings ignored" not in screen_text(app)


async def test_settings_that_cannot_be_written_are_said_and_the_game_starts(
    private_data_dir: Path,
) -> None:
    (private_data_dir / "settings.json").mkdir(parents=True)  # in the way of the file
    app = CubileteApp(game="generala", animate=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert "Settings ignored" in screen_text(app)
        await start_game(pilot)
        said = notifications(app)
        assert any("Could not keep the lobby's settings" in message for message in said)
