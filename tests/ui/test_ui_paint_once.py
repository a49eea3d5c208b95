"""A screen reaches the terminal once, settled, when it is shown (app/quiet/screen.py).

Textual painted the lobby 3.6 times over (a full frame, two partial repaints of every widget,
a full frame again) before it settled, and a game's screen about four times when it opened:
the bytes a player waits for over SSH. What the app writes is rendered into an emulated
terminal (`emulated.Terminal`), which must show exactly what a full repaint would.
"""

from __future__ import annotations

import asyncio
import inspect
import textwrap
import time
from collections.abc import Sequence

import pytest
from emulated import Terminal
from generala_script import loaded_faces
from test_ui_snapshots import finished_table
from textual.app import App
from textual.geometry import Size
from textual.pilot import Pilot
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import AwaitMount, Widget

from app.dice import LoadedDice
from app.main import CubileteApp
from app.quiet.screen import PaintOnceScreen
from app.screens.game_over import GameOverScreen
from app.screens.generala import GeneralaScreen, sheet_view
from app.screens.lobby import LobbyScreen
from app.screens.rules import RulesScreen


def told(word: str, lines: Sequence[Strip]) -> bool:
    """The word is in the table talk's last lines (a move's line, then the coach's rating of
    it, wrapped)."""
    return word in " ".join(line.text for line in lines)


def new_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")


async def settled(pilot: Pilot) -> None:
    """Until the screen has settled, its workers are done and nothing is left to paint."""
    deadline = time.monotonic() + 30
    await pilot.pause()
    while isinstance(screen := pilot.app.screen, PaintOnceScreen) and screen.settling:
        assert time.monotonic() < deadline, "the screen did not settle"
        await pilot.pause(0.02)
    await pilot.app.workers.wait_for_complete()
    for _ in range(3):
        await pilot.pause()


def after_loading_line(terminal: Terminal, mark: int) -> list[str]:
    """The paints since `mark` after the loading line: while a screen's code loads, its title
    line alone is painted first ("Opening Generala…", `CubileteApp.loading`: a partial paint
    of a few hundred bytes)."""
    paints = terminal.paints_since(mark)
    assert paints[:1] == ["partial"], paints
    assert len(terminal.updates[mark].encode()) < 600
    return paints[1:]


async def test_the_lobby_is_painted_once_at_start():
    app = new_app()
    terminal = Terminal(app)
    async with app.run_test(size=terminal.size) as pilot:
        await settled(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert terminal.paints_since(0) == ["full"]
        assert terminal.differences() == []


async def test_a_game_is_painted_once_when_it_starts_and_the_lobby_once_when_it_returns():
    app = new_app()
    terminal = Terminal(app)
    async with app.run_test(size=terminal.size) as pilot:
        await settled(pilot)
        mark = terminal.mark()
        await pilot.press("f2")
        await settled(pilot)
        assert isinstance(app.screen, GeneralaScreen)
        assert after_loading_line(terminal, mark) == ["full"]
        assert terminal.differences() == []

        mark = terminal.mark()
        await pilot.press("escape")
        await settled(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert terminal.paints_since(mark) == ["full"]
        assert terminal.differences() == []

        mark = terminal.mark()  # the lobby offers the game again: a game shown a second time
        await pilot.press("f2")
        await settled(pilot)
        assert isinstance(app.screen, GeneralaScreen)
        assert after_loading_line(terminal, mark) == ["full"]
        assert terminal.differences() == []


async def test_the_end_of_a_game_is_painted_once():
    app = new_app()
    terminal = Terminal(app)
    async with app.run_test(size=terminal.size) as pilot:
        await settled(pilot)
        await pilot.press("f2")
        await settled(pilot)
        table = finished_table()
        mark = terminal.mark()
        app.open_screen(GameOverScreen(table, sheet_view(table.state)))  # as a game's end does
        await settled(pilot)
        assert isinstance(app.screen, GameOverScreen)
        assert terminal.paints_since(mark) == ["full"]
        assert terminal.differences() == []


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_rules_are_painted_once_and_the_game_once_when_they_close(size):
    app = new_app()
    terminal = Terminal(app, size)
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        await pilot.press("f2")
        await settled(pilot)
        for time_ in range(2):
            mark = terminal.mark()
            await pilot.press("f1")
            await settled(pilot)
            assert isinstance(app.screen, RulesScreen)
            # the loading line while the card is built, the first time only
            first = time_ == 0
            paints = after_loading_line(terminal, mark) if first else terminal.paints_since(mark)
            assert paints == ["full"]
            assert terminal.differences() == []

            mark = terminal.mark()
            await pilot.press("escape")
            await settled(pilot)
            assert isinstance(app.screen, GeneralaScreen)
            assert terminal.paints_since(mark) == ["full"]
            assert terminal.differences() == []


async def test_a_screen_that_keeps_changing_is_shown_after_a_few_rounds():
    """A screen that never settles (here: a timer repainting it without end) is not kept off
    the terminal for ever."""

    class Busy(PaintOnceScreen[None]):
        def on_mount(self) -> None:
            self.set_interval(0.01, self.refresh)

    class Base(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Busy())

    app = Base()
    terminal = Terminal(app)
    async with app.run_test(size=terminal.size) as pilot:
        deadline = time.monotonic() + 10
        while not terminal.updates:
            assert time.monotonic() < deadline, "the busy screen was never shown"
            await pilot.pause(0.02)
        assert not app.screen.settling  # type: ignore[attr-defined]


# -- the Textual internals app/quiet/screen.py relies on ---------------------------------------
TEXTUAL_SCREEN_RESUME = '''
def _on_screen_resume(self, event: events.ScreenResume) -> None:
    """Screen has resumed."""
    if self.app.SUSPENDED_SCREEN_CLASS:
        self.remove_class(self.app.SUSPENDED_SCREEN_CLASS)

    self.stack_updates += 1

    self.app._refresh_notifications()
    size = self.app.size

    self._update_auto_focus()

    if self.is_attached:

        if event.refresh_styles:
            self.update_node_styles(animate=False)
        if self._size != size:
            self._refresh_layout(size)
        self.refresh()
'''


def test_textual_resumes_screens_as_paint_once_screens_expect():
    """`PaintOnceScreen._on_screen_resume` replaces Textual 8.2.8's own handler and repeats its
    steps. If this fails, Textual has changed: compare its new handler with
    `PaintOnceScreen._on_screen_resume`, bring that up to date, then this text."""
    source = textwrap.dedent(inspect.getsource(Screen._on_screen_resume))
    assert source.strip() == TEXTUAL_SCREEN_RESUME.strip()


def test_the_private_parts_of_textual_paint_once_screens_use_are_there():
    """Names `app/quiet/screen.py` uses: if Textual renames one, this says which, rather than
    a screen that stays blank."""
    widget = Widget()
    assert isinstance(widget._repaint_regions, set)
    screen = Screen()
    assert "visible_widgets" in dir(type(screen._compositor))
    assert isinstance(screen._size, Size)
    assert hasattr(Screen, "_refresh_layout") and hasattr(Screen, "_update_auto_focus")
    app = App()
    assert isinstance(app._batch_count, int) and isinstance(app._css_update_count, int)
    # a screen's CSS files not yet read make Textual parse every style sheet again and
    # restyle everything: `read_screen_css` reads them first
    load = inspect.getsource(App._load_screen_css)
    assert "has_source(str(path)" in load and "reparse()" in load
    assert isinstance(screen._compositor._dirty_regions, set)
    assert isinstance(screen._dirty_widgets, set)
    for flag in ("_layout_required", "_scroll_required", "_repaint_required"):
        assert getattr(screen, flag) is False, flag  # what a refresh still has to do
    assert "app._display(self, update)" in inspect.getsource(Screen._compositor_refresh)
    assert "_refresh_notifications" in dir(App)
    # a pushed screen's mount-await asks for a full repaint once the screen is mounted: the
    # repaint the settling screen keeps back
    assert "refresh(layout=True)" in inspect.getsource(AwaitMount.__await__)
    # what a handler queues after the refresh runs at the screen's idle unless a widget waits
    # to be painted: `PaintOnceScreen._on_idle` lets the widgets report their repaints first
    assert isinstance(screen._callbacks, list) and screen._message_queue.empty()
    assert "_invoke_and_clear_callbacks()" in inspect.getsource(Screen._on_idle)


# -- a screen shown again --------------------------------------------------------------------
async def test_a_rule_card_is_built_once_and_opens_at_its_top_each_time():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("f2")
        await settled(pilot)
        await pilot.press("f1")
        await settled(pilot)
        rules = app.screen
        assert isinstance(rules, RulesScreen)
        card = rules.query_one("#card")
        await pilot.press("end")
        await settled(pilot)
        assert card.scroll_y > 0
        await pilot.press("escape")
        await settled(pilot)
        await pilot.press("f1")
        await settled(pilot)
        assert app.screen is rules  # the same card, not built again
        assert card.scroll_y == 0
        assert app.focused is card  # the keys scroll it, as the first time


async def test_a_theme_changed_while_a_screen_was_hidden_shows_when_it_returns():
    """A screen shown again is restyled only if the app's CSS changed meanwhile: a theme
    chosen while the rules were closed is the rules' theme when they open again."""
    app = new_app()
    terminal = Terminal(app)
    async with app.run_test(size=terminal.size) as pilot:
        await settled(pilot)
        await pilot.press("f1")
        await settled(pilot)
        await pilot.press("escape")
        await settled(pilot)
        app.theme = "textual-light"
        await settled(pilot)
        await pilot.press("f1")
        await settled(pilot)
        rules = app.screen
        assert isinstance(rules, RulesScreen)
        assert terminal.differences() == []
        light = app.current_theme.background
        assert light is not None
        assert rules.styles.background.hex.lower() == light.lower()
        text = rules.query_one("#rules-text")
        assert text.styles.background == rules.styles.background or text.styles.background.a == 0


async def test_the_coach_gets_ready_once_the_game_is_on_the_terminal(monkeypatch):
    """Work a player does not see waits for the screen's one paint (`when_shown`): the
    coach's preparation (its tables, its module) does not delay the first frame."""
    from app.host import TableHost
    from app.screens.game import GameScreen

    seen: list[tuple[bool, int]] = []
    start = TableHost.start

    def spy(host: TableHost) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        seen.append((screen.settling, len(terminal.updates)))
        start(host)

    monkeypatch.setattr(TableHost, "start", spy)
    app = new_app()
    terminal = Terminal(app)
    async with app.run_test(size=terminal.size) as pilot:
        await settled(pilot)
        mark = terminal.mark()
        await pilot.press("f2")
        await settled(pilot)
        assert after_loading_line(terminal, mark) == ["full"]
        assert seen and seen[0] == (False, mark + 2)  # after the game's one paint, not before


ZERO_DICE = [6, 2, 1, 2, 3, 4, 6] + [3] * 20
"""Ana starts (6 against 2) and throws 1 2 3 4 6: nothing in Generala."""


async def asked_to_write_zero(pilot: Pilot) -> Screen[bool]:
    """Generala opened (the last game of the list), Ana's throw, the Generala box chosen:
    the app asks whether to write 0 (the question's screen is returned)."""
    from app.screens.confirm import ConfirmScreen

    await settled(pilot)
    await pilot.press("end", "f2", "space")
    await settled(pilot)
    assert isinstance(pilot.app.screen, GeneralaScreen)
    await pilot.press(*["down"] * 11, "enter")  # the Generala box: 0?
    await settled(pilot)
    question = pilot.app.screen
    assert isinstance(question, ConfirmScreen)
    return question


async def test_a_confirmation_is_painted_once_and_the_game_once_when_it_closes():
    """Writing 0 asks first: the question over the game is one paint, and so is the game
    when the answer closes it."""
    from app.screens.confirm import ConfirmScreen

    app = CubileteApp(dice=LoadedDice(ZERO_DICE), animate=False)
    terminal = Terminal(app)
    async with app.run_test(size=terminal.size) as pilot:
        await settled(pilot)
        await pilot.press("end", "f2")  # Generala, the last game of the list
        await settled(pilot)
        assert isinstance(app.screen, GeneralaScreen)
        await pilot.press("space")  # 1 2 3 4 6: nothing in Generala
        await settled(pilot)
        await pilot.press(*["down"] * 11)  # the Generala box
        await settled(pilot)
        mark = terminal.mark()
        await pilot.press("enter")
        await settled(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert terminal.paints_since(mark) == ["full"]
        assert terminal.differences() == []
        mark = terminal.mark()
        await pilot.press("n")
        await settled(pilot)
        assert isinstance(app.screen, GeneralaScreen)
        assert terminal.paints_since(mark) == ["full"]
        assert terminal.differences() == []


async def test_a_question_asked_again_is_asked_afresh_on_the_kept_screen():
    """The question's screen is kept once asked: closing it removes nothing (a removed screen
    had the game laid out twice more as it closed), and asked again it shows the new
    question with "No" focused, whatever had the focus when it closed."""
    from textual.widgets import Button, Static


    app = CubileteApp(dice=LoadedDice(ZERO_DICE), animate=False)
    terminal = Terminal(app)
    async with app.run_test(size=terminal.size) as pilot:
        question = await asked_to_write_zero(pilot)
        await pilot.press("shift+tab")  # the focus on "Yes"...
        assert question.focused is question.query_one("#yes", Button)
        await pilot.press("n")  # ...and no
        await settled(pilot)
        assert isinstance(app.screen, GeneralaScreen)
        assert question.is_attached and question.query_one("#yes", Button).is_attached
        app.set_language("es", remember=False)  # (and the player changes language meanwhile)
        await pilot.press("up", "enter")  # the box above, also 0
        await settled(pilot)
        assert app.screen is question
        asked = str(question.query_one("#question", Static).render())
        assert asked == "¿Tachar Escalera escasa?"
        assert str(question.query_one("#yes", Button).label) == "Sí (s)"
        assert question.focused is question.query_one("#no", Button)
        assert terminal.differences() == []
        await pilot.press("y")
        await settled(pilot)
        assert isinstance(app.screen, GeneralaScreen)
        assert told("Escalera escasa", app.screen.query_one("#log").lines[-4:])  # written, told
        assert terminal.differences() == []


async def test_the_game_under_a_kept_question_settles_as_the_answer_closes_it():
    """The kept question removes nothing as it closes: the game under it, laid out and drawn
    all along, waits for no refresh to settle (each had it wait for its update timer's next
    tick, up to a frame, twice in the answer "y", the slowest key of a game). Here the game's
    update timer never ticks again once the question shows: the answer is painted all the
    same, once, with its move."""

    app = CubileteApp(dice=LoadedDice(ZERO_DICE), animate=False)
    terminal = Terminal(app)
    async with app.run_test(size=terminal.size) as pilot:
        await asked_to_write_zero(pilot)
        game = app.screen_stack[-2]
        assert isinstance(game, GeneralaScreen)
        timer = game._update_timer
        resume = timer.resume
        timer.resume = lambda: None  # type: ignore[method-assign]  # the timer stops
        try:
            mark = terminal.mark()
            await pilot.press("y")
            deadline = time.monotonic() + 5
            while game.settling or not terminal.paints_since(mark):
                assert time.monotonic() < deadline, "the game waited for its update timer"
                await asyncio.sleep(0.01)  # (Pilot.pause would paint the screen itself)
        finally:
            timer.resume = resume  # type: ignore[method-assign]
        assert app.screen is game
        assert terminal.paints_since(mark) == ["full"]
        assert told("Generala", game.query_one("#log").lines[-4:])  # the 0, written and told
        await settled(pilot)
        assert terminal.paints_since(mark) == ["full"]
        assert terminal.differences() == []


def coach_jobs_started(monkeypatch: pytest.MonkeyPatch, terminal: Terminal) -> list[int]:
    """The game screens' coach jobs watched: as each starts, the number of updates the
    terminal had by then is added to the list returned."""
    from collections.abc import Coroutine
    from typing import Any

    from app.screens.game import GameScreen

    seen: list[int] = []
    run_coach = GameScreen.run_coach

    def spy(screen: GameScreen, job: Coroutine[Any, Any, None], group: str) -> None:
        async def watched() -> None:
            seen.append(len(terminal.updates))  # the job starts now
            await job

        run_coach(screen, watched(), group)

    monkeypatch.setattr(GameScreen, "run_coach", spy)
    return seen


@pytest.mark.parametrize("key", ["space", "enter"])
async def test_what_a_move_queues_for_after_its_paint_waits_for_that_paint(monkeypatch, key):
    """What a move queues "after the refresh" (the coach's rating and preparation: the host's
    jobs, which `GameScreen.run_coach` starts after the refresh) runs once the move is on the
    terminal. Textual ran it at the screen's next idle, before the widgets had reported their
    repaints: the coach's worker threads then shared the interpreter with the move's paint
    (`PaintOnceScreen._on_idle`)."""
    app = new_app()
    terminal = Terminal(app)
    seen = coach_jobs_started(monkeypatch, terminal)
    async with app.run_test(size=terminal.size) as pilot:
        await settled(pilot)
        await pilot.press("f2")
        await settled(pilot)
        if key == "enter":  # a box is filled after a throw
            await pilot.press("space")
            await settled(pilot)
        seen.clear()
        mark = terminal.mark()
        await pilot.press(key)
        await settled(pilot)
        assert terminal.paints_since(mark), "the move was painted"
        assert seen and seen[0] > mark  # after the move's paint, not before


async def test_a_move_made_as_a_confirmation_closes_is_painted_before_the_coach_starts(
    monkeypatch,
):
    """Writing 0 (y): the move is made as the confirmation closes, while the game settles to
    be shown again; the coach's jobs start after the game's one paint, as after any move's.
    They started at once, and the settling, hence the paint, waited for their worker threads:
    the slowest key of a scripted game (docs/performance.md, "Fifth pass")."""
    app = CubileteApp(dice=LoadedDice(ZERO_DICE), animate=False)
    terminal = Terminal(app)
    seen = coach_jobs_started(monkeypatch, terminal)
    async with app.run_test(size=terminal.size) as pilot:
        await asked_to_write_zero(pilot)
        seen.clear()
        mark = terminal.mark()
        await pilot.press("y")
        await settled(pilot)
        assert isinstance(app.screen, GeneralaScreen)
        assert terminal.paints_since(mark)[0] == "full"  # the game, the 0 written
        # the preparation for Bruno's turn; the rating was made with the move (the coach had
        # its hint ready while the confirmation asked)
        assert len(seen) == 1
        assert min(seen) > mark  # after the game's paint, not before
        assert terminal.differences() == []
        assert told("Generala", app.screen.query_one("#log").lines[-4:])  # (rated, told)
