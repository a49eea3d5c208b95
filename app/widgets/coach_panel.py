"""The coach: every decision on the table, best first, with its value and loss."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from bots import EPSILON, WIN_SCORE, Hint, Unit
from rules import N_

from ..coach_words import UNIT_NAMES, format_loss
from ..i18n import _, decimal, render, tr
from . import sibling_css
from .plain import plain

MAX_OPTIONS = 12

UNIT_NOTES = {
    Unit.LIVES_AHEAD: N_("Lives ahead two moves on (a piece on the board +3, a win 1000)"),
}
"""One line above the options for a unit a player cannot guess from its name."""


def format_value(value: float, unit: Unit) -> str:
    """A value as the coach lists it, six columns wide, the player's way ("  0,25")."""
    if unit is Unit.WIN_PROBABILITY:
        return decimal(f"{value * 100:5.1f}%")
    if unit is Unit.LIVES_AHEAD:
        if value >= WIN_SCORE - EPSILON:
            return f"{_('win'):>6}"
        return decimal(f"{value:+6.2f}")
    return decimal(f"{value:6.2f}")


class CoachPanel(Static):
    """Renders a `Hint`; the screen computes it (off the event loop) and hands it over."""

    DEFAULT_CSS = sibling_css(__file__)

    _shown: tuple[Hint | None, str] | None = None
    """The hint on show and whose it is, to draw again in another language."""
    _thinking = False

    def show_hint(self, hint: Hint | None, who: str = "") -> None:
        self._shown, self._thinking = (hint, who), False
        if hint is None:
            self.border_title, self.border_subtitle = _("Coach"), ""
            self.update(_("No decision to make right now."))
            return
        # whose decision on the top border, in what unit on the bottom one: the two on one
        # line did not fit the panel beside the table at 80 columns ("expected ro…")
        self.border_title = plain(tr(N_("Coach · {who}"), who=who))
        self.border_subtitle = plain(_(UNIT_NAMES.get(hint.unit, str(hint.unit))))
        lines = Text(no_wrap=True, overflow="ellipsis")
        if hint.unit in UNIT_NOTES:  # first: what the numbers mean, before the numbers
            lines.append(_(UNIT_NOTES[hint.unit]) + "\n", style="dim")
        if hint.forced:
            only = hint.best
            value = format_value(only.value, hint.unit).strip()
            text = N_("No choice to make: {move} ({value})")
            lines.append(tr(text, move=only.label, value=value))
        else:
            self.list_options(lines, hint)
        self.update(lines)

    def retranslate(self) -> None:
        if self._thinking:
            self.thinking()
        elif self._shown is not None:
            self.show_hint(*self._shown)

    def list_options(self, lines: Text, hint: Hint) -> None:
        for index, option in enumerate(hint.options[:MAX_OPTIONS]):
            if index:
                lines.append("\n")
            marker = "★ " if option.best else "  "
            value = format_value(option.value, hint.unit)
            loss = "" if option.best else f" −{format_loss(option.loss, hint.unit)}"
            style = "bold" if option.best else ""
            lines.append(f"{marker}{value}{loss:>8}  {render(option.label)}", style=style)
        if len(hint.options) > MAX_OPTIONS:
            more = len(hint.options) - MAX_OPTIONS
            lines.append("\n" + tr(N_("… and {n} more"), n=more), style="dim")

    def thinking(self) -> None:
        self._thinking = True
        self.border_title, self.border_subtitle = _("Coach"), ""
        self.update(_("Thinking…"))
