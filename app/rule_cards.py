"""The rule cards: read by the rules screen, and by the lobby for a blurb.

Each game has a card in every language the app speaks: `seeds/<card>.md` in English,
`seeds/<card>.<lang>.md` in the others (`seeds/generala.es.md`), the card being the one its
kit names (`kits.GameKit.card`). A card is shown in the
player's language, the English one when that language has none.
"""

from __future__ import annotations

from pathlib import Path

from kits import kit
from rules import N_, game_name

from .i18n import SOURCE, current_language, tr

SEEDS_DIR = Path(__file__).resolve().parents[1] / "seeds"
"""The rule cards: `seeds/` beside `app/`, in a checkout and in site-packages alike."""


def card_path(game_id: str, language: str) -> Path:
    suffix = "" if language == SOURCE else f".{language}"
    return SEEDS_DIR / f"{kit(game_id).card}{suffix}.md"


def rule_card(game_id: str, language: str | None = None) -> str:
    """The game's card in `language` (default: the player's), else in English."""
    language = language or current_language()
    for path in dict.fromkeys((card_path(game_id, language), card_path(game_id, SOURCE))):
        try:
            return path.read_text(encoding="utf-8")
        except OSError:
            continue
    return tr(N_("# {game}\n\nThe rule card is missing."), game=game_name(game_id))
