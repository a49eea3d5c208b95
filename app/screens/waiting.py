"""A shared table before its game begins: who sits where, the seats still free, the invite
code of a private table, the table talk so far; the game opens by itself once every seat is
taken (or once this client has caught up with a game under way)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from kits import KITS
from rules import N_, NP_

from ..i18n import _, ntr, render, tr
from ..quiet.key_bar import KeyBar
from ..quiet.screen import QuietScreen
from ..quiet.table_talk import TableTalk
from ..quiet.title_bar import TitleBar
from ..widgets import words
from ..widgets.plain import plain
from .game import ChatInput
from .record_lines import seat_name

if TYPE_CHECKING:
    from ..main import CubileteApp
    from ..server.remote import RemoteSession


class WaitingScreen(QuietScreen[None]):
    CSS_PATH = "waiting.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", N_("Leave the table"), id="leave"),
        Binding("slash", "talk", N_("Talk"), id="talk"),
    ]

    def __init__(self, session: RemoteSession) -> None:
        super().__init__()
        self.session = session
        self._opened = False

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Vertical(id="waiting"):
            yield Static(plain(self.about()), id="table-about")
            yield Static(plain(self.seats_text()), id="table-seats")
            yield TableTalk(id="waiting-talk", max_lines=200, wrap=True, min_width=0)
            from ..server.protocol import MAX_CHAT_CHARS

            yield ChatInput(
                max_length=MAX_CHAT_CHARS, compact=True, select_on_focus=False, id="chat"
            )
        yield KeyBar()

    def on_mount(self) -> None:
        game = self.session.entry.game
        words(self, N_("Shared table {table}"), "sub_title", table=self.session.table_id)
        self.title = KITS[game].name if game in KITS else game
        words(self.query_one("#waiting-talk", TableTalk), N_("Table talk"))
        chat = self.query_one("#chat", ChatInput)
        words(chat, N_("/ to talk to the table, enter to send"), "placeholder")
        self.write_talk()
        self.session.listeners.append(self.session_changed)
        self.call_after_refresh(self.session_changed)

    def on_unmount(self) -> None:
        if self.session_changed in self.session.listeners:
            self.session.listeners.remove(self.session_changed)
        if not self._opened:
            self.session.leave()

    def about(self) -> str:
        session = self.session
        lines = []
        if session.closed is not None:
            lines.append(tr(N_("⚠ {why}"), why=render(session.closed)))
        elif session.seat is None:
            lines.append(_("You are watching: the game shows once every seat is taken."))
        else:
            free = session.free_seats
            waiting = NP_(
                "Waiting for {n} more person to sit down; the game begins then.",
                "Waiting for {n} more people to sit down; the game begins then.",
            )
            lines.append(ntr(waiting, free) if free else _("Every seat is taken: the game begins…"))
        if session.code is not None:
            lines.append(
                tr(
                    N_("A private table: give its invite code {code} to who you want to play."),
                    code=session.code,
                )
            )
        if session.problem is not None:
            lines.append("⚠ " + session.problem)
        return "\n".join(lines)

    def seats_text(self) -> str:
        """Who sits where (the names the server sends: drawn through `plain`, as every
        player's own text is)."""
        session = self.session
        lines = []
        for index, (seat, name) in enumerate(
            zip(session.entry.seats, session.names, strict=True), start=1
        ):
            who = seat_name(name, seat.kind) if name else _("(free)")
            mine = "  ◂ " + _("you") if index - 1 == session.seat else ""
            lines.append(f"{index}. {who}{mine}")
        return "\n".join(lines)

    def write_talk(self) -> None:
        talk = self.query_one("#waiting-talk", TableTalk)
        talk.clear()
        for line in self.session.talk:
            talk.write(render(line))

    def session_changed(self) -> None:
        if self._opened or not self.is_attached:
            return
        if self.session.ready and self.session.closed is None:
            self._opened = True
            self.cubilete.open_shared_game(self.session)
            return
        self.query_one("#table-about", Static).update(plain(self.about()))
        self.query_one("#table-seats", Static).update(plain(self.seats_text()))
        self.write_talk()

    def retranslate(self) -> None:
        self.session_changed()

    def focus_default(self) -> None:
        self.set_focus(None)

    def action_talk(self) -> None:
        self.query_one("#chat", ChatInput).focus()

    @on(Input.Submitted, "#chat")
    def send_chat(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.clear()
        self.focus_default()
        if text:
            self.session.chat(text)

    def action_leave(self) -> None:
        self.cubilete.switch_to_lobby()
