"""The Cubilete app: screens, commands, saving, and the table of the game being played."""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar, cast

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
from .screens.lobby import LobbyScreen
from .screens.quiet import read_screen_css

if TYPE_CHECKING:
    from .screens.game import GameScreen
    from .table import Seat, Table

MIN_SIZE = (70, 22)


def keep_for_good() -> None:
    """Take what exists now out of the cyclic garbage collector's way (`gc.freeze`): the
    modules, classes and functions loaded so far (Textual's, pydantic's, a game's rules) and the
    lobby live as long as the app, yet each full collection would scan them all again — pauses
    of 0.1-0.2 s in the middle of a game (docs/performance.md). Young garbage is collected
    first, so little that could still die is kept. Objects kept here are still freed by
    reference counting; only cycles among them would stay, and none of them is let go."""
    gc.collect(1)
    gc.freeze()


def showing(screen: Screen[Any], module: str, name: str) -> bool:
    """Whether the screen is an `app.screens.<module>.<name>`: such screens are imported when
    first shown (a game's, the rules, the too-small note), so until then no screen can be one
    and asking imports nothing."""
    loaded = sys.modules.get(f"app.screens.{module}")
    return loaded is not None and isinstance(screen, getattr(loaded, name))


def game_screen(screen: Screen[Any]) -> GameScreen | None:
    """The screen, if it is a game's (game screens, and the rules and bots behind them, load
    when a game starts)."""
    return cast("GameScreen", screen) if showing(screen, "game", "GameScreen") else None


class CubileteApp(App[None]):
    TITLE = "Cubilete"
    CSS_PATH: ClassVar[list[str | PurePath]] = [
        Path(__file__).with_name("main.tcss"),
        Path(__file__).parent / "screens" / "lobby.tcss",  # loaded before the first paint
    ]
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
        self.animate_dice = animate
        """Thrown dice tumble before they settle (`--no-animation` turns it off)."""
        self.bot_pace = bot_pace
        """Seconds between a bot's moves (f hurries them)."""
        self.last_game = game
        """The game the lobby offers first: the one asked for, then the one last played."""

    def get_default_screen(self) -> Screen[Any]:
        """The lobby is the first screen: drawn once, not after a blank default screen."""
        lobby = LobbyScreen(self.last_game)
        lobby.when_shown(keep_for_good)  # Textual, the app and the lobby: here for good
        return lobby

    def on_mount(self) -> None:
        self.check_size()

    def on_unmount(self) -> None:
        gc.unfreeze()  # what `keep_for_good` kept is garbage like the rest once the app ends

    def _load_screen_css(self, screen: Screen[Any]) -> None:
        """Textual's: read a screen's CSS files when it is shown (see `read_screen_css`)."""
        read_screen_css(self, screen)
        super()._load_screen_css(screen)

    # -- games ----------------------------------------------------------------------------
    def start_game(self, game_id: str, seats: list[Seat], options: Mapping[str, Any]) -> None:
        """Seat the players and open the game screen. Raises InvalidOptions."""
        from .table import Table

        table = Table.new(game_id, seats, options, dice=self.dice, on_change=self.autosave)
        self.last_game = game_id
        self.autosave(table)
        screen = screen_class(game_id)
        keep_for_good()  # the game's rules, models and screen classes, loaded now for good
        self.open_screen(screen(table))

    def resume_game(self, saved: saves.SavedGame) -> None:
        table = saved.table(self.dice, on_change=self.autosave)
        self.last_game = saved.game_id
        screen = screen_class(saved.game_id)
        keep_for_good()
        self.open_screen(screen(table))

    def rematch(self, table: Table) -> None:
        self.start_game(table.game.id, list(table.seats), self._options_of(table))

    @staticmethod
    def _options_of(table: Table) -> dict[str, Any]:
        options = table.state.options  # type: ignore[attr-defined]  # every state has them
        return dict(options.model_dump())

    def set_bot_pace(self, seconds: float) -> None:
        self.bot_pace = seconds
        self.notify(_("Bots now wait {seconds} s between moves").format(seconds=seconds))

    def open_screen(self, screen: Screen[Any]) -> None:
        """Show a game (or how it ended). The lobby stays at the bottom of the screen stack,
        under the game, and the game's screens replace one another above it."""
        if isinstance(self.screen, LobbyScreen):
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    def switch_to_lobby(self) -> None:
        """Back to the lobby (which then offers the game just played, and reads the saves)."""
        while len(self.screen_stack) > 1 and not isinstance(self.screen, LobbyScreen):
            self.pop_screen()

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
        if (game := game_screen(screen)) is not None:
            return game.game_id
        if isinstance(screen, LobbyScreen):
            return screen.game_id
        return playable()[0]

    def action_rules(self) -> None:
        if showing(self.screen, "rules", "RulesScreen") or showing(
            self.screen, "too_small", "TooSmallScreen"
        ):
            return
        self.show_rules(self.current_game_id())

    def show_rules(self, game_id: str) -> None:
        """Show a game's rule card: built the first time, kept for the next (it is costly to
        build, see `app/screens/rules.py`)."""
        from .screens.rules import RulesScreen

        name = f"rules-{game_id}"
        if not self.is_screen_installed(name):
            self.install_screen(RulesScreen(game_id), name)
        self.push_screen(name)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield SystemCommand(
            _("New game"), _("Back to the lobby to seat a new game"), self.switch_to_lobby
        )
        yield SystemCommand(_("Rules"), _("The rules of the current game"), self.action_rules)
        if (game := game_screen(screen)) is not None:
            yield SystemCommand(
                _("Coach"),
                _("Show or hide every option with its value (h)"),
                game.action_toggle_coach,
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
                lambda g=game_id: self.show_rules(g),
            )
        yield from super().get_system_commands(screen)

    # -- size -----------------------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self.check_size(event.size)

    def check_size(self, size: Size | None = None) -> None:
        width, height = size or self.size
        too_small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        shown = showing(self.screen, "too_small", "TooSmallScreen")
        if too_small and not shown:
            from .screens.too_small import TooSmallScreen

            self.push_screen(TooSmallScreen(MIN_SIZE))
        elif not too_small and shown:
            self.pop_screen()
