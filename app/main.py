"""The Cubilete app: screens, commands, saving, and the table of the game being played."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.screen import Screen

from rules import N_, game_name

from . import saves
from .dice import DiceSource, SystemDice
from .games import playable, screen_class
from .i18n import _
from .screens.game import GameScreen
from .screens.lobby import LobbyScreen
from .screens.rules import RulesScreen
from .screens.too_small import TooSmallScreen
from .table import Seat, Table

MIN_SIZE = (70, 22)


class CubileteApp(App[None]):
    TITLE = "Cubilete"
    CSS_PATH = Path(__file__).with_name("main.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "rules", _("Rules"), id="rules"),
    ]

    def __init__(
        self,
        dice: DiceSource | None = None,
        animate: bool = True,
        game: str | None = None,
        bot_pace: float = 0.8,
    ) -> None:
        super().__init__()
        self.dice = dice or SystemDice()
        self.animate = animate
        self.bot_pace = bot_pace
        """Seconds between a bot's moves (f hurries them)."""
        self.last_game = game
        """The game the lobby offers first: the one asked for, then the one last played."""

    def on_mount(self) -> None:
        self.push_screen(LobbyScreen(self.last_game))
        self.check_size()

    # -- games ----------------------------------------------------------------------------
    def start_game(self, game_id: str, seats: list[Seat], options: Mapping[str, Any]) -> None:
        """Seat the players and open the game screen. Raises InvalidOptions."""
        table = Table.new(game_id, seats, options, dice=self.dice, on_change=self.autosave)
        self.last_game = game_id
        self.autosave(table)
        self.switch_screen(screen_class(game_id)(table))

    def resume_game(self, saved: saves.SavedGame) -> None:
        table = saved.table(self.dice, on_change=self.autosave)
        self.last_game = saved.game_id
        self.switch_screen(screen_class(saved.game_id)(table))

    def rematch(self, table: Table) -> None:
        self.start_game(table.game.id, list(table.seats), self._options_of(table))

    @staticmethod
    def _options_of(table: Table) -> dict[str, Any]:
        return dict(table.state.options.model_dump())  # type: ignore[attr-defined]

    def set_bot_pace(self, seconds: float) -> None:
        self.bot_pace = seconds
        self.notify(_("Bots now wait {seconds} s between moves").format(seconds=seconds))

    def switch_to_lobby(self) -> None:
        self.switch_screen(LobbyScreen(self.last_game))

    def autosave(self, table: Table) -> None:
        try:
            saves.write(table)
        except OSError as error:
            self.notify(
                _("Could not save the game: {error}").format(error=error),
                severity="error",
                timeout=8,
            )

    def game_finished(self, table: Table) -> None:
        with contextlib.suppress(OSError):
            saves.discard(table)

    # -- commands -------------------------------------------------------------------------
    def current_game_id(self) -> str:
        screen = self.screen
        if isinstance(screen, GameScreen):
            return screen.game_id
        if isinstance(screen, LobbyScreen):
            return screen.game_id
        return playable()[0]

    def action_rules(self) -> None:
        if isinstance(self.screen, RulesScreen | TooSmallScreen):
            return
        self.push_screen(RulesScreen(self.current_game_id()))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield SystemCommand(
            _("New game"), _("Back to the lobby to seat a new game"), self.switch_to_lobby
        )
        yield SystemCommand(_("Rules"), _("The rules of the current game"), self.action_rules)
        if isinstance(screen, GameScreen):
            yield SystemCommand(
                _("Coach"),
                _("Show or hide every option with its value (h)"),
                screen.action_toggle_coach,
            )
        for label, pace in ((N_("slow"), 2.0), (N_("normal"), 0.8), (N_("fast"), 0.2)):
            yield SystemCommand(
                _("Bot pace: {pace}").format(pace=_(label)),
                _("{seconds} s between a bot's moves").format(seconds=pace),
                lambda pace=pace: self.set_bot_pace(pace),
            )
        for game_id in playable():
            name = game_name(game_id)
            yield SystemCommand(
                _("Rules of {game}").format(game=name),
                _("Read the rule card"),
                lambda g=game_id: self.push_screen(RulesScreen(g)),
            )
        yield from super().get_system_commands(screen)

    # -- size -----------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self.check_size(event.size)

    def check_size(self, size: Size | None = None) -> None:
        width, height = size or self.size
        too_small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        showing = isinstance(self.screen, TooSmallScreen)
        if too_small and not showing:
            self.push_screen(TooSmallScreen(MIN_SIZE))
        elif not too_small and showing:
            self.pop_screen()
