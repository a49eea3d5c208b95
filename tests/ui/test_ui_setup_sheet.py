"""The lobby's setup sheet: seats and options, a row each, by keyboard and by mouse."""

from __future__ import annotations

from uihelpers import click, click_row, screen_text, sheet_to

from app.main import CubileteApp
from app.quiet.game_list import GameList
from app.quiet.setup_sheet import SetupSheet
from app.screens.lobby import LobbyScreen


def lobby_of(app: CubileteApp) -> LobbyScreen:
    assert isinstance(app.screen, LobbyScreen)
    return app.screen


async def test_the_sheet_shows_the_seats_and_every_option_of_the_game() -> None:
    app = CubileteApp(game="barco")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for line in ("How many", "‹ 2 ›", "1  Ana", "2  Bruno", "‹ Human      ›"):
            assert line in text
        for title in ("Game end", "Rounds", "Target", "Play for chips", "Stake", "Rate"):
            assert title in text
        assert "‹ rounds ›" in text and "[ ] no" in text
        assert "How many sit at the table: 1 to 8" in text  # the note of the row under ▸


async def test_the_player_count_adds_and_removes_seats_and_a_name_comes_back() -> None:
    app = CubileteApp(game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_of(app)
        sheet = await sheet_to(pilot, "count")
        await pilot.press("right")
        assert [seat.name for seat in lobby.seats()] == ["Ana", "Bruno", "Carla"]
        await sheet_to(pilot, "seat-3")
        await pilot.press(*"Zoe")
        await sheet_to(pilot, "count")
        await pilot.press("left")
        assert [seat.name for seat in lobby.seats()] == ["Ana", "Bruno"]
        assert "Zoe" not in screen_text(app)
        await pilot.press("right")
        assert [seat.name for seat in lobby.seats()] == ["Ana", "Bruno", "Zoe"]
        await pilot.press(*["right"] * 9)  # no further than 8 seats
        assert sheet.count == 8
        await pilot.press(*["left"] * 9)
        assert sheet.count == 1
        assert "1  Ana" in screen_text(app) and "2  Bruno" not in screen_text(app)


async def test_typing_replaces_a_name_then_adds_to_it_and_backspace_erases() -> None:
    app = CubileteApp(game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_of(app)
        sheet = await sheet_to(pilot, "seat-1")
        await pilot.press(*"Ana María")  # a space is part of a name
        assert lobby.seats()[0].name == "Ana María"
        await pilot.press("backspace", "backspace", "backspace", "backspace", "backspace")
        assert sheet.names[0] == "Ana "  # the seat's name is trimmed: "Ana"
        await pilot.press("down", "backspace")  # arriving on a name selects it whole
        assert lobby.seats()[1].name == ""
        await pilot.press(*"Bea", "?")  # a ? is typed, not the rules' key
        assert isinstance(app.screen, LobbyScreen)
        assert [seat.name for seat in lobby.seats()] == ["Ana", "Bea?"]
        await pilot.press(*"x" * 20)
        assert len(lobby.seats()[1].name) == 16


async def test_arrows_choose_who_plays_a_seat_and_wrap() -> None:
    app = CubileteApp(game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_of(app)
        await sheet_to(pilot, "seat-2")
        await pilot.press("right")
        assert [seat.kind for seat in lobby.seats()] == ["human", "easy"]
        assert "‹ Easy bot   ›" in screen_text(app)
        await pilot.press("right", "right", "right")
        assert lobby.seats()[1].kind == "human"
        await pilot.press("left")
        assert lobby.seats()[1].kind == "expert"


async def test_options_by_keyboard_choices_yes_no_and_numbers() -> None:
    app = CubileteApp(game="barco")
    async with app.run_test(size=(80, 24)) as pilot:
        sheet = await sheet_to(pilot, "end")
        await pilot.press("right")
        assert sheet.values()["end"] == "race"
        await pilot.press("right")  # two values: round and round
        assert sheet.values()["end"] == "rounds"
        await pilot.press("r")  # a letter: the next value starting with it
        assert sheet.values()["end"] == "race"
        await pilot.press("r")
        assert sheet.values()["end"] == "rounds"
        await sheet_to(pilot, "stakes")
        await pilot.press("space")
        assert sheet.values()["stakes"] is True
        assert "[x] yes" in screen_text(app)
        await sheet_to(pilot, "rounds")
        await pilot.press("right", "right")
        assert sheet.values()["rounds"] == "12"
        await pilot.press("7")  # after an arrow, typing starts afresh
        assert sheet.values()["rounds"] == "7"
        await pilot.press("5", "x")  # a letter is not a digit
        assert sheet.values()["rounds"] == "75"
        await pilot.press("backspace", "backspace")
        assert sheet.values()["rounds"] is None  # empty: the game will say so
        await sheet_to(pilot, "settlement")
        await pilot.press("right")
        assert sheet.values()["settlement"] == "margin"
        await sheet_to(pilot, "rate")
        await pilot.press("left")
        assert sheet.values()["rate"] == "0"
        await pilot.press("right", "right")
        assert sheet.values()["rate"] == "0.2"


async def test_by_mouse_a_click_steps_back_on_the_arrow_and_on_elsewhere() -> None:
    app = CubileteApp(game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_of(app)
        sheet = await click_row(pilot, "count", "value")
        assert app.focused is sheet and sheet.count == 3
        await click_row(pilot, "count", "back")
        assert sheet.count == 2
        await click_row(pilot, "seat-2", "value")
        assert [seat.kind for seat in lobby.seats()] == ["human", "easy"]
        await click_row(pilot, "seat-2", "back")
        await click_row(pilot, "seat-2", "back")
        assert lobby.seats()[1].kind == "expert"
        await click_row(pilot, "seat-1")  # on the name: the cursor goes there
        assert sheet.row == sheet.row_named("seat-1")
        await pilot.press(*"Eva")
        assert lobby.seats()[0].name == "Eva"


async def test_a_refused_option_is_marked_and_explained_and_the_lobby_stays() -> None:
    app = CubileteApp(game="barco", animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        sheet = await sheet_to(pilot, "rounds")
        await pilot.press("0", "up", "f2")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert sheet.row == sheet.row_named("rounds")  # the cursor is taken to it
        text = screen_text(app)
        assert "‹ 0      ›  ⚠" in text
        assert "⚠ must be 1 or more" in text  # (in words a player reads, not pydantic's)
        await pilot.press("4")
        assert "⚠" not in screen_text(app)
        await pilot.press("enter")  # enter starts, as F2 does
        await pilot.pause()
        assert type(app.screen).__name__ == "BarcoScreen"
        assert app.screen.state.options.rounds == 4  # type: ignore[attr-defined]


async def test_a_refused_seat_takes_the_cursor_to_the_seat_to_fix() -> None:
    app = CubileteApp(game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        sheet = await sheet_to(pilot, "count")
        await pilot.press("right", "down", "down", "down")
        await pilot.press(*"Ana", "f2")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert sheet.row == sheet.row_named("seat-3")
        assert "3  " + "Ana".ljust(16) + " ‹ Human      ›  ⚠" in screen_text(app)
        assert "⚠ two players have the same name" in screen_text(app)


async def test_another_game_keeps_the_seats_and_shows_its_own_options() -> None:
    app = CubileteApp(game="barco")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_of(app)
        sheet = await sheet_to(pilot, "seat-2")
        await pilot.press("right", "up", "up", *["right"] * 3)  # Bruno easy; 5 seats
        assert sheet.count == 5
        lobby.query_one("#game-list", GameList).highlighted = 3  # Batalla de Piratas
        await pilot.pause()
        assert sheet.count == 2  # a game for two
        assert [(s.name, s.kind) for s in lobby.seats()] == [("Ana", "human"), ("Bruno", "easy")]
        assert list(sheet.values()) == ["lives"]
        await sheet_to(pilot, "count")
        assert "This game is for 2 players." in screen_text(app)
        lobby.query_one("#game-list", GameList).highlighted = 2  # Multiplicación
        await pilot.pause()
        assert sheet.values() == {}
        assert "This game has no options." in screen_text(app)


async def test_enter_on_a_game_goes_to_its_first_player() -> None:
    app = CubileteApp(game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        sheet = app.focused
        assert isinstance(sheet, SetupSheet) and sheet.row == sheet.row_named("seat-1")
        await pilot.press(*"Pia")
        assert lobby_of(app).seats()[0].name == "Pia"


async def test_eight_players_at_80x24_the_row_under_the_cursor_stays_in_view() -> None:
    app = CubileteApp(game="barco")
    async with app.run_test(size=(80, 24)) as pilot:
        sheet = await sheet_to(pilot, "count")
        await pilot.press(*["right"] * 6)
        await sheet_to(pilot, "rate")
        assert "Rate" in screen_text(app)
        assert "Not used unless Play for chips is yes" in screen_text(app)  # its note too
        await sheet_to(pilot, "count")
        assert "How many" in screen_text(app)
        assert sheet.count == 8


async def test_a_start_typed_ahead_of_the_game_switch_starts_the_game_chosen() -> None:
    """`end` then `f2` in one burst (a fast typist, or keys arriving together over SSH): the
    game started is the one highlighted, with its own options, not the one shown before."""
    app = CubileteApp(animate=False)  # the lobby opens on Barco, the first game
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_of(app)
        assert lobby.shown_game == "barco"
        lobby.query_one("#game-list", GameList).highlighted = 4  # Generala, not yet shown
        lobby.action_start()
        await pilot.pause()
        assert type(app.screen).__name__ == "GeneralaScreen"


async def test_tab_goes_from_the_games_to_the_sheet_to_the_buttons() -> None:
    app = CubileteApp(game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "game-list"
        await pilot.press("tab")
        assert isinstance(app.focused, SetupSheet)
        await pilot.press("tab")
        assert app.focused is not None and app.focused.id == "lobby-buttons"
        await click(pilot, "#sheet", (3, 1))
        assert isinstance(app.focused, SetupSheet)


async def test_at_the_smallest_size_a_seat_and_its_longest_name_stay_on_one_line() -> None:
    app = CubileteApp(game="barco")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = lobby_of(app)
        sheet = await sheet_to(pilot, "seat-2")
        assert sheet.name_width() == 16  # a name's 16 characters, and the kind beside them
        rows = screen_text(app).splitlines()
        assert "2  Bruno" in rows[4] and "‹ Human      ›" in rows[4]
        assert "Options" in rows[5]  # nothing wrapped onto the next line
        await pilot.press(*"Maximiliana Sola")
        assert lobby.seats()[1].name == "Maximiliana Sola"
        assert "aximiliana Sola▏" in screen_text(app).splitlines()[4]  # the end, where typing goes
        await click_row(pilot, "seat-2", "value")
        assert lobby.seats()[1].kind == "easy"
        await click_row(pilot, "seat-1")  # away from it: the whole name
        assert "2  Maximiliana Sola ‹ Easy bot" in screen_text(app).splitlines()[4]
