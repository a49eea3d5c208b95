"""The final table: ranking, winners, the finished sheet (or board); rematch or back to the
lobby. Under the ranking, the game's table talk from the start, scrolled to its end: the last
moves that decided it, and the rest a scroll away."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text as RichText
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, DataTable, Static

from rules import N_, Text

from ..i18n import _, render, render_all, tr
from ..quiet.key_bar import KeyBar
from ..quiet.screen import QuietScreen
from ..quiet.table_talk import TableTalk
from ..quiet.title_bar import TitleBar
from ..table import Table
from ..widgets import words
from ..widgets.piratas.board import Board
from ..widgets.plain import plain, visible
from ..widgets.scoresheet import Scoresheet, SheetView

if TYPE_CHECKING:
    from ..main import CubileteApp


class GameOverScreen(QuietScreen[None]):
    CSS_PATH = "game_over.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rematch", N_("Rematch"), id="rematch"),
        Binding("l,escape", "lobby", N_("Lobby"), id="lobby"),
        Binding("q", "quit", N_("Quit"), id="quit"),
    ]

    def __init__(
        self,
        table: Table,
        sheet: SheetView | Callable[[], SheetView | None] | None = None,
        notes: Sequence[Text | str] | Callable[[], Sequence[Text | str]] = (),
        board: Widget | Callable[[], Widget | None] | None = None,
        talk: Callable[[], Sequence[Text | str]] | None = None,
    ) -> None:
        """`sheet`: the finished scoresheet, or what draws it (again, in another language).
        `notes`: lines shown under the ranking, e.g. how the chips are settled (messages, or
        plain words), or what writes them. `board`: the game's final board (a game without a
        sheet, Batalla de Piratas), shown where the sheet would be, or what makes it.
        `talk`: what gives the table talk as it was shown during play, the coach's ratings in
        it (by default the table's log, which has none)."""
        super().__init__()
        self.table = table
        self.sheet_source = sheet
        self.sheet = sheet() if callable(sheet) else sheet
        self.notes_source = notes
        self.notes = tuple(notes() if callable(notes) else notes)
        self.board_source = board
        self.board = board() if callable(board) else board
        self.talk_source = talk

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)

    def compose(self) -> ComposeResult:
        game = self.table.game
        scores = game.scores(self.table.state)
        names = self.table.players
        yield TitleBar()
        with Horizontal(id="over-area"):
            with Vertical(id="result"):
                yield Static(plain(self.headline()), id="winners")
                ranking: DataTable[str] = DataTable(
                    id="ranking", cursor_type="none", zebra_stripes=True
                )
                ranking.can_focus = False
                yield ranking
                notes = Static(plain(*render_all(self.notes)), id="over-notes")
                notes.display = bool(self.notes)
                yield notes
                with Horizontal(id="over-buttons"):
                    rematch = Button("", id="rematch", variant="primary", compact=True)
                    yield words(rematch, N_("Rematch (r)"), "label")
                    yield words(Button("", id="lobby", compact=True), N_("Lobby (l)"), "label")
                    yield words(Button("", id="quit", compact=True), N_("Quit (q)"), "label")
                yield TableTalk(id="over-log", max_lines=1000, wrap=True, min_width=0)
            if self.sheet is not None:
                with VerticalScroll(id="final-sheet"):
                    yield Scoresheet(id="sheet")
            elif self.board is not None:
                with Vertical(id="final-board"):
                    yield self.board
        yield KeyBar()
        self._ranking = sorted(range(len(names)), key=lambda seat: (-scores[seat], seat))

    def headline(self) -> str:
        names = self.table.players
        winners = self.table.game.winners(self.table.state)
        if len(winners) == 1:
            return "★ " + tr(N_("{player} wins!"), player=names[winners[0]])
        players = ", ".join(names[w] for w in winners)
        return "★ " + tr(N_("Shared win: {players}"), players=players)

    def on_mount(self) -> None:
        if self.opening_as_the_app_exits:
            return
        words(self, N_("{game}: game over"), "sub_title", game=self.table.game.name)
        self.fill_ranking()
        if self.sheet is not None:
            sheet = self.query_one(Scoresheet)
            words(sheet, N_("Final sheet"))
            sheet.show(self.sheet)
            sheet.can_focus = False
        log = words(self.query_one("#over-log", TableTalk), N_("Table talk"))
        log.can_focus = False
        self.write_log()
        self.query_one("#rematch", Button).focus()
        self.show_notes(self.notes_source)  # they may have changed while it was composed

    def write_log(self) -> None:
        """The game's log, in the language of the moment (none until mounted)."""
        talk = self.talk_source() if self.talk_source is not None else self.table.log
        for log in self.query("#over-log").results(TableTalk):
            log.clear()
            for line in talk:
                log.write(render(line))

    def retranslate(self) -> None:
        self.query_one("#winners", Static).update(plain(self.headline()))
        self.fill_ranking()
        if callable(self.sheet_source):
            self.sheet = self.sheet_source()
            if self.sheet is not None:
                self.query_one(Scoresheet).show(self.sheet)
        if callable(self.board_source) and isinstance(self.board, Board):
            board = self.board_source()
            if isinstance(board, Board):
                self.board.show(getattr(board, "final", board.view))
        self.write_log()
        self.show_notes(self.notes_source)

    def fill_ranking(self) -> None:
        """The ranking: place, player (★ the winners), score; its headings in the player's
        language."""
        scores = self.table.game.scores(self.table.state)
        winners = self.table.game.winners(self.table.state)
        ranking = self.query_one("#ranking", DataTable)
        ranking.clear(columns=True)
        ranking.add_columns(_("Place"), _("Player"), _("Score"))
        place = 0
        previous: int | None = None
        for position, seat in enumerate(self._ranking, start=1):
            if scores[seat] != previous:
                place, previous = position, scores[seat]
            mark = " ★" if seat in winners else ""
            ranking.add_row(
                str(place), RichText(visible(self.table.players[seat]) + mark), str(scores[seat])
            )

    def show_notes(self, notes: Sequence[Text | str] | Callable[[], Sequence[Text | str]]) -> None:
        """New lines under the ranking (the coach's last rating came in after the end)."""
        self.notes_source = notes
        self.notes = tuple(notes() if callable(notes) else notes)
        for widget in self.query("#over-notes").results(Static):  # none until mounted
            text = plain(*render_all(self.notes))
            if widget.content != text:
                widget.update(text)
            widget.display = bool(self.notes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"rematch": self.action_rematch, "lobby": self.action_lobby, "quit": self.action_quit}[
            event.button.id or "lobby"
        ]()

    def action_rematch(self) -> None:
        self.cubilete.rematch(self.table)

    def action_lobby(self) -> None:
        self.cubilete.switch_to_lobby()

    def action_quit(self) -> None:
        self.cubilete.exit()
