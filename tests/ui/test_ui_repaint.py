"""What the game screen writes to the terminal: little, and nothing stale.

A throw repaints only what it changes (the rows of the faces that change, the changed cells of
the scoresheet, the new lines of the log), so at 80×24 one animated throw of Generala writes
≤ 8 KB and a hold ≤ 2 KB (docs/performance.md). Textual's test driver writes nothing, so
`Terminal` (emulated.py) renders every update the app would write, with a 256-colour console
as the bench's terminal has, and feeds it to a terminal emulator (pyte): after every step, what
the emulated terminal shows must be what a full repaint of the screen would show.
"""

from __future__ import annotations

from emulated import SIZE, Terminal
from generala_script import TURNS, loaded_faces
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Static
from uihelpers import settle, start_game

from app.dice import LoadedDice
from app.main import CubileteApp
from app.quiet.table_talk import TableTalk
from app.screens.generala import GeneralaScreen
from app.widgets.die import Die
from app.widgets.generala.dice_tray import DiceTray
from app.widgets.scoresheet import Cell, Scoresheet, SheetRow, SheetView
from rules.generala import BOXES


async def test_a_throw_and_a_hold_write_little_and_leave_the_terminal_right():
    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=True, game="generala")
    terminal = Terminal(app)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "generala")
        assert terminal.differences() == []

        mark = terminal.mark()
        await pilot.press("space")  # the first throw: no choice, so no rating to wait for
        await settle(pilot)
        assert "Ana throws" in "\n".join(terminal.screen.display)
        assert terminal.bytes_since(mark) <= 8_000
        assert terminal.differences() == []

        mark = terminal.mark()
        await pilot.press("1")
        await settle(pilot)
        assert "held" in "\n".join(terminal.screen.display)
        assert terminal.bytes_since(mark) <= 2_000
        assert terminal.differences() == []


async def test_several_turns_leave_the_terminal_showing_the_screen():
    """Throws, holds, the cursor, boxes filled: the log fills and scrolls, the dice go back to
    blank, the sheet changes players; after each step the terminal shows the screen."""
    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=True, game="generala")
    terminal = Terminal(app)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "generala")
        sheet = app.screen.query_one(Scoresheet)
        for turn in TURNS[:8]:
            keys = ["space"]
            if turn.hold:
                keys += [*(str(position + 1) for position in turn.hold), "r"]
            for key in keys:
                await pilot.press(key)
                await settle(pilot)
                assert terminal.differences() == [], key
            while sheet.cursor_key != turn.box.value:
                await pilot.press("down")
                await settle(pilot)
                assert terminal.differences() == [], "down"
            await pilot.press("enter")
            if turn.zero:
                await pilot.pause()
                await pilot.press("y")
            await settle(pilot)
            assert terminal.differences() == [], turn.box


async def test_moving_the_focus_repaints_what_changes_not_the_screen():
    """Tab through the lobby and round the game screen, click the sheet: each move
    repaints the widgets that lose and gain the focus (and the footer's keys), never the whole
    screen (a full 80×24 frame is ≈ 7.5 KB), and leaves the terminal right."""
    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="barco")
    terminal = Terminal(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(6):
            mark = terminal.mark()
            await pilot.press("tab")
            await settle(pilot)
            assert terminal.bytes_since(mark) <= 4_000, app.focused
            assert terminal.differences() == [], app.focused
        await pilot.press("shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab")
        await pilot.press("shift+tab", "end", "f2")  # back on the game list: Generala
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GeneralaScreen)
        await pilot.press("space")
        await settle(pilot)
        for _ in range(4):  # the focus goes round the game screen's widgets
            mark = terminal.mark()
            await pilot.press("tab")
            await settle(pilot)
            assert terminal.bytes_since(mark) <= 4_000, app.focused
            assert terminal.differences() == [], app.focused
        mark = terminal.mark()
        assert await pilot.click(Scoresheet, offset=(2, 0))  # its title: focus, no box chosen
        await settle(pilot)
        assert isinstance(app.focused, Scoresheet)
        assert terminal.bytes_since(mark) <= 4_000
        assert terminal.differences() == []


async def test_holding_a_die_with_the_mouse_writes_as_little_as_with_the_key():
    """A click starts and ends a text selection in Textual, which repaints the whole screen
    twice; the game's screens have no text selection, so a click costs what its change costs."""
    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")
    terminal = Terminal(app)
    async with app.run_test(size=SIZE) as pilot:
        await start_game(pilot, "generala")
        await pilot.press("space")
        await settle(pilot)
        mark = terminal.mark()
        assert await pilot.click("#die-1", offset=(3, 2))
        await settle(pilot)
        assert "held" in "\n".join(terminal.screen.display)
        assert terminal.bytes_since(mark) <= 2_000
        assert terminal.differences() == []


# -- the widgets ask to repaint only what changed ----------------------------------------------
class Repaints:
    """The repaints widgets ask for: (widget, regions), regions () for the whole widget."""

    def __init__(self, monkeypatch) -> None:  # type: ignore[no-untyped-def]
        self.calls: list[tuple[Widget, tuple[Region, ...]]] = []
        refresh = Widget.refresh

        def spy(widget, *regions, repaint=True, layout=False, recompose=False):  # type: ignore[no-untyped-def]
            if repaint:
                self.calls.append((widget, regions))
            return refresh(widget, *regions, repaint=repaint, layout=layout, recompose=recompose)

        monkeypatch.setattr(Widget, "refresh", spy)

    def of(self, widget: Widget) -> list[tuple[Region, ...]]:
        return [regions for who, regions in self.calls if who is widget]


def sheet(potential: tuple[str, ...]) -> SheetView:
    rows = tuple(
        SheetRow(box.value, box.value, (Cell(text, "potential"), Cell("·", "empty")), True)
        for box, text in zip(BOXES, potential, strict=False)
    )
    return SheetView(("Ana", "Bruno"), 0, rows, "Box")


class Widgets(App[None]):
    def compose(self) -> ComposeResult:
        yield DiceTray(5, animate=False)
        yield Scoresheet()
        yield Static(id="other")
        yield TableTalk(id="log", wrap=True)


async def test_a_new_potential_score_repaints_that_cell_only(monkeypatch):
    app = Widgets()
    async with app.run_test(size=SIZE) as pilot:
        widget = app.query_one(Scoresheet)
        widget.show(sheet(("0", "4", "9")))
        await pilot.pause()
        repaints = Repaints(monkeypatch)
        widget.show(sheet(("0", "6", "9")))
        assert repaints.of(widget) == [(widget.column_region(0).translate((0, 1)),)]


async def test_moving_the_cursor_repaints_two_rows(monkeypatch):
    app = Widgets()
    async with app.run_test(size=SIZE) as pilot:
        widget = app.query_one(Scoresheet)
        widget.show(sheet(("0", "4", "9")))
        await pilot.pause()
        repaints = Repaints(monkeypatch)
        widget.action_cursor(1)
        assert repaints.of(widget) == [(widget.row_region(0), widget.row_region(1))]


async def test_a_new_face_repaints_the_rows_that_change_and_not_the_border(monkeypatch):
    app = Widgets()
    async with app.run_test(size=SIZE) as pilot:
        tray = app.query_one(DiceTray)
        tray.show((4, 4, None, None, None), (), "", True)
        await pilot.pause()
        repaints = Repaints(monkeypatch)
        tray.show((5, 4, 2, None, None), (), "", True)  # 4 → 5 adds the middle pip
        die_1, die_2, die_3 = app.query(Die)[:3]
        assert repaints.of(die_1) == [(Region(0, 1, 5, 1),)]
        assert repaints.of(die_2) == []
        # a die's first face (it was blank) repaints the face, not the whole die
        assert repaints.of(die_3) == [(Region(0, 0, 5, 1),), (Region(0, 1, 5, 1),),
                                      (Region(0, 2, 5, 1),)]  # fmt: skip


async def test_a_line_written_to_a_log_with_room_repaints_that_line(monkeypatch):
    app = Widgets()
    async with app.run_test(size=SIZE) as pilot:
        log = app.query_one(TableTalk)
        log.write("Ana rolls 6 for the start")
        await pilot.pause()
        repaints = Repaints(monkeypatch)
        log.write("Bruno rolls 2")
        app.query_one("#other", Static).update("a layout of the screen")
        await pilot.pause()
        assert repaints.of(log) == [(Region(0, 1, len("Bruno rolls 2"), 1),)]
        assert repaints.of(log.vertical_scrollbar) == []  # its empty track did not change
