"""The coach as a new player meets it: one row per decision, only real choices rated and
counted, each rating in its place in the table talk, and explanations that leave with their
throw. Barco on loaded dice, Ana and Bruno both people; the lowest roll-off starts."""

from __future__ import annotations

import re

import piratas_script
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from uihelpers import log_text, screen_text, settle, start_game, until

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.barco import BarcoScreen
from app.screens.game_over import GameOverScreen
from app.widgets.coach_panel import CoachPanel
from app.widgets.piratas.board import letters
from bots import coach
from rules import get_game
from rules.piratas import BLUE, PIECES, PiratasState, Token
from rules.rolloff import RollOff

ROLL_OFF = (1, 1, 1, 1, 1, 2, 2, 2, 2, 2)  # Ana 5, Bruno 10: Ana starts
CREW_OF_6 = (6, 5, 4, 3, 3)  # ship, captain, pilot and a crew of 3 + 3 in one throw
CREW_OF_12 = (6, 5, 4, 6, 6)
# ship; then the captain, the other 5 goes back; then a 5 again and no pilot: no score
TWO_CAPTAINS = ((6, 1, 1, 2, 3), (5, 5, 2, 3), (5, 5, 1))
CAPTAIN_NOTE = "one captain is enough"






async def summary_with(pilot: Pilot, expected: str) -> str:
    """The game-over screen's notes, once they contain `expected`: the rating of the move
    that ended the game is computed after the game-over screen shows."""

    def notes() -> str:
        screen = pilot.app.screen
        if not isinstance(screen, GameOverScreen):
            return ""
        return " ".join(str(screen.query_one("#over-notes").content).split())

    await until(pilot, lambda: expected in notes(), f"{expected!r} in the game-over notes")
    return notes()


def tray_notes(screen: BarcoScreen) -> str:
    return str(screen.query_one("#tray-notes").content)


async def test_a_rating_follows_its_move_before_what_followed_and_forced_throws_get_none():
    app = CubileteApp(dice=LoadedDice([*ROLL_OFF, *CREW_OF_6, *CREW_OF_12]), animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "barco", ["Ana", "Bruno"], {"rounds": 2})
        for key in ("space", "s", "space", "s"):  # Ana throws and stops, then Bruno
            await pilot.press(key)
            await settle(pilot)
        log = log_text(app)
        assert log.count("Coach:") == 2, log  # the stops; a throw that must be made is not rated
        assert log.index("Ana scores 6") < log.index("Coach: Ana") < log.index("Bruno throws")
        # the last move of the round is rated before the next round is announced
        bruno = log.index("Coach: Bruno — best move")
        assert log.index("Bruno scores 12") < bruno < log.index("Round 2 of 2")


async def test_why_a_die_went_back_is_said_only_under_its_throw():
    faces = [*ROLL_OFF, *CREW_OF_6, *(f for throw in TWO_CAPTAINS for f in throw)]
    faces += [*CREW_OF_6, *(f for throw in TWO_CAPTAINS for f in throw)]
    app = CubileteApp(dice=LoadedDice(faces), animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "barco", ["Ana", "Bruno"], {"rounds": 2})
        for key in ("space", "s", "space", "space"):  # Ana stops on 6; Bruno's two throws
            await pilot.press(key)
            await settle(pilot)
        assert CAPTAIN_NOTE in tray_notes(screen)  # under the throw it explains
        await pilot.press("space")  # Bruno's third throw: a 5 again, no pilot, 0
        await settle(pilot)
        assert screen.state.hand.seat == 0  # round 2: Ana's turn, no dice thrown yet
        assert "Bruno: no ship, captain and pilot: 0 this round" in tray_notes(screen)
        assert CAPTAIN_NOTE not in tray_notes(screen)
        assert CAPTAIN_NOTE not in screen_text(app)  # (the "Last throws" box marks returned dice ↩)
        for key in ("space", "s", "space", "space", "space"):  # round 2 the same: the end
            await pilot.press(key)
            await settle(pilot)
        assert isinstance(app.screen, GameOverScreen)
        assert screen.table.over
        assert not any("↩" in note for note in screen.tray_view().notes)  # the tray's "Game over"
        assert CAPTAIN_NOTE not in screen_text(app)  # (the "Last throws" box marks returned dice ↩)


async def test_the_dice_set_aside_are_listed_ship_captain_pilot():
    app = CubileteApp(dice=LoadedDice([*ROLL_OFF, 5, 6, 4, 2, 3]), animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "barco", ["Ana", "Bruno"], {"rounds": 2})
        await pilot.press("space")
        await settle(pilot)
        assert "Throw 1: kept 6 5 4 · crew 2 + 3 = 5" in tray_notes(screen)


async def test_the_summary_counts_only_choices_and_the_last_one_too():
    """Bruno starts and never has a choice: three throws without a pilot, each round. Ana
    stops on a crew of 6 at her first throw: in round 1 a mistake (the coach would throw
    again), in round 2 the best move (she has won whatever she does); the game ends on it."""
    two_captains = [f for throw in TWO_CAPTAINS for f in throw]
    faces = [*ROLL_OFF[5:], *ROLL_OFF[:5], *two_captains, *CREW_OF_6, *two_captains, *CREW_OF_6]
    app = CubileteApp(dice=LoadedDice(faces), animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "barco", ["Ana", "Bruno"], {"rounds": 2})
        for _ in range(2):
            for key in ("space", "space", "space", "space", "s"):
                await pilot.press(key)
                await settle(pilot)
        summary = await summary_with(pilot, "Ana: 2 choices")
        # round 1 is played for points, the last round for the win: one unit per game, the
        # round's points (the average of the choices measured in it), said once, on its line
        assert re.match(r"Ana: 2 choices, 1 best; average loss \d+\.\d\d; worst: ", summary)
        assert "worst: Stop with a crew of 6 (−" in summary and "%" not in summary, summary
        assert summary.endswith(
            "Loss: what a choice gave up against the best move (expected round score)."
        )
        assert "chance to win" not in summary
        assert "Bruno" not in summary  # no choice, nothing to rate
        assert "decisions" not in summary and "Throw all five dice" not in summary


async def test_a_game_of_best_moves_says_so_without_a_zero_loss():
    faces = [*ROLL_OFF, *CREW_OF_12, *(f for throw in TWO_CAPTAINS for f in throw)]
    app = CubileteApp(dice=LoadedDice(faces), animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "barco", ["Ana", "Bruno"], {"rounds": 1})
        for key in ("space", "s", "space", "space", "space"):
            await pilot.press(key)
            await settle(pilot)
        summary = await summary_with(pilot, "Ana: 1 choice")
        assert summary == "Ana: 1 choice, the best move"


async def test_the_coach_says_when_there_is_no_choice_and_lists_twin_crew_dice_once():
    app = CubileteApp(dice=LoadedDice([*ROLL_OFF, *CREW_OF_6]), animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "barco", ["Ana", "Bruno"], {"rounds": 2})
        await pilot.press("h")
        await settle(pilot)
        panel = screen.query_one(CoachPanel)
        assert str(panel.render()) == "No choice to make: Throw all five dice (4.32)"
        await pilot.press("space")
        await settle(pilot)
        rows = str(panel.render()).splitlines()
        assert len(rows) == 3, rows
        assert sum("Keep a 3, throw the other 3 again" in row for row in rows) == 1


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield CoachPanel()


def piratas(blue, red, dice) -> PiratasState:  # type: ignore[no-untyped-def]
    return PiratasState(
        players=("Ana", "Bruno"),
        rolloff=RollOff(dice=1, contenders=(0, 1), winner=0),
        crews=tuple(tuple(Token(square=s, lives=v) for s, v in crew) for crew in (blue, red)),
        stage="move",
        dice=dice,
        opening_moves=10,
    )


async def test_piratas_coach_speaks_of_lives_ahead_and_of_a_win():
    """Blue's sailor on 3 moves d1 = 2 onto red's last piece, the captain on 5: a win."""
    state = piratas(
        blue=[(1, 3), (8, 3), (10, 3), (3, 3), (12, 3)],
        red=[(5, 1)] + [(None, 0)] * (len(PIECES) - 1),
        dice=(2, 2),
    )
    app = PanelApp()
    async with app.run_test(size=(100, 20)) as pilot:
        panel = app.query_one(CoachPanel)
        hint = coach("piratas").hint(state)
        panel.show_hint(hint, "Ana")
        await pilot.pause()
        assert (panel.border_title, panel.border_subtitle) == ("Coach · Ana", "lives ahead")
        note, *rows = str(panel.render()).splitlines()
        assert note == "Lives ahead two moves on (a piece on the board +3, a win 1000)"
        assert rows[0].startswith("★    win")
        assert "sailor" in rows[0] and "eliminates" in rows[0]
        assert "1000.00" not in str(panel.render())
        # on a double the captain, parrot and monkey all stay: one row, not three
        assert sum("stay put" in row for row in rows) == 1
        assert len(hint.options) == 3  # the sailor, the explorer, or nobody moves


async def test_a_piratas_game_counts_only_the_moves_that_were_choices():
    """The scripted game (`piratas_script`): ten forced throws and moves of the opening,
    then Ana's five strikes. Only the moves with more than one distinct decision count."""
    game = get_game("piratas")
    state = game.new_game(["Ana", "Bruno"], {"lives": piratas_script.LIVES})
    for face in piratas_script.ROLL_OFF:
        state = game.apply_chance(state, [face])
    choices = 0
    for turn in piratas_script.turns():
        state = game.apply_chance(game.apply(state, {"kind": "roll"}), turn.dice)
        choices += turn.side == BLUE and not coach("piratas").hint(state).forced
        state = game.apply(state, {"kind": "move", "piece": turn.piece})
    assert 0 < choices < len(piratas_script.turns())
    app = CubileteApp(dice=LoadedDice(piratas_script.loaded_faces()), animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "piratas", ["Ana", "Bruno"], {"lives": 1})
        for turn in piratas_script.turns():
            await pilot.press("space")
            await settle(pilot)
            await pilot.press(letters()[turn.piece])
            await settle(pilot)
        summary = await summary_with(pilot, f"Ana: {choices} choices")
        assert f"Ana: {choices} choices" in summary, summary
        assert "Bruno" not in summary
