"""The Cubilete app: screens, commands, saving, and the table of the game being played."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.geometry import Size
from textual.screen import Screen

from rules import C_, N_, Text, game_name

from . import i18n, saves
from .dice import DiceExhausted, DiceSource, SystemDice
from .games import playable, screen_class
from .i18n import LANGUAGES, _, tr
from .locations import StorageError
from .quiet.screen import read_screen_css
from .quiet.title_bar import TitleBar
from .screens.lobby import LobbyScreen
from .screenshots import take_screenshot
from .settings import remember_language
from .terminal import ascii_filter
from .textual_private import drop_exit_renderables, paint_now, paint_with
from .widgets import retranslate

if TYPE_CHECKING:
    from textual.filter import LineFilter

    from .records.book import RecordBook
    from .records.events import Record
    from .records.store import RecordSummary, StoreError
    from .saves import SaveError
    from .screens.confirm import ConfirmScreen
    from .screens.game import GameScreen
    from .server.address import ServerAddress
    from .server.protocol import SeatSpec
    from .server.remote import RemoteServer, RemoteSession
    from .table import Seat, Table

MIN_SIZE = (80, 24)
"""The smallest terminal every screen is laid out for (and the snapshots test): below it, the
too-small screen asks for a larger window. The README says the same."""


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
        Binding("f1,question_mark", "rules", N_("Rules"), id="rules"),
    ]
    KEY_NAMES: ClassVar[dict[str, str]] = {
        "space": C_("key", "space"),
        "enter": C_("key", "enter"),
        "esc": C_("key", "esc"),
        "backspace": C_("key", "backspace"),
        "tab": C_("key", "tab"),
    }
    """Keys whose names a player reads in words (the others are letters, arrows, F-keys)."""

    def __init__(
        self,
        dice: DiceSource | None = None,
        animate: bool = True,
        game: str | None = None,
        bot_pace: float = 0.8,
        ascii_only: bool = False,
        replay: tuple[Record, Path] | None = None,
        server: ServerAddress | None = None,
    ) -> None:
        """`replay`: a record read from a file (`cubilete replay FILE`), shown first.
        `server`: the server of shared tables (None: local play only)."""
        super().__init__()
        self.dice = dice or SystemDice()
        self.animate_dice = animate
        """Thrown dice tumble before they settle (`--no-animation` turns it off)."""
        self.bot_pace = bot_pace
        """Seconds between a bot's moves (f hurries them)."""
        self.last_game = game
        """The game the lobby offers first: the one asked for, then the one last played."""
        self._records: RecordBook | None = None
        self._question: ConfirmScreen | None = None
        """The yes/no question, kept once asked (`confirm`)."""
        self.notices: list[Text | str] = []
        """What the player must know from the start (no saving, ASCII drawing): the lobby
        shows each as a line."""
        self.saving = self.prepare_saves()
        self.crashed: Exception | None = None
        self.extra_filters = [ascii_filter()] if ascii_only else []
        self.replay_first = replay
        self.server_address = server
        self.remote: RemoteServer | None = None
        """The connection to the server of shared tables, once made (`connect_server`)."""
        self.remote_problem: str | None = None
        """Why the server cannot be reached (shown by the lobby)."""

    # -- start-up -------------------------------------------------------------------------
    def prepare_saves(self) -> bool:
        """Whether games can be saved. If not, the lobby says why and where, and the games
        are played without saving."""
        try:
            saves.prepare()
        except StorageError as problem:
            unsaved = N_(
                "⚠ Games will not be saved: {problem}. Set CUBILETE_DATA_DIR to a folder you "
                "can write in."
            )
            self.notices.append(Text(unsaved, {"problem": str(problem)}))
            return False
        return True

    def get_line_filters(self) -> Sequence[LineFilter]:
        filters = super().get_line_filters()
        return [*filters, *self.extra_filters] if self.extra_filters else filters

    @on(events.DescendantFocus)
    def steady_cursor(self, event: events.DescendantFocus) -> None:
        """A text cursor does not blink: each blink repaints the line, ≈ 1 KB/s over SSH for
        as long as the command palette stays open."""
        if getattr(event.widget, "cursor_blink", False) is True:  # Input, TextArea
            event.widget.cursor_blink = False  # type: ignore[attr-defined]  # Input and TextArea have it: getattr just checked

    def _handle_exception(self, error: Exception) -> None:
        """An error nobody foresaw: the app ends (as Textual ends it), but the player is told
        in one line instead of a traceback (`_print_error_renderables`)."""
        if self.crashed is None:
            self.crashed = error
        super()._handle_exception(error)

    def _print_error_renderables(self) -> None:
        if self.crashed is None:
            super()._print_error_renderables()
            return
        from .crash import report

        drop_exit_renderables(self)
        sys.stderr.write(report(self.crashed) + "\n")

    def get_default_screen(self) -> Screen[Any]:
        """The lobby is the first screen: drawn once, not after a blank default screen."""
        lobby = LobbyScreen(self.last_game)
        lobby.when_shown(keep_for_good)  # Textual, the app and the lobby: here for good
        return lobby

    def on_mount(self) -> None:
        self.check_size()
        if self.replay_first is not None:
            record, path = self.replay_first
            self.call_after_refresh(self.open_replay, record, path)

    def on_unmount(self) -> None:
        if self._records is not None:
            self._records.begin_records()  # (a game quit before its first paint)
        gc.unfreeze()  # what `keep_for_good` kept is garbage like the rest once the app ends

    def _load_screen_css(self, screen: Screen[Any]) -> None:
        """Textual's: read a screen's CSS files when it is shown (see `read_screen_css`)."""
        read_screen_css(self, screen)
        super()._load_screen_css(screen)

    # -- games ----------------------------------------------------------------------------
    def start_game(self, game_id: str, seats: list[Seat], options: Mapping[str, Any]) -> None:
        """Seat the players and open the game screen. Raises InvalidOptions."""
        with self.loading(_("Opening {game}…").format(game=game_name(game_id))):
            from .table import Table

            try:
                # (a new player's records are opened, and the database made, once the game is
                # painted: `begin_records` below)
                recorder = self.records.recorder(self.record_problem, later=True)
                table = Table.new(game_id, seats, options, dice=self.dice, recorder=recorder)
            except DiceExhausted as error:  # (loaded dice: the opening roll-off needs more)
                self.notify(
                    _("The game cannot start: {error}").format(error=error),
                    severity="error",
                    timeout=8,
                    markup=False,
                )
                return
            self.last_game = game_id
            screen = screen_class(game_id)
            keep_for_good()  # the game's rules, models and screen classes, loaded now for good
            game = screen(table)
            game.when_shown(self.records.begin_records)
            self.open_screen(game)

    def resume_game(self, saved: RecordSummary) -> None:
        from .records.events import RecordError
        from .records.store import StoreError

        with self.loading(_("Opening {game}…").format(game=game_name(saved.game_id))):
            try:
                table = self.records.resume(saved.record_id, self.dice, self.record_problem)
            except (StoreError, RecordError) as error:
                self.notify(
                    _("Could not resume the game: {error}").format(error=error),
                    severity="error",
                    timeout=8,
                )
                return
            self.last_game = saved.game_id
            screen = screen_class(saved.game_id)
            keep_for_good()
            self.open_screen(screen(table))

    @contextlib.contextmanager
    def loading(self, text: str) -> Iterator[None]:
        """Say on the title line what is being opened, painted at once, while the block runs.

        Opening a screen for the first time imports its code (a game's rules, bots and screen;
        the rules' Markdown) and builds it, which took seconds on a busy machine; the event
        loop paints nothing meanwhile, so the line is painted before the work starts. It is
        shown every time (a line of the title bar), since how long the work takes is known
        only afterwards. The screen's own title comes back when the block ends.
        """
        screen = self.screen
        before = screen.sub_title
        self._set_sub_title(screen, text)
        # Paint now, as Pilot.pause() does (Textual is pinned exactly): the terminal gets the
        # line from Textual's writer thread while this thread imports and builds.
        paint_now(screen)
        try:
            yield
        finally:
            self._set_sub_title(screen, before)

    @staticmethod
    def _set_sub_title(screen: Screen[Any], text: str | None) -> None:
        """A screen's sub-title, repainting its title line only (setting `sub_title` repaints
        the whole screen: ≈ 6 KB at 80×24 instead of ≈ 0.2 KB)."""
        screen.set_reactive(Screen.sub_title, text)
        for bar in screen.query(TitleBar):
            bar.refresh()
            paint_with(screen, bar)

    def rematch(self, table: Table) -> None:
        from .server import remote

        if isinstance(table, remote.RemoteTable):
            self.rematch_shared(table)
            return
        self.start_game(table.game.id, list(table.seats), self._options_of(table))

    @staticmethod
    def _options_of(table: Table) -> dict[str, Any]:
        options = table.state.options  # type: ignore[attr-defined]  # every state has them
        return dict(options.model_dump())

    def set_bot_pace(self, seconds: float) -> None:
        self.bot_pace = seconds
        self.notify(tr(N_("Bots now wait {seconds} s between moves"), seconds=seconds))

    # -- shared tables ----------------------------------------------------------------------
    async def connect_server(self) -> RemoteServer | None:
        """The connection to the server of shared tables, made the first time and again after
        it was lost. None: no server, or it cannot be reached (`remote_problem` says why)."""
        if self.server_address is None:
            return None
        if self.remote is not None and self.remote.lost is None:
            return self.remote
        from .server.client import ServerError
        from .server.remote import RemoteServer

        try:
            remote = await RemoteServer.connect(self.server_address)
        except (ServerError, TimeoutError) as error:
            self.remote_problem = str(error) if isinstance(error, ServerError) else _(
                "the server did not answer"
            )
            return None
        remote.host_options = {"run": self.run_shared_job}
        remote.on_news = self.shared_news
        remote.on_session = self.show_shared
        remote.on_error = self.shared_failed
        remote.on_lost = self.shared_lost
        remote.on_reconnected = self.shared_reconnected
        self.remote, self.remote_problem = remote, None
        return remote

    def shared_news(self, line: Text | str) -> None:
        """What a person at a shared table must see wherever they are (a rematch opened, an
        undo to answer): a toast, as written (never markup)."""
        self.notify(i18n.render(line), timeout=10, markup=False)

    def shared_lost(self, why: Text | str) -> None:
        """The server was lost and no server of the list answered again (for a minute): the
        one-line reason, and back to the lobby from its tables."""
        self.shared_problem(i18n.render(why))
        if self.remote is not None and self.remote.sessions:
            self.switch_to_lobby()

    def shared_reconnected(self) -> None:
        """A lost server's tables are played on at another server of the list."""
        self.notify(_("Connected to the server again: play goes on"), timeout=5, markup=False)

    def shared_failed(self, error: BaseException) -> None:
        """An error nobody foresaw at a shared table: the app ends with its one-line report."""

        def fail() -> None:
            raise error

        self.call_later(fail)

    def leave_shared(self) -> None:
        """Back in the lobby: this person sits at no shared table any more (a game under
        way keeps their seat, for them to come back to)."""
        if self.remote is not None:
            for session in list(self.remote.sessions.values()):
                session.leave()

    def run_shared_job(self, job: Any, group: str) -> None:
        """The coach's jobs at a shared table run as the app's workers (after the paint)."""
        self.call_after_refresh(self.run_worker, job, group=group)

    async def take_seat(
        self, table: str, *, watch: bool = False, code: str | None = None
    ) -> None:
        """Join (or watch) a table of the server, and show it. A refusal is said in a toast."""
        from .server.client import ServerError

        remote = await self.connect_server()
        if remote is None:
            self.shared_problem(self.remote_problem or "")
            return
        try:
            if watch:
                session = await remote.watch(table, code=code)
            else:
                session = await remote.join(table, code=code)
        except (ServerError, TimeoutError) as error:
            self.shared_problem(str(error) if isinstance(error, ServerError) else "")
            return
        self.show_shared(session)

    async def open_table(
        self,
        game_id: str,
        seats: list[SeatSpec],
        options: Mapping[str, Any],
        *,
        private: bool,
        sit: int | None = 0,
    ) -> bool:
        """Open a table on the server and sit at it (`sit`); False (and a toast) if refused."""
        from .server.client import ServerError

        remote = await self.connect_server()
        if remote is None:
            self.shared_problem(self.remote_problem or "")
            return False
        try:
            session = await remote.open(game_id, options, seats, sit=sit, private=private)
        except (ServerError, TimeoutError) as error:
            self.shared_problem(str(error) if isinstance(error, ServerError) else "")
            return False
        self.last_game = game_id
        self.show_shared(session)
        return True

    def rematch_shared(self, table: Table) -> None:
        """The same seats play again at a new table of the server (the first person to ask
        opens it, the others take their seats there); a spectator goes back to the lobby."""
        from .server.remote import RemoteTable

        assert isinstance(table, RemoteTable)
        if table.session.seat is None or table.host is None:
            self.switch_to_lobby()
            return
        table.host.rematch()

    def shared_problem(self, text: str) -> None:
        self.notify(
            tr(N_("Shared table: {problem}"), problem=text or _("the server did not answer")),
            severity="error",
            timeout=8,
            markup=False,
        )

    def show_shared(self, session: RemoteSession) -> None:
        """A table of the server: its game once it has begun (and this client has caught up
        with it), else the waiting screen until then."""
        if session.ready:
            self.open_shared_game(session)
            return
        from .screens.waiting import WaitingScreen

        self.open_screen(WaitingScreen(session))

    def open_shared_game(self, session: RemoteSession) -> None:
        host = session.host
        assert host is not None
        game_id = host.table.game.id
        with self.loading(_("Opening {game}…").format(game=game_name(game_id))):
            screen = screen_class(game_id)
            keep_for_good()
            self.open_screen(screen(host.table))

    # -- the language ---------------------------------------------------------------------
    def set_language(self, code: str, remember: bool = True) -> None:
        """Speak `code` from now on, on every screen at once; remembered for the next start
        (the palette and the lobby's button)."""
        i18n.use_language(code)
        if remember:
            try:
                remember_language(code)
            except OSError as error:
                self.notify(
                    tr(N_("Could not keep the language for next time: {error}"), error=error),
                    severity="warning",
                )
        self.retranslate()

    def action_next_language(self) -> None:
        """The lobby's language button and F4: the next language, in `LANGUAGES` order."""
        codes = list(LANGUAGES)
        current = codes.index(i18n.current_language())
        self.set_language(codes[(current + 1) % len(codes)])

    def retranslate(self) -> None:
        """Every word on every screen again, in the language now in use: each node's words
        (`widgets.words`, its own `retranslate`), then a repaint of all (widgets that draw
        their words when they render) and the key bars."""
        for screen in self.screen_stack:
            for node in (screen, *screen.walk_children(with_self=False)):
                retranslate(node)
                node.refresh(layout=True)
            screen.refresh_bindings()

    def get_key_display(self, binding: Binding) -> str:
        """A key as the key bar names it: "space" and "enter" in the player's language."""
        display = super().get_key_display(binding)
        if display in self.KEY_NAMES:
            return _(self.KEY_NAMES[display])
        return display

    def action_command_palette(self) -> None:
        """The palette, its search box in the player's language. Not over the too-small note
        (the palette would not fit), nor a second one (Textual asks only the screen on top
        whether one is open: a second one raised DuplicateIds '--command-palette')."""
        from .palette import Palette

        if not self.use_command_palette or showing(self.screen, "too_small", "TooSmallScreen"):
            return
        if any(isinstance(screen, CommandPalette) for screen in self.screen_stack):
            return
        self.push_screen(Palette(id="--command-palette", placeholder=_(N_("Search for commands…"))))

    def search_themes(self) -> None:
        from textual.theme import ThemeProvider

        from .palette import Palette

        self.push_screen(
            Palette(providers=[ThemeProvider], placeholder=_(N_("Search for themes…")))
        )

    def confirm(self, question: Text | str, answered: Callable[[bool | None], None]) -> None:
        """Ask a yes/no question over the current screen; `answered` is told the answer.

        The question's screen is kept (installed) once asked and asked again: closing it then
        removes nothing, where a removed screen had the screen under it laid out twice more
        and settled again (≈ 5 ms of the key that answers, "y" to a zero the slowest key of a
        Generala game). A question asked over the kept one gets a screen of its own."""
        from .screens.confirm import ConfirmScreen

        kept = self._question
        if kept is None:
            kept = self._question = ConfirmScreen(question)
            self.install_screen(kept, "question")
        elif kept in self.screen_stack:
            self.push_screen(ConfirmScreen(question), answered)
            return
        else:
            kept.ask(question)
        self.push_screen(kept, answered)

    def open_screen(self, screen: Screen[Any]) -> None:
        """Show a game (or how it ended). The lobby stays at the bottom of the screen stack,
        under the game, and the game's screens replace one another above it.

        What is open over the game closes first (the palette, the rules, a question, the
        too-small note: a game a bot ends ends under them), and the too-small note comes back
        over the new screen if the terminal is still too small."""
        while len(self.screen_stack) > 1 and not self.is_table(self.screen):
            self.pop_screen()
        if isinstance(self.screen, LobbyScreen):
            self.push_screen(screen)
        else:
            self.switch_screen(screen)
        self.check_size()

    @staticmethod
    def is_table(screen: Screen[Any]) -> bool:
        """The lobby, a game or a game's end: the screens the others open over."""
        return (
            isinstance(screen, LobbyScreen)
            or game_screen(screen) is not None
            or showing(screen, "game_over", "GameOverScreen")
        )

    def switch_to_lobby(self) -> None:
        """Back to the lobby (which then offers the game just played, and reads the saves)."""
        self.leave_shared()
        while len(self.screen_stack) > 1 and not isinstance(self.screen, LobbyScreen):
            self.pop_screen()

    # -- records --------------------------------------------------------------------------
    @property
    def records(self) -> RecordBook:
        """Every game's record (`app/records`), opened when first needed."""
        if self._records is None:
            from .records.book import RecordBook

            if self.saving:
                self._records = RecordBook.in_data_dir(self.records_notice)
            else:  # the data dir cannot be written: the lobby already says so
                self._records = RecordBook.unsaved()
        return self._records

    def records_notice(self, text: str) -> None:
        """News about the records found after the lobby was drawn (a damaged database)."""
        self.notify(text, severity="warning", timeout=12, markup=False)  # (it names a path)

    def saved_games(self) -> tuple[list[RecordSummary], list[SaveError]]:
        """Unfinished games, the last played first, and the old saves that cannot be read."""
        unfinished = self.records.unfinished()
        return unfinished, cast("list[SaveError]", self.records.unreadable)

    def record_problem(self, error: StoreError) -> None:
        """A table's record could not be written (told once; play goes on)."""
        self.notify(
            _("The game is not being saved: {error}").format(error=error),
            severity="error",
            timeout=10,
            markup=False,  # (the error names a path)
        )

    def game_finished(self, table: Table) -> None:
        """The record was closed with the final scores by the game's last event: it stays,
        for the history. The coach's reviews of it are cached for the statistics, computed in
        a thread (a failure only leaves them to be computed later)."""
        # a write that failed (a full disk) gets one more chance
        if table.recorder is not None and table.recorder.retry():
            self.run_worker(self._cache_reviews(table), group="records", exit_on_error=False)

    async def _cache_reviews(self, table: Table) -> None:
        from .records.reviews import review_rows

        record = table.record
        rows = await asyncio.to_thread(review_rows, record)
        self.records.save_reviews(record.record_id, rows)

    # -- history, replays, statistics ------------------------------------------------------
    def show_history(self) -> None:
        with self.loading(_("Opening the history…")):
            from .screens.history import HistoryScreen

            self.push_screen(HistoryScreen())

    def show_statistics(self, game_id: str | None = None, player: str | None = None) -> None:
        with self.loading(_("Opening the statistics…")):
            from .screens.statistics import StatisticsScreen

            self.push_screen(StatisticsScreen(game_id, player))

    def show_replay(self, record_id: str) -> None:
        """The replay of a record of the player's (finished or not)."""
        from .records.events import RecordError
        from .records.store import StoreError

        try:
            record = self.records.load(record_id)
        except (StoreError, RecordError) as error:
            self.notify(
                _("Could not open the game: {error}").format(error=error),
                severity="error",
                timeout=8,
                markup=False,
            )
            return
        self.open_replay(record)

    def open_replay(self, record: Record, source: Path | None = None) -> None:
        from .records.events import RecordError

        with self.loading(_("Opening the replay…")):
            from .screens.replay import replay_screen

            try:
                screen = replay_screen(record, source)
            except RecordError as error:
                self.notify(
                    _("Could not open the game: {error}").format(error=error),
                    severity="error",
                    timeout=8,
                    markup=False,
                )
                return
            self.push_screen(screen)

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
        """Show a game's rule card: built the first time (saying so on the title line while it
        is built), kept for the next (it is costly to build, see `app/screens/rules.py`)."""
        name = f"rules-{game_id}"
        if not self.is_screen_installed(name):
            with self.loading(_("Opening the rules of {game}…").format(game=game_name(game_id))):
                from .screens.rules import RulesScreen

                self.install_screen(RulesScreen(game_id), name)
        self.push_screen(name)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield SystemCommand(
            _("New game"), _("Back to the lobby to seat a new game"), self.switch_to_lobby
        )
        yield SystemCommand(_("Rules"), _("The rules of the current game"), self.action_rules)
        yield SystemCommand(
            _("History"), _("Finished games, to replay with the coach's review"), self.show_history
        )
        yield SystemCommand(
            _("Statistics"),
            _("Games, wins, scores and the coach's counts, with plots"),
            self.show_statistics,
        )
        if (game := game_screen(screen)) is not None:
            yield SystemCommand(
                _("Coach"),
                _("Show or hide every option with its value (h)"),
                game.action_toggle_coach,
            )
        for label, pace in ((N_("slow"), 2.0), (N_("normal"), 0.8), (N_("fast"), 0.2)):
            yield SystemCommand(
                tr(N_("Bot pace: {pace}"), pace=_(label)),
                tr(N_("{seconds} s between a bot's moves"), seconds=pace),
                lambda pace=pace: self.set_bot_pace(pace),
            )
        for code, name in LANGUAGES.items():
            yield SystemCommand(
                tr(N_("Language: {language}"), language=name),
                tr(N_("Every word of the game in {language} (remembered)"), language=name),
                lambda code=code: self.set_language(code),
            )
        for game_id in playable():
            name = game_name(game_id)
            yield SystemCommand(
                tr(N_("Rules of {game}"), game=name),
                _("Read the rule card"),
                lambda g=game_id: self.show_rules(g),
            )
        yield SystemCommand(_("Theme"), _("Change the current theme"), self.action_change_theme)
        yield SystemCommand(
            _(C_("command", "Quit")),
            _("Quit the application as soon as possible"),
            self.action_quit,
        )
        yield SystemCommand(
            _("Screenshot"),
            _("Save an SVG picture of the screen as it is"),
            lambda: self.set_timer(0.1, self.screenshot),
        )

    def screenshot(self) -> None:
        if self.screen_stack:  # (not while the app is closing)
            take_screenshot(self)

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
