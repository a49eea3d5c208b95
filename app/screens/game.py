"""The game screen shared by every game: play area, scoresheet, status line, event log.

A game's own screen (e.g. `GeneralaScreen`) fills the play area and the side panel, turns the
messages its widgets post into rules actions, and hands them to the table's host
(`app/host.py`), which applies them, plays the bots and asks the coach. This base class
subscribes to the host and renders what it tells: the new state (tumbling the dice just
thrown), the log, the status line, the coach's ratings, the end; it reports a refused action
without changing anything.
"""

from __future__ import annotations

import sys
from collections.abc import Coroutine, Sequence
from functools import partial
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, ClassVar, cast

from pydantic import BaseModel
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, Static

from bots import Review
from rules import N_, IllegalAction, Text

from ..dice import DiceExhausted
from ..host import (
    HURRY_PACE,
    GameOver,
    HostEvent,
    Logged,
    Moved,
    Problem,
    Rated,
    Resumed,
    ReviewsRestored,
    TableHost,
    Turn,
)
from ..i18n import _, render, tr, yes_key
from ..quiet.collector import COLLECTOR
from ..quiet.key_bar import KeyBar
from ..quiet.screen import QuietScreen
from ..quiet.table_talk import TableTalk
from ..quiet.text import set_text
from ..quiet.title_bar import TitleBar
from ..table import Table
from ..textual_private import set_terminal_title
from ..widgets import words
from ..widgets.coach_panel import CoachPanel
from ..widgets.plain import plain
from ..widgets.scoresheet import Scoresheet, SheetView

PLAY_MIN_WIDTH = 45
LOG_ROWS = 5
"""The event log's least height with the coach open: its box and three lines."""
COACH_MIN_ROWS = 3
GENERAL_KEYS = ("coach", "hurry", "rules", "lobby")
"""The key bar shows the keys that play first, then these (binding ids), in this order."""
if TYPE_CHECKING:
    from textual.timer import Timer

    from ..main import CubileteApp
    from ..server.remote import RemoteHost
    from .game_over import GameOverScreen


class ChatInput(Input):
    """The one-line chat of a shared table: plain text, sent with enter (the chat stays open
    for the next line); esc closes it, giving the keys back to the game. The keys typed here
    stay here (a game's keys do not play), and the key bar shows only the chat's keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "send", N_("Send"), key_display="⏎", id="chat-send"),
        Binding("escape", "close", N_("Close chat"), id="chat-close"),
    ]
    OWNS_KEYS: ClassVar[bool] = True
    """While it has the keyboard, the key bar shows its keys only (`KeyBar`)."""

    def action_send(self) -> None:  # (a click on the key bar's ⏎: the key presses it)
        self.post_message(self.Submitted(self, self.value))

    def action_close(self) -> None:
        give_back = getattr(self.screen, "focus_default", None)
        if callable(give_back):
            give_back()

    def on_key(self, event: events.Key) -> None:
        if event.key == "tab":
            return
        event.stop()
        if event.key == "enter":
            event.prevent_default()
            self.action_send()
        elif event.key == "escape":
            event.prevent_default()
            self.action_close()


class GameScreen(QuietScreen[None]):
    CSS_PATH: ClassVar[str | list[str | PurePath]] = "game.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", N_("Lobby"), id="lobby"),
        Binding("h", "toggle_coach", N_("Coach"), id="coach"),
        Binding("f", "hurry", N_("Hurry bots"), id="hurry"),
        Binding("u", "undo", N_("Undo"), id="undo"),
        Binding("slash", "talk", N_("Talk"), id="talk"),
        Binding("y", "answer_undo(True, 'y')", N_("Agree to the undo"), id="undo-yes"),
        Binding("s", "answer_undo(True, 's')", N_("Agree to the undo"), id="undo-yes-s"),
        Binding("y", "answer_undo(True)", N_("Agree to the undo"), show=False),
        Binding("n", "answer_undo(False)", N_("Refuse the undo"), id="undo-no"),
        Binding("b", "hand_to_bot", N_("Seat to a bot"), id="hand-to-bot"),
    ]
    PLAY_KEYS: ClassVar[tuple[str, ...]] = ()
    """The ids of the bindings that play, most useful first: the key bar shows them first."""
    COACH_PLACE: ClassVar[str] = "side"
    """Where the coach opens: "side", in place of the side panel's contents (the sheet comes
    back when it closes); "play", under the play area, as tall as it can be while the status
    line and the last lines of the log stay in view; or "own", placed by the screen."""

    def __init__(self, table: Table, host: TableHost | None = None) -> None:
        super().__init__()
        self.table = table
        self.host = host or getattr(table, "host", None) or TableHost(
            table,
            pace=lambda: max(HURRY_PACE, self.cubilete.bot_pace),
            run=self.run_coach,
            on_error=self.host_failed,
        )
        """Plays the bots, asks the coach, keeps the reviews and the log in order; this screen
        shows what it tells (`host_changed`)."""
        self._said: tuple[Text | str | None, bool] = (None, False)
        """The status line's message (None: the status itself) and whether it is an error."""
        self._game_over: GameOverScreen | None = None
        self._turn: int | None = None
        """At a shared table, the seat whose turn was last told (the bell rings once)."""
        self._away_timer: Timer | None = None
        """Ticks each second while a person's seat is held for them (the countdown)."""
        self._collecting = False
        """Whether the screen has the garbage collected at quiet moments (`COLLECTOR`)."""

    @property
    def shared(self) -> RemoteHost | None:
        """The host of a shared table (the server's), else None: a local table."""
        remote = sys.modules.get("app.server.remote")
        if remote is not None and isinstance(self.host, remote.RemoteHost):
            return self.host
        return None

    @property
    def game_id(self) -> str:
        return self.table.game.id

    @property
    def reviews(self) -> list[tuple[int, Review]]:
        """Every choice of a person the coach rated and that stands: (seat, review)."""
        return self.host.reviews

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="table-area"):
            with Vertical(id="play"):
                yield from self.compose_play()
                if self.COACH_PLACE == "play":
                    yield self.new_coach_panel()
                yield Static(id="status")
                if self.shared is not None:
                    yield Static(id="away")
                yield TableTalk(
                    id="log", max_lines=1000, auto_scroll=True, wrap=True, min_width=0, markup=False
                )
                if self.shared is not None:
                    from ..server.protocol import MAX_CHAT_CHARS

                    yield ChatInput(
                        max_length=MAX_CHAT_CHARS, compact=True, select_on_focus=False, id="chat"
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
        if self.opening_as_the_app_exits:
            return
        self.title = "Cubilete"
        self.sub_title = self.table.game.name
        log = self.query_one("#log", TableTalk)
        log.can_focus = False
        side = self.query_one("#side")
        # the side panel is a stop of its own for the keys (to scroll it) only when nothing in
        # it takes the focus: Generala's sheet does, and scrolls to its cursor
        side.can_focus = not any(widget.can_focus for widget in side.query("*"))
        words(log, N_("Table talk"))
        for chat in self.query("#chat").results(ChatInput):
            words(chat, N_("/ to talk to the table, enter to send"), "placeholder")
        self.fit_side(self.app.size.width)
        self.write_log(self.host.logged)
        self.refresh_view()
        self.say_status()
        self.show_away()
        self.focus_default()
        self.host.subscribe(self.host_changed)
        COLLECTOR.install()  # garbage collected between keys, not inside one
        self._collecting = True
        # once the table is drawn: a resumed game's earlier decisions rated, the coach getting
        # ready, a bot to move playing
        self.when_shown(self.start_play)
        if self.table.over:
            self.call_after_refresh(self.show_game_over)

    def start_play(self) -> None:
        """The host begins (a replay, which only shows a record, does not)."""
        self.host.start()

    def on_unmount(self) -> None:
        """The screen is gone (to the lobby, or the game-over screen): no more bot moves. It
        stays subscribed: the coach's last rating still counts in the game-over notes."""
        self.host.close()
        if self._collecting:
            COLLECTOR.uninstall()
        if self.shared is not None and self._turn is not None:
            set_terminal_title(self.app, "Cubilete")  # (no longer anybody's turn here)

    def on_resize(self, event: events.Resize) -> None:
        if self.opening_as_the_app_exits:
            return
        self.fit_side(event.size.width)
        self.call_after_refresh(self.fit_coach)

    def fit_side(self, width: int) -> None:
        """The side panel takes its natural width, but leaves the play area its minimum (set
        in `on_mount` too, so that the first layout has it: set at the first `Resize`, after
        the screen's first layout, it meant a second one)."""
        side = self.query_one("#side")
        room = max(20, width - PLAY_MIN_WIDTH)
        side.styles.max_width = room
        for sheet in side.query(Scoresheet):
            sheet.fit(room)

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
        shared = self.shared
        elsewhere = shared is not None and seat is not None and shared.refusal(seat) is not None
        if elsewhere and seat is not None and shared is not None and not self.table.over:
            name = self.table.seats[seat].name  # another person's turn at a shared table
            if shared.seat is None:
                return tr(N_("{player} is playing"), player=name)
            return tr(N_("{player} is playing: wait for your turn"), player=name)
        return self.prompt()

    def persons_turn(self) -> bool:
        """A person is to move (unlike `human_turn`, says nothing): their keys work now. At a
        shared table, only the seat this screen's person plays."""
        seat = self.table.current_player()
        if seat is None or self.table.over:
            return False
        shared = self.shared
        if shared is not None:
            return shared.refusal(seat) is None
        return not self.table.seats[seat].bot

    def key_rank(self, binding_id: str | None) -> int:
        """The key bar's order: the keys that play (in `PLAY_KEYS` order), other keys, then
        the coach, the hurry, the rules and the lobby."""
        if binding_id in self.PLAY_KEYS:
            return self.PLAY_KEYS.index(binding_id)
        if binding_id in GENERAL_KEYS:
            return 200 + GENERAL_KEYS.index(binding_id)
        return 100

    def rolled(self, move: Moved) -> tuple[int, ...]:
        """The dice `move` threw that the screen tumbles (positions in its tray): none here."""
        return ()

    def show_bot_move(self, move: Moved) -> None:
        """Before a bot's decision is drawn: what the screen takes from it (Generala holds the
        dice the bot held)."""

    # -- applying actions -----------------------------------------------------------------
    def human_turn(self) -> bool:
        """True when a person decides now; otherwise say whose turn it is."""
        seat = self.table.current_player()
        shared = self.shared
        if shared is not None and seat is not None:
            refused = shared.refusal(seat)
            if refused is not None:
                self.say(refused, error=True)
                return False
            return True
        if seat is not None and self.table.seats[seat].bot:
            playing = N_("{player} (a bot) is playing: wait, or press f to hurry it")
            self.say(Text(playing, {"player": self.table.seats[seat].name}))
            return False
        return True

    def play(self, action: BaseModel | dict[str, Any]) -> bool:
        """Hand a person's action to the host, for the seat to move. False (and a message) if
        it was refused; otherwise the host's `Moved` has redrawn the screen already."""
        if not self.human_turn():
            return False
        seat = self.table.current_player()
        try:
            if seat is None:  # the game is over (its screen is on its way)
                raise IllegalAction(N_("The game is over"))
            self.host.act(seat, action)
        except (IllegalAction, DiceExhausted) as error:
            self.say(error.text if isinstance(error, IllegalAction) else str(error), error=True)
            return False
        return True

    # -- what the host tells --------------------------------------------------------------
    def host_changed(self, event: HostEvent) -> None:
        """Render a change at the table (the host calls this on the event loop). Once the
        screen is gone (the game-over screen shows) only the ratings still count, and the
        lines that waited for them (the game-over screen's table talk)."""
        if not self.is_attached and not isinstance(event, (Rated, ReviewsRestored, Logged)):
            return
        if isinstance(event, Logged) and not self.is_attached:
            self.update_game_over()
        elif isinstance(event, Logged):
            self.write_log(event.lines)
            if self.shared is not None:  # (an undo to answer, or answered: y and n; away)
                self.refresh_bindings()
                self.show_away()
        elif isinstance(event, Moved):
            shared = self.shared
            elsewhere = shared is not None and event.seat is not None and event.seat != shared.seat
            if event.by_bot or elsewhere:  # (another person's move at a shared table too)
                self.show_bot_move(event)
            self.say_status()
            self.refresh_view(self.rolled(event))
            self.refresh_bindings()
            panel = self.coach_panel()
            if panel is not None and not panel.has_class("-hidden") and not self.table.over:
                self.run_worker(self.update_coach(), group="coach-panel", exclusive=True)
        elif isinstance(event, GameOver):
            self.show_game_over()
        elif isinstance(event, (Rated, ReviewsRestored)):
            if isinstance(event, ReviewsRestored):
                self.rewrite_log()  # a resumed game's ratings, back in their places
            self.update_game_over()  # a rating that comes in after the end still counts
        elif isinstance(event, Problem):
            self.say(event.text, error=True)
        elif isinstance(event, Turn):
            self.turn_came(event)
        elif isinstance(event, Resumed):  # (a shared table's server back: told afresh)
            self._turn = None
            self.say_status()
            self.refresh_bindings()

    def turn_came(self, event: Turn) -> None:
        """At a shared table, a bell and the terminal's title say when your turn comes."""
        shared = self.shared
        if shared is None or event.seat == self._turn:
            return
        self._turn = event.seat
        if event.seat == shared.seat:
            self.app.bell()
            set_terminal_title(self.app, _("Your turn · Cubilete"))
        else:
            set_terminal_title(self.app, "Cubilete")

    # -- the seats of people who are away -------------------------------------------------
    def show_away(self) -> None:
        """At a shared table, the line under the status says whose seat is held for them and
        for how long (minutes:seconds, ticking), then a bot plays it. The line and its 1 s
        timer exist only while somebody is away."""
        shared = self.shared
        found = self.query("#away")
        if shared is None or not found:
            return
        line = found.first(Static)
        left = [] if self.table.over else shared.session.away_left()
        parts = []
        for seat, seconds in left:
            name = self.table.seats[seat].name if seat < len(self.table.seats) else "?"
            if seconds is None:
                parts.append(tr(N_("{player} is away"), player=name))
            else:
                clock = f"{seconds // 60}:{seconds % 60:02d}"
                parts.append(
                    tr(N_("{player} is away: a bot plays in {time}"), player=name, time=clock)
                )
        shown = plain("  ·  ".join(parts))
        if line.content != shown:
            line.update(shown)
        line.display = bool(parts)
        ticking = any(seconds for _seat, seconds in left)
        if ticking and self._away_timer is None:
            self._away_timer = self.set_interval(1.0, self.show_away)
        elif not ticking and self._away_timer is not None:
            self._away_timer.stop()
            self._away_timer = None

    def hand_to_bot_refusal(self) -> Text | None:
        """Why this person cannot hand an away seat to a bot now (None: they can)."""
        shared = self.shared
        if shared is None:
            return Text(N_("Only at a shared table"))
        if not shared.session.hosting:
            return Text(N_("Only the table's host can hand a seat to a bot"))
        if self.table.over or not shared.session.away:
            return Text(N_("Nobody is away: no seat to hand to a bot"))
        return None

    def action_hand_to_bot(self) -> None:
        """b, the host of a shared table: a bot plays an away person's seat from now on
        (the seat to move first, else the first one), once the host confirms."""
        shared = self.shared
        why = self.hand_to_bot_refusal()
        if shared is None or why is not None:
            if why is not None and shared is not None:
                self.say(why, error=True)
            return
        away = sorted(shared.session.away)
        to_move = self.table.current_player()
        seat = to_move if to_move in away else away[0]
        name = self.table.seats[seat].name
        question = Text(
            N_("Hand {player}'s seat to a bot now? They cannot have it back."), {"player": name}
        )

        def answered(yes: bool | None) -> None:
            if yes and seat in shared.session.away:
                shared.session.hand_to_bot(seat)

        self.cubilete.confirm(question, answered)

    def action_answer_undo(self, accept: bool, key: str = "") -> None:
        """y (s in Spanish and Portuguese) or n: this person's answer to another's wish to
        take back a decision."""
        shared = self.shared
        if shared is not None and shared.undo_question is not None:
            shared.answer_undo(accept)
            self.refresh_bindings()

    def action_talk(self) -> None:
        """/ at a shared table: the keys go to the chat line."""
        for chat in self.query("#chat").results(ChatInput):
            chat.focus()

    @on(Input.Submitted, "#chat")
    def send_chat(self, event: Input.Submitted) -> None:
        shared = self.shared
        text = event.value.strip()
        if shared is None or not text:
            return
        event.input.clear()
        shared.chat(text)  # (the chat stays open for the next line: esc closes it)

    def run_coach(self, job: Coroutine[Any, Any, None], group: str) -> None:
        """The host's coach jobs run as the app's workers: a rating still comes in once the
        game-over screen has replaced this one, and an error ends the app with its report."""
        # the screen answers first: a job starts once the move is painted (in a worker thread
        # it would slow that paint down, and while the screen settles, delay it)
        self.after_paint(partial(self.app.run_worker, job, group=group))

    def host_failed(self, error: BaseException) -> None:
        """An error in a bot's turn: the app ends with its one-line report, as it does for
        any error nobody foresaw."""

        def fail() -> None:
            raise error

        self.app.call_later(fail)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer "hurry" (and show its key) only while a bot is to move."""
        if action == "hurry":
            return self.shared is None and self.host.bot_to_move()
        if action == "talk":
            return self.shared is not None
        if action == "hand_to_bot":  # (only to the host while a seat is away)
            return self.shared is not None and self.hand_to_bot_refusal() is None
        if action == "answer_undo":
            shared = self.shared
            if len(parameters) > 1 and parameters[1] != yes_key():
                return False  # (the language's own yes key is shown: s in es and pt)
            return shared is not None and shared.undo_question is not None
        if action == "undo":  # (shown only when it works; pressed otherwise, it says why)
            return self.table.can_undo()
        return True

    def on_key(self, event: events.Key) -> None:  # a game's own on_key runs too
        if event.key == "u" and not self.table.can_undo():
            event.stop()
            self.action_undo()
        elif event.key == "b" and self.shared is not None and self.hand_to_bot_refusal():
            event.stop()
            self.action_hand_to_bot()  # (says why not)

    def action_undo(self) -> None:
        """Take back the person's last decision, as long as no dice were thrown since
        (`Table.undo`, through the host: the screen redraws from what it tells, the coach
        drops that decision's rating and gets ready again); refused with the table's reason."""
        from ..table import CannotUndo

        try:
            self.host.undo()
        except CannotUndo as error:
            self.say(error.text, error=True)
            return
        self.refresh_bindings()

    def action_hurry(self) -> None:
        """Skip the pause between a bot's moves until a person has to decide."""
        self.host.hurry()
        self.say(Text(N_("Bots play at full speed until your turn")))

    # -- the coach ------------------------------------------------------------------------
    def coach_panel(self) -> CoachPanel | None:
        """The coach panel, where the screen has one (a screen with its own layout adds it)."""
        return self.query_one_optional(CoachPanel)  # (Textual keeps what it found)

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
        log = self.query_one("#log", TableTalk)
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
        hint = await self.host.hint(state)
        if self.table.state is state and self.is_attached:
            panel.show_hint(hint, self.table.seats[seat].name)

    def coach_notes(self) -> list[Text]:
        """The coach's count of each person's choices, for the game-over screen."""
        return self.host.coach_notes()

    def write_log(self, lines: Sequence[Text | str]) -> None:
        """Write lines the host has put in order (a rating before its move) to the log."""
        # (found by id: Textual keeps what it found, where a query matched the screen's
        # selectors against every widget at each move; none once the screen is removed)
        log = self.query_one_optional("#log", TableTalk)
        if log is not None:
            for line in lines:
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
        # (drawn literally; a status of several lines, as the replay's, breaks where the screen
        # broke it; laid out only if its size changes)
        set_text(status, plain(*(("⚠ " if error else "") + text).split("\n")))
        status.set_class(error, "-error")

    def retranslate(self) -> None:
        """The language changed: every word again (the widgets' own words follow by
        themselves), the log written again from its messages."""
        self.sub_title = self.table.game.name
        self.refresh_view()
        if isinstance(self._said[0], str):
            self._said = (None, False)  # plain words are not translated: the status instead
        self._show_said()
        self.show_away()
        self.rewrite_log()

    def rewrite_log(self) -> None:
        """The whole log written again from its messages (in the language now in use): the
        lines it keeps (`max_lines`), the older ones are not rendered."""
        log = self.query_one_optional("#log", TableTalk)
        if log is not None:
            log.clear()
            kept = self.host.logged[-log.max_lines :] if log.max_lines else self.host.logged
            for line in kept:
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
                self.table,
                self.final_sheet,
                self.summary,
                board=self.final_board,
                talk=lambda: self.host.logged,
            )
            self.cubilete.open_screen(self._game_over)

    def update_game_over(self) -> None:
        """Give this game's game-over screen the summary with every rating counted, and its
        table talk with the rating in it."""
        if self._game_over is not None:
            self._game_over.show_notes(self.summary)
            self._game_over.write_log()

    def action_leave(self) -> None:
        """Back to the lobby; from a shared table where this person plays a game under way,
        once they say yes (their seat is kept for them a while, then a bot plays it)."""
        shared = self.shared
        if shared is None or shared.seat is None or self.table.over:
            self.cubilete.switch_to_lobby()
            return
        question = Text(
            N_(
                "Leave the table mid-game? Your seat is kept for a while, then a bot plays it."
            )
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self.cubilete.switch_to_lobby()

        self.cubilete.confirm(question, answered)

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)
