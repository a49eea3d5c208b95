"""The final table: ranking, winners, the finished sheet (or board); rematch or back to the
lobby. Under the ranking, the game's table talk from the start, scrolled to its end: the last
moves that decided it, and the rest a scroll away."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, DataTable, Static

from ..i18n import _
from ..table import Table
from ..widgets.key_bar import KeyBar
from ..widgets.scoresheet import Scoresheet, SheetView
from ..widgets.table_talk import TableTalk
from ..widgets.title_bar import TitleBar
from .quiet import QuietScreen

if TYPE_CHECKING:
    from ..main import CubileteApp


class GameOverScreen(QuietScreen[None]):
    CSS_PATH = "game_over.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rematch", _("Rematch"), id="rematch"),
        Binding("l,escape", "lobby", _("Lobby"), id="lobby"),
        Binding("q", "quit", _("Quit"), id="quit"),
    ]

    def __init__(
        self,
        table: Table,
        sheet: SheetView | None = None,
        notes: Sequence[str] = (),
        board: Widget | None = None,
    ) -> None:
        """`notes`: lines shown under the ranking, e.g. how the chips are settled. `board`:
        the game's final board (a game without a sheet, Batalla de Piratas), shown where the
        sheet would be."""
        super().__init__()
        self.table = table
        self.sheet = sheet
        self.notes = tuple(notes)
        self.board = board

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)

    def compose(self) -> ComposeResult:
        game = self.table.game
        state = self.table.state
        scores = game.scores(state)
        winners = game.winners(state)
        names = self.table.players
        yield TitleBar()
        with Horizontal(id="over-area"):
            with Vertical(id="result"):
                if len(winners) == 1:
                    headline = _("{player} wins!").format(player=names[winners[0]])
                else:
                    headline = _("Shared win: {players}").format(
                        players=", ".join(names[w] for w in winners)
                    )
                yield Static("★ " + headline, id="winners")
                ranking: DataTable[str] = DataTable(
                    id="ranking", cursor_type="none", zebra_stripes=True
                )
                ranking.can_focus = False
                yield ranking
                notes = Static("\n".join(self.notes), id="over-notes")
                notes.display = bool(self.notes)
                yield notes
                with Horizontal(id="over-buttons"):
                    yield Button(_("Rematch (r)"), id="rematch", variant="primary", compact=True)
                    yield Button(_("Lobby (l)"), id="lobby", compact=True)
                    yield Button(_("Quit (q)"), id="quit", compact=True)
                yield TableTalk(id="over-log", max_lines=1000, wrap=True, min_width=0)
            if self.sheet is not None:
                with VerticalScroll(id="final-sheet"):
                    yield Scoresheet(id="sheet")
            elif self.board is not None:
                with Vertical(id="final-board"):
                    yield self.board
        yield KeyBar()
        self._ranking = sorted(range(len(names)), key=lambda seat: (-scores[seat], seat))

    def on_mount(self) -> None:
        self.sub_title = _("{game}: game over").format(game=self.table.game.name)
        scores = self.table.game.scores(self.table.state)
        winners = self.table.game.winners(self.table.state)
        ranking = self.query_one("#ranking", DataTable)
        ranking.add_columns(_("Place"), _("Player"), _("Score"))
        place = 0
        previous: int | None = None
        for position, seat in enumerate(self._ranking, start=1):
            if scores[seat] != previous:
                place, previous = position, scores[seat]
            mark = " ★" if seat in winners else ""
            ranking.add_row(str(place), self.table.players[seat] + mark, str(scores[seat]))
        if self.sheet is not None:
            sheet = self.query_one(Scoresheet)
            sheet.border_title = _("Final sheet")
            sheet.show(self.sheet)
            sheet.can_focus = False
        log = self.query_one("#over-log", TableTalk)
        log.border_title = _("Table talk")
        log.can_focus = False
        for line in self.table.log:
            log.write(line)
        self.query_one("#rematch", Button).focus()
        self.show_notes(self.notes)  # they may have changed while the screen was composed

    def show_notes(self, notes: Sequence[str]) -> None:
        """New lines under the ranking (the coach's last rating came in after the end)."""
        self.notes = tuple(notes)
        for widget in self.query("#over-notes").results(Static):  # none until mounted
            text = "\n".join(self.notes)
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
