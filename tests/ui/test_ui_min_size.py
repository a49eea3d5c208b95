"""One smallest size, said the same everywhere: 80×24, where every screen is laid out whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widget import Widget
from uihelpers import screen_text, start_game

from app.dice import RandomDice
from app.games import playable
from app.main import MIN_SIZE, CubileteApp
from app.screens.game import GameScreen
from app.screens.lobby import LobbyScreen

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_and_the_shared_server_notes_give_the_app_s_minimum() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = {tuple(map(int, size)) for size in re.findall(r"at (\d+)×(\d+) or larger", readme)}
    assert said == {MIN_SIZE} == {(80, 24)}
    server = (ROOT / "docs" / "shared-server.md").read_text(encoding="utf-8")
    assert "80×24 and larger" in server and "70×22" not in server


@pytest.mark.parametrize("size", [(79, 24), (80, 23)])
async def test_one_column_or_one_row_less_asks_for_80x24(size: tuple[int, int]) -> None:
    app = CubileteApp(animate=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Terminal too small" in text
        assert "at least 80×24" in text


def outside(widget: Widget, width: int, height: int) -> bool:
    region = widget.region
    return region.right > width or region.bottom > height


@pytest.mark.parametrize("game_id", playable())
async def test_every_game_opens_whole_at_80x24(game_id: str) -> None:
    """At the smallest size no too-small note, and nothing of the game is drawn off the
    screen (every widget shown lies inside the 80×24 cells)."""
    app = CubileteApp(dice=RandomDice(7), animate=False, game=game_id)
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert "Terminal too small" not in screen_text(app)
        await start_game(pilot, game_id)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.pause()
        assert "Terminal too small" not in screen_text(app)
        cut = [
            f"{widget!r} at {widget.region}"
            for widget in screen.query("*")
            if widget.display and widget.region.area and outside(widget, 80, 24)
        ]
        assert cut == []
