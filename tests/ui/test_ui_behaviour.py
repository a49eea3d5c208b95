"""How the app answers a player: refusals with a reason, confirmations, help, small terminals."""

from __future__ import annotations

from uihelpers import (
    click,
    click_button,
    click_row,
    run_command,
    screen_text,
    sheet_to,
    start_game,
)

from app.dice import LoadedDice
from app.main import CubileteApp
from app.quiet.button_row import ButtonRow
from app.rule_cards import SEEDS_DIR
from app.screens.lobby import LobbyScreen
from app.screens.rules import RulesScreen


def new_app(faces=(6, 2, 1, 1, 1, 2, 3, 2, 2, 3, 4, 6)) -> CubileteApp:
    return CubileteApp(dice=LoadedDice(faces), animate=False, game="generala")




async def test_choosing_a_box_before_throwing_is_refused_and_changes_nothing():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "generala")
        before = screen.table.state
        await pilot.press("enter")
        await pilot.pause()
        assert "Throw the dice before choosing a box" in screen_text(app)
        assert screen.table.state == before


async def test_holding_before_the_first_throw_is_explained():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "generala")
        await pilot.press("1")
        await pilot.pause()
        assert "Throw first" in screen_text(app)
        assert screen.hold == set()


async def test_writing_zero_asks_first_and_no_keeps_the_turn():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "generala")
        await pilot.press("space")  # Ana: 1 1 1 2 3
        for _ in range(11):  # down to Generala, which these dice do not make
            await pilot.press("down")
        assert screen.query_one("#sheet").cursor_key == "generala"
        before = screen.table.state
        await pilot.press("enter")
        await pilot.pause()
        assert "Write 0 in Generala?" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert screen.table.state == before
        await pilot.press("enter", "y")
        await pilot.pause()
        assert screen.table.state.sheets[0][11] == 0


async def test_loaded_dice_running_out_is_a_clear_error_and_changes_nothing():
    app = new_app(faces=(6, 2, 1, 1, 1))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "generala")
        before = screen.table.state
        await pilot.press("space")
        await pilot.pause()
        assert "loaded dice ran out" in screen_text(app)
        assert screen.table.state == before


async def test_a_held_die_is_marked_by_more_than_colour():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "generala")
        await pilot.press("space")
        await click(pilot, "#die-2")
        text = screen_text(app)
        assert "held" in text
        assert "┏" in text  # the held die has a heavy border


async def test_f1_shows_the_rules_of_the_game_being_played_and_escape_returns():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "generala")
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert app.screen.game_id == "generala"
        card = app.screen.query_one("#rules-text").source
        assert card == (SEEDS_DIR / "generala.md").read_text(encoding="utf-8")
        assert "Escalera escasa" in card
        assert "Rules of Generala" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_the_lobby_refuses_a_player_without_a_name():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await sheet_to(pilot, "seat-2")
        await pilot.press("space", "space", "space")  # three spaces typed over Bruno
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert "every player needs a name" in screen_text(app)


async def test_the_lobby_refuses_two_players_with_the_same_name():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await click_row(pilot, "seat-2")
        await pilot.press(*"Ana")
        await click_button(pilot, "start")
        assert isinstance(app.screen, LobbyScreen)
        assert "same name" in screen_text(app)


async def test_a_small_terminal_shows_a_note_and_the_game_comes_back():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "generala")
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert "Terminal too small" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.screen is screen
        assert "Terminal too small" not in screen_text(app)


async def test_the_command_palette_offers_a_new_game():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "generala")
        await run_command(pilot, "New game")
        assert isinstance(app.screen, LobbyScreen)


async def test_esc_leaves_for_the_lobby_and_the_game_can_be_resumed():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "generala")
        await pilot.press("space")
        state = screen.table.state
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("f3")
        await pilot.pause()
        assert app.screen.table.state == state


async def test_back_in_the_lobby_the_seats_are_as_they_were_and_the_game_is_offered():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await sheet_to(pilot, "seat-2")
        await pilot.press(*"Zoe")
        await sheet_to(pilot, "seat-1")
        await pilot.press("right", "right")  # Human → Easy bot → Medium bot
        assert lobby.query_one(ButtonRow).button("resume").hidden
        await start_game(pilot, "generala")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is lobby
        assert [(seat.name, seat.kind) for seat in lobby.seats()] == [
            ("Ana", "medium"),
            ("Zoe", "human"),
        ]
        assert lobby.game_id == "generala"
        assert not lobby.query_one(ButtonRow).button("resume").hidden  # the game just left
        assert "Unfinished games" in screen_text(app)
        assert app.screen.query_one("#unfinished").lines[0][:2] == ("Generala", "Ana (bot), Zoe")
