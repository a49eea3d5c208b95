"""Bots in seats, the coach panel, and ratings of a person's decisions."""

from __future__ import annotations

import time

from uihelpers import log_text, screen_text

from app.dice import LoadedDice, RandomDice
from app.main import CubileteApp
from app.screens.game_over import GameOverScreen
from app.screens.generala import GeneralaScreen
from app.widgets.coach_panel import CoachPanel
from app.widgets.setup_sheet import SetupSheet
from bots import coach, get_bot
from rules.generala import Roll


async def seat_bots(pilot, count: int, bots: dict[int, str]) -> None:
    sheet = pilot.app.screen.query_one(SetupSheet)
    sheet.count = count
    for seat, level in bots.items():
        sheet.kinds[seat - 1] = level
    sheet.refresh(layout=True)
    await pilot.pause()


async def test_a_game_against_two_expert_bots_runs_to_the_end_with_the_coach_open():
    app = CubileteApp(dice=RandomDice(7), animate=False, game="generala", bot_pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_bots(pilot, 3, {2: "expert", 3: "expert"})
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, GeneralaScreen)
        await pilot.press("h")
        deadline = time.monotonic() + 240
        while not isinstance(app.screen, GameOverScreen):
            assert time.monotonic() < deadline, "the game did not end"
            screen = app.screen
            if screen.table.current_player() == 0:  # Ana, the person: throw once, fill a box
                if screen.table.state.throws == 0:
                    await pilot.press("space")
                else:
                    await pilot.press("enter")
                    await pilot.pause()
                    if "Write 0" in screen_text(app):
                        await pilot.press("y")
            await pilot.pause(0.02)
        text = " ".join(screen_text(app).split())
        while "Ana: 13 choices" not in text and time.monotonic() < deadline:
            await pilot.pause(0.05)  # Ana's last rating may come in after the end
            text = " ".join(screen_text(app).split())
        assert "wins" in text
        assert "Ana: 13 choices" in text  # the person's 13 boxes; the bots get no review
        assert "Bruno: " not in text


async def test_a_person_cannot_play_in_a_bots_turn_and_f_hurries_the_bot():
    faces = [2, 6, *([1, 2, 3, 4, 6] * 12)]  # Bruno (a bot) wins the roll-off
    app = CubileteApp(dice=LoadedDice(faces), animate=False, game="generala", bot_pace=30)
    async with app.run_test(size=(80, 24)) as pilot:
        await seat_bots(pilot, 2, {2: "medium"})
        await pilot.press("f2")
        await pilot.pause()
        screen = app.screen
        before = screen.table.state
        await pilot.press("space")
        await pilot.pause()
        assert "Bruno (a bot) is playing" in screen_text(app)
        assert screen.table.state == before
        await pilot.press("f")
        deadline = time.monotonic() + 30
        while screen.table.current_player() != 0:
            assert time.monotonic() < deadline, "the bot did not play"
            await pilot.pause(0.05)
        assert screen.table.state.sheets[1].count(None) == 12  # Bruno filled a box


async def test_the_coach_panel_lists_every_option_with_the_experts_choice_first():
    faces = [6, 2, 5, 5, 5, 2, 3]
    app = CubileteApp(dice=LoadedDice(faces), animate=False, game="generala")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        screen = app.screen
        await pilot.press("space", "h")
        panel = screen.query_one(CoachPanel)
        deadline = time.monotonic() + 60
        while "★" not in str(panel.render()):
            assert time.monotonic() < deadline, "the coach did not answer"
            await pilot.pause(0.05)
        state = screen.table.state
        best = get_bot("generala", "expert").choose(state)
        hint = coach("generala").hint(state)
        assert hint.best.action == best
        assert "expected final score" in panel.border_title
        first_line = str(panel.render()).splitlines()[0]
        assert first_line.startswith("★")
        assert f"{hint.best.value:.2f}" in first_line
        await pilot.press("h")
        assert panel.has_class("-hidden")


async def test_each_choice_of_a_person_is_rated_in_the_log_even_with_the_coach_closed():
    faces = [6, 2, 1, 2, 3, 4, 6, 2, 3]
    app = CubileteApp(dice=LoadedDice(faces), animate=False, game="generala")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        screen = app.screen
        await pilot.press("space")  # the first throw: no choice, no rating
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.reviews == []
        assert "Coach:" not in log_text(app)
        assert "Ana throws 1 2 3 4 6" in log_text(app)
        await pilot.press("2", "3", "4", "space")  # keep 2 3 4, throw the 1 and the 6
        deadline = time.monotonic() + 60
        while not screen.reviews:
            assert time.monotonic() < deadline, "no rating came"
            await pilot.pause(0.05)
        seat, review = screen.reviews[0]
        assert seat == 0
        assert review.action == Roll(hold=(1, 2, 3))
        assert str(review.label) == "Keep 4 3 2, throw 2"
        await pilot.pause()  # the rating, and the narration behind it, reach the screen
        log = log_text(app)
        assert log.index("Coach: Ana") < log.index("Ana throws 2 2 3 4 3")


async def test_the_command_palette_toggles_the_coach_and_sets_the_bot_pace():
    app = CubileteApp(dice=LoadedDice([6, 2, 1, 2, 3, 4, 6]), animate=False, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        panel = app.screen.query_one(CoachPanel)
        assert panel.has_class("-hidden")
        for text in ("Coach", "Bot pace: fast"):
            await pilot.press("ctrl+p")
            await pilot.pause()
            await pilot.press(*text)
            await pilot.pause(0.3)
            await pilot.press("enter")
            await pilot.pause()
        assert not panel.has_class("-hidden")
        assert app.bot_pace == 0.2


async def test_a_decision_taken_back_drops_out_of_the_coachs_count():
    faces = LoadedDice([6, 2, 1, 2, 3, 4, 6])
    app = CubileteApp(dice=faces, animate=False, game="generala", bot_pace=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await seat_bots(pilot, 2, {2: "easy"})
        await pilot.press("f2")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GeneralaScreen)
        await pilot.press("space", "enter")  # Ana throws and writes in a box
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        assert [seat for seat, _review in screen.reviews] == [0]
        screen.table.undo()  # (the table's undo: Bruno, a bot, has not thrown yet)
        assert screen.reviews == []
