"""Open a table on the server of shared tables: the game, its seats (for people, who bring
their own names when they sit down, or for bots) and its options, on the lobby's own setup
sheet; then a public table, listed for anyone to join, or a private one, joined with the
invite code its host passes on."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from rules import N_, InvalidOptions, Text, game_name

from .. import settings
from ..catalog import game_info
from ..games import playable
from ..i18n import render
from ..quiet.button_row import ButtonRow, RowButton
from ..quiet.game_list import GameList
from ..quiet.key_bar import KeyBar
from ..quiet.screen import QuietScreen
from ..quiet.setup_sheet import MAX_SEATS, SetupSheet
from ..quiet.title_bar import TitleBar
from ..widgets import words

if TYPE_CHECKING:
    from ..main import CubileteApp
    from ..server.protocol import SeatSpec

ABOUT = N_(
    "People's seats are taken by whoever sits down, under their own names; bots play under "
    "the names given here. You sit in the first seat for a person (with none, you watch)."
)


class OpenTableScreen(QuietScreen[None]):
    CSS_PATH = "open_table.tcss"
    AUTO_FOCUS = "#open-sheet"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "open(False)", N_("Open"), id="open"),
        Binding("f3", "open(True)", N_("Open private"), id="open-private"),
        Binding("escape", "cancel", N_("Cancel"), id="cancel"),
    ]

    def __init__(self, game_id: str, setups: settings.Setups) -> None:
        super().__init__()
        words(self, N_("Open a shared table"), "sub_title")
        self.game_ids = playable()
        self.first = self.game_ids.index(game_id) if game_id in self.game_ids else 0
        self.setups = dict(setups)
        self.shown_game = self.game_ids[self.first]
        self._opening = False

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="open-area"):
            with Vertical(id="open-games"):
                names = [(g, game_info(g).name) for g in self.game_ids]
                games = GameList(names, self.first, id="open-games-list")
                yield words(games, N_("Game"))
                yield Static(render(Text(ABOUT)), id="open-about")
            with VerticalScroll(id="open-setup", can_focus=False):
                yield SetupSheet(
                    self.player_choices(self.shown_game),
                    game_info(self.shown_game).options,
                    setup=self.setups.get(self.shown_game),
                    id="open-sheet",
                )
        yield ButtonRow(
            [
                RowButton("open", N_("Open (F2)"), "primary"),
                RowButton("open-private", N_("Open private (F3)")),
                RowButton("cancel", N_("Cancel (esc)")),
            ],
            id="open-buttons",
        )
        yield KeyBar()

    @staticmethod
    def player_choices(game_id: str) -> list[int]:
        game = game_info(game_id)
        return list(range(game.min_players, min(game.max_players, MAX_SEATS) + 1))

    @property
    def sheet(self) -> SetupSheet:
        return self.query_one("#open-sheet", SetupSheet)

    def retranslate(self) -> None:
        self.query_one("#open-about", Static).update(render(Text(ABOUT)))

    def on_game_list_highlighted(self, event: GameList.Highlighted) -> None:
        event.stop()
        game_id = event.game_id
        if game_id == self.shown_game:
            return
        self.setups[self.shown_game] = self.sheet.setup()
        self.shown_game = game_id
        self.sheet.show_game(
            self.player_choices(game_id), game_info(game_id).options, self.setups.get(game_id)
        )

    def on_game_list_selected(self, event: GameList.Selected) -> None:
        event.stop()
        self.sheet.move_to(1)
        self.sheet.focus()

    @on(SetupSheet.Submitted)
    def on_sheet_submitted(self, event: SetupSheet.Submitted) -> None:
        event.stop()
        self.action_open(False)

    def on_button_row_pressed(self, event: ButtonRow.Pressed) -> None:
        event.stop()
        if event.button_id == "cancel":
            self.action_cancel()
        else:
            self.action_open(event.button_id == "open-private")

    def seat_specs(self) -> list[SeatSpec]:
        from ..server.protocol import SeatSpec

        return [
            SeatSpec(kind=kind, name=None if kind == "human" else name)
            for name, kind in self.sheet.seats()
        ]

    def action_open(self, private: bool) -> None:
        if self._opening:
            return
        game_id = self.query_one("#open-games-list", GameList).game_id
        sheet = self.sheet
        from rules import get_game

        opening = render(Text(N_("Opening {game}…"), {"game": game_name(game_id)}))
        with self.cubilete.loading(opening):
            try:
                get_game(game_id).options(sheet.values())
            except InvalidOptions as problem:
                sheet.show_problems(problem.problems)
                sheet.focus()
                return
        seats = self.seat_specs()
        sit = next((i for i, seat in enumerate(seats) if seat.kind == "human"), None)
        self._opening = True
        self.run_worker(
            self._open(game_id, seats, sheet.values(), private, sit),
            group="open-table",
            exclusive=True,
            exit_on_error=False,
        )

    async def _open(
        self, game_id: str, seats: list[SeatSpec], options: dict[str, object], private: bool,
        sit: int | None,
    ) -> None:
        try:
            await self.cubilete.open_table(game_id, seats, options, private=private, sit=sit)
        finally:
            self._opening = False

    def action_cancel(self) -> None:
        self.dismiss()
