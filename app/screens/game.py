"""The game screen shared by every game: play area, scoresheet, status line, event log.

A game's own screen (e.g. `GeneralaScreen`) fills the play area and the side panel, turns the
messages its widgets post into rules actions, and hands them to the table. This base class
applies them, reports illegal actions without changing anything, logs, and ends the game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from pydantic import BaseModel
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import RichLog, Static

from bots import Rating, Review, coach, get_bot
from rules import N_, NP_, IllegalAction, Text

from .. import strategy_tables
from ..dice import DiceExhausted
from ..i18n import Late, _, render, tr
from ..records.events import Record, RecordError
from ..records.replay import standing
from ..table import Table
from ..widgets import words
from ..widgets.coach_panel import CoachPanel, average_losses, late_loss
from ..widgets.key_bar import KeyBar
from ..widgets.scoresheet import Scoresheet, SheetView
from ..widgets.table_talk import TableTalk
from ..widgets.title_bar import TitleBar
from .quiet import QuietScreen

T = TypeVar("T")
PLAY_MIN_WIDTH = 45
LOG_ROWS = 4
"""The event log's least height with the coach open: its title rule and three lines."""
COACH_MIN_ROWS = 3
GENERAL_KEYS = ("coach", "hurry", "rules", "lobby")
"""The key bar shows the keys that play first, then these (binding ids), in this order."""
RATING_NAMES = {
    Rating.BEST: N_("best move"),
    Rating.GOOD: N_("good"),
    Rating.INACCURACY: N_("inaccuracy"),
    Rating.MISTAKE: N_("mistake"),
    Rating.BLUNDER: N_("blunder"),
}

SEVERITY = tuple(Rating)
"""The ratings from the best move to a blunder: a worse rating is a worse decision, whatever
the unit of its loss."""

if TYPE_CHECKING:
    from ..main import CubileteApp
    from .game_over import GameOverScreen


class RatingSlot:
    """The place in the log of the coach's rating of a person's decision: the rating is
    written there, before the narration of the move and of all that followed it, which
    waits for it (the coach answers in a worker thread, in a few milliseconds)."""

    def __init__(self) -> None:
        self.lines: list[Text] | None = None
        """None while the coach is thinking; then the rating (or nothing: no choice)."""


class GameScreen(QuietScreen[None]):
    CSS_PATH: ClassVar[str | list[str | PurePath]] = "game.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", N_("Lobby"), id="lobby"),
        Binding("h", "toggle_coach", N_("Coach"), id="coach"),
        Binding("f", "hurry", N_("Hurry bots"), id="hurry"),
        Binding("u", "undo", N_("Undo"), id="undo"),
    ]
    PLAY_KEYS: ClassVar[tuple[str, ...]] = ()
    """The ids of the bindings that play, most useful first: the key bar shows them first."""
    COACH_PLACE: ClassVar[str] = "side"
    """Where the coach opens: "side", in place of the side panel's contents (the sheet comes
    back when it closes); "play", under the play area, as tall as it can be while the status
    line and the last lines of the log stay in view; or "own", placed by the screen."""

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self._reviews: dict[int, tuple[int, Review]] = {}
        """The coach's rating of each choice of a person, by the number of its event: (seat,
        review). Those of a resumed game's decisions are recomputed from its record."""
        self._bot_busy = False
        self._bot_timer: Timer | None = None
        self._hurry = False
        self._log_queue: list[Text | str | RatingSlot] = []
        """Log lines waiting behind a rating the coach has not given yet (`RatingSlot`)."""
        self._logged: list[Text | str] = []
        """Every line written to the log, as messages: written again in another language."""
        self._said: tuple[Text | str | None, bool] = (None, False)
        """The status line's message (None: the status itself) and whether it is an error."""
        self._game_over: GameOverScreen | None = None

    @property
    def game_id(self) -> str:
        return self.table.game.id

    @property
    def reviews(self) -> list[tuple[int, Review]]:
        """Every choice of a person the coach rated and that stands (not taken back), in
        order: (seat, review). Moves without a choice (a throw that must be made) are neither
        rated nor counted."""
        stand = {event.seq for event in standing(self.table.events)}
        return [self._reviews[seq] for seq in sorted(self._reviews) if seq in stand]

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="table-area"):
            with Vertical(id="play"):
                yield from self.compose_play()
                if self.COACH_PLACE == "play":
                    yield self.new_coach_panel()
                yield Static(id="status")
                yield TableTalk(
                    id="log", max_lines=1000, auto_scroll=True, wrap=True, min_width=0, markup=False
                )
            with VerticalScroll(id="side"):
                yield from self.compose_side()
                if self.COACH_PLACE == "side":
                    yield self.new_coach_panel()
        yield KeyBar()

    @staticmethod
    def new_coach_panel() -> CoachPanel:
        return CoachPanel(id="coach", classes="-hidden")

    def compose_play(self) -> ComposeResult:
        yield from ()

    def compose_side(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        self.title = "Cubilete"
        self.sub_title = self.table.game.name
        log = self.query_one("#log", RichLog)
        log.can_focus = False
        side = self.query_one("#side")
        # the side panel is a stop of its own for the keys (to scroll it) only when nothing in
        # it takes the focus: Generala's sheet does, and scrolls to its cursor
        side.can_focus = not any(widget.can_focus for widget in side.query("*"))
        words(log, N_("Table talk"))
        self.write_log(self.table.log)
        self.refresh_view()
        self.say_status()
        self.focus_default()
        if any(event.kind == "action" for event in self.table.events):  # a resumed game
            self.app.run_worker(self.review_past(self.table.record), group="coach")
        if self.table.over:
            self.call_after_refresh(self.show_game_over)
        else:
            self.after_change()

    def on_resize(self, event: events.Resize) -> None:
        """The side panel takes its natural width, but leaves the play area its minimum."""
        side = self.query_one("#side")
        room = max(20, event.size.width - PLAY_MIN_WIDTH)
        side.styles.max_width = room
        for sheet in side.query(Scoresheet):
            sheet.fit(room)
        self.call_after_refresh(self.fit_coach)

    # -- for subclasses -------------------------------------------------------------------
    def refresh_view(self, rolled: tuple[int, ...] = ()) -> None:
        """Redraw every widget from `self.table.state`."""

    def final_sheet(self) -> SheetView | None:
        """The finished scoresheet for the game-over screen, if the game has one."""
        return None

    def final_notes(self) -> Sequence[Text | str]:
        """Lines for the game-over screen under the ranking (e.g. who pays whom)."""
        return []

    def final_board(self) -> Widget | None:
        """The final board for the game-over screen, for a game without a sheet."""
        return None

    def focus_default(self) -> None:
        """Give the keyboard to the widget a player uses most."""

    def prompt(self) -> str:
        """What the status line tells the person to move when there is nothing else to say
        (naming them: at a table of several people, whose turn it is)."""
        return ""

    def bot_doing(self, bot: str) -> str:
        """What the status line says while the bot `bot` (its name) decides."""
        return tr(N_("{player} (bot) is thinking"), player=bot)

    def status(self) -> str:
        """The status line: the prompt for a person, or what the bot to move is doing."""
        seat = self.table.current_player()
        if seat is not None and not self.table.over and self.table.seats[seat].bot:
            return self.bot_doing(self.table.seats[seat].name)
        return self.prompt()

    def persons_turn(self) -> bool:
        """A person is to move (unlike `human_turn`, says nothing): their keys work now."""
        seat = self.table.current_player()
        return seat is not None and not self.table.over and not self.table.seats[seat].bot

    def key_rank(self, binding_id: str | None) -> int:
        """The key bar's order: the keys that play (in `PLAY_KEYS` order), other keys, then
        the coach, the hurry, the rules and the lobby."""
        if binding_id in self.PLAY_KEYS:
            return self.PLAY_KEYS.index(binding_id)
        if binding_id in GENERAL_KEYS:
            return 200 + GENERAL_KEYS.index(binding_id)
        return 100

    def play_for_bot(self, action: BaseModel) -> None:
        """Show a bot's decision as a player's would be shown (a screen may animate it)."""
        self.play(action, by_bot=True)

    # -- applying actions -----------------------------------------------------------------
    def human_turn(self) -> bool:
        """True when a person decides now; otherwise say whose turn it is."""
        seat = self.table.current_player()
        if seat is not None and self.table.seats[seat].bot:
            playing = N_("{player} (a bot) is playing: wait, or press f to hurry it")
            self.say(Text(playing, {"player": self.table.seats[seat].name}))
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
        choice = len(self.table.game.legal_actions(before)) > 1
        seq = len(self.table.events) + 1  # the number the decision's event will have
        try:
            lines = self.table.act(action)
        except (IllegalAction, DiceExhausted) as error:
            self.say(error.text if isinstance(error, IllegalAction) else str(error), error=True)
            return False
        slot = None
        if not by_bot and seat is not None and choice:
            slot = RatingSlot()
            self._log_queue.append(slot)
        self.write_log(lines)
        self.say_status()
        self.refresh_view(rolled)
        self.refresh_bindings()
        if slot is not None and seat is not None:
            # the app's worker, not the screen's: the last rating still counts once the
            # game-over screen has replaced this one (which then shows first)
            review = self.review(slot, seq, seat, before, action)
            if self.table.over:
                self.app.call_after_refresh(self.app.run_worker, review, group="coach")
            else:
                self.app.run_worker(review, group="coach")
        if self.table.over:
            self.show_game_over()
        else:
            self.after_change()
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
        """Offer "hurry" (and show its key) only while a bot is to move."""
        if action == "hurry":
            seat = self.table.current_player()
            return seat is not None and not self.table.over and self.table.seats[seat].bot
        if action == "undo":  # (shown only when it works; pressed otherwise, it says why)
            return self.table.can_undo()
        return True

    def on_key(self, event: events.Key) -> None:  # a game's own on_key runs too
        if event.key == "u" and not self.table.can_undo():
            event.stop()
            self.action_undo()

    def action_undo(self) -> None:
        """Take back the person's last decision, as long as no dice were thrown since
        (`Table.undo`); refused with the table's reason."""
        from ..table import CannotUndo

        try:
            lines = self.table.undo()
        except CannotUndo as error:
            self.say(error.text, error=True)
            return
        self.write_log(lines)
        self.say_status()
        self.refresh_view()
        self.refresh_bindings()
        self.after_change()

    def with_tables(self, function: Callable[..., T], *args: Any) -> T:
        """Run a bot or coach call (in a worker thread) with the shipped tables installed."""
        strategy_tables.prepare(self.game_id)
        return function(*args)

    def action_hurry(self) -> None:
        """Skip the pause between a bot's moves until a person has to decide."""
        self._hurry = True
        self.say(Text(N_("Bots play at full speed until your turn")))
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
        shown = not panel.has_class("-hidden")
        self.set_class(shown, "-coach-open")
        self.set_class(shown and self.COACH_PLACE == "side", "-coach-beside")
        if shown:
            self.fit_coach()
            self.run_worker(self.update_coach(), group="coach-panel", exclusive=True)

    def fit_coach(self) -> None:
        """Under the play area, the coach takes the rows the status line and the log's last
        `LOG_ROWS` leave (it scrolls when it has more to say)."""
        panel = self.coach_panel()
        if panel is None or self.COACH_PLACE != "play" or not self.is_attached:
            return
        play = self.query_one("#play")
        others = [child for child in play.children if child is not panel and child.id != "log"]
        used = sum(child.outer_size.height for child in others if child.display)
        room = play.size.height - used - LOG_ROWS
        panel.styles.max_height = max(COACH_MIN_ROWS, room)
        # the log shrank: its newest lines stay in view
        log = self.query_one("#log", RichLog)
        self.call_after_refresh(log.scroll_end, animate=False)

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
        self,
        slot: RatingSlot,
        seq: int,
        seat: int,
        before: BaseModel,
        action: BaseModel | dict[str, Any],
    ) -> None:
        """Rate a person's decision in its place in the log (even with the coach panel
        closed); a move that offered no choice gets no rating. A rating that comes in after
        the game ended goes into the game-over screen's summary."""
        game_coach = coach(self.game_id)
        result: Review | None = None
        try:
            result = await asyncio.to_thread(self.with_tables, game_coach.review, before, action)
        except (KeyError, ValueError):
            pass  # not a decision the coach lists: no rating
        finally:
            slot.lines = []
            if result is not None and not result.forced:
                self._reviews[seq] = (seat, result)
                slot.lines.append(self.rating_line(seat, result))
            if self.table.over:  # the game-over screen has replaced this one
                self.update_game_over()
            elif self.is_attached:
                self.write_log([])

    async def review_past(self, record: Record) -> None:
        """The coach's ratings of the decisions in a resumed game's record (recomputed: a
        record keeps no ratings), so that the summary counts the whole game. A record the
        coach cannot review leaves the summary to the decisions rated from now on."""
        from ..records.reviews import reviewed_decisions

        try:
            past = await asyncio.to_thread(self.with_tables, reviewed_decisions, record)
        except (RecordError, KeyError, ValueError):
            return
        for one in past:
            self._reviews.setdefault(one.seq, (one.seat, one.review))
        self.update_game_over()

    def rating_line(self, seat: int, review: Review) -> Text:
        """The coach's rating of a decision, for the log (rendered in the reader's language)."""
        name = self.table.seats[seat].name
        rating = Text(RATING_NAMES[review.rating])
        if review.rating in (Rating.BEST, Rating.GOOD):
            return Text(N_("Coach: {player} — {rating}"), {"player": name, "rating": rating})
        return Text(
            N_("Coach: {player} — {rating} (−{loss}; best: {best})"),
            {
                "player": name,
                "rating": rating,
                "loss": late_loss(review.loss, review.hint.unit),
                "best": review.hint.best.label,
            },
        )

    def coach_notes(self) -> list[Text]:
        """For each person: how many real choices, how many were the best move, the average
        loss and the worst decision (the worst rating, then the greatest loss)."""
        notes = []
        for seat, person in enumerate(self.table.seats):
            mine = [review for who, review in self.reviews if who == seat]
            if person.bot or not mine:
                continue
            best = sum(review.rating is Rating.BEST for review in mine)
            if best == len(mine):
                all_best = NP_(
                    "{player}: {n} choice, the best move",
                    "{player}: {n} choices, every one the best move",
                )
                notes.append(Text(all_best, {"player": person.name, "n": best}))
                continue
            worst = max(mine, key=lambda review: (SEVERITY.index(review.rating), review.loss))
            choices = Text(NP_("{n} choice", "{n} choices"), {"n": len(mine)})
            summary = N_(
                "{player}: {choices}, {best} best; average loss {average}; worst: "
                "{action} (−{loss}, {rating})"
            )
            notes.append(
                Text(
                    summary,
                    {
                        "player": person.name,
                        "choices": choices,
                        "best": best,
                        "average": Late(average_losses, mine),
                        "action": worst.label,
                        "loss": late_loss(worst.loss, worst.hint.unit),
                        "rating": Text(RATING_NAMES[worst.rating]),
                    },
                )
            )
        return notes

    def write_log(self, lines: list[Text | str]) -> None:
        """Add `lines` to the log, after any rating the coach has still to give: what is
        written keeps the order in which it happened."""
        queue = self._log_queue
        queue.extend(lines)
        ready: list[Text | str] = []
        while queue:
            head = queue[0]
            if isinstance(head, RatingSlot):
                if head.lines is None:
                    break
                ready.extend(head.lines)
            else:
                ready.append(head)
            queue.pop(0)
        if not ready:
            return
        self._logged.extend(ready)
        for log in self.query("#log").results(RichLog):  # none once the screen is removed
            for line in ready:
                log.write(render(line))

    def say(self, text: Text | str, error: bool = False) -> None:
        """Put a message on the status line (a `Text` is written again in another language;
        plain words are replaced by the status then)."""
        self._said = (text, error)
        self._show_said()

    def say_status(self) -> None:
        """The status line tells whose turn it is and what to do (`status`)."""
        self._said = (None, False)
        self._show_said()

    def _show_said(self) -> None:
        said, error = self._said
        text = self.status() if said is None else render(said)
        status = self.query_one("#status", Static)
        text = ("⚠ " if error else "") + text
        if status.content != text:  # `update` repaints even an unchanged text
            status.update(text)
        status.set_class(error, "-error")

    def retranslate(self) -> None:
        """The language changed: every word again (the widgets' own words follow by
        themselves), the log written again from its messages."""
        self.sub_title = self.table.game.name
        self.refresh_view()
        if isinstance(self._said[0], str):
            self._said = (None, False)  # plain words are not translated: the status instead
        self._show_said()
        for log in self.query("#log").results(RichLog):
            log.clear()
            for line in self._logged:
                log.write(render(line))

    def summary(self) -> list[Text | str]:
        """The game-over screen's lines under the ranking: how it was settled, the coach's
        count of each person's choices."""
        return [*self.final_notes(), *self.coach_notes()]

    def show_game_over(self) -> None:
        with self.cubilete.loading(_("Counting up…")):  # (its code loads the first time)
            from .game_over import GameOverScreen

            self.cubilete.game_finished(self.table)
            self._game_over = GameOverScreen(
                self.table, self.final_sheet, self.summary, board=self.final_board
            )
            self.cubilete.switch_screen(self._game_over)

    def update_game_over(self) -> None:
        """Give this game's game-over screen the summary with every rating counted."""
        if self._game_over is not None:
            self._game_over.show_notes(self.summary)

    def action_leave(self) -> None:
        self.cubilete.switch_to_lobby()

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)
