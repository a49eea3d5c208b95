"""Play feel, second round (issue 27), driven through the real app by keyboard.

- 17: a forced zero (the only box the player may write in scores 0) is written without a
  question; while a question is open the key bar shows the question's keys, in the player's
  language (yes is `s` in Spanish and Portuguese), not the game's;
- 13: the coach's rating of a move follows the move in the table talk, and the game-over
  table talk keeps the ratings shown during play;
- 19: a replay's status line says what happened, never what to press in the game (the games'
  own words for a decision to make, their prompts); a replay offers no decision by its key.
"""

from __future__ import annotations

import pytest
from records_fixtures import START, finished, write
from textual.pilot import Pilot
from textual.widgets import Button
from uihelpers import screen_text, settle, start_game, until

from app.dice import LoadedDice
from app.games import screen_class
from app.i18n import render
from app.main import CubileteApp
from app.quiet.table_talk import TableTalk
from app.screens.confirm import ConfirmScreen
from app.screens.game_over import GameOverScreen
from app.screens.replay import ReplayScreen
from app.widgets.scoresheet import Scoresheet
from kits import KITS
from rules.generala import BOXES, Box

SIZE = (80, 24)

SCORING = {
    Box.ONES: (1, 1, 1, 2, 3),
    Box.TWOS: (2, 2, 3, 4, 6),
    Box.THREES: (3, 3, 3, 1, 2),
    Box.FOURS: (4, 4, 4, 4, 1),
    Box.FIVES: (5, 5, 1, 2, 3),
    Box.SIXES: (6, 6, 6, 1, 2),
    Box.TRIO: (2, 2, 2, 5, 6),
    Box.POKER: (3, 3, 3, 3, 6),
    Box.FULL: (4, 4, 4, 6, 6),
    Box.ESCALERA_LARGA: (2, 3, 4, 5, 6),
    Box.ESCALERA_ESCASA: (1, 2, 3, 4, 5),
    Box.LIBRE: (6, 6, 5, 5, 4),
}
"""Ana alone scores every box but Generala, in the sheet's order; Generala is left for last."""
NOTHING = (1, 2, 3, 4, 6)
"""Scores 0 in Generala."""


def key_bar_entries(app: CubileteApp) -> list[str]:
    """The key bar's entries, e.g. ["y Yes", "n No"] (the palette's key left out)."""
    line = screen_text(app).split("\n")[-1].split("▏")[0]
    return [entry.strip() for entry in line.split("  ") if entry.strip()]


async def choose(pilot: Pilot, box: Box) -> None:
    """Move the sheet's cursor to `box` by the arrows and press enter."""
    sheet = pilot.app.screen.query_one(Scoresheet)
    for _ in range(len(BOXES)):
        if sheet.cursor_key == box.value:
            break
        await pilot.press("down" if BOXES.index(Box(sheet.cursor_key)) < BOXES.index(box) else "up")
    assert sheet.cursor_key == box.value
    await pilot.press("enter")
    await settle(pilot)


async def test_the_last_open_box_takes_its_zero_without_a_question():
    faces = [face for dice in SCORING.values() for face in dice] + list(NOTHING)
    app = CubileteApp(dice=LoadedDice(faces), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot, "generala", ["Ana"])
        for box in SCORING:
            await pilot.press("space")
            await settle(pilot)
            await choose(pilot, box)
        await pilot.press("space")  # 1 2 3 4 6: Generala, the one open box, scores 0
        await settle(pilot)
        await choose(pilot, Box.GENERALA)
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the game's end")
        assert screen.table.state.sheets[0][BOXES.index(Box.GENERALA)] == 0
        assert not any(isinstance(shown, ConfirmScreen) for shown in app.screen_stack)


@pytest.mark.parametrize(
    ("language", "yes", "question", "keys"),
    [
        ("en", "y", "Write 0 in Ones?", ["y Yes", "n No"]),
        ("es", "s", "¿Tachar Uno?", ["s Sí", "n No"]),
        ("pt", "s", "Riscar Um?", ["s Sim", "n Não"]),
    ],
)
async def test_a_question_shows_its_own_keys_in_the_key_bar(language, yes, question, keys):
    """Ana's 2 2 3 4 6 scores 0 in Ones, one of her 13 open boxes: she is asked first."""
    app = CubileteApp(dice=LoadedDice([2, 2, 3, 4, 6]), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        app.set_language(language, remember=False)
        screen = await start_game(pilot, "generala", ["Ana"])
        await pilot.press("space")
        await settle(pilot)
        game_keys = key_bar_entries(app)
        await choose(pilot, Box.ONES)
        assert isinstance(app.screen, ConfirmScreen)
        assert question in " ".join(screen_text(app).split())
        assert key_bar_entries(app)[:2] == keys
        assert not set(game_keys) & set(key_bar_entries(app))  # "⏎ Choose box", "space Throw"
        await pilot.press("n")  # no: nothing written, the game's keys are back
        await settle(pilot)
        assert screen.table.state.sheets[0][0] is None
        assert key_bar_entries(app) == game_keys
        await choose(pilot, Box.ONES)
        await pilot.press(yes)  # the language's yes key, as the key bar names it
        await settle(pilot)
        assert screen.table.state.sheets[0][0] == 0


# -- 19: a replay tells what happened ------------------------------------------------------------
@pytest.mark.parametrize("game", list(KITS))
async def test_a_replays_status_line_says_what_happened_never_what_to_press(game, private_data_dir):
    """Every move of a whole game of bots, stepped through with →: the status line never
    holds the game's words for the decision that was made (as the game's buttons and the coach
    name it: "Throw three dice"), nor the live game's prompt for the position shown."""
    record_id = write(private_data_dir, finished(game, 1), START)
    app = CubileteApp(animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.show_replay(record_id)
        screen = await until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen, "the replay"
        )
        await until(pilot, lambda: screen.decisions is not None, "the coach's reviews")
        await settle(pilot)
        assert screen.steps is not None
        live = screen_class(game)
        rules = screen.table.game
        for index in range(1, len(screen.stops)):
            await pilot.press("right")
            assert screen.position == screen.stops[index]
            status = " ".join(str(screen.query_one("#status").render()).split())
            decision = screen.steps[screen.stops[index - 1]]  # the move's first event
            assert not isinstance(decision.move, tuple), decision
            label = render(rules.describe_action(decision.before, decision.move))
            prompt = live.prompt(screen)
            assert label not in status, (index, status)
            assert not prompt or prompt not in status, (index, status)
            assert status.startswith(f"Move {index} of ")
            shown = screen_text(app)
            for button in screen.query("#decisions Button").results(Button):
                assert not button.display or str(button.label) not in shown


# -- 21: a 4 thrown too early names the first missing piece --------------------------------------
@pytest.mark.parametrize("game", ["barco", "navio"])
async def test_a_4_thrown_too_early_names_the_first_piece_missing(game):
    """Ana's first throw has a 4 and no 6: the 4 goes back for want of the ship. Her second
    throw brings the ship (6) and a 4 but no 5: now the 4 waits for the captain."""
    seats, roll_off = (["Ana"], []) if game == "barco" else (["Ana", "Bruno"], [6, 2])
    faces = [*roll_off, 4, 1, 2, 3, 2, 6, 4, 1, 2, 3]  # (Navio: Ana's 6 beats Bruno's 2)
    app = CubileteApp(dice=LoadedDice(faces), animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await start_game(pilot, game, seats)
        assert app.screen.table.current_player() == 0
        await pilot.press("space")
        await settle(pilot)
        text = screen_text(app)
        assert "↩ a 4 needs the ship first" in text
        assert "needs the captain" not in text
        await pilot.press("space")
        await settle(pilot)
        text = screen_text(app)
        assert "↩ a 4 needs the captain first" in text
        assert "a 4 needs the ship" not in text


# -- 13: a rating follows its move -----------------------------------------------------------------
def talk_lines(log: TableTalk) -> list[str]:
    """The table talk's rows as shown (scrolled out of view or not), blank rows left out."""
    return [" ".join(strip.text.split()) for strip in log.lines if strip.text.strip()]


def ratings_follow_their_moves(lines: list[str]) -> list[str]:
    """The coach's lines, each checked to come right after the line telling Ana's box."""
    coach = [index for index, line in enumerate(lines) if line.startswith("Coach: Ana")]
    for index in coach:
        told = lines[index - 1] if index else ""
        assert told.startswith("Ana writes "), (told, lines[index])
    return [lines[index] for index in coach]


async def test_the_coachs_rating_follows_its_move_and_stays_in_the_game_overs_talk():
    """Ana alone fills her sheet (Generala last); each box she chooses among several is rated,
    right after "Ana writes …"; the game-over screen's table talk keeps those ratings."""
    faces = [face for dice in SCORING.values() for face in dice] + list(NOTHING)
    app = CubileteApp(dice=LoadedDice(faces), animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(pilot, "generala", ["Ana"])
        log = screen.query_one("#log", TableTalk)
        for box in SCORING:
            await pilot.press("space")
            await settle(pilot)
            await choose(pilot, box)
            await until(pilot, lambda: not screen.host.reviews_pending, "the coach's rating")
            await settle(pilot)
        during_play = ratings_follow_their_moves(talk_lines(log))
        assert len(during_play) == len(SCORING)
        await pilot.press("space")
        await settle(pilot)
        await choose(pilot, Box.GENERALA)
        over = await until(
            pilot, lambda: isinstance(app.screen, GameOverScreen) and app.screen, "the game's end"
        )
        await settle(pilot)
        at_the_end = ratings_follow_their_moves(talk_lines(over.query_one("#over-log", TableTalk)))
        # (her last box too: she could have thrown again)
        assert at_the_end[:-1] == during_play and len(at_the_end) == len(SCORING) + 1
