"""Every game has its rule card in every language the app speaks, with the same content."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from app import i18n
from app.rule_cards import card_path, rule_card
from kits import KITS

TRANSLATIONS = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]
CARDS = [(game, code) for game in KITS for code in TRANSLATIONS]


def structure(card: str) -> list[str]:
    """The card's skeleton: each heading's level, each table row, each list item and each
    example (a quoted block), in order; the words are the language's own."""
    shape = []
    for line in card.splitlines():
        if heading := re.match(r"#+ ", line):
            shape.append(heading.group().strip())
        elif line.startswith("|"):
            shape.append("|" * line.count(" | "))  # a row, and its number of cells
        elif re.match(r"(\d+\.|-) ", line):
            shape.append("1." if line.split(" ")[0].rstrip(".").isdigit() else "-")
        elif line.startswith("> ") and shape[-1:] != [">"]:
            shape.append(">")
    return shape


def numbers(card: str) -> Counter[str]:
    """Every number on the card, decimals written with a point (0,1 in Spanish is 0.1)."""
    found = re.findall(r"\d+(?:[.,]\d+)?", card)
    return Counter(number.replace(",", ".") for number in found)


@pytest.mark.parametrize(("game", "language"), CARDS, ids=[f"{g}-{c}" for g, c in CARDS])
def test_every_card_is_written_in_every_language_with_the_same_structure(game, language):
    english = card_path(game, i18n.SOURCE).read_text(encoding="utf-8")
    translated = card_path(game, language).read_text(encoding="utf-8")
    assert structure(translated) == structure(english)
    assert numbers(translated) == numbers(english)


@pytest.mark.parametrize("game", list(KITS))
def test_every_card_keeps_the_game_name_in_its_own_language(game):
    name = KITS[game].name
    for language in i18n.LANGUAGES:
        assert rule_card(game, language).startswith(f"# {name}\n")


def test_the_card_is_shown_in_the_players_language():
    try:
        i18n.use_language("es")
        assert "## Quién sale" in rule_card("barco")
        i18n.use_language("pt")
        assert "## Quem começa" in rule_card("barco")
    finally:
        i18n.use_language("en")
    assert "## Who starts" in rule_card("barco")


def test_a_language_without_a_card_falls_back_to_english(monkeypatch, tmp_path):
    (tmp_path / "barco.md").write_text("# Barco\n\nIn English.\n", encoding="utf-8")
    monkeypatch.setattr("app.rule_cards.SEEDS_DIR", tmp_path)
    assert rule_card("barco", "es") == "# Barco\n\nIn English.\n"
