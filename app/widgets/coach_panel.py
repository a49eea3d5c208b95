"""The coach: every option of the decision on the table, best first, with its value and loss."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from bots import Hint, Unit

from ..i18n import _, render
from . import sibling_css
from .plain import plain

MAX_OPTIONS = 12

UNIT_NAMES = {
    Unit.FINAL_SCORE: _("expected final score"),
    Unit.ROUND_SCORE: _("expected round score"),
    Unit.WIN_PROBABILITY: _("chance to win"),
}


def format_value(value: float, unit: Unit) -> str:
    if unit is Unit.WIN_PROBABILITY:
        return f"{value * 100:5.1f}%"
    return f"{value:6.2f}"


class CoachPanel(Static):
    """Renders a `Hint`; the screen computes it (off the event loop) and hands it over."""

    DEFAULT_CSS = sibling_css(__file__)

    def show_hint(self, hint: Hint | None, who: str = "") -> None:
        if hint is None:
            self.border_title = _("Coach")
            self.update(_("No decision to make right now."))
            return
        unit = UNIT_NAMES.get(hint.unit, _(str(hint.unit)))
        self.border_title = plain(_("Coach · {who} · {unit}").format(who=who, unit=unit))
        lines = Text(no_wrap=True, overflow="ellipsis")
        for index, option in enumerate(hint.options[:MAX_OPTIONS]):
            if index:
                lines.append("\n")
            marker = "★ " if option.best else "  "
            value = format_value(option.value, hint.unit)
            loss = "" if option.best else f" −{format_value(option.loss, hint.unit).strip()}"
            style = "bold" if option.best else ""
            lines.append(f"{marker}{value}{loss:>8}  {render(option.label)}", style=style)
        if len(hint.options) > MAX_OPTIONS:
            more = len(hint.options) - MAX_OPTIONS
            lines.append("\n" + _("… and {n} more").format(n=more), style="dim")
        self.update(lines)

    def thinking(self) -> None:
        self.border_title = _("Coach")
        self.update(_("Thinking…"))
