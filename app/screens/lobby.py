"""The lobby: choose a game, seat the players, set the options, start or resume."""

from __future__ import annotations

import asyncio
import re
import sys
from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from rules import N_, InvalidOptions, Text

from .. import settings
from ..catalog import game_info
from ..games import playable
from ..i18n import LANGUAGES, _, current_language, render, tr
from ..locations import StorageError
from ..quiet.button_row import ButtonRow, RowButton
from ..quiet.game_list import GameList
from ..quiet.key_bar import KeyBar
from ..quiet.screen import QuietScreen
from ..quiet.setup_sheet import MAX_SEATS, SetupSheet
from ..quiet.title_bar import TitleBar
from ..rule_cards import rule_card
from ..widgets import words
from ..widgets.plain import plain
from .record_lines import when

if TYPE_CHECKING:
    from textual.widget import Widget

    from ..main import CubileteApp
    from ..records.events import Record
    from ..records.store import RecordSummary
    from ..saves import SaveError
    from ..server.protocol import TableEntry
    from ..table import Seat
    from ..widgets.record_list import RecordList


def blurb(game_id: str) -> str:
    """The first paragraph of a game's rule card."""
    paragraphs = [p for p in rule_card(game_id).split("\n\n") if not p.startswith("#")]
    return " ".join(paragraphs[0].split()).replace("**", "") if paragraphs else ""


def whole_sentences(text: str, width: int, height: int) -> str:
    """As many of the text's first sentences as fit `height` lines of `width` cells; if not
    even the first fits, its first words with "…". Never a sentence cut mid-way."""
    from textual.content import Content

    def lines(candidate: str) -> int:
        return len(Content(candidate).wrap(width))

    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    kept = ""
    for sentence in sentences:
        candidate = f"{kept} {sentence}".strip()
        if lines(candidate) > height:
            break
        kept = candidate
    if kept or not sentences:
        return kept
    words_ = sentences[0].split()
    while words_ and lines(" ".join(words_) + " …") > height:
        words_.pop()
    return " ".join(words_) + " …" if words_ else ""


class Blurb(Static):
    """A game's description beside the list: the sentences that fit the room left under the
    list (the lobby's height shrinks with each unfinished game, notice and table list)."""

    def __init__(self, text: str, *, id: str | None = None) -> None:
        super().__init__(text, id=id)
        self.full = text

    def show(self, text: str) -> None:
        self.full = text
        self.refresh()

    def render(self) -> RenderResult:
        # (cut at drawing time, to the size the layout gave: cutting it as the size arrives
        # would paint the lobby a second time just after its first paint)
        width, height = self.content_size
        if width > 0 and height > 0:
            return whole_sentences(self.full, width, height)
        return self.full


LANGUAGE_BUTTON = N_("Language: {language}")
TABLES_EVERY = 2.0
"""Seconds between two listings of the server's tables while the lobby shows."""


def round_in(record: Record) -> int | None:
    """The round the record's game is in (None: a game without rounds)."""
    from ..records.replay import replay, round_of

    return round_of(replay(record))


class LobbyScreen(QuietScreen[None]):
    """The app's first screen. It is drawn from plain data (the catalogue, the rule cards):
    no game's rules are loaded until a game starts or a save is read.

    Its style sheet is the app's (`CubileteApp.CSS_PATH`), so it is in place before the first
    paint when the lobby is the app's default screen.
    """

    AUTO_FOCUS = "#game-list"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "start", N_("Start"), id="start"),
        Binding("f3", "resume", N_("Resume"), id="resume"),
        Binding("delete", "abandon", N_("Abandon"), id="abandon"),
        Binding("f4", "app.next_language", N_("Language"), id="language"),
        Binding("f5", "history", N_("History"), id="history"),
        Binding("f6", "statistics", N_("Statistics"), id="statistics"),
        Binding("f7", "open_table", N_("Open a table"), id="open-table"),
        Binding("w", "watch", N_("Watch"), id="watch"),
        Binding("ctrl+q", "app.quit", N_("Quit"), id="quit"),
    ]

    def __init__(self, game_id: str | None = None) -> None:
        super().__init__()
        words(self, N_("Lobby"), "sub_title")
        self.game_ids = playable()
        if game_id is None:  # (not asked for: the one last played, in an earlier run)
            game_id = settings.remembered_game()
        self.first_game = self.game_ids.index(game_id) if game_id in self.game_ids else 0
        self.resumable: list[RecordSummary] = []
        self.save_errors: list[SaveError] = []
        self.record_notices: list[str] = []
        self.rounds: dict[tuple[str, int], int | Exception | None] = {}
        """The round each unfinished game is in, by (record id, events): a record is replayed
        (in a thread) to know it."""
        self.shown_game: str | None = None
        self.shown_before = False
        self.settings_problem: str | None = None
        try:
            self.setups: settings.Setups = settings.load()
        except settings.SettingsError as problem:
            self.setups, self.settings_problem = {}, str(problem)
        self._sheet: SetupSheet | None = None
        self.saved_setups = dict(self.setups)
        """What the settings file holds (so that it is written only when this differs)."""
        self.saved_game = game_id
        """The game last played as the settings file has it (or as asked for)."""
        self.left_for_game = False
        """A game was opened from here: coming back, the keyboard goes to the game list."""
        self.tables: list[TableEntry] = []
        """The tables open on the server of shared tables, as last listed."""
        self.polls = 0
        """How many times the server's tables were listed."""
        self.tables_problem: str | None = None
        """Why the server's tables cannot be listed (shown as the list's title)."""

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)

    @property
    def game_id(self) -> str:
        return self.query_one("#game-list", GameList).game_id

    def compose(self) -> ComposeResult:
        first = self.game_ids[self.first_game]
        self.shown_game = first
        yield TitleBar()
        with Horizontal(id="lobby-area"):
            with Vertical(id="games"):
                games = GameList(
                    [(g, game_info(g).name) for g in self.game_ids],
                    self.first_game,
                    id="game-list",
                )
                yield words(games, N_("Game"))
                yield Blurb(blurb(first), id="game-blurb")
            with VerticalScroll(id="setup", can_focus=False):
                self._sheet = SetupSheet(
                    self.player_choices(first),
                    game_info(first).options,
                    setup=self.setups.get(first),
                    id="sheet",
                )
                yield self._sheet
        notices = self.notices()
        if self.resumable:  # (a widget only when there is a game: start-up is per widget)
            yield self.unfinished_widget()
        if notices:  # (a widget only when there is something to say: start-up is per widget)
            yield self.notices_widget(notices)
        yield ButtonRow(
            [
                RowButton("start", N_("Start (F2)"), "primary"),
                RowButton("resume", N_("Resume (F3)"), hidden=not self.resumable),
                RowButton("rules", N_("Rules (F1)")),
                RowButton("language", LANGUAGE_BUTTON, params=self.language_words()),
                RowButton("quit", N_("Quit")),
            ],
            id="lobby-buttons",
        )
        yield KeyBar()

    @staticmethod
    def language_words() -> dict[str, str]:
        """The language button's value: the language in use, named in itself."""
        return {"language": LANGUAGES[current_language()]}

    def retranslate(self) -> None:
        """The language changed: the blurb, the notices and the language button again (the
        sheet, the buttons and the key bar draw their words themselves)."""
        self.query_one("#game-blurb", Blurb).show(blurb(self.game_id))
        buttons = self.query_one("#lobby-buttons", ButtonRow)
        buttons.button("language").params = self.language_words()
        buttons.refresh(layout=True)
        for shown in self.query("#notices").results(Static):
            # (read again: why a save is refused, in these words)
            shown.update(plain(*self.notices()))
        games = self.unfinished_list()
        if games is not None:
            games.show(self.unfinished_lines())
        shared = self.tables_list()
        if shared is not None:
            shared.show(self.table_lines())

    @property
    def sheet(self) -> SetupSheet:
        assert self._sheet is not None, "composed first"
        return self._sheet

    @staticmethod
    def player_choices(game_id: str) -> list[int]:
        game = game_info(game_id)
        return list(range(game.min_players, min(game.max_players, MAX_SEATS) + 1))

    def on_screen_resume(self) -> None:
        """Back from a game: offer that game again, and read the saves again (the game just
        left can be resumed; a finished one is gone). Back from any other screen (the rules,
        the history, a question): the game chosen stays chosen."""
        if not self.shown_before:
            self.shown_before = True
            if self.cubilete.server_address is not None:  # once the lobby is on the terminal
                self.when_shown(self.watch_tables)
            return  # the first showing: compose() has just read them
        self.poll_tables()
        self.show_notices()
        if not self.left_for_game:  # (the rules, the records, the too-small note: all stays)
            return
        self.left_for_game = False
        game_id = self.cubilete.last_game
        games = self.query_one("#game-list", GameList)
        if game_id in self.game_ids:
            games.highlighted = self.game_ids.index(game_id)
        games.focus()  # where enter picks a game, not on the sheet where it starts one

    # -- saves ----------------------------------------------------------------------------
    def show_notices(self) -> None:
        lines = self.notices()
        shown = next(iter(self.query("#notices").results(Static)), None)
        if shown is None:
            if lines:
                self.mount(self.notices_widget(lines), before="#lobby-buttons")
        else:
            shown.update(plain(*lines))
            shown.set_class(self.warning, "-error")
        self.query_one("#lobby-buttons", ButtonRow).set_hidden("resume", not self.resumable)
        self.show_unfinished()
        self.refresh_bindings()

    # -- the server's shared tables ---------------------------------------------------------
    def watch_tables(self) -> None:
        """Connect to the server, list its tables, and list them again every
        `TABLES_EVERY` seconds while the lobby shows."""
        self.poll_tables()
        self.set_interval(TABLES_EVERY, self.poll_tables)

    def poll_tables(self) -> None:
        if self.cubilete.server_address is not None and self.app.screen is self:
            self.run_worker(self._list_tables(), group="tables", exclusive=True)

    async def _list_tables(self) -> None:
        from ..server.client import ServerError

        remote = await self.cubilete.connect_server()
        tables: list[TableEntry] = []
        problem = self.cubilete.remote_problem
        if remote is not None:
            try:
                tables = await remote.tables()
            except (ServerError, TimeoutError) as error:
                problem = str(error) if isinstance(error, ServerError) else ""
        self.show_tables(tables, problem)

    def show_tables(self, tables: list[TableEntry], problem: str | None) -> None:
        from ..widgets.record_list import ListButton, RecordList

        self.polls += 1
        had_tables, self.tables = bool(self.tables), tables
        shown = self.tables_list()
        created = shown is None
        if shown is None:
            buttons = ButtonRow(
                [RowButton("open-table", N_("Open a table (F7)"))], id="table-buttons"
            )
            self.mount(buttons, after="#lobby-area")
            shown = RecordList(
                [ListButton("join", N_("Join")), ListButton("watch", N_("Watch"))],
                flexible=1,
                keep=(2,),
                empty=N_("No table is open yet: open one (F7), and others join it here"),
                blurred_cursor=False,  # (the game list has the keys: one cursor in view)
                id="tables",
            )
            self.mount(shown, after="#lobby-area")
        self.query_one("#table-buttons", ButtonRow).set_disabled("open-table", problem is not None)
        if created or problem != self.tables_problem:  # (a title set again repaints it)
            self.tables_problem = problem
            if problem is not None:
                words(shown, N_("Shared tables: {problem}"), problem=problem)
            else:
                words(shown, N_("Shared tables (enter joins, w watches)"))
            shown.set_class(problem is not None, "-error")
        lines = self.table_lines()
        if lines != shown.lines:
            shown.show(lines)
        if had_tables != bool(tables):  # (w works on a list with tables; each poll changes
            self.refresh_bindings()  # nothing on screen unless the tables did)

    def tables_list(self) -> RecordList | None:
        if "app.widgets.record_list" not in sys.modules:
            return None
        from ..widgets.record_list import RecordList

        return next(iter(self.query("#tables").results(RecordList)), None)

    def table_lines(self) -> list[tuple[str, ...]]:
        from .record_lines import table_line

        return [table_line(entry) for entry in self.tables]

    def chosen_table(self) -> TableEntry | None:
        shown = self.tables_list()
        if shown is None or not self.tables:
            return None
        return self.tables[min(shown.cursor, len(self.tables) - 1)]

    def take_seat(self, entry: TableEntry, watch: bool) -> None:
        """Join or watch a table; a private one asks for its invite code first (not of its
        host, nor of who sits there already: the server knows them)."""
        remote = self.cubilete.remote
        user = remote.user if remote is not None else None
        known = entry.host == user or any(seat.name == user for seat in entry.seats)

        def go(code: str | None) -> None:
            if entry.private and not known and not code:
                return
            self.left_for_game = True
            self.run_worker(
                self.cubilete.take_seat(entry.id, watch=watch, code=code or None),
                group="shared",
                exit_on_error=False,
            )

        if entry.private and not known:
            from .invite_code import InviteCodeScreen

            self.app.push_screen(InviteCodeScreen(entry.id), go)
        else:
            go(None)

    def action_watch(self) -> None:
        entry = self.chosen_table()
        if entry is not None:
            self.take_seat(entry, watch=True)

    def action_open_table(self) -> None:
        if self.cubilete.server_address is None:
            return
        from .open_table import OpenTableScreen

        self.remember()
        self.left_for_game = True
        self.app.push_screen(OpenTableScreen(self.game_id, self.setups))

    @property
    def focus_chain(self) -> list[Widget]:
        """Textual's (the order of the screen's widgets), but the server's tables right after
        the game list: tab from the list of games reaches the list of tables (shown under the
        setup sheet, where enter would start a local game)."""
        chain = super().focus_chain
        tables = self.tables_list()
        games = next(iter(self.query("#game-list")), None)
        if tables in chain and games in chain:
            chain.remove(tables)
            chain.insert(chain.index(games) + 1, tables)
        return chain

    # -- unfinished games -----------------------------------------------------------------
    def unfinished_widget(self) -> RecordList:
        from ..widgets.record_list import ListButton, RecordList

        games = RecordList(
            [ListButton("resume", N_("Resume")), ListButton("abandon", N_("Abandon"))],
            flexible=1,
            keep=(2, 3),
            id="unfinished",
        )
        words(games, N_("Unfinished games"))
        games.show(self.unfinished_lines(), cursor=0)
        self.call_after_refresh(self.find_rounds)
        return games

    def unfinished_lines(self) -> list[tuple[str, ...]]:
        from .record_lines import round_words, unfinished_line

        lines = []
        for game in self.resumable:
            key = (game.record_id, game.events)
            if key not in self.rounds:
                text = "…"
            else:
                found = self.rounds[key]
                # (rendered now, in the language of the moment)
                text = "?" if isinstance(found, Exception) else round_words(found)
            lines.append(unfinished_line(game, text))
        return lines

    def show_unfinished(self) -> None:
        """The list of unfinished games, as the records have them now (none: no list)."""
        shown = self.unfinished_list()
        if not self.resumable:
            if shown is not None:
                shown.remove()
            return
        if shown is None:
            self.mount(self.unfinished_widget(), after="#lobby-area")
            return
        shown.show(self.unfinished_lines())
        self.call_after_refresh(self.find_rounds)

    def unfinished_list(self) -> RecordList | None:
        if "app.widgets.record_list" not in sys.modules:  # (loaded with the first list)
            return None
        from ..widgets.record_list import RecordList

        return next(iter(self.query("#unfinished").results(RecordList)), None)

    def find_rounds(self) -> None:
        missing = [g for g in self.resumable if (g.record_id, g.events) not in self.rounds]
        if missing:
            self.run_worker(self._find_rounds(missing), group="rounds", exclusive=True)

    async def _find_rounds(self, games: list[RecordSummary]) -> None:
        """Replay each game (in a thread: a long game takes a moment) to learn its round."""
        from ..records.events import RecordError
        from ..records.store import StoreError

        for game in games:
            number: int | Exception | None
            try:
                record = self.cubilete.records.load(game.record_id)
                number = await asyncio.to_thread(round_in, record)
            except (StoreError, RecordError) as error:
                number = error.with_traceback(None)  # (what went wrong, not its frames)
            self.rounds[(game.record_id, game.events)] = number
            shown = self.unfinished_list()
            if shown is not None and game in self.resumable:
                shown.set_line(self.resumable.index(game), self.unfinished_lines()[
                    self.resumable.index(game)])

    def chosen_game(self) -> RecordSummary | None:
        """The unfinished game highlighted in the list (the newest until another is)."""
        shown = self.unfinished_list()
        if not self.resumable:
            return None
        index = shown.cursor if shown is not None else 0
        return self.resumable[min(index, len(self.resumable) - 1)]

    def on_record_list_pressed(self, event: RecordList.Pressed) -> None:
        event.stop()
        if event.records.id == "tables":
            if 0 <= event.index < len(self.tables):
                self.take_seat(self.tables[event.index], watch=event.button_id == "watch")
            return
        if not 0 <= event.index < len(self.resumable):
            return
        game = self.resumable[event.index]
        if event.button_id == "resume":
            self.resume(game)
        else:
            self.abandon(game)

    def resume(self, game: RecordSummary) -> None:
        self.cubilete.resume_game(game)
        self.left_for_game = True
        self.keep_settings()  # (the game last played)

    def action_abandon(self) -> None:
        game = self.chosen_game()
        if game is not None:
            self.abandon(game)

    def abandon(self, game: RecordSummary) -> None:
        """Give up an unfinished game, once the player says yes: it is kept, and listed no
        more (it cannot be resumed)."""
        from ..records.store import StoreError

        question = Text(
            N_("Abandon {game} ({when})? It cannot be resumed afterwards."),
            {"game": game.summary(), "when": when(game.updated)},
        )

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.cubilete.records.abandon(game.record_id)
            except StoreError as error:
                self.notify(
                    _("Could not abandon the game: {error}").format(error=error),
                    severity="error",
                    markup=False,
                )
            else:
                self.notify(tr(N_("Abandoned: {game}"), game=game.summary()), markup=False)
            self.show_notices()

        self.cubilete.confirm(question, answered)

    def action_history(self) -> None:
        self.cubilete.show_history()

    def action_statistics(self) -> None:
        self.cubilete.show_statistics()

    KEY_ORDER: ClassVar[tuple[str, ...]] = (
        "start", "resume", "abandon", "watch", "open-table", "rules", "history", "statistics",
        "language",
    )

    def key_rank(self, binding_id: str | None) -> int:
        """The key bar's order: the lobby's own keys, the rules (always in view at 80
        columns), the records' screens (which have no button), then the language (F4 gives
        way first: its button is always in view)."""
        order = self.KEY_ORDER
        return order.index(binding_id) if binding_id in order else len(order)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """F3 (and its key in the key bar) only when there is a game to resume."""
        if action == "resume":
            return bool(self.resumable)
        if action == "abandon":
            shown = self.unfinished_list()
            return shown is not None and shown.has_focus
        if action == "watch":
            tables = self.tables_list()
            return tables is not None and tables.has_focus and bool(self.tables)
        if action == "open_table":
            return self.cubilete.server_address is not None
        return True

    @property
    def warning(self) -> bool:
        return bool(
            self.save_errors
            or self.cubilete.notices
            or self.record_notices
            or self.settings_problem is not None
        )

    def notices_widget(self, lines: list[str]) -> Static:
        return Static(plain(*lines), id="notices", classes="-error" if self.warning else "")

    def notices(self) -> list[str]:
        """Read the saves: what can be resumed, and what cannot be read; and what the app
        had to say at start (no saving, plain ASCII) and about its records. Names, paths and
        reasons are shown literally: a save names its players."""
        self.resumable, self.save_errors = self.cubilete.saved_games()
        return self.notice_lines()

    def notice_lines(self) -> list[str]:
        self.record_notices = self.cubilete.records.notices()  # (in the reader's language)
        lines = [render(notice) for notice in self.cubilete.notices] + self.record_notices
        if self.settings_problem is not None:
            lines.append(
                _("⚠ Settings ignored ({problem}); the lobby starts from its defaults.").format(
                    problem=self.settings_problem
                )
            )
        for error in self.save_errors:
            unreadable = N_("⚠ Cannot read save {path}: {reason}. It was left as it is.")
            lines.append(tr(unreadable, path=error.path, reason=error.reason))
        return lines

    # -- game choice ----------------------------------------------------------------------
    def on_game_list_highlighted(self, event: GameList.Highlighted) -> None:
        self.show_game(event.game_id)

    def on_game_list_selected(self) -> None:
        """Enter on a game: on to its players (the first name, ready to be typed over)."""
        sheet = self.sheet
        sheet.move_to(1)
        sheet.focus()

    def show_game(self, game_id: str) -> None:
        if game_id == self.shown_game:
            return
        self.remember()  # the game left keeps its table as it was
        self.shown_game = game_id
        self.query_one("#game-blurb", Blurb).show(blurb(game_id))
        self.sheet.show_game(
            self.player_choices(game_id), game_info(game_id).options, self.setups.get(game_id)
        )

    # -- settings -------------------------------------------------------------------------
    def remember(self) -> None:
        """Keep the table of the game shown, for when it is shown again."""
        if self.shown_game is not None and self._sheet is not None:
            self.setups[self.shown_game] = self._sheet.setup()

    def keep_settings(self, quiet: bool = False) -> None:
        """Write every game's table to the settings file, if it changed. A failure is said
        in a toast (`quiet`: not at all, when the app is closing)."""
        self.remember()
        last_game = self.cubilete.last_game
        if self.setups == self.saved_setups and last_game in (None, self.saved_game):
            return
        try:
            settings.save(self.setups, last_game=last_game)
        except StorageError:
            return  # no usable data dir: the lobby said so once at start
        except OSError as error:
            if not quiet:
                self.notify(
                    _("Could not keep the lobby's settings: {error}").format(error=error),
                    severity="warning",
                )
            return
        self.saved_setups = dict(self.setups)
        self.saved_game = last_game or self.saved_game
        self.settings_problem = None  # (the unreadable file is now replaced)

    def on_unmount(self) -> None:
        self.keep_settings(quiet=True)

    # -- actions --------------------------------------------------------------------------
    def on_button_row_pressed(self, event: ButtonRow.Pressed) -> None:
        actions = {
            "start": self.action_start,
            "resume": self.action_resume,
            "rules": self.cubilete.action_rules,
            "open-table": self.action_open_table,
            "language": self.cubilete.action_next_language,
            "quit": self.cubilete.exit,
        }
        actions[event.button_id]()

    @on(SetupSheet.Submitted)
    def on_sheet_submitted(self) -> None:
        self.action_start()

    def seats(self) -> list[Seat]:
        from ..table import Seat

        return [Seat(name=name, kind=kind) for name, kind in self.sheet.seats()]

    def action_start(self) -> None:
        # keys typed ahead (end, f2 in one burst) can reach here before the list's news of
        # the game now highlighted: start the game highlighted, with its options
        self.show_game(self.game_id)
        try:
            self.cubilete.start_game(self.game_id, self.seats(), self.sheet.values())
        except InvalidOptions as problem:
            self.sheet.show_problems(problem.problems)
            self.sheet.focus()
            return
        self.left_for_game = True
        self.keep_settings()

    def action_resume(self) -> None:
        if self.resumable:
            self.resume(self.resumable[0])  # the newest (the list resumes any of them)
