"""The game screen shared by every game: play area, scoresheet, status line, event log.

A game's own screen (e.g. `GeneralaScreen`) fills the play area and the side panel, turns the
messages its widgets post into rules actions, and hands them to the table. This base class
applies them, reports illegal actions without changing anything, logs, and ends the game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from pydantic import BaseModel
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Static

from bots import Rating, Review, coach, get_bot
from rules import N_, IllegalAction

from .. import strategy_tables
from ..dice import DiceExhausted
from ..i18n import _, explain, render
from ..table import Table
from ..widgets.coach_panel import CoachPanel, format_value
from ..widgets.key_bar import KeyBar
from ..widgets.scoresheet import SheetView
from ..widgets.table_talk import TableTalk
from ..widgets.title_bar import TitleBar
from .quiet import QuietScreen

T = TypeVar("T")
PLAY_MIN_WIDTH = 45
LOG_WAIT = 0.3
"""How long the narration of a person's move may wait for the coach's rating of it, so that
both reach the log in one paint (once the log is full, each write repaints all its lines)."""
RATING_NAMES = {
    Rating.BEST: N_("best move"),
    Rating.GOOD: N_("good"),
    Rating.INACCURACY: N_("inaccuracy"),
    Rating.MISTAKE: N_("mistake"),
    Rating.BLUNDER: N_("blunder"),
}

if TYPE_CHECKING:
    from ..main import CubileteApp


class GameScreen(QuietScreen[None]):
    CSS_PATH: ClassVar[str | list[str | PurePath]] = "game.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", _("Lobby"), id="lobby"),
        Binding("h", "toggle_coach", _("Coach"), id="coach"),
        Binding("f", "hurry", _("Hurry bots"), id="hurry"),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self.reviews: list[tuple[int, Review]] = []
        """Every human decision the coach rated: (seat, review)."""
        self._bot_busy = False
        self._bot_timer: Timer | None = None
        self._hurry = False
        self._waiting_lines: list[str] = []
        """Narration waiting for the coach's rating of the move (see `LOG_WAIT`)."""
        self._waiting_timer: Timer | None = None

    @property
    def game_id(self) -> str:
        return self.table.game.id

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="table-area"):
            with Vertical(id="play"):
                yield from self.compose_play()
                yield CoachPanel(id="coach", classes="-hidden")
                yield Static(id="status")
                yield TableTalk(
                    id="log", max_lines=1000, auto_scroll=True, wrap=True, min_width=0, markup=False
                )
            with VerticalScroll(id="side"):
                yield from self.compose_side()
        yield KeyBar()

    def compose_play(self) -> ComposeResult:
        yield from ()

    def compose_side(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        self.title = "Cubilete"
        self.sub_title = self.table.game.name
        log = self.query_one("#log", TableTalk)
        log.can_focus = False
        side = self.query_one("#side")
        # the side panel is a stop of its own for the keys (to scroll it) only when nothing in
        # it takes the focus: Generala's sheet does, and scrolls to its cursor
        side.can_focus = not any(widget.can_focus for widget in side.query("*"))
        log.border_title = _("Table talk")
        self.fit_side(self.app.size.width)
        self.write_log(self.table.log)
        self.refresh_view()
        self.say(self.prompt())
        self.focus_default()
        if self.table.over:
            self.call_after_refresh(self.show_game_over)
        else:
            self.when_shown(self.after_change)  # the coach gets ready once the table is drawn

    def on_resize(self, event: events.Resize) -> None:
        self.fit_side(event.size.width)

    def fit_side(self, width: int) -> None:
        """The side panel takes its natural width, but leaves the play area its minimum (set
        in `on_mount` too, so that the first layout has it: set at the first `Resize`, after
        the screen's first layout, it meant a second one)."""
        side = self.query_one("#side")
        side.styles.max_width = max(20, width - PLAY_MIN_WIDTH)

    # -- for subclasses -------------------------------------------------------------------
    def refresh_view(self, rolled: tuple[int, ...] = ()) -> None:
        """Redraw every widget from `self.table.state`."""

    def final_sheet(self) -> SheetView | None:
        """The finished scoresheet for the game-over screen, if the game has one."""
        return None

    def final_notes(self) -> list[str]:
        """Lines for the game-over screen under the ranking (e.g. who pays whom)."""
        return []

    def focus_default(self) -> None:
        """Give the keyboard to the widget a player uses most."""

    def prompt(self) -> str:
        """What the status line says when there is nothing else to say."""
        return ""

    def play_for_bot(self, action: BaseModel) -> None:
        """Show a bot's decision as a player's would be shown (a screen may animate it)."""
        self.play(action, by_bot=True)

    # -- applying actions -----------------------------------------------------------------
    def human_turn(self) -> bool:
        """True when a person decides now; otherwise say whose turn it is."""
        seat = self.table.current_player()
        if seat is not None and self.table.seats[seat].bot:
            self.say(
                _("{player} (a bot) is playing: wait, or press f to hurry it").format(
                    player=self.table.seats[seat].name
                )
            )
            return False
        return True

    def play(
        self,
        action: BaseModel | dict[str, Any],
        rolled: tuple[int, ...] = (),
        by_bot: bool = False,
    ) -> bool:
        """Hand an action to the table. False (and a message) if it was refused."""
        if not by_bot and not self.human_turn():
            return False
        before = self.table.state
        seat = self.table.current_player()
        try:
            lines = self.table.act(action)
        except (IllegalAction, DiceExhausted) as error:
            text = explain(error) if isinstance(error, IllegalAction) else str(error)
            self.say(text, error=True)
            return False
        reviewed = not by_bot and seat is not None
        if reviewed and not self.table.over:
            self.write_log_soon(lines)
        else:
            self.write_log(lines)
        self.say(self.prompt())
        self.refresh_view(rolled)
        # the screen answers first: the coach's rating, its preparation and a bot's turn start
        # once the move is painted (in worker threads they would slow that paint down); the
        # last move's rating starts at once, before this screen gives way to the game's end
        if reviewed and seat is not None:
            def rate() -> None:
                self.run_worker(self.review(seat, before, action), group="coach")

            if self.table.over:
                rate()
            else:
                self.call_after_refresh(rate)
        if self.table.over:
            self.show_game_over()
        else:
            self.call_after_refresh(self.after_change)
        return True

    def after_change(self) -> None:
        """After every new state: let the coach get ready for this decision in the background
        (the first hint of a last round or of a navio round needs a table of its own), refresh
        the coach if it is open, and let a bot move."""
        if self.table.current_player() is not None:
            self.run_worker(
                asyncio.to_thread(self.with_tables, coach(self.game_id).prepare, self.table.state),
                group="coach-prepare",
            )
        panel = self.coach_panel()
        if panel is not None and not panel.has_class("-hidden"):
            self.run_worker(self.update_coach(), group="coach-panel", exclusive=True)
        self.schedule_bot()

    # -- bots -----------------------------------------------------------------------------
    def schedule_bot(self) -> None:
        seat = self.table.current_player()
        if seat is None or self.table.over:
            return
        if not self.table.seats[seat].bot:
            self._hurry = False  # a person decides: the hurry is over
            return
        if self._bot_busy:
            return
        self._bot_busy = True
        pace = 0.01 if self._hurry else max(0.01, self.cubilete.bot_pace)
        self._bot_timer = self.set_timer(pace, self._bot_move)

    async def _bot_move(self) -> None:
        self._bot_timer = None
        state = self.table.state
        seat = self.table.current_player()
        try:
            if seat is None or not self.table.seats[seat].bot or not self.is_attached:
                return
            bot = get_bot(self.game_id, self.table.seats[seat].kind, seed=seat)
            action = await asyncio.to_thread(self.with_tables, bot.choose, state)
        finally:
            self._bot_busy = False
        if self.table.state is state and self.is_attached:
            self.play_for_bot(action)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer "hurry" (and show its key) only at a table with a bot."""
        if action == "hurry":
            return any(seat.bot for seat in self.table.seats)
        return True

    def with_tables(self, function: Callable[..., T], *args: Any) -> T:
        """Run a bot or coach call (in a worker thread) with the shipped tables installed."""
        strategy_tables.prepare(self.game_id)
        return function(*args)

    def action_hurry(self) -> None:
        """Skip the pause between a bot's moves until a person has to decide."""
        self._hurry = True
        self.say(_("Bots play at full speed until your turn"))
        if self._bot_timer is not None and self._bot_busy:
            self._bot_timer.stop()
            self._bot_timer = None
            self.call_later(self._bot_move)

    # -- the coach ------------------------------------------------------------------------
    def coach_panel(self) -> CoachPanel | None:
        """The coach panel, where the screen has one (a screen with its own layout adds it)."""
        panels = self.query(CoachPanel)
        return panels.first() if panels else None

    def action_toggle_coach(self) -> None:
        panel = self.coach_panel()
        if panel is None:
            return
        panel.toggle_class("-hidden")
        if not panel.has_class("-hidden"):
            self.run_worker(self.update_coach(), group="coach-panel", exclusive=True)

    async def update_coach(self) -> None:
        panel = self.coach_panel()
        if panel is None:
            return
        state = self.table.state
        seat = self.table.current_player()
        if seat is None:
            panel.show_hint(None)
            return
        panel.thinking()
        hint = await asyncio.to_thread(self.with_tables, coach(self.game_id).hint, state)
        if self.table.state is state and self.is_attached:
            panel.show_hint(hint, self.table.seats[seat].name)

    async def review(
        self, seat: int, before: BaseModel, action: BaseModel | dict[str, Any]
    ) -> None:
        """Rate a person's decision in the log (even with the coach panel closed)."""
        game_coach = coach(self.game_id)
        try:
            result = await asyncio.to_thread(self.with_tables, game_coach.review, before, action)
        except (KeyError, ValueError):
            # not one of the listed options (e.g. an equivalent spelling): no rating
            if self.is_attached:
                self.write_log([])
            return
        self.reviews.append((seat, result))
        if not self.is_attached:
            return
        name = self.table.seats[seat].name
        if result.rating in (Rating.BEST, Rating.GOOD):
            line = _("Coach: {player} — {rating}").format(
                player=name, rating=_(RATING_NAMES[result.rating])
            )
        else:
            line = _("Coach: {player} — {rating} (−{loss}; best: {best})").format(
                player=name,
                rating=_(RATING_NAMES[result.rating]),
                loss=format_value(result.loss, result.hint.unit).strip(),
                best=render(result.hint.best.label),
            )
        self.write_log([line])

    def coach_notes(self) -> list[str]:
        """Each person's average loss per decision and their worst decision."""
        notes = []
        for seat, person in enumerate(self.table.seats):
            mine = [review for who, review in self.reviews if who == seat]
            if person.bot or not mine:
                continue
            worst = max(mine, key=lambda review: review.loss)
            average = sum(review.loss for review in mine) / len(mine)
            notes.append(
                _(
                    "{player}: average loss {average} over {n} decisions; worst: {action} "
                    "(−{loss}, {rating})"
                ).format(
                    player=person.name,
                    average=format_value(average, worst.hint.unit).strip(),
                    n=len(mine),
                    action=render(worst.hint.option(worst.action).label),
                    loss=format_value(worst.loss, worst.hint.unit).strip(),
                    rating=_(RATING_NAMES[worst.rating]),
                )
            )
        return notes

    def write_log(self, lines: list[str]) -> None:
        """Write `lines` to the log now, after any narration still waiting for the coach."""
        if self._waiting_timer is not None:
            self._waiting_timer.stop()
            self._waiting_timer = None
        lines, self._waiting_lines = [*self._waiting_lines, *lines], []
        log = self.query_one("#log", TableTalk)
        for line in lines:
            log.write(line)

    def write_log_soon(self, lines: list[str]) -> None:
        """Write the narration of a person's move with the coach's rating of it (the rating's
        `write_log` takes it along), or alone after `LOG_WAIT` seconds."""
        self.write_log([])  # an earlier move's narration goes first
        self._waiting_lines = list(lines)
        self._waiting_timer = self.set_timer(LOG_WAIT, lambda: self.write_log([]))

    def say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#status", Static)
        text = ("⚠ " if error else "") + text
        if status.content != text:  # `update` repaints even an unchanged text
            status.update(text)
        status.set_class(error, "-error")

    def show_game_over(self) -> None:
        from .game_over import GameOverScreen

        self.cubilete.game_finished(self.table)
        self.cubilete.switch_screen(
            GameOverScreen(
                self.table, self.final_sheet(), [*self.final_notes(), *self.coach_notes()]
            )
        )

    def action_leave(self) -> None:
        self.cubilete.switch_to_lobby()

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)
