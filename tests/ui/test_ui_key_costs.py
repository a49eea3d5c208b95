"""What a key costs: the work between a key and the paint that answers it.

Every millisecond here is a millisecond a player waits for the screen to answer (the bench's
`key_latency_p99_s`, docs/performance.md). Restyling a widget means matching it against every
style rule and repainting all of it; a move's paint should not wait for the coach either.
"""

from __future__ import annotations

from generala_script import loaded_faces
from textual.app import App
from textual.dom import DOMNode

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.generala import GeneralaScreen
from app.widgets.die import Die


async def test_a_throw_restyles_no_die(monkeypatch):
    """A die's face changes its rows only; Generala's tray has no CSS for a die not yet
    thrown, so no class change (a restyle and a full repaint of each die) at every throw."""
    restyled: list[DOMNode] = []
    update_styles = App.update_styles

    def spy(app: App, node: DOMNode, animate: bool = True) -> None:
        restyled.append(node)
        update_styles(app, node, animate=animate)

    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=True, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, GeneralaScreen)
        monkeypatch.setattr(App, "update_styles", spy)
        await pilot.press("space")  # a throw: the dice tumble, then show their faces
        await pilot.pause(0.5)
        await pilot.press("enter")  # a box filled: the dice go back to "?"
        await pilot.pause(0.5)
        assert [node for node in restyled if isinstance(node, Die)] == []


async def test_the_log_writes_and_draws_its_lines_as_textual_richlog_does():
    """`TableTalk` has RichLog's code for text: the same lines for the same writes (wrapped,
    trimmed to `max_lines`, scrolled to the end), drawn the same. The one difference: a
    string's control characters are shown, not sent (`visible`: the log names players), so
    RichLog is given the string as `visible` makes it; and the log wraps a column short of its
    width (`SCROLLBAR_GAP`, no text against the scrollbar), so RichLog is given that column as
    padding."""
    from textual.app import ComposeResult
    from textual.containers import Horizontal
    from textual.widgets import RichLog

    from app.quiet.table_talk import SCROLLBAR_GAP, TableTalk
    from app.widgets.plain import visible

    words = "Ana throws 3 3 3 4 5 (throw 1 of 3); the coach rates it: best move. " * 3
    writes = [f"{n}. {words[: 7 * n]}" for n in range(1, 16)] + ["", "\ttabbed", words]

    class Two(App[None]):
        def compose(self) -> ComposeResult:
            with Horizontal():
                yield TableTalk(id="talk", max_lines=12, wrap=True, min_width=0)
                rich = RichLog(id="rich", max_lines=12, wrap=True, min_width=0)
                rich.styles.padding = (0, SCROLLBAR_GAP, 0, 0)
                yield rich

    app = Two()
    async with app.run_test(size=(80, 10)) as pilot:
        talk, rich = app.query_one(TableTalk), app.query_one(RichLog)
        for text in writes[:3]:  # before the size is known: held back, then written
            talk.write(text)
            rich.write(visible(text))
        await pilot.pause()
        for text in writes[3:]:
            talk.write(text)
            rich.write(visible(text))
        await pilot.pause()
        await pilot.pause()
        assert [list(line) for line in talk.lines] == [list(line) for line in rich.lines]
        assert "␉tabbed" in [line.text for line in talk.lines]
        assert talk.virtual_size == rich.virtual_size
        assert talk.scroll_offset == rich.scroll_offset
        height = talk.scrollable_content_region.height
        assert [talk.render_line(y).text.rstrip() for y in range(height)] == [
            rich.render_line(y).text.rstrip() for y in range(height)
        ]


async def test_a_turn_of_generala_lays_out_nothing(monkeypatch):
    """A throw, a hold, a box filled, the cursor moved and the table talk of each change what
    the widgets show, never their sizes: no layout of the screen (8–10 ms of CPU before such
    a key's paint; the status line, the tray's caption, the sheet of a new turn and the log's
    new lines each asked for one)."""
    from textual.screen import Screen

    from app.quiet.table_talk import TableTalk

    layouts: list[Screen] = []
    refresh_layout = Screen._refresh_layout

    def spy(screen: Screen, size=None, scroll: bool = False) -> None:
        layouts.append(screen)
        refresh_layout(screen, size, scroll)

    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=True, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause(0.3)
        screen = app.screen
        assert isinstance(screen, GeneralaScreen)
        log = screen.query_one("#log", TableTalk)
        lines = len(log.lines)
        monkeypatch.setattr(Screen, "_refresh_layout", spy)
        for key in ("space", "1", "1", "down", "up", "enter", "space", "enter"):
            await pilot.press(key)
            await pilot.pause(0.4)  # the tumble, the coach's rating and its line in the log
        assert app.screen is screen  # (no confirmation: every box scored)
        assert screen.state.round == 2
        assert len(log.lines) > lines + 2  # the throws, the boxes and the ratings were logged
        assert layouts == []


async def test_a_label_is_laid_out_again_only_when_its_size_can_change(monkeypatch):
    """`set_text`: a text of another width in a label whose width follows its text moves it
    (a layout); in a label of fixed size, or one as wide as before, only the label repaints."""
    from textual.app import ComposeResult
    from textual.containers import Horizontal
    from textual.widgets import Static

    from app.quiet.text import set_text

    class Labels(App[None]):
        CSS = "#auto { width: auto; height: 1; } #fixed { width: 20; height: 1; }"

        def compose(self) -> ComposeResult:
            with Horizontal():
                yield Static("four", id="auto")
                yield Static("four", id="fixed")
                yield Static("after", id="after")

    app = Labels()
    names = ("auto", "fixed", "after")
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        auto, fixed, after = (app.query_one(f"#{name}", Static) for name in names)
        assert (auto.size.width, after.region.x) == (4, 24)
        set_text(fixed, "a longer text")
        set_text(auto, "five!")  # one column more: the labels after it move
        assert fixed.content == "a longer text"
        await pilot.pause()
        assert (auto.size.width, after.region.x) == (5, 25)
        assert fixed.render_line(0).text.startswith("a longer text")
        set_text(auto, "four")
        await pilot.pause()
        assert (auto.size.width, after.region.x) == (4, 24)
        layouts: list[Static] = []
        refresh = Static.refresh

        def spy(widget: Static, *regions, layout: bool = False, **kwargs) -> Static:
            if layout:
                layouts.append(widget)
            return refresh(widget, *regions, layout=layout, **kwargs)

        monkeypatch.setattr(Static, "refresh", spy)
        set_text(auto, "abcd")  # as wide as before: nothing moves
        set_text(fixed, "shorter")
        assert layouts == []
        monkeypatch.undo()
        await pilot.pause()
        assert auto.render_line(0).text == "abcd"
        assert after.region.x == 24


async def test_a_line_written_to_a_log_of_fixed_size_scrolls_into_view_at_once():
    """The game's log has a fixed size (its CSS): a write sets its extent and scrollbar and
    scrolls to the new line at once, for the paint of the change itself. (As `RichLog`, it
    scrolled after that paint, once a layout had measured the new height: the whole log was
    painted again a moment later.)"""
    from textual.app import ComposeResult

    from app.quiet.table_talk import TableTalk

    class Log(App[None]):
        CSS = "TableTalk { height: 6; overflow-x: hidden; scrollbar-size-vertical: 1; }"

        def compose(self) -> ComposeResult:
            yield TableTalk(id="talk", wrap=True, min_width=0)

    app = Log()
    async with app.run_test(size=(40, 8)) as pilot:
        talk = app.query_one(TableTalk)
        for n in range(10):
            talk.write(f"line {n}")
        await pilot.pause()
        assert talk.scroll_y == talk.max_scroll_y == 4
        talk.write("the newest line")
        assert talk.virtual_size.height == 11
        assert talk.scroll_y == talk.max_scroll_y == 5
        assert talk.vertical_scrollbar.window_virtual_size == 11
        assert talk.vertical_scrollbar.position == 5
        await pilot.pause()
        assert talk.render_line(5).text.rstrip() == "the newest line"


def _drawn_whole(widget) -> list[list[tuple[str, object]]]:
    """`widget.render()`'s text drawn all at once, as Textual draws a widget's content."""
    from textual.visual import Visual, visualize

    width, height = widget.size
    visual = visualize(widget, widget.render())
    strips = Visual.to_strips(widget, visual, width, height, widget.visual_style)
    return [[(segment.text, segment.style) for segment in strip] for strip in strips]


def _drawn_by_line(widget, keep_meta: bool = True) -> list[list[tuple[str, object]]]:
    lines = [widget.render_line(y) for y in range(widget.size.height)]
    return [
        [
            (s.text, s.style if keep_meta or s.style is None else s.style.clear_meta_and_links())
            for s in strip
        ]
        for strip in lines
    ]


async def test_the_sheet_draws_each_line_as_textual_draws_its_whole_text():
    """`Scoresheet.render_line` draws one line of the sheet alone (a cursor move renders two
    rows, not the sheet): the same segments, styles and selection offsets as Textual's own
    rendering of the whole text, for every cursor row, focused or not, open or closed up."""
    from textual.app import ComposeResult

    from app.widgets.scoresheet import Cell, CellKind, Scoresheet, SheetRow, SheetView

    class Sheet(App[None]):
        def compose(self) -> ComposeResult:
            yield Scoresheet(id="sheet")

    kinds: tuple[CellKind, ...] = ("value", "potential", "empty")
    rows = tuple(
        SheetRow(
            key,
            f"Box {key}",
            tuple(Cell(str(n * 7 % 31), kinds[(n + seat) % 3]) for seat in range(3)),
            selectable=True,
            open=n % 2 == 0,
        )
        for n, key in enumerate("abcdefg")
    )
    rows += (SheetRow("total", "Total", (Cell("12"), Cell("0"), Cell("7")), total=True),)
    view = SheetView(("Ana", "Bruno", "Carlota Larga"), 1, rows, "Box", choosing=True)
    app = Sheet()
    async with app.run_test(size=(60, 20)) as pilot:
        sheet = app.query_one(Scoresheet)
        sheet.show(view)
        for room, focused in ((None, False), (None, True), (20, True)):
            sheet.fit(room)
            if focused:
                sheet.focus()
            for cursor in range(len(rows)):
                sheet.cursor = cursor
                await pilot.pause()
                assert _drawn_by_line(sheet) == _drawn_whole(sheet), (room, focused, cursor)
        assert sheet.closed  # (the last round was closed up)


async def test_a_die_draws_each_row_as_textual_draws_its_whole_face():
    """`Die.render_line` draws a row of the face alone and keeps it: the same as Textual's
    rendering of the whole face (the selection offsets aside, which a die drops), for every
    face, the blank, held or not, small and large."""
    from textual.app import ComposeResult

    class Dice(App[None]):
        CSS = "#large { width: 11; height: 7; }"

        def compose(self) -> ComposeResult:
            yield Die(0, id="small")
            yield Die(1, id="large")

    app = Dice()
    async with app.run_test(size=(40, 16)) as pilot:
        for die in app.query(Die):
            for held in (False, True):
                for value in (None, 1, 2, 3, 4, 5, 6, None):
                    die.held, die.value = held, value
                    await pilot.pause()
                    whole = [
                        [(text, style.clear_meta_and_links()) for text, style in line]
                        for line in _drawn_whole(die)
                    ]
                    assert _drawn_by_line(die, keep_meta=False) == whole, (die.id, held, value)


async def test_a_cursor_move_draws_two_rows_of_the_sheet(monkeypatch):
    """Textual renders all of a widget's text for any repaint of it: the sheet draws its
    lines itself, so a cursor move draws the row it leaves and the row it reaches."""
    from app.widgets.scoresheet import Scoresheet

    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause(0.3)
        await pilot.press("space")
        await pilot.pause(0.3)
        drawn: list[int] = []
        line_text = Scoresheet._line_text

        def spy(sheet: Scoresheet, y: int):
            drawn.append(y)
            return line_text(sheet, y)

        monkeypatch.setattr(Scoresheet, "_line_text", spy)
        await pilot.press("down")
        await pilot.pause()
        assert sorted(drawn) == [1, 2]  # (line 0 is the header: rows 0 and 1)


async def test_a_new_turn_draws_only_the_rows_that_differ_from_that_player_s_last_turn(
    monkeypatch,
):
    """A new turn moves the current column, so every row of the sheet changes; but each row
    looks as it did when that player last began a turn, bar the boxes filled since: those
    are the rows drawn (with the cursor's and the totals: 3 lines of 15)."""
    from app.widgets.scoresheet import Scoresheet

    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause(0.3)
        for _ in range(3):  # Ana, Bruno, Ana: each throws and fills the box under the cursor
            await pilot.press("space", "enter")
            await pilot.pause(0.3)
        drawn: list[int] = []
        line_text = Scoresheet._line_text

        def spy(sheet: Scoresheet, y: int):
            drawn.append(y)
            return line_text(sheet, y)

        monkeypatch.setattr(Scoresheet, "_line_text", spy)
        await pilot.press("space")  # Bruno's throw: his column's previews
        await pilot.pause(0.3)
        drawn.clear()
        await pilot.press("enter")  # Bruno fills a box: Ana's turn again
        await pilot.pause(0.3)
        sheet = app.screen.query_one(Scoresheet)
        assert sheet.view.current == 0
        # since Ana's last turn began: the Twos filled by both (line 2), the cursor now on
        # the Threes (line 3), the totals (line 14); the header and the rest are found again
        assert sorted(set(drawn)) == [2, 3, 14]


async def test_a_log_sized_by_its_lines_is_laid_out_again_when_it_grows():
    """A log whose height follows its lines (`height: auto`) is laid out again at each write,
    as `RichLog` is: only a log of fixed size skips that layout."""
    from textual.app import ComposeResult

    from app.quiet.table_talk import TableTalk

    class Log(App[None]):
        CSS = "TableTalk { height: auto; overflow-x: hidden; overflow-y: hidden; }"

        def compose(self) -> ComposeResult:
            yield TableTalk(id="talk", wrap=True, min_width=0)

    app = Log()
    async with app.run_test(size=(40, 20)) as pilot:
        await pilot.pause()
        talk = app.query_one(TableTalk)
        for n in range(3):
            talk.write(f"line {n}")
        await pilot.pause()
        assert talk.size.height == 3
