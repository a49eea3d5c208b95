"""The history: every finished game, the newest first, by game and by player, a page at a
time (pages of `PAGE` games read by a cursor: as fast with 10,000 games as with ten)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from rules import N_

from ..games import playable
from ..i18n import _, tr
from ..quiet.button_row import ButtonRow, RowButton
from ..quiet.key_bar import KeyBar
from ..quiet.screen import QuietScreen
from ..quiet.title_bar import TitleBar
from ..widgets import words
from ..widgets.plain import visible
from ..widgets.record_list import ListButton, RecordList
from .record_lines import game_label, history_line

if TYPE_CHECKING:
    from ..main import CubileteApp
    from ..records.store import Cursor, RecordSummary

PAGE = 50
"""Games on a page."""


def cycle(choices: list[str | None], now: str | None, step: int) -> str | None:
    """The next choice after `now` (or before it), round the list."""
    index = choices.index(now) if now in choices else 0
    return choices[(index + step) % len(choices)]


class Filters:
    """The game and the player a list is filtered by (None: every one), changed a step at a
    time by a key or a click."""

    def __init__(self, app: CubileteApp, game_id: str | None, player: str | None) -> None:
        self.app = app
        self.game_id = game_id
        self.player = player

    def games(self) -> list[str | None]:
        return [None, *playable()]

    def players(self) -> list[str | None]:
        """Everyone with a finished game of the game chosen, most games first (bots too)."""
        names = dict.fromkeys(name for name, _kind, _n in self.app.records.players(self.game_id))
        if self.player is not None:
            names.setdefault(self.player)
        return [None, *names]

    def next_game(self, step: int) -> None:
        self.game_id = cycle(self.games(), self.game_id, step)

    def next_player(self, step: int) -> None:
        self.player = cycle(self.players(), self.player, step)

    def buttons(self) -> list[RowButton]:
        return [
            RowButton("game", N_("Game: {game} (g)"), params={"game": game_label(self.game_id)}),
            RowButton("player", N_("Player: {player} (p)"), params={"player": self.player_label()}),
        ]

    def player_label(self) -> str:
        return _("everyone") if self.player is None else visible(self.player)  # (their own text)

    def show(self, row: ButtonRow) -> None:
        row.button("game").params = {"game": game_label(self.game_id)}
        row.button("player").params = {"player": self.player_label()}
        row.refresh(layout=True)


class HistoryScreen(QuietScreen[None]):
    CSS_PATH: ClassVar[str] = "history.tcss"
    AUTO_FOCUS = "#history"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Back"), id="close"),
        Binding("g", "game(1)", N_("Game"), id="game"),
        Binding("G", "game(-1)", N_("Game"), show=False, id="game-back"),
        Binding("p", "player(1)", N_("Player"), id="player"),
        Binding("P", "player(-1)", N_("Player"), show=False, id="player-back"),
        Binding("left", "page(-1)", N_("Newer"), id="newer"),
        Binding("right", "page(1)", N_("Older"), id="older"),
        Binding("s", "statistics", N_("Statistics"), id="statistics"),
    ]
    KEY_ORDER: ClassVar[tuple[str, ...]] = (
        "game", "player", "newer", "older", "statistics", "close"
    )

    def __init__(self, game_id: str | None = None, player: str | None = None) -> None:
        super().__init__()
        words(self, N_("History"), "sub_title")
        self.filters = Filters(cast("CubileteApp", self.app), game_id, player)
        self.starts: list[Cursor | None] = [None]
        """Where each page read so far starts (the first: at the newest game)."""
        self.page = 0
        self.next: Cursor | None = None
        self.items: list[RecordSummary] = []
        self.total = 0

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with Horizontal(id="history-top"):
            yield ButtonRow(self.filters.buttons(), id="filters")
            yield Static(id="gap")
            yield ButtonRow(
                [RowButton("newer", N_("◂ Newer")), RowButton("older", N_("Older ▸"))],
                id="pages",
            )
        games = RecordList(
            [ListButton("replay", N_("Replay"))],
            flexible=2,
            keep=(0,),
            empty=N_("No finished game here yet."),
            id="history",
        )
        yield words(games, N_("Finished games"))
        yield Static(id="history-problem", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        for row in self.query(ButtonRow):
            row.can_focus = False  # (the keys work anywhere: g, p, ← →)
        self.read_page()

    def key_rank(self, binding_id: str | None) -> int:
        order = self.KEY_ORDER
        return order.index(binding_id) if binding_id in order else len(order)

    # -- reading ----------------------------------------------------------------------------
    def read_page(self, count: bool = True) -> None:
        """The page `self.page` with the filters as they are (read anew: a game may have
        ended meanwhile); `count`: count the games again (not for another page)."""
        book = self.cubilete.records
        game_id, player = self.filters.game_id, self.filters.player
        page = book.history(
            game_id=game_id, player=player, limit=PAGE, after=self.starts[self.page]
        )
        self.items, self.next = page.items, page.next
        if count or not self.total:
            self.total = book.count_finished(game_id=game_id, player=player)
        self.query_one(RecordList).show([history_line(item) for item in self.items], cursor=0)
        self.show_page_info()
        problem = self.query_one("#history-problem", Static)
        problem.update(
            "" if book.problem is None else tr(N_("⚠ {problem}"), problem=str(book.problem))
        )
        problem.display = book.problem is not None
        pages = self.query_one("#pages", ButtonRow)
        pages.set_disabled("newer", self.page == 0)
        pages.set_disabled("older", self.next is None)
        self.refresh_bindings()

    def show_page_info(self) -> None:
        first = self.page * PAGE + 1
        last = self.page * PAGE + len(self.items)
        if not self.items:
            text = ""
        else:
            text = tr(N_("{first}–{last} of {total}"), first=first, last=last, total=self.total)
        self.query_one(RecordList).border_subtitle = text

    def retranslate(self) -> None:
        self.filters.show(self.query_one("#filters", ButtonRow))
        self.query_one(RecordList).show([history_line(item) for item in self.items])
        self.show_page_info()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "page":
            step = parameters[0] if parameters else 1
            return self.page > 0 if step == -1 else self.next is not None
        return True

    # -- actions ----------------------------------------------------------------------------
    def action_page(self, step: int) -> None:
        if step < 0 and self.page > 0:
            self.page -= 1
        elif step > 0 and self.next is not None:
            del self.starts[self.page + 1 :]
            self.starts.append(self.next)
            self.page += 1
        else:
            return
        self.read_page(count=False)

    def refilter(self) -> None:
        self.starts, self.page = [None], 0
        self.filters.show(self.query_one("#filters", ButtonRow))
        self.read_page()

    def action_game(self, step: int) -> None:
        self.filters.next_game(step)
        self.refilter()

    def action_player(self, step: int) -> None:
        self.filters.next_player(step)
        self.refilter()

    def action_statistics(self) -> None:
        self.cubilete.show_statistics(self.filters.game_id, self.filters.player)

    def action_close(self) -> None:
        self.dismiss()

    def on_button_row_pressed(self, event: ButtonRow.Pressed) -> None:
        actions = {
            "game": lambda: self.action_game(1),
            "player": lambda: self.action_player(1),
            "newer": lambda: self.action_page(-1),
            "older": lambda: self.action_page(1),
        }
        actions[event.button_id]()

    def on_record_list_pressed(self, event: RecordList.Pressed) -> None:
        if 0 <= event.index < len(self.items):
            self.cubilete.show_replay(self.items[event.index].record_id)
