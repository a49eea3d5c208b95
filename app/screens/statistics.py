"""Statistics: per player and game, the games, wins and win rate, the average score beside
the expert's expected score (docs/strategy.md, `records.expert`); and, one view at a time,
the scores over time, their distribution, the average loss per decision over time (is the
player getting better?) and the costliest kinds of mistakes, with plots drawn in the terminal
(textual-plotext). Bots are players too.

The figures come first, on top, so that the key facts are read at 80×24 without scrolling:
one query (with a second for Barco's rounds), then the screen is painted. The view shown is
drawn after that first paint, and each other view when it is chosen (1-4, or ← →): a view
costs its own queries only. The coach's reviews of games not reviewed yet are made in a
worker thread while the screen is open, and the loss views follow.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text as RichText
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static
from textual_plotext import PlotextPlot

from bots import Unit
from rules import N_, NP_, game_name

from ..coach_words import decision_kind_words, minus_loss
from ..i18n import _, decimal, ntr, render, tr
from ..quiet.button_row import ButtonRow, RowButton
from ..quiet.key_bar import KeyBar
from ..quiet.screen import QuietScreen
from ..quiet.title_bar import TitleBar
from ..widgets import words
from ..widgets.coach_panel import UNIT_NAMES
from ..widgets.plain import cells, clip, pad
from .history import Filters
from .record_lines import seat_name

if TYPE_CHECKING:
    from ..main import CubileteApp
    from ..records.store import LossPoint, MistakeKind, PlayerStats, RecordSummary

SCORE_GAMES = 200
"""The newest games whose scores are plotted."""
REVIEWS_PER_VISIT = 200
"""Games the coach reviews (in a thread) while the screen is open, at most."""
ROWS = 20
"""Rows of figures shown (the most games first)."""
VIEWS: tuple[tuple[str, str], ...] = (
    ("scores", N_("Scores")),
    ("distribution", N_("Distribution")),
    ("loss", N_("Loss")),
    ("mistakes", N_("Mistakes")),
)
"""The views below the figures, one shown at a time: (id, the word on its button)."""
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


def whole_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """At most `most` whole numbers from `low` to `high`, evenly spread (a count of games or
    of times is whole: an axis reads "1 2 3", not "1.00 1.50 2.00")."""
    first, last = int(low), int(high)
    if last - first < most:
        return [float(tick) for tick in range(first, last + 1)]
    step = (last - first) / (most - 1)
    return sorted({float(round(first + step * i)) for i in range(most)})


MISTAKES = NP_(
    "{kind}: {n} mistake in {decisions}; {total} (worst {worst})",
    "{kind}: {n} mistakes in {decisions}; {total} (worst {worst})",
)


def mistakes_lines(kinds: list[MistakeKind]) -> str:
    """The costliest kinds of decision, one block per unit the coach measured them in (the
    unit said once, on the block's first line; the unit with the most decisions first), each
    kind once in its block: "Taking the multiplier: 1 mistake in 2; −0.50 (worst −0.50)".
    Losses of different units are never put together; a loss that rounds to zero is "0.00"."""
    blocks: dict[Unit, list[MistakeKind]] = {}
    for kind in kinds:
        unit = Unit(kind.unit) if kind.unit in set(Unit) else Unit.FINAL_SCORE
        blocks.setdefault(unit, []).append(kind)
    order = sorted(blocks, key=lambda unit: -sum(kind.decisions for kind in blocks[unit]))
    lines = []
    for unit in order:
        lines.append(tr(N_("Losses in {unit}:"), unit=_(UNIT_NAMES[unit])))
        for kind in blocks[unit]:
            lines.append(
                "  "
                + ntr(
                    MISTAKES,
                    kind.mistakes,
                    kind=render(decision_kind_words(kind.kind)),
                    decisions=kind.decisions,
                    total=minus_loss(kind.total_loss, unit),
                    worst=minus_loss(kind.worst_loss, unit),
                )
            )
    return "\n".join(lines)


class ViewButton(RowButton):
    """A view's button: the one shown is marked ▸ (seen without colour too)."""

    __slots__ = ("shown",)

    def __init__(self, id: str, label: str) -> None:
        super().__init__(id, label)
        self.shown = False

    @property
    def text(self) -> str:
        return ("▸" if self.shown else " ") + super().text


def table_lines(
    head: tuple[str, ...], rows: list[tuple[str, ...]], width: int, left: int
) -> list[str]:
    """Rows of cells in columns two spaces apart, the first `left` columns aligned left and the
    others right (figures); the last left column cut (…) to keep the lines within `width`.
    Measured in cells, each cell as `visible` shows it (a player's name is their own text:
    no control character of it reaches the terminal)."""
    table = [head, *rows]
    widths = [max(cells(row[i]) for row in table) for i in range(len(head))]
    over = sum(widths) + 2 * (len(widths) - 1) - width
    if over > 0 and left:
        cut = left - 1
        widths[cut] = max(cells(head[cut]), widths[cut] - over)
    lines = []
    for row in table:
        shown = [
            pad(clip(cell, size, "…"), size, "left" if i < left else "right")
            for i, (cell, size) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(shown).rstrip())
    return lines


class Plot(PlotextPlot):
    """A plot with a title in its border, drawn again when the data or the language
    change; with nothing to draw it says why in words."""

    DEFAULT_CSS = """
    Plot {
        height: 1fr;
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
    AUTO_FOCUS = "#figures"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Back"), id="close"),
        Binding("g", "game(1)", N_("Game"), id="game"),
        Binding("G", "game(-1)", N_("Game"), show=False, id="game-back"),
        Binding("p", "player(1)", N_("Player"), id="player"),
        Binding("P", "player(-1)", N_("Player"), show=False, id="player-back"),
        Binding("right", "view(1)", N_("View"), key_display="←→", priority=True, id="view"),
        Binding("left", "view(-1)", N_("View"), show=False, priority=True, id="view-back"),
        *(
            Binding(str(n), f"show_view('{view}')", _words, show=False, id=f"view-{view}")
            for n, (view, _words) in enumerate(VIEWS, 1)
        ),
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
        self.view = VIEWS[0][0]
        """The view shown below the figures."""
        self.drawn: set[str] = set()
        """The views drawn for the filters as they are (the others are drawn when shown)."""
        self.stats: list[PlayerStats] = []
        self.expected: dict[tuple[str, str, str], float | None] = {}

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield ButtonRow(self.filters.buttons(), id="filters")
        with VerticalScroll(id="figures"):
            yield Static(id="stats-table", markup=False)
        yield ButtonRow([ViewButton(view, label) for view, label in VIEWS], id="views")
        with Vertical(id="view"):
            yield Plot(N_("Scores, oldest to newest"), id="scores")
            yield Plot(N_("How often each score"), id="distribution")
            yield Plot(N_("Average loss per decision, game by game"), id="loss")
            with VerticalScroll(id="mistakes-box"):
                yield Static(id="mistakes", markup=False)
        yield Static(id="stats-problem", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        words(self.query_one("#figures"), N_("Games and wins"))
        words(self.query_one("#mistakes-box"), N_("Costliest kinds of decision"))
        for row in self.query(ButtonRow):
            row.can_focus = False  # (the keys work anywhere: g, p, ← →, 1-4)
        self.show_figures()
        self.mark_view()
        self.call_after_refresh(self.after_first_paint)

    def after_first_paint(self) -> None:
        """The figures are on the screen: now the view, and after its paint the coach's
        reviews of games not reviewed yet."""
        self.show_view()
        self.call_after_refresh(
            self.run_worker, self.review_pending(), group="stats-reviews", exclusive=True
        )

    def key_rank(self, binding_id: str | None) -> int:
        order = ("game", "player", "view", "close")
        return order.index(binding_id) if binding_id in order else len(order)

    # -- the figures ------------------------------------------------------------------------
    def show_figures(self) -> None:
        book = self.cubilete.records
        game_id, player = self.filters.game_id, self.filters.player
        self.stats = book.player_stats(game_id=game_id, player=player)
        self.expected = book.expected_scores(self.stats[:ROWS], player=player)
        # (the box's margins, border and padding, and its scrollbar when the rows overflow
        # it: a row that reached the scrollbar was wrapped, its last figure under the name)
        gutter = self.query_one("#figures").styles.scrollbar_size_vertical
        width = max(20, self.app.size.width - 6 - gutter)
        self.query_one("#stats-table", Static).update(self.stats_text(self.stats, width))
        self.show_problem()

    def show_problem(self) -> None:
        book = self.cubilete.records
        problem = self.query_one("#stats-problem", Static)
        problem.update("" if book.problem is None else f"⚠ {book.problem}")
        problem.display = book.problem is not None

    def stats_text(self, stats: list[PlayerStats], width: int = 200) -> str:
        """The figures: a row per player and game (no game column when one is chosen), the
        average score beside the expert's expected one."""
        if not stats:
            return _("No finished game here yet.")
        by_game = self.filters.game_id is None
        head = (
            _("Player"),
            *((_("Game"),) if by_game else ()),
            _("Games"),
            _("Wins"),
            _("Win rate"),
            _("Average"),
            _("Expert"),
        )
        rows = []
        missing = False
        for one in stats[:ROWS]:
            expected = self.expected.get((one.name, one.kind, one.game_id))
            missing |= expected is None
            rows.append(
                (
                    seat_name(one.name, one.kind),
                    *((game_name(one.game_id),) if by_game else ()),
                    str(one.games),
                    str(one.wins),
                    decimal(f"{one.win_rate * 100:.0f}%"),
                    decimal(f"{one.average_score:.1f}"),
                    "—" if expected is None else decimal(f"{expected:.1f}"),
                )
            )
        lines = table_lines(head, rows, width, 1 + int(by_game))
        if len(stats) > ROWS:
            lines.append(tr(N_("… and {n} more"), n=len(stats) - ROWS))
        lines.append(_("Expert: the average final score of the best play."))
        if missing:
            lines.append(
                _("—: no expected score for Navio, Batalla de Piratas or a race at Barco.")
            )
        return "\n".join(lines)

    # -- the views --------------------------------------------------------------------------
    def mark_view(self) -> None:
        row = self.query_one("#views", ButtonRow)
        for button in row.buttons:
            if isinstance(button, ViewButton):
                button.shown = button.id == self.view
                button.variant = "primary" if button.shown else "default"
        row.refresh(layout=True)
        for view, _label in VIEWS:
            box = self.query_one("#mistakes-box" if view == "mistakes" else f"#{view}")
            box.display = view == self.view

    def show_view(self) -> None:
        """Draw the view shown, unless it is drawn for these filters already."""
        if not self.is_attached or self.view in self.drawn:
            return
        self.drawn.add(self.view)
        if self.view == "scores":
            self.show_scores()
        elif self.view == "distribution":
            self.show_distribution()
        elif self.view == "loss":
            self.show_loss()
        else:
            self.show_mistakes()
        self.show_problem()

    def both_chosen(self, *plots: Plot) -> bool:
        if self.filters.game_id is None or self.filters.player is None:
            why = N_("Choose a game (g) and a player (p): scores of different games differ.")
            for plot in plots:
                plot.nothing(why)
            return False
        return True

    def show_scores(self) -> None:
        scores = self.query_one("#scores", Plot)
        if not self.both_chosen(scores):
            return
        game_id, player = self.filters.game_id, self.filters.player
        assert game_id is not None and player is not None
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
            return
        scores.empty = None
        plt = scores.plt
        plt.clear_data()
        plt.plot(*downsample([float(p) for p in points]), marker="braille")
        ticks = whole_ticks(1, len(points))
        plt.xticks(ticks, [f"{tick:.0f}" for tick in ticks])
        plt.xlabel(_("game"))
        scores.refresh()

    def show_distribution(self) -> None:
        distribution = self.query_one("#distribution", Plot)
        if not self.both_chosen(distribution):
            return
        game_id, player = self.filters.game_id, self.filters.player
        assert game_id is not None and player is not None
        counts = self.cubilete.records.score_distribution(game_id=game_id, player=player)
        if not counts:
            distribution.nothing(N_("No finished game here yet."))
            return
        distribution.empty = None
        plt = distribution.plt
        plt.clear_data()
        plt.bar([c.score for c in counts], [c.games for c in counts], marker="█", width=0.6)
        ticks = whole_ticks(0, max(c.games for c in counts))
        plt.yticks(ticks, [f"{tick:.0f}" for tick in ticks])
        plt.xlabel(_("score"))
        distribution.refresh()

    def show_loss(self) -> None:
        loss = self.query_one("#loss", Plot)
        player = self.filters.player
        if player is None:
            loss.nothing(N_("Choose a player (p)."))
            return
        points = self.cubilete.records.loss_over_time(player=player, game_id=self.filters.game_id)
        self.plot_losses(loss, points)

    def show_mistakes(self) -> None:
        mistakes = self.query_one("#mistakes", Static)
        player = self.filters.player
        if player is None:
            mistakes.update(_("Choose a player (p)."))
            return
        kinds = self.cubilete.records.costliest_mistakes(
            player=player, game_id=self.filters.game_id, limit=5
        )
        mistakes.update(self.mistakes_text(kinds))

    def plot_losses(self, plot: Plot, points: list[LossPoint]) -> None:
        """The unit the player's games were rated in most (losses of different units are
        never put together)."""
        if not points:
            why = (
                N_("The coach is reviewing the games…")
                if self.reviewing
                else N_("No decision of this player reviewed yet.")
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
        ticks = whole_ticks(1, len(values))
        plt.xticks(ticks, [f"{tick:.0f}" for tick in ticks])
        label = _(UNIT_NAMES.get(Unit(unit), unit)) if unit in set(Unit) else unit
        plt.xlabel(tr(N_("game ({unit})"), unit=label))
        plot.refresh()

    def mistakes_text(self, kinds: list[MistakeKind]) -> str:
        """The kinds of decision that cost the player most, in words."""
        if not kinds:
            if self.reviewing:
                return _("The coach is reviewing the games…")
            return _("No mistake reviewed yet.")
        return mistakes_lines(kinds)

    async def review_pending(self) -> None:
        """Review the finished games the coach has not reviewed yet (in a thread), then
        draw the loss views again."""
        book = self.cubilete.records
        done = 0
        try:
            while done < REVIEWS_PER_VISIT:
                records = book.unreviewed(limit=20)
                if not records:
                    break
                from ..records.reviews import review_rows  # (only when there is work)

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
        if self.is_attached and (done or self.view in ("loss", "mistakes")):
            self.drawn -= {"loss", "mistakes"}  # (with the new reviews, or "none yet")
            self.show_view()

    def retranslate(self) -> None:
        self.filters.show(self.query_one("#filters", ButtonRow))
        self.mark_view()
        self.redraw()

    def redraw(self) -> None:
        """The figures read again, and the view shown (the others when shown)."""
        self.drawn.clear()
        self.show_figures()
        self.show_view()

    # -- actions ----------------------------------------------------------------------------
    def action_game(self, step: int) -> None:
        self.filters.next_game(step)
        self.refilter()

    def action_player(self, step: int) -> None:
        self.filters.next_player(step)
        self.refilter()

    def action_view(self, step: int) -> None:
        ids = [view for view, _label in VIEWS]
        self.action_show_view(ids[(ids.index(self.view) + step) % len(ids)])

    def action_show_view(self, view: str) -> None:
        if view == self.view:
            return
        self.view = view
        self.mark_view()
        self.show_view()

    def refilter(self) -> None:
        self.filters.show(self.query_one("#filters", ButtonRow))
        self.redraw()

    def on_button_row_pressed(self, event: ButtonRow.Pressed) -> None:
        if event.button_id == "game":
            self.action_game(1)
        elif event.button_id == "player":
            self.action_player(1)
        elif event.row.id == "views":
            self.action_show_view(event.button_id)

    def action_close(self) -> None:
        self.dismiss()
