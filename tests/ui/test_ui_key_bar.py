"""The key bar: the screen's keys on the last row, drawn the way Textual's Footer drew them.

Driven through the real app on loaded dice (Generala, and Multiplicación, whose keys change
with the decisions open to the player), plus one small app that shows a Footer and a KeyBar
the same bindings (a group, a disabled key) and compares them cell by cell.
"""

from __future__ import annotations

from typing import ClassVar

import generala_script
import multiplicacion_script
from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static
from uihelpers import (
    ChopsUpdate,
    LayoutUpdate,
    ScreenUpdate,
    log_text,
    row_cells,
    screen_text,
    settle,
    start_game,
    watch_updates,
)

from app.dice import LoadedDice
from app.main import CubileteApp
from app.quiet.key_bar import KeyBar
from app.screens.generala import GeneralaScreen
from app.screens.rules import RulesScreen

SIZE = (80, 24)
GENERALA_KEYS = " space Throw  h Coach  f1 Rules  esc Lobby".ljust(SIZE[0] - 12) + "▏^p palette "
"""Generala's keys before the first throw, at 80 columns, space for space: the keys that play
first, then the coach, the rules and the lobby; the palette at the right edge."""
GENERALA_THROWN = " space Throw  1-5 Hold  ⏎ Choose box  h Coach  f1 Rules  esc Lobby  ▏^p palette "
"""After a throw: holding and choosing a box work too."""


def last_row(app: App) -> str:
    return screen_text(app).split("\n")[-1]


def last_row_cells(app: App) -> list[tuple[str, Style | None]]:
    return row_cells(app, -1)


def generala_app() -> CubileteApp:
    faces = generala_script.loaded_faces()
    return CubileteApp(dice=LoadedDice(faces), animate=False, game="generala")


def multiplicacion_app() -> CubileteApp:
    faces = multiplicacion_script.loaded_faces()
    return CubileteApp(dice=LoadedDice(faces), animate=False, game="multiplicacion")


async def click_key(pilot: Pilot, label: str) -> None:
    """Click the key bar on the entry `label` (e.g. "space Throw"), on its key."""
    row = last_row(pilot.app)
    assert label in row, f"{label!r} is not in the key bar: {row!r}"
    assert await pilot.click(KeyBar, offset=(row.index(label), 0))
    await settle(pilot)


class Recorder:
    """What the app writes to the terminal: the compositor's updates, as the rows they touch."""

    def __init__(self, app: App) -> None:
        self.updates: list[ScreenUpdate] = []
        watch_updates(app, self.updates.append)

    def rows(self) -> set[int]:
        rows: set[int] = set()
        for update in self.updates:
            if isinstance(update, ChopsUpdate):
                rows |= {y for y, _x1, _x2 in update.spans}
            elif isinstance(update, LayoutUpdate):
                rows |= set(range(update.region.y, update.region.bottom))
            else:
                rows.add(-1)
        return rows


def count_calls(widget: Widget, name: str) -> list[int]:
    """Count the calls of a widget's method (the list's length)."""
    calls: list[int] = []
    method = getattr(widget, name)

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return method(*args, **kwargs)

    setattr(widget, name, counted)
    return calls


async def test_the_last_row_shows_the_screens_keys_as_the_footer_did():
    app = generala_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot, "generala")
        assert not screen.query("Footer")
        assert screen.query_one(KeyBar).region.y == SIZE[1] - 1
        assert last_row(app) == GENERALA_KEYS
        await pilot.press("space")
        await settle(pilot)
        assert last_row(app) == GENERALA_THROWN

        colours = app.get_css_variables()
        cells = last_row_cells(app)
        key = cells[GENERALA_THROWN.index("esc")][1]
        description = cells[GENERALA_THROWN.index("Lobby")][1]
        border = cells[GENERALA_THROWN.index("▏")][1]
        assert key is not None and description is not None and border is not None
        assert key.bold and not description.bold
        assert key.color is not None and description.color is not None
        assert key.color.triplet.hex == colours["footer-key-foreground"].lower()
        assert description.color.triplet.hex == colours["footer-description-foreground"].lower()
        assert key.bgcolor == description.bgcolor == border.bgcolor
        assert key.bgcolor is not None
        assert key.bgcolor.triplet.hex == colours["footer-background"].lower()

        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert last_row(app) == " esc Back  f1 Rules".ljust(SIZE[0] - 12) + "▏^p palette "


async def test_a_click_on_a_key_does_what_pressing_it_does():
    steps = [("space Throw", "space"), ("1-5 Hold", "1"), ("space Throw", "space")]
    seen: dict[str, list[str]] = {"keys": [], "clicks": []}
    for way in seen:
        app = generala_app()
        async with app.run_test(size=SIZE) as pilot:
            await start_game(pilot, "generala")
            before = log_text(app)
            for label, key in steps:
                if way == "keys":
                    await pilot.press(key)
                    await settle(pilot)
                else:
                    await click_key(pilot, label)
                text = screen_text(app)
                assert text not in seen[way][-1:], f"{label!r} changed nothing"
                seen[way].append(text)
            assert log_text(app) != before
    assert seen["clicks"] == seen["keys"]


async def test_a_click_on_rules_back_and_the_palette():
    app = generala_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "generala")
        await click_key(pilot, "f1 Rules")
        assert isinstance(app.screen, RulesScreen)

        await pilot.click(KeyBar, offset=(40, 0))  # between the keys and the palette: nothing
        await settle(pilot)
        assert isinstance(app.screen, RulesScreen)

        await click_key(pilot, "esc Back")
        assert isinstance(app.screen, GeneralaScreen)

        await click_key(pilot, "^p palette")
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, GeneralaScreen)


async def test_the_line_follows_the_keys_open_to_the_player():
    app = multiplicacion_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "multiplicacion")
        assert last_row(app).startswith(" space Throw  h Coach  f1 Rules  esc Lobby  ")
        await pilot.press("space", "space", "space")  # Ana: 1 4 5, 2 3, then the multiplier 5
        await settle(pilot)
        row = last_row(app)
        assert row.startswith(" a Accept  p Penalty re-throw  h Coach  f1 Rules  esc Lobby  ")
        assert row.endswith("▏^p palette ")
        assert "Throw" not in row


async def test_a_bindings_update_that_changes_nothing_writes_nothing():
    app = multiplicacion_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot, "multiplicacion")
        bar = screen.query_one(KeyBar)
        refreshes = count_calls(bar, "refresh")
        renders = count_calls(bar, "render_line")
        terminal = Recorder(app)
        for _ in range(3):
            screen.refresh_bindings()
            await pilot.pause()
        await settle(pilot)
        assert (refreshes, renders, terminal.updates) == ([], [], [])

        await pilot.press("space", "space", "space")  # now the keys change
        await settle(pilot)
        assert refreshes and renders
        assert SIZE[1] - 1 in terminal.rows()


async def test_a_key_under_the_mouse_is_highlighted_on_one_row():
    app = generala_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "generala")
        terminal = Recorder(app)
        coach = GENERALA_KEYS.index(" h Coach ")
        await pilot.hover(KeyBar, offset=(coach + 3, 0))
        await pilot.pause()
        backgrounds = [style.bgcolor if style else None for _char, style in last_row_cells(app)]
        hovered = {backgrounds[x] for x in range(coach, coach + len(" h Coach "))}
        assert len(hovered) == 1
        assert hovered.isdisjoint(backgrounds[:coach] + backgrounds[coach + 9 :])
        assert terminal.rows() == {SIZE[1] - 1}

        terminal.updates.clear()
        await pilot.hover(KeyBar, offset=(coach + 4, 0))  # the same key: nothing to repaint
        await pilot.pause()
        assert terminal.updates == []

        await pilot.hover("#log")
        await pilot.pause()
        assert len({style.bgcolor if style else None for _c, style in last_row_cells(app)}) == 1


# -- the same bindings under Textual's Footer and under the key bar ---------------------------
GROUP = Binding.Group("Move")
COMPACT = Binding.Group("Nav", compact=True)


class Keys(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "bell", "Alpha"),
        Binding("b", "off", "Disabled"),
        Binding("h", "move(0)", "Left", group=GROUP),
        Binding("j", "move(1)", "Down", group=GROUP),
        Binding("n", "nav(0)", "N0", group=COMPACT),
        Binding("m", "nav(1)", "N1", group=COMPACT),
        Binding("ctrl+s", "bell", "Save"),
        Binding("f5,f6", "two", "Two keys"),
        Binding("x", "bell", "Hidden", show=False),
    ]

    def __init__(self, bar: type[Widget]) -> None:
        super().__init__()
        self.bar = bar

    def compose(self) -> ComposeResult:
        yield Static("keys")
        yield self.bar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "off" else True


class KeysApp(App[None]):
    def __init__(self, bar: type[Widget]) -> None:
        super().__init__()
        self.bar = bar

    def on_mount(self) -> None:
        self.push_screen(Keys(self.bar))


async def drawn(bar: type[Widget], width: int) -> list[tuple[str, Style | None]]:
    """The last row, cell by cell, as it looks (without the meta data Footer's text carries)."""
    app = KeysApp(bar)
    async with app.run_test(size=(width, 3)) as pilot:
        await pilot.pause()
        await pilot.pause()
        return [
            (char, style and style.clear_meta_and_links()) for char, style in last_row_cells(app)
        ]


async def test_the_bar_draws_what_the_footer_draws():
    footer = await drawn(Footer, 100)
    assert "".join(char for char, _style in footer).strip(), "the Footer drew nothing"
    assert await drawn(KeyBar, 100) == footer


async def test_a_key_that_does_not_fit_is_left_out_whole_not_cut():
    """Where Footer cuts the line mid-word, the bar draws the keys that fit whole, exactly as
    Footer draws them, and leaves the rest of the row blank up to the palette."""
    whole = "".join(char for char, _style in await drawn(KeyBar, 100)).split("▏")[0]
    entries = [entry.strip() for entry in whole.split("  ") if entry.strip()]
    for width in (60, 30, 20, 12):
        footer = await drawn(Footer, width)
        bar = await drawn(KeyBar, width)
        text = "".join(char for char, _style in bar)
        keys = text.split("▏")[0].rstrip()
        shown = [entry.strip() for entry in keys.split("  ") if entry.strip()]
        assert shown == entries[: len(shown)], f"at {width} columns: {text!r}"
        assert bar[: len(keys)] == footer[: len(keys)], f"at {width} columns"
        assert text.endswith("▏^p palette ")
    cut = "".join(char for char, _style in await drawn(Footer, 30)).split("▏")[0]
    assert [entry.strip() for entry in cut.split("  ") if entry.strip() not in entries] == [
        "b Disabl"
    ]
