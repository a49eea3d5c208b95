"""The log wraps its lines again when the window changes width: a long line written at 80
columns is one line at 120, and two again at 80."""

from __future__ import annotations

from textual.app import App, ComposeResult
from uihelpers import start_game

from app.dice import LoadedDice
from app.main import CubileteApp
from app.quiet.table_talk import TableTalk

LONG = "Blue captain moves 14 → 15 and strikes Red parrot (lives left: 2); Blue throws again"


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield TableTalk(id="log", max_lines=1000, wrap=True, min_width=0)


def shown(log: TableTalk) -> list[str]:
    return [strip.text.rstrip() for strip in log.lines]


async def test_a_long_line_is_wrapped_again_at_the_new_width() -> None:
    app = LogApp()
    async with app.run_test(size=(60, 20)) as pilot:
        log = app.query_one(TableTalk)
        log.write("Round 1 of 10")
        log.write(LONG)
        await pilot.pause()
        assert len(shown(log)) == 3  # the long line in two
        await pilot.resize_terminal(120, 20)
        await pilot.pause()
        assert shown(log) == ["Round 1 of 10", LONG]
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert len(shown(log)) == 3
        log.write("Coach: Ana — best move")
        await pilot.pause()
        assert shown(log)[-1] == "Coach: Ana — best move"
        await pilot.resize_terminal(120, 20)
        await pilot.pause()
        assert shown(log) == ["Round 1 of 10", LONG, "Coach: Ana — best move"]


async def test_lines_written_before_the_size_is_known_are_kept_once() -> None:
    app = LogApp()
    async with app.run_test(size=(100, 20)) as pilot:
        log = app.query_one(TableTalk)
        assert len(log._written) == 0
        await pilot.pause()
        log.write("one")
        await pilot.resize_terminal(90, 20)
        await pilot.pause()
        assert shown(log) == ["one"]


async def test_the_game_s_log_follows_the_window_by_keyboard() -> None:
    faces = [6, 1, 6, 6, 6, 6, 6, *[2] * 40]
    app = CubileteApp(dice=LoadedDice(faces), animate=False, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "generala")
        log = app.screen.query_one("#log", TableTalk)
        log.write(f"{LONG}; {LONG}")  # wraps at any width of the game's log below 120
        await pilot.pause()
        narrow = shown(log)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        wide = shown(log)
        width = log.scrollable_content_region.width
        assert len(wide) < len(narrow)  # the same words in fewer, longer lines
        assert " ".join(wide) == " ".join(narrow)
        assert max(len(line) for line in wide) > max(len(line) for line in narrow)
        assert all(len(line) <= width for line in wide)
        await pilot.press("space")  # play on: new lines at the new width
        await pilot.pause()
        assert "Ana throws" in " ".join(shown(log)[-3:])
