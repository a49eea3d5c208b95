"""Whole Barco games through the real app, on loaded dice: by keyboard only and by mouse only.

Two rounds, Ana and Bruno. The roll-off ties (10 each) and is thrown again: Bruno's 8 is the
lowest, so he starts. Round 1: Bruno's 5 and 4 do not count before the ship, then 6-5-4 with a
crew of 6 + 6, and he stops at 12. Ana has a crew of 1 + 2, throws crew die 1 again (6: 8),
then both (3 + 3): the last throw counts, 6. Round 2: Bruno's second 6 goes back, he gets the
captain but never the pilot: 0. Ana stops with 5 + 5 = 10. Ana wins 16 to 12.
"""

from __future__ import annotations

from dataclasses import dataclass

from uihelpers import click, click_button, click_row, screen_text, sheet_to, start_game

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.barco import BarcoScreen
from app.screens.game_over import GameOverScreen
from app.screens.lobby import LobbyScreen

ROLL_OFF = (2, 2, 2, 2, 2, 1, 1, 2, 3, 3, 4, 4, 4, 4, 4, 1, 1, 2, 2, 2)


@dataclass(frozen=True)
class Step:
    """One player input: "throw", "stop" or "pick" (a crew die, 0 or 1), with the faces the
    dice then show, and a few words the tray or the status line must show afterwards."""

    kind: str
    faces: tuple[int, ...] = ()
    die: int = 0
    shows: str = ""


STEPS = [
    Step("throw", (5, 4, 3, 2, 1), shows="a 5 needs the ship first"),
    Step("throw", (6, 5, 4, 6, 6), shows="crew 6 + 6 = 12"),
    Step("stop", shows="Bruno scores 12 (crew 6 + 6)"),
    Step("throw", (6, 5, 4, 1, 2), shows="crew 1 + 2 = 3"),
    Step("pick", die=0, shows="Picked 1"),
    Step("throw", (6,), shows="crew 6 + 2 = 8"),
    Step("pick", die=0),
    Step("pick", die=1, shows="Picked 6 2"),
    Step("throw", (3, 3), shows="Ana scores 6 (crew 3 + 3)"),
    Step("throw", (6, 6, 3, 2, 1), shows="one ship is enough: the other 6 goes back"),
    Step("throw", (6, 5, 3, 2)),
    Step("throw", (1, 1, 1), shows="Bruno: no ship, captain and pilot: 0 this round"),
    Step("throw", (6, 5, 4, 5, 5), shows="crew 5 + 5 = 10"),
    Step("stop"),
]
SHEET = {"Ana": (6, 10), "Bruno": (12, 0)}


def loaded_faces() -> list[int]:
    return [*ROLL_OFF, *(face for step in STEPS for face in step.faces)]


def new_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice(loaded_faces()), animate=False)


def shown(app: CubileteApp) -> str:
    """The tray's notes and the status line (their text, however it wraps on screen)."""
    screen = app.screen
    return "\n".join(str(screen.query_one(f"#{name}").content) for name in ("tray-notes", "status"))




def assert_the_sheet_and_the_start(screen: BarcoScreen) -> None:
    state = screen.state
    assert state.players[state.first] == "Bruno"
    assert [row[0] for row in state.sheet] == list(SHEET["Ana"])
    assert [row[1] for row in state.sheet] == list(SHEET["Bruno"])


async def test_a_whole_game_by_keyboard_only_with_the_margin_settled_in_chips():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("home")  # Barco, Capitán y Tripulación heads the game list
        await pilot.pause()
        assert app.screen.game_id == "barco"
        await sheet_to(pilot, "rounds")
        await pilot.press("2")  # the first key typed replaces the 10
        await sheet_to(pilot, "stakes")
        await pilot.press("space")
        await sheet_to(pilot, "settlement")
        await pilot.press("right")  # pot → margin
        await sheet_to(pilot, "rate")
        await pilot.press("0", ".", "5")
        screen = await start_game(pilot, "barco")  # F2, with the sheet as set
        options = screen.state.options
        assert (options.rounds, options.stakes, options.settlement, options.rate) == (
            2,
            True,
            "margin",
            0.5,
        )
        notes = shown(app)
        assert "Roll-off: Ana 10, Bruno 10" in notes
        assert "Tie, again: Ana 20, Bruno 8 → Bruno starts (lowest wins)" in notes
        keys = {"throw": "space", "stop": "s"}
        for step in STEPS:
            if isinstance(app.screen, BarcoScreen):
                screen_before = app.screen
            key = str(step.die + 1) if step.kind == "pick" else keys[step.kind]
            await pilot.press(key)
            await pilot.pause()
            if step.shows and isinstance(app.screen, BarcoScreen):
                assert step.shows in shown(app), (step, shown(app))
        assert_the_sheet_and_the_start(screen_before)
        assert isinstance(app.screen, GameOverScreen)
        text = screen_text(app)
        assert "Ana wins!" in text
        assert "Bruno pays Ana 2 chips" in text  # margin 4 × 0.5
        assert "Chips won or lost: Ana +2, Bruno -2" in text
        ranking = app.screen.query_one("#ranking")
        assert [str(cell) for cell in ranking.get_row_at(0)] == ["1", "Ana ★", "16"]
        assert [str(cell) for cell in ranking.get_row_at(1)] == ["2", "Bruno", "12"]


async def test_a_whole_game_by_mouse_only_with_the_pot_for_the_winner():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, "#game-list", (2, 1))  # the first game: Barco
        assert app.screen.game_id == "barco"
        await click_row(pilot, "rounds")
        await pilot.press("2")  # typing the number is the keyboard's
        await click_row(pilot, "stakes", "value")
        await click_button(pilot, "start")
        screen = app.screen
        assert isinstance(screen, BarcoScreen)
        assert (screen.state.options.rounds, screen.state.options.stakes) == (2, True)
        assert "pot 20" in screen_text(app)
        for step in STEPS:
            if isinstance(app.screen, BarcoScreen):
                screen_before = app.screen
            target = f"#scoring-{step.die + 1}" if step.kind == "pick" else f"#{step.kind}"
            await click(pilot, target)
            if step.kind == "pick":
                assert "again" in screen_text(app)  # a picked die is marked by a word too
            if step.shows and isinstance(app.screen, BarcoScreen):
                assert step.shows in shown(app), (step, shown(app))
        assert_the_sheet_and_the_start(screen_before)
        assert isinstance(app.screen, GameOverScreen)
        text = screen_text(app)
        assert "Ana wins!" in text
        assert "Ana takes the pot of 20 chips" in text
        assert "Chips won or lost: Ana +10, Bruno -10" in text
        ranking = app.screen.query_one("#ranking")
        assert [str(cell) for cell in ranking.get_row_at(0)] == ["1", "Ana ★", "16"]




async def test_stopping_or_picking_before_ship_captain_and_pilot_is_refused_and_changes_nothing():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "barco", ["Ana", "Bruno"], {"rounds": 2})
        await pilot.press("space")  # Bruno: 5 4 3 2 1
        before = screen.state
        await pilot.press("s")
        assert "Ship, captain and pilot come first: throw again" in shown(app)
        await pilot.press("1")
        assert "No crew yet: ship, captain and pilot come first" in shown(app)
        await click(pilot, "#place-1")
        assert "The ship is a 6: the table sets it aside by itself" in shown(app)
        assert screen.state == before
        assert screen.picked == set()


async def test_throwing_again_with_no_crew_die_picked_is_explained_and_changes_nothing():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "barco", ["Ana", "Bruno"], {"rounds": 2})
        await pilot.press("space", "space")  # Bruno: 6 5 4 6 6, a crew of 12
        before = screen.state
        assert before.hand.qualified
        await pilot.press("space")
        assert "Pick the crew dice to throw again first" in shown(app)
        assert screen.state == before
        await pilot.press("2", "2")  # picked, then put back
        assert screen.picked == set()
        await pilot.press("s")
        assert screen.state.sheet[0][1] == 12
