"""The one-line button: pressed by a click, enter or space; not when disabled; not twice at once."""

from __future__ import annotations

from textual.app import App, ComposeResult

from app.widgets.plain_button import PRESS_SHOWN, PlainButton


class TwoButtons(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.pressed: list[str] = []

    def compose(self) -> ComposeResult:
        yield PlainButton("Go", id="go", variant="primary")
        yield PlainButton("Stop", id="stop", disabled=True)

    def on_plain_button_pressed(self, event: PlainButton.Pressed) -> None:
        self.pressed.append(event.button.id or "")


async def test_a_click_enter_and_space_press_it_once_each() -> None:
    app = TwoButtons()
    async with app.run_test() as pilot:
        await pilot.click("#go")
        await pilot.pause()
        assert app.pressed == ["go"]
        await pilot.click("#go")  # within the press's 0.2 s: a double click counts once
        await pilot.pause()
        assert app.pressed == ["go"]
        assert app.focused is not None and app.focused.id == "go"
        await pilot.pause(PRESS_SHOWN + 0.1)
        await pilot.press("enter")
        await pilot.pause(PRESS_SHOWN + 0.1)
        await pilot.press("space")
        await pilot.pause()
        assert app.pressed == ["go", "go", "go"]


async def test_a_disabled_button_is_not_pressed() -> None:
    app = TwoButtons()
    async with app.run_test() as pilot:
        await pilot.click("#stop")
        app.query_one("#stop", PlainButton).press()
        await pilot.pause()
        assert app.pressed == []


async def test_it_is_as_wide_as_its_label_and_a_space_each_side() -> None:
    app = TwoButtons()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.query_one("#go").size == (len(" Go "), 1)
