"""Helpers for driving the real app in tests."""

from __future__ import annotations

from textual.app import App
from textual.pilot import Pilot

from app.widgets.button_row import ButtonRow
from app.widgets.setup_sheet import SetupSheet


def screen_text(app: App) -> str:
    """What the terminal shows right now, as plain text (one line per row)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


async def click(pilot: Pilot, selector: str, offset: tuple[int, int] = (0, 0)) -> None:
    """Click a widget and insist that the click landed on it.

    A button ignores clicks for 0.2 s after a press (Textual's guard against double clicks,
    shown by its `-active` class): wait that out, as a person's pace would."""
    await pilot.pause()
    for _ in range(40):
        if not pilot.app.screen.query_one(selector).has_class("-active"):
            break
        await pilot.pause(0.05)
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
    for _ in range(40):
        if row.pressed is None:
            break
        await pilot.pause(0.05)
    region = row.region_of(button_id)
    assert await pilot.click("#lobby-buttons", offset=(region.x + 1, 0))
    await pilot.pause()
