"""Whole Generala games driven through the real app: one by keyboard only, one by mouse only."""

from __future__ import annotations

from generala_script import ANA_TOTAL, BOB_TOTAL, TURNS, loaded_faces
from uihelpers import click, click_button, screen_text, start_game

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.game_over import GameOverScreen
from app.screens.generala import GeneralaScreen
from app.widgets.scoresheet import Scoresheet
from rules.generala import BOXES


def new_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")


async def test_a_whole_game_by_keyboard_only():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "generala")  # F2: the lobby's defaults, Generala, Ana and Bruno
        sheet = app.screen.query_one(Scoresheet)
        for turn in TURNS:
            await pilot.press("space")
            if turn.hold:
                await pilot.press(*(str(position + 1) for position in turn.hold))
                await pilot.press("r")
            for _ in range(len(BOXES)):
                if sheet.cursor_key == turn.box.value:
                    break
                await pilot.press("down")
            assert sheet.cursor_key == turn.box.value
            await pilot.press("enter")
            if turn.zero:
                await pilot.pause()
                assert "Write 0 in Generala?" in screen_text(app)
                await pilot.press("y")
            await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        text = screen_text(app)
        assert "Ana wins!" in text
        assert f"Ana ★  {ANA_TOTAL}" in " ".join(text.split()).replace("★ ", "★  ") or (
            str(ANA_TOTAL) in text
        )
        ranking = app.screen.query_one("#ranking")
        assert [str(cell) for cell in ranking.get_row_at(0)] == ["1", "Ana ★", str(ANA_TOTAL)]
        assert [str(cell) for cell in ranking.get_row_at(1)] == ["2", "Bruno", str(BOB_TOTAL)]


def sheet_row_offset(box_index: int) -> tuple[int, int]:
    """Where a box's row is inside the scoresheet widget: border, header, then the rows."""
    return (4, 2 + box_index)


async def test_a_whole_game_by_mouse_only():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await click_button(pilot, "start")
        assert isinstance(app.screen, GeneralaScreen)
        for turn in TURNS:
            await click(pilot, "#throw")
            if turn.hold:
                for position in turn.hold:
                    await click(pilot, f"#die-{position + 1}")
                assert "held" in screen_text(app)
                await click(pilot, "#throw")
            await click(pilot, "#sheet", sheet_row_offset(BOXES.index(turn.box)))
            if turn.zero:
                assert "Write 0 in Generala?" in screen_text(app)
                await click(pilot, "#yes")
        assert isinstance(app.screen, GameOverScreen)
        text = screen_text(app)
        assert "Ana wins!" in text
        ranking = app.screen.query_one("#ranking")
        assert [str(cell) for cell in ranking.get_row_at(0)] == ["1", "Ana ★", str(ANA_TOTAL)]
        assert [str(cell) for cell in ranking.get_row_at(1)] == ["2", "Bruno", str(BOB_TOTAL)]
