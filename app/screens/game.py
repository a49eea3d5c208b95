"""The game screen shared by every game: play area, scoresheet, status line, event log.

A game's own screen (e.g. `GeneralaScreen`) fills the play area and the side panel, turns the
messages its widgets post into rules actions, and hands them to the table. This base class
applies them, reports illegal actions without changing anything, logs, and ends the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from pydantic import BaseModel
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Log, Static

from rules import IllegalAction

from ..dice import DiceExhausted
from ..i18n import _, explain
from ..table import Table
from ..widgets.scoresheet import SheetView

PLAY_MIN_WIDTH = 45

if TYPE_CHECKING:
    from ..main import CubileteApp


class GameScreen(Screen[None]):
    CSS_PATH = "game.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", _("Lobby"), id="lobby"),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table

    @property
    def game_id(self) -> str:
        return self.table.game.id

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="table-area"):
            with Vertical(id="play"):
                yield from self.compose_play()
                yield Static(id="status")
                yield Log(id="log", max_lines=1000, auto_scroll=True)
            with VerticalScroll(id="side"):
                yield from self.compose_side()
        yield Footer()

    def compose_play(self) -> ComposeResult:
        yield from ()

    def compose_side(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        self.title = "Cubilete"
        self.sub_title = self.table.game.name
        log = self.query_one("#log", Log)
        log.can_focus = False
        log.border_title = _("Table talk")
        log.write_lines(self.table.log)
        self.refresh_view()
        self.say(self.prompt())
        self.focus_default()
        if self.table.over:
            self.call_after_refresh(self.show_game_over)

    def on_resize(self, event: events.Resize) -> None:
        """The side panel takes its natural width, but leaves the play area its minimum."""
        side = self.query_one("#side")
        side.styles.max_width = max(20, event.size.width - PLAY_MIN_WIDTH)

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

    # -- applying actions -----------------------------------------------------------------
    def play(self, action: BaseModel | dict[str, Any], rolled: tuple[int, ...] = ()) -> bool:
        """Hand an action to the table. False (and a message) if it was refused."""
        try:
            lines = self.table.act(action)
        except (IllegalAction, DiceExhausted) as error:
            text = explain(error) if isinstance(error, IllegalAction) else str(error)
            self.say(text, error=True)
            return False
        self.query_one("#log", Log).write_lines(lines)
        self.say(self.prompt())
        self.refresh_view(rolled)
        if self.table.over:
            self.show_game_over()
        return True

    def say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#status", Static)
        status.update(("⚠ " if error else "") + text)
        status.set_class(error, "-error")

    def show_game_over(self) -> None:
        from .game_over import GameOverScreen

        self.cubilete.game_finished(self.table)
        self.cubilete.switch_screen(
            GameOverScreen(self.table, self.final_sheet(), self.final_notes())
        )

    def action_leave(self) -> None:
        self.cubilete.switch_to_lobby()

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)
