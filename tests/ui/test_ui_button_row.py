"""A row of buttons as one widget: one Tab stop, ← → between buttons, enter/space/click press."""

from __future__ import annotations

from textual.app import App, ComposeResult
from uihelpers import screen_text

from app.quiet.button_row import PRESS_SHOWN, ButtonRow, RowButton


class Row(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.pressed: list[str] = []

    def compose(self) -> ComposeResult:
        yield ButtonRow(
            [
                RowButton("go", "Go", "primary"),
                RowButton("wait", "Wait", disabled=True),
                RowButton("stop", "Stop"),
            ],
            id="row",
        )

    def on_button_row_pressed(self, event: ButtonRow.Pressed) -> None:
        self.pressed.append(event.button_id)


async def test_it_draws_each_label_with_a_space_each_side_two_apart() -> None:
    app = Row()
    async with app.run_test(size=(40, 3)) as pilot:
        await pilot.pause()
        assert screen_text(app).splitlines()[0].startswith(" Go    Wait    Stop ")
        assert app.query_one(ButtonRow).region_of("stop").x == len(" Go ") + 2 + len(" Wait ") + 2


async def test_arrows_skip_a_disabled_button_and_enter_or_space_press() -> None:
    app = Row()
    async with app.run_test(size=(40, 3)) as pilot:
        row = app.query_one(ButtonRow)
        row.focus()
        await pilot.press("right")  # over "Wait", which is disabled
        assert row.buttons[row.current].id == "stop"
        await pilot.press("enter")
        await pilot.pause(PRESS_SHOWN + 0.1)
        await pilot.press("right", "space")  # round to "Go"
        await pilot.pause()
        assert app.pressed == ["stop", "go"]


async def test_a_click_presses_once_and_not_on_a_disabled_button() -> None:
    app = Row()
    async with app.run_test(size=(40, 3)) as pilot:
        row = app.query_one(ButtonRow)
        await pilot.click("#row", offset=(row.region_of("wait").x + 1, 0))
        await pilot.pause()
        assert app.pressed == []
        stop = (row.region_of("stop").x + 1, 0)
        await pilot.click("#row", offset=stop)
        await pilot.click("#row", offset=stop)  # within 0.2 s: a double click counts once
        await pilot.pause()
        assert app.pressed == ["stop"]
        await pilot.pause(PRESS_SHOWN + 0.1)
        await pilot.click("#row", offset=(row.region_of("go").x, 0))
        await pilot.pause()
        assert app.pressed == ["stop", "go"]
        await pilot.click("#row", offset=(row.region_of("go").right, 0))  # the gap after it
        await pilot.pause(PRESS_SHOWN + 0.1)
        assert app.pressed == ["stop", "go"]


async def test_a_button_enabled_again_can_be_pressed() -> None:
    app = Row()
    async with app.run_test(size=(40, 3)) as pilot:
        row = app.query_one(ButtonRow)
        row.set_disabled("wait", False)
        row.focus()
        await pilot.press("right", "enter")
        await pilot.pause()
        assert app.pressed == ["wait"]
        row.set_disabled("wait", True)  # the keyboard moves off a button being disabled
        assert row.buttons[row.current].id == "stop"
