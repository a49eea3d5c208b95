"""Statistics: per player and game, the games, wins and win rate, the average score, the
scores over time and their distribution, the average loss per decision over time (is the
player getting better?) and the costliest kinds of mistakes, with plots drawn in the
terminal (textual-plotext). Bots are players too.

The figures come from the records (`RecordBook`'s statistics, a few SQL queries on the app's
thread: 0.1 s with 10,000 games); the coach's reviews of games not reviewed yet are made in a
worker thread while the screen is open, and the loss plots follow.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text as RichText
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static
from textual_plotext import PlotextPlot

from bots import Unit
from rules import N_, game_name

from ..i18n import _, decimal, tr
from ..quiet.button_row import ButtonRow
from ..quiet.key_bar import KeyBar
from ..quiet.screen import QuietScreen
from ..quiet.title_bar import TitleBar
from ..widgets import words
from ..widgets.coach_panel import UNIT_NAMES, format_loss
from .history import Filters
from .record_lines import seat_name

if TYPE_CHECKING:
    from ..main import CubileteApp
    from ..records.store import LossPoint, MistakeKind, PlayerStats, RecordSummary

SCORE_GAMES = 200
"""The newest games whose scores are plotted."""
REVIEWS_PER_VISIT = 200
POINTS = 240
"""The most points a plot draws: more are averaged in runs (a plot is at most about 120
columns wide, two points a column in braille)."""


def downsample(values: list[float], most: int = POINTS) -> tuple[list[float], list[float]]:
    """(x, y) of at most `most` points: each the mean of a run of consecutive values, at the
    run's middle (x counts the values from 1)."""
    if len(values) <= most:
        return [float(i) for i in range(1, len(values) + 1)], values
    size = len(values) / most
    xs, ys = [], []
    for bucket in range(most):
        run = values[round(bucket * size) : round((bucket + 1) * size)]
        if run:
            xs.append(round(bucket * size) + (len(run) + 1) / 2)
            ys.append(sum(run) / len(run))
    return xs, ys
"""Games the coach reviews (in a thread) while the screen is open, at most."""


class Plot(PlotextPlot):
    """A plot with a title in its border, drawn again when the data or the language
    change; with nothing to draw it says why in words."""

    DEFAULT_CSS = """
    Plot {
        height: 12;
        border: round $foreground 30%;
        border-title-color: $accent;
    }
    """

    def __init__(self, title: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        words(self, title)
        self.empty: str | None = None

    def nothing(self, why: str) -> None:
        """No data: say why (a marked message)."""
        self.empty = why
        self.plt.clear_data()
        self.plt.clear_figure()
        self.refresh()

    def render(self) -> RichText:  # the plot, or a line of words
        if self.empty is not None:
            return RichText(_(self.empty), style="dim")
        return cast(RichText, super().render())


class StatisticsScreen(QuietScreen[None]):
    CSS_PATH: ClassVar[str] = "statistics.tcss"
    AUTO_FOCUS = "#stats-body"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Back"), id="close"),
        Binding("g", "game(1)", N_("Game"), id="game"),
        Binding("G", "game(-1)", N_("Game"), show=False, id="game-back"),
        Binding("p", "player(1)", N_("Player"), id="player"),
        Binding("P", "player(-1)", N_("Player"), show=False, id="player-back"),
    ]

    def __init__(self, game_id: str | None = None, player: str | None = None) -> None:
        super().__init__()
        words(self, N_("Statistics"), "sub_title")
        self.filters = Filters(cast("CubileteApp", self.app), game_id, player)
        if player is None:  # the person with the most games, else whoever has most
            everyone = self.filters.app.records.players(game_id)
            people = [name for name, kind, _n in everyone if kind == "human"]
            anyone = people or [name for name, _k, _n in everyone]
            self.filters.player = anyone[0] if anyone else None
        self.reviewing = True

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield ButtonRow(self.filters.buttons(), id="filters")
        with VerticalScroll(id="stats-body"):
            yield words(Static(id="stats-table", markup=False), N_("Games and wins"))
            with Horizontal(classes="plots"):
                yield Plot(N_("Scores, oldest to newest"), id="scores")
                yield Plot(N_("How often each score"), id="distribution")
            with Horizontal(classes="plots"):
                yield Plot(N_("Average loss per decision, game by game"), id="loss")
                yield words(Static(id="mistakes", markup=False), N_("Costliest mistakes"))
            yield Static(id="stats-problem", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#filters", ButtonRow).can_focus = False
        self.show_all()
        # after the first paint: the coach's reviews (threads) would slow it down
        self.call_after_refresh(
            self.run_worker, self.review_pending(), group="stats-reviews", exclusive=True
        )

    def key_rank(self, binding_id: str | None) -> int:
        order = ("game", "player", "close")
        return order.index(binding_id) if binding_id in order else len(order)

    # -- the figures ------------------------------------------------------------------------
    def show_all(self) -> None:
        book = self.cubilete.records
        game_id, player = self.filters.game_id, self.filters.player
        stats = book.player_stats(game_id=game_id, player=player)
        self.query_one("#stats-table", Static).update(self.stats_text(stats))
        self.show_scores()
        self.show_losses()
        problem = self.query_one("#stats-problem", Static)
        problem.update("" if book.problem is None else f"⚠ {book.problem}")
        problem.display = book.problem is not None

    def stats_text(self, stats: list[PlayerStats]) -> str:
        if not stats:
            return _("No finished game here yet.")
        head = (_("Player"), _("Game"), _("Games"), _("Wins"), _("Win rate"), _("Average"))
        rows = [head] + [
            (
                seat_name(one.name, one.kind),
                game_name(one.game_id),
                str(one.games),
                str(one.wins),
                decimal(f"{one.win_rate * 100:.0f}%"),
                decimal(f"{one.average_score:.1f}"),
            )
            for one in stats[:20]
        ]
        widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
        lines = [
            "  ".join(
                cell.ljust(width) if i < 2 else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(row, widths, strict=True))
            )
            for row in rows
        ]
        if len(stats) > 20:
            lines.append(tr(N_("… and {n} more"), n=len(stats) - 20))
        return "\n".join(lines)

    def show_scores(self) -> None:
        scores = self.query_one("#scores", Plot)
        distribution = self.query_one("#distribution", Plot)
        game_id, player = self.filters.game_id, self.filters.player
        if game_id is None or player is None:
            why = N_("Choose a game (g) and a player (p): scores of different games differ.")
            scores.nothing(why)
            distribution.nothing(why)
            return
        book = self.cubilete.records
        items: list[RecordSummary] = []
        after = None
        while len(items) < SCORE_GAMES:
            page = book.history(game_id=game_id, player=player, limit=50, after=after)
            items += page.items
            if page.next is None:
                break
            after = page.next
        points = []
        for item in reversed(items[:SCORE_GAMES]):
            seat = next((i for i, s in enumerate(item.seats) if s.name == player), None)
            if item.outcome is not None and seat is not None and seat < len(item.outcome.scores):
                points.append(item.outcome.scores[seat])
        if not points:
            scores.nothing(N_("No finished game here yet."))
        else:
            scores.empty = None
            plt = scores.plt
            plt.clear_data()
            plt.plot(*downsample([float(p) for p in points]), marker="braille")
            plt.xlabel(_("game"))
            scores.refresh()
        counts = book.score_distribution(game_id=game_id, player=player)
        if not counts:
            distribution.nothing(N_("No finished game here yet."))
        else:
            distribution.empty = None
            plt = distribution.plt
            plt.clear_data()
            plt.bar([c.score for c in counts], [c.games for c in counts], marker="█", width=0.6)
            plt.xlabel(_("score"))
            distribution.refresh()

    def show_losses(self) -> None:
        loss, mistakes = self.query_one("#loss", Plot), self.query_one("#mistakes", Static)
        player = self.filters.player
        if player is None:
            loss.nothing(N_("Choose a player (p)."))
            mistakes.update("")
            return
        book = self.cubilete.records
        points = book.loss_over_time(player=player, game_id=self.filters.game_id)
        self.plot_losses(loss, points)
        kinds = book.costliest_mistakes(player=player, game_id=self.filters.game_id, limit=5)
        mistakes.update(self.mistakes_text(kinds))

    def plot_losses(self, plot: Plot, points: list[LossPoint]) -> None:
        """The unit the player's games were rated in most (losses of different units are
        never put together)."""
        if not points:
            why = N_("The coach is reviewing the games…") if self.reviewing else N_(
                "No decision of this player reviewed yet."
            )
            plot.nothing(why)
            return
        units: dict[str, list[LossPoint]] = {}
        for point in points:
            units.setdefault(point.unit, []).append(point)
        unit, shown = max(units.items(), key=lambda pair: len(pair[1]))
        plot.empty = None
        plt = plot.plt
        plt.clear_data()
        scale = 100 if unit == Unit.WIN_PROBABILITY else 1
        values = [p.average_loss * scale for p in shown]
        plt.plot(*downsample(values), marker="braille")
        label = _(UNIT_NAMES.get(Unit(unit), unit)) if unit in set(Unit) else unit
        plt.xlabel(tr(N_("game ({unit})"), unit=label))
        plot.refresh()

    def mistakes_text(self, kinds: list[MistakeKind]) -> str:
        if not kinds:
            return _("No mistake reviewed yet.")
        lines = []
        for kind in kinds:
            unit = Unit(kind.unit) if kind.unit in set(Unit) else Unit.FINAL_SCORE
            lines.append(
                tr(
                    N_("{kind}: {mistakes} mistakes in {decisions}; −{total} (worst −{worst})"),
                    kind=kind.kind,
                    mistakes=kind.mistakes,
                    decisions=kind.decisions,
                    total=format_loss(kind.total_loss, unit),
                    worst=format_loss(kind.worst_loss, unit),
                )
            )
        return "\n".join(lines)

    async def review_pending(self) -> None:
        """Review the finished games the coach has not reviewed yet (in a thread), then
        draw the losses again."""
        from ..records.reviews import review_rows

        book = self.cubilete.records
        done = 0
        try:
            while done < REVIEWS_PER_VISIT:
                records = book.unreviewed(limit=20)
                if not records:
                    break
                for record in records:
                    try:
                        rows = await asyncio.to_thread(review_rows, record)
                    except Exception:  # a record the coach cannot review stays unreviewed
                        continue
                    book.save_reviews(record.record_id, rows)
                    done += 1
                if not self.is_attached:
                    return
        finally:
            self.reviewing = False
        if self.is_attached:
            self.show_losses()

    def retranslate(self) -> None:
        self.filters.show(self.query_one("#filters", ButtonRow))
        self.show_all()

    # -- actions ----------------------------------------------------------------------------
    def action_game(self, step: int) -> None:
        self.filters.next_game(step)
        self.refilter()

    def action_player(self, step: int) -> None:
        self.filters.next_player(step)
        self.refilter()

    def refilter(self) -> None:
        self.filters.show(self.query_one("#filters", ButtonRow))
        self.show_all()

    def on_button_row_pressed(self, event: ButtonRow.Pressed) -> None:
        if event.button_id == "game":
            self.action_game(1)
        elif event.button_id == "player":
            self.action_player(1)

    def action_close(self) -> None:
        self.dismiss()
