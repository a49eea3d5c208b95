"""Bots in seats, the coach panel, and ratings of a person's decisions."""

from __future__ import annotations

import time

from uihelpers import log_text, run_command, screen_text, settle, start_game, until

from app.dice import LoadedDice, RandomDice
from app.main import CubileteApp
from app.screens.game import GameScreen
from app.screens.game_over import GameOverScreen
from app.table import Seat
from app.widgets.coach_panel import CoachPanel
from bots import coach, get_bot
from rules.generala import Roll


async def test_a_game_against_two_expert_bots_runs_to_the_end_with_the_coach_open():
    app = CubileteApp(dice=RandomDice(7), animate=False, game="generala", bot_pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        experts = [Seat(name="Bruno", kind="expert"), Seat(name="Carla", kind="expert")]
        await start_game(pilot, "generala", ["Ana", *experts])
        await pilot.press("h")

        def anas_turn_or_the_end() -> bool:
            screen = app.screen
            over = isinstance(screen, GameOverScreen)
            return over or (isinstance(screen, GameScreen) and screen.table.current_player() == 0)

        deadline = time.monotonic() + 240
        while not isinstance(app.screen, GameOverScreen):
            assert time.monotonic() < deadline, "the game did not end"
            await until(pilot, anas_turn_or_the_end, "Ana's turn or the end", timeout=240)
            screen = app.screen
            if not isinstance(screen, GameScreen):
                continue
            if screen.table.state.throws == 0:  # Ana, the person: throw once, fill a box
                await pilot.press("space")
            else:
                await pilot.press("enter")
                await pilot.pause()
                if "Write 0" in screen_text(app):
                    await pilot.press("y")
            await settle(pilot)
        # Ana's last rating may come in after the end
        await until(pilot, lambda: "Ana: 13 choices" in screen_text(app), "Ana's last rating")
        text = " ".join(screen_text(app).split())
        assert "wins" in text
        assert "Ana: 13 choices" in text  # the person's 13 boxes; the bots get no review
        assert "Bruno: " not in text


async def test_a_person_cannot_play_in_a_bots_turn_and_f_hurries_the_bot():
    faces = [2, 6, *([1, 2, 3, 4, 6] * 12)]  # Bruno (a bot) wins the roll-off
    app = CubileteApp(dice=LoadedDice(faces), animate=False, game="generala", bot_pace=30)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "generala", ["Ana", Seat(name="Bruno", kind="medium")])
        before = screen.table.state
        await pilot.press("space")
        await pilot.pause()
        assert "Bruno (a bot) is playing" in screen_text(app)
        assert screen.table.state == before
        await pilot.press("f")
        await until(pilot, lambda: screen.table.current_player() == 0, "the bot to play")
        assert screen.table.state.sheets[1].count(None) == 12  # Bruno filled a box


async def test_the_coach_panel_lists_every_option_with_the_experts_choice_first():
    faces = [6, 2, 5, 5, 5, 2, 3]
    app = CubileteApp(dice=LoadedDice(faces), animate=False, game="generala")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(pilot, "generala")
        await pilot.press("space", "h")
        panel = screen.query_one(CoachPanel)
        await until(pilot, lambda: "★" in str(panel.render()), "the coach's answer", timeout=60)
        state = screen.table.state
        best = get_bot("generala", "expert").choose(state)
        hint = coach("generala").hint(state)
        assert hint.best.action == best
        assert panel.border_subtitle == "expected final score"
        first_line = str(panel.render()).splitlines()[0]
        assert first_line.startswith("★")
        assert f"{hint.best.value:.2f}" in first_line
        await pilot.press("h")
        assert panel.has_class("-hidden")


async def test_each_choice_of_a_person_is_rated_in_the_log_even_with_the_coach_closed():
    faces = [6, 2, 1, 2, 3, 4, 6, 2, 3]
    app = CubileteApp(dice=LoadedDice(faces), animate=False, game="generala")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(pilot, "generala")
        await pilot.press("space")  # the first throw: no choice, no rating
        await settle(pilot)
        assert screen.reviews == []
        assert "Coach:" not in log_text(app)
        assert "Ana throws 1 2 3 4 6" in log_text(app)
        await pilot.press("2", "3", "4", "space")  # keep 2 3 4, throw the 1 and the 6
        await until(pilot, lambda: screen.reviews, "a rating", timeout=60)
        seat, review = screen.reviews[0]
        assert seat == 0
        assert review.action == Roll(hold=(1, 2, 3))
        assert str(review.label) == "Keep 4 3 2, throw 2"
        await pilot.pause()  # the rating, and the narration behind it, reach the screen
        log = log_text(app)
        assert log.index("Ana throws 2 2 3 4 3") < log.index("Coach: Ana")  # after its move


async def test_the_command_palette_toggles_the_coach_and_sets_the_bot_pace():
    app = CubileteApp(dice=LoadedDice([6, 2, 1, 2, 3, 4, 6]), animate=False, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "generala")
        panel = screen.query_one(CoachPanel)
        assert panel.has_class("-hidden")
        for text in ("Coach", "Bot pace: fast"):
            await run_command(pilot, text)
        assert not panel.has_class("-hidden")
        assert app.bot_pace == 0.2


async def test_a_decision_taken_back_drops_out_of_the_coachs_count():
    faces = LoadedDice([6, 2, 1, 2, 3, 4, 6])
    app = CubileteApp(dice=faces, animate=False, game="generala", bot_pace=60)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(pilot, "generala", ["Ana", Seat(name="Bruno", kind="easy")])
        await pilot.press("space", "enter")  # Ana throws and writes in a box
        await settle(pilot)
        assert [seat for seat, _review in screen.reviews] == [0]
        screen.table.undo()  # (the table's undo: Bruno, a bot, has not thrown yet)
        assert screen.reviews == []
