"""The top line: the screen's title and sub-title, centred; ⭘ opens the command palette."""

from __future__ import annotations

from textual.command import CommandPalette
from uihelpers import screen_text

from app.main import CubileteApp


async def test_the_title_follows_the_screen_and_sits_where_headers_did() -> None:
    app = CubileteApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        top = screen_text(app).splitlines()[0]
        assert top.startswith(" ⭘ ")
        assert top.index("Cubilete — Lobby") == 31  # centred between ⭘ (8) and clock (10)
        app.screen.sub_title = "Somewhere else"
        await pilot.pause()
        assert "Cubilete — Somewhere else" in screen_text(app).splitlines()[0]
        app.title = "Cubilete!"
        await pilot.pause()
        assert "Cubilete! — Somewhere else" in screen_text(app).splitlines()[0]


async def test_a_long_title_is_cut_with_an_ellipsis() -> None:
    app = CubileteApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.sub_title = "x" * 100
        await pilot.pause()
        top = screen_text(app).splitlines()[0]
        assert len(top) == 80 and "…" in top


async def test_a_click_on_the_icon_opens_the_command_palette() -> None:
    app = CubileteApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("TitleBar", offset=(1, 0))
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
