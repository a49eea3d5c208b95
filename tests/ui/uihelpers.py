"""Helpers for driving the real app in tests: start a game, wait for the screen to settle,
read what the terminal shows, click and type in the lobby."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.app import App
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.strip import Strip

from app.games import screen_class
from app.quiet.button_row import ButtonRow
from app.quiet.setup_sheet import SetupSheet
from app.screens.game import GameScreen
from app.table import Seat
from app.widgets.generala.dice_tray import DiceTray

T = TypeVar("T")

# -- waiting on conditions ------------------------------------------------------------------


async def until(pilot: Pilot, condition: Callable[[], T], what: str, timeout: float = 30) -> T:
    """Let the app run until `condition()` is true (and give its value); fail after `timeout`
    seconds, naming `what` was awaited."""
    deadline = time.monotonic() + timeout
    await pilot.pause()
    while not (result := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await pilot.pause(0.02)
    return result


async def settle(pilot: Pilot) -> None:
    """Let what the last key or click set going finish: the dice stop tumbling, the coach
    rates a decision (a worker), the narration waiting behind that rating reaches the log
    (a `RatingSlot`: no timer), and the screen paints it all."""
    await pilot.pause()
    await until(
        pilot,
        lambda: not any(tray.tumble.running for tray in pilot.app.screen.query(DiceTray)),
        "the dice to stop",
    )
    await pilot.wait_for_scheduled_animations()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


# -- starting a game ------------------------------------------------------------------------


async def start_game(
    pilot: Pilot,
    game: str | None = None,
    seats: Sequence[str | Seat] | None = None,
    options: Mapping[str, Any] | None = None,
) -> GameScreen:
    """Start a game and give its screen, once it is up and settled.

    With no `seats`, as a player would: F2 in the lobby starts the game on the setup sheet
    (unless the test set it, the lobby's defaults: the game the app was asked for, Ana and
    Bruno). With `seats` (names, or `Seat`s for bots) and `options`: that table, started the
    way the lobby starts it (`CubileteApp.start_game`)."""
    await pilot.pause()
    if seats is None:
        await pilot.press("f2")
    else:
        game = game or pilot.app.screen.game_id
        table = [Seat(name=seat) if isinstance(seat, str) else seat for seat in seats]
        pilot.app.start_game(game, table, dict(options or {}))
    screen = await until(
        pilot,
        lambda: pilot.app.screen if isinstance(pilot.app.screen, GameScreen) else None,
        "the game screen",
    )
    if game is not None:
        assert isinstance(screen, screen_class(game)), (game, screen)
    await settle(pilot)
    return screen


async def run_command(pilot: Pilot, command: str) -> None:
    """Run a command of the palette as a person would: ctrl+p, type its name, and once the
    palette offers it first (it searches as one types), enter."""
    await pilot.press("ctrl+p")
    palette = await until(
        pilot,
        lambda: pilot.app.screen if isinstance(pilot.app.screen, CommandPalette) else None,
        "the command palette",
    )
    await pilot.press(*command)
    commands = palette.query_one(CommandList)

    def offered() -> bool:
        first = commands.highlighted
        if first is None or first >= commands.option_count:
            return False
        return command.lower() in str(commands.get_option_at_index(first).prompt).lower()

    await until(pilot, offered, f"the palette to offer {command!r}")
    await pilot.press("enter")
    await settle(pilot)


# -- what the terminal shows ----------------------------------------------------------------
# Textual has no public way to read the screen as text and styles: its own
# `App.export_screenshot()` renders the screen's compositor into an SVG. The tests read Textual's
# private parts here, and only here: the compositor's rows, the updates it sends to the terminal
# (for the tests of repainting) and the notifications on show. tests/ui/test_uihelpers.py checks
# each of them (the rows against the public screenshot), so a change in Textual fails there,
# loudly, saying what to update.

ScreenUpdate = CompositorUpdate
"""What Textual sends the terminal: a whole `LayoutUpdate`, or the `ChopsUpdate` of changed
spans of rows."""


def screen_strips(app: App) -> list[Strip]:
    """Every row of the screen as drawn now, with its styles."""
    return list(app.screen._compositor.render_strips())


def screen_rows(app: App) -> list[str]:
    """Every row of the screen as plain text."""
    return [strip.text for strip in screen_strips(app)]


def screen_text(app: App) -> str:
    """What the terminal shows right now, as plain text (one line per row)."""
    return "\n".join(screen_rows(app))


def row_cells(app: App, y: int) -> list[tuple[str, Style | None]]:
    """Row `y` of the screen, a (character, style) pair per cell."""
    return [(char, segment.style) for segment in screen_strips(app)[y] for char in segment.text]


def notifications(app: App) -> list[str]:
    """The messages of the notifications showing now (`App.notify`: the toasts)."""
    return [str(notification.message) for notification in app._notifications]


def full_repaint(app: App) -> ScreenUpdate:
    """The update that would repaint the whole screen as it is now."""
    return app.screen._compositor.render_full_update()


def watch_updates(app: App, seen: Callable[[ScreenUpdate], None]) -> None:
    """Call `seen` with every update the app sends to the terminal from now on (Textual's
    test driver writes nothing: this is what a real terminal would have been sent)."""
    display = app._display

    def record(screen: Any, renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate):
            seen(renderable)
        display(screen, renderable)

    app._display = record  # type: ignore[method-assign]  # no public hook on what is written


# -- the lobby and clicks -------------------------------------------------------------------


async def click(pilot: Pilot, selector: str, offset: tuple[int, int] = (0, 0)) -> None:
    """Click a widget once it is shown and ready, and insist that the click landed on it.

    A button ignores clicks for 0.2 s after a press (Textual's guard against double clicks,
    shown by its `-active` class): wait that out, as a person's pace would."""
    await pilot.pause()
    widget = pilot.app.screen.query_one(selector)
    await until(
        pilot,
        lambda: widget.display and widget.region and not widget.has_class("-active"),
        f"{selector} to take clicks",
    )
    assert await pilot.click(selector, offset=offset), f"could not click {selector}"
    await pilot.pause()


def log_text(app: App) -> str:
    """Everything in the game's log ("Table talk"), scrolled out of view or not, as one line."""
    log = app.screen.query_one("#log")
    return " ".join(" ".join(strip.text.split()) for strip in log.lines)  # type: ignore[attr-defined]


async def sheet_to(pilot: Pilot, name: str) -> SetupSheet:
    """By keyboard, in the lobby: Tab to the setup sheet, then ↓ or ↑ to the row `name`
    ("count", "seat-2", or an option such as "rounds")."""
    for _ in range(12):
        if isinstance(pilot.app.focused, SetupSheet):
            break
        await pilot.press("tab")
    sheet = pilot.app.focused
    assert isinstance(sheet, SetupSheet), "Tab never reached the setup sheet"
    target = sheet.rows().index(sheet.row_named(name))
    for _ in range(20):
        if sheet.cursor == target:
            break
        await pilot.press("down" if sheet.cursor < target else "up")
    assert sheet.cursor == target
    return sheet


async def click_row(pilot: Pilot, name: str, part: str = "label") -> SetupSheet:
    """By mouse, in the lobby: click the setup sheet's row `name` on its label, on its
    value, or on the value's back arrow ‹ ("label", "value", "back")."""
    sheet = pilot.app.screen.query_one(SetupSheet)
    row = sheet.row_named(name)
    x = {"label": 3, "back": sheet.value_x(row), "value": sheet.value_x(row) + 3}[part]
    await click(pilot, "#sheet", (x, sheet.line_of(row)))
    return sheet


async def click_button(pilot: Pilot, button_id: str) -> None:
    """Click a button of the lobby's row (Start, Resume, Rules, Quit), once a press shown
    by the row (0.2 s, its guard against double clicks) is over, as a person's pace would."""
    row = pilot.app.screen.query_one("#lobby-buttons", ButtonRow)
    await until(pilot, lambda: row.pressed is None, "the buttons to take clicks")
    region = row.region_of(button_id)
    assert await pilot.click("#lobby-buttons", offset=(region.x + 1, 0))
    await pilot.pause()


__all__ = [
    "ChopsUpdate",
    "LayoutUpdate",
    "ScreenUpdate",
    "click",
    "click_button",
    "click_row",
    "full_repaint",
    "log_text",
    "notifications",
    "row_cells",
    "run_command",
    "screen_rows",
    "screen_strips",
    "screen_text",
    "settle",
    "sheet_to",
    "start_game",
    "until",
    "watch_updates",
]
