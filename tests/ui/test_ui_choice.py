"""The lobby's one-line picker (‹ Human ›), by keyboard and by mouse, and the lobby with it."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App, ComposeResult
from textual.widgets import OptionList
from uihelpers import click, screen_text

from app.main import CubileteApp
from app.screens.lobby import LobbyScreen
from app.widgets.choice import Choice

KINDS = [("Human", "human"), ("Easy bot", "easy"), ("Medium bot", "medium"), ("Expert", "expert")]


class OneChoice(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def compose(self) -> ComposeResult:
        yield Choice(KINDS, value="human", id="kind")

    def on_choice_changed(self, event: Choice.Changed[str]) -> None:
        self.seen.append(event.value)


async def test_arrows_space_and_enter_step_through_the_values_and_wrap() -> None:
    app = OneChoice()
    async with app.run_test() as pilot:
        choice = app.query_one(Choice)
        choice.focus()
        await pilot.press("right")
        assert choice.value == "easy"
        await pilot.press("space", "enter")
        assert choice.value == "expert"
        await pilot.press("right")
        assert choice.value == "human"  # wraps round
        await pilot.press("left")
        assert choice.value == "expert"
        await pilot.pause()
        assert app.seen == ["easy", "medium", "expert", "human", "expert"]


async def test_a_letter_jumps_to_the_next_value_starting_with_it() -> None:
    app = OneChoice()
    async with app.run_test() as pilot:
        choice = app.query_one(Choice)
        choice.focus()
        await pilot.press("m")
        assert choice.value == "medium"
        await pilot.press("e")
        assert choice.value == "expert"
        await pilot.press("e")
        assert choice.value == "easy"  # the next one with an e, round the list
        await pilot.press("z")
        assert choice.value == "easy"  # no value starts with z: nothing changes


async def test_a_click_on_the_left_arrow_steps_back_and_elsewhere_steps_on() -> None:
    app = OneChoice()
    async with app.run_test() as pilot:
        choice = app.query_one(Choice)
        await click(pilot, "#kind", (6, 0))
        assert choice.value == "easy" and choice.has_focus
        await click(pilot, "#kind", (0, 0))
        assert choice.value == "human"


async def test_it_shows_its_value_between_arrows_as_wide_as_the_longest() -> None:
    app = OneChoice()
    async with app.run_test() as pilot:
        assert "‹ Human      ›" in screen_text(app)
        assert app.query_one(Choice).size.width == len("‹ Medium bot ›")
        await pilot.pause()


async def test_new_options_keep_the_value_if_still_offered_else_the_first() -> None:
    app = OneChoice()
    async with app.run_test() as pilot:
        choice = app.query_one(Choice)
        choice.value = "medium"
        choice.set_options(KINDS[1:])
        assert choice.value == "medium"
        choice.set_options(KINDS[:1])
        assert choice.value == "human"
        with pytest.raises(ValueError):
            choice.value = "nobody"
        assert choice.value == "human"
        await pilot.pause()


async def test_the_player_count_adds_and_removes_seats_by_keyboard_and_mouse() -> None:
    app = CubileteApp(game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        count = lobby.query_one("#player-count", Choice)
        count.focus()
        await pilot.press("right")
        await pilot.pause()
        assert count.value == 3
        assert [seat.name for seat in lobby.seats()] == ["Ana", "Bruno", "Carla"]
        await click(pilot, "#player-count", (0, 0))
        await pilot.pause()
        assert count.value == 2
        assert len(lobby.query(".seat-row")) == 2
        await click(pilot, "#kind-2", (4, 0))
        assert [seat.kind for seat in lobby.seats()] == ["human", "easy"]


async def test_a_start_typed_ahead_of_the_game_switch_starts_the_game_chosen() -> None:
    """`end` then `f2` in one burst (a fast typist, or keys arriving together over SSH): the
    start waits for the chosen game's form instead of mixing it with the previous game's."""
    app = CubileteApp(animate=False)  # the lobby opens on Barco, the first game
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.shown_game == "barco"
        lobby.query_one("#game-list", OptionList).highlighted = 4  # Generala, not yet shown
        lobby.action_start()
        await pilot.pause()
        assert type(app.screen).__name__ == "GeneralaScreen"


async def test_a_start_during_the_switch_waits_for_it() -> None:
    app = CubileteApp(animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.query_one("#game-list", OptionList).highlighted = 4
        switching = asyncio.ensure_future(lobby.show_game("generala"))
        await asyncio.sleep(0)  # the switch has begun: the old form is on its way out
        assert lobby.rebuilding
        lobby.action_start()
        await switching
        await pilot.pause()
        assert type(app.screen).__name__ == "GeneralaScreen"
