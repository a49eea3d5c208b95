"""The rule cards, `seeds/<game>.md`: read by the rules screen, and by the lobby for a blurb."""

from __future__ import annotations

from pathlib import Path

from rules import game_name

from .i18n import _

SEEDS_DIR = Path(__file__).resolve().parents[1] / "seeds"
"""The rule cards: `seeds/` beside `app/`, in a checkout and in site-packages alike."""


def rule_card(game_id: str) -> str:
    try:
        return (SEEDS_DIR / f"{game_id}.md").read_text(encoding="utf-8")
    except OSError:
        return _("# {game}\n\nThe rule card is missing.").format(game=game_name(game_id))
