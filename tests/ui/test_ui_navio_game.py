"""Whole Navio games through the real app, on loaded dice: by keyboard only and by mouse only.

Two rounds for chips (bankroll 20, ante 1), Ana and Bruno. The roll-off ties at 4, then
Bruno's 5 beats Ana's 2. Round 1: Bruno takes a treasure of 6, throws it again for 9 and stops
after two throws, so Ana has two throws: she makes 6 + 6 = 12 and wins the pot of 2. Round 2:
Ana stops at 3 after one throw; Bruno, allowed one throw, also makes 3: a tie, so the round is
played again for a pot of 4. The replay: Bruno's 5 and 4 wait for the ship, then he stops at 12
in two throws; Ana's treasure is 2 and then 3, and Bruno takes the pot. Bruno 21, Ana 19.
"""

from __future__ import annotations

from dataclasses import dataclass

from test_ui_barco_game import shown
from uihelpers import click, click_button, click_row, screen_text, sheet_to

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.game_over import GameOverScreen
from app.screens.lobby import LobbyScreen
from app.screens.navio import NavioScreen

ROLL_OFF = (4, 4, 2, 5)


@dataclass(frozen=True)
class Step:
    """One player input, "throw" or "stop", the faces the dice then show, and a few words the
    tray or the status line must show before (`before`) and after (`shows`) it."""

    kind: str
    faces: tuple[int, ...] = ()
    shows: str = ""
    before: str = ""


STEPS = [
    Step("throw", (6, 5, 4, 3, 3), shows="treasure 3 + 3 = 6"),
    Step("throw", (5, 4), shows="treasure 5 + 4 = 9"),
    Step("stop"),
    Step("throw", (6, 5, 1, 1, 1), before="Ana may use 2 throws: Bruno leads with 9"),
    Step("throw", (4, 6, 6)),
    Step("throw", (6, 5, 4, 2, 1), before="Ana's treasure: 12 (6 + 6) in 2 throws"),
    Step("stop"),
    Step("throw", (6, 5, 4, 1, 2), before="Bruno may use 1 throw: Ana leads with 3"),
    Step("throw", (5, 4, 3, 2, 1), shows="a 5 needs the ship first"),
    Step("throw", (6, 5, 4, 6, 6)),
    Step("stop"),
    Step("throw", (6, 5, 4, 1, 1), before="Ana may use 2 throws: Bruno leads with 12"),
    Step("throw", (1, 2)),
]


def loaded_faces() -> list[int]:
    return [*ROLL_OFF, *(face for step in STEPS for face in step.faces)]


def new_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice(loaded_faces()), animate=False)


def assert_the_game_over_screen(app: CubileteApp) -> None:
    assert isinstance(app.screen, GameOverScreen)
    text = screen_text(app)
    assert "Bruno wins!" in text
    assert "Rounds won: Ana 1, Bruno 1" in text
    assert "Rounds played again: 1" in text
    assert "Against the bankroll of 20: Ana -1, Bruno +1" in text
    ranking = app.screen.query_one("#ranking")
    assert [str(cell) for cell in ranking.get_row_at(0)] == ["1", "Bruno ★", "21"]
    assert [str(cell) for cell in ranking.get_row_at(1)] == ["2", "Ana", "19"]


def assert_the_outcomes(screen: NavioScreen) -> None:
    outcomes = [(o.round, o.result, o.pot) for o in screen.state.outcomes]
    assert outcomes == [(1, "won", 2), (2, "tie", 2), (2, "won", 4)]


async def play(pilot, step: Step, act) -> NavioScreen:
    """Check what the screen says, act, check again; return the game screen acted on."""
    screen = pilot.app.screen
    assert isinstance(screen, NavioScreen)
    if step.before:
        assert step.before in shown(pilot.app), (step, shown(pilot.app))
    await act(step)
    if step.shows and isinstance(pilot.app.screen, NavioScreen):
        assert step.shows in shown(pilot.app), (step, shown(pilot.app))
    return screen


async def test_a_whole_game_by_keyboard_only():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("home", "down")  # Navio is second in the game list
        await pilot.pause()
        assert app.screen.game_id == "navio"
        await sheet_to(pilot, "rounds")
        await pilot.press("2", "f2")
        await pilot.pause()
        assert isinstance(app.screen, NavioScreen)
        assert app.screen.state.options.rounds == 2
        notes = shown(app)
        assert "Roll-off: Ana 4, Bruno 4" in notes
        assert "Tie, again: Ana 2, Bruno 5 → Bruno starts (highest wins)" in notes
        assert "pot 2" in screen_text(app)

        async def act(step: Step) -> None:
            await pilot.press({"throw": "space", "stop": "s"}[step.kind])
            await pilot.pause()

        for step in STEPS:
            screen = await play(pilot, step, act)
        assert_the_outcomes(screen)
        assert_the_game_over_screen(app)


async def test_a_whole_game_by_mouse_only():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, "#game-list", (2, 3))  # the second game (the first takes 2 lines)
        assert app.screen.game_id == "navio"
        await click_row(pilot, "rounds")
        await pilot.press("2")  # typing the number is the keyboard's
        await click_button(pilot, "start")
        assert isinstance(app.screen, NavioScreen)
        assert app.screen.state.options.rounds == 2

        async def act(step: Step) -> None:
            await click(pilot, f"#{step.kind}")

        for step in STEPS:
            screen = await play(pilot, step, act)
            if step.faces == (6, 5, 4, 1, 1):  # Ana would throw one treasure die alone
                before = screen.state
                await click(pilot, "#scoring-1")
                assert "always thrown as a pair" in shown(app)
                assert screen.state == before
        assert_the_outcomes(screen)
        assert_the_game_over_screen(app)
