"""A screen that is slow to appear says so first: "Opening Batalla de Piratas…" is painted on
the title line before the game's code is imported and its screen built (seconds on a busy
machine, when nothing else would move). The terminal's frames are recorded as Textual writes
them (`Terminal`, as in test_ui_repaint.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_ui_repaint import Terminal
from uihelpers import click_button

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.game import GameScreen
from app.screens.lobby import LobbyScreen

UI_TESTS = Path(__file__).resolve().parent

PROBE = """
import asyncio, json, sys
sys.path.insert(0, {tests!r})
from test_ui_repaint import Terminal
from app.main import CubileteApp

async def main():
    app = CubileteApp(animate=False, game={game!r})
    terminal = Terminal(app)
    seen = []
    feed = terminal.stream.feed

    def watch(text):  # what the terminal shows after each write, and what was loaded then
        feed(text)
        seen.append({{
            "shows": "\\n".join(terminal.screen.display),
            "loaded": sorted(m for m in {modules!r} if m in sys.modules),
            "screen": type(app.screen).__name__,
        }})

    terminal.stream.feed = watch
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press({key!r})
        for _ in range(200):
            await pilot.pause()
            if type(app.screen).__name__ != "LobbyScreen":
                break
        await pilot.pause()
    print(json.dumps(seen))

asyncio.run(main())
"""


def frames(game: str, key: str, modules: tuple[str, ...], data_dir: Path) -> list[dict]:
    """Run the app in a fresh process (nothing of the game imported yet: opening it is
    really slow), press `key` in the lobby, and return every frame the terminal got."""
    code = PROBE.format(tests=str(UI_TESTS), game=game, key=key, modules=modules)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
        env={**os.environ, "CUBILETE_DATA_DIR": str(data_dir)},
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_opening_piratas_says_so_before_its_code_is_loaded(tmp_path: Path) -> None:
    seen = frames("piratas", "f2", ("rules.piratas", "app.screens.piratas"), tmp_path)
    saying = [frame for frame in seen if "Opening Batalla de Piratas…" in frame["shows"]]
    assert saying, "the loading line was never painted"
    first = saying[0]
    assert first["loaded"] == [] and first["screen"] == "LobbyScreen"
    assert "Crews" in seen[-1]["shows"]  # and then the game itself


def test_opening_the_rules_says_so_before_the_markdown_is_loaded(tmp_path: Path) -> None:
    seen = frames("generala", "f1", ("markdown_it", "app.screens.rules"), tmp_path)
    saying = [frame for frame in seen if "Opening the rules of Generala…" in frame["shows"]]
    assert saying and saying[0]["loaded"] == []
    assert "Opening the rules" not in seen[-1]["shows"]


async def test_by_mouse_the_line_comes_before_the_game_and_the_lobby_s_title_comes_back() -> None:
    app = CubileteApp(dice=LoadedDice([5, 2, *[3] * 30]), animate=False, game="generala")
    terminal = Terminal(app)
    shows: list[tuple[str, str]] = []
    feed = terminal.stream.feed

    sizes: list[int] = []

    def watch(text: str) -> None:
        feed(text)
        shows.append((type(app.screen).__name__, terminal.screen.display[0]))
        sizes.append(len(text.encode()))

    terminal.stream.feed = watch  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        await click_button(pilot, "start")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        titles = [title for _screen, title in shows]
        opening = next(
            i for i, title in enumerate(titles) if "Cubilete — Opening Generala…" in title
        )
        assert shows[opening][0] == "LobbyScreen"
        assert sizes[opening] <= 560  # the title line and the pressed button's row, not the lobby
        assert any("Cubilete — Generala" in title for title in titles[opening + 1 :])
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is lobby and isinstance(lobby, LobbyScreen)
        assert "Cubilete — Lobby" in terminal.screen.display[0]


async def test_options_refused_put_the_lobby_s_title_back() -> None:
    app = CubileteApp(animate=False, game="piratas")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.sheet.raw["lives"] = "0"
        await pilot.press("f2")
        await pilot.pause()
        assert app.screen is lobby
        assert lobby.sub_title == "Lobby"
