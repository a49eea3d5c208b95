"""Spanish and Portuguese as a porteño and a paulista would say them: sentences that agree
whatever fills them, the rules stated right, and the cards in step with the screens."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from app import i18n
from app.rule_cards import card_path
from rules import C_, N_, NP_, Text

TRANSLATIONS = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]
LOCALE = i18n.LOCALE_DIR
ARTICLES = {
    "es": r"el|la|los|las|un|una|al|del",
    "pt": r"o|a|os|as|um|uma|ao|à|do|da|no|na|num|numa",
}
"""Words that agree in gender with the noun after them."""
NOUN_PLACEHOLDERS = ("place", "box", "game")
"""Placeholders filled with nouns of either gender ("barco" and "tripulación"; "Trío" and
"Generala"; "Barco" and "Multiplicación"): an article before one is wrong for half of them."""


def strings(code: str) -> Iterator[tuple[str, str]]:
    """Every (msgid, msgstr) of a catalogue, each plural form on its own."""
    with open(LOCALE / code / "LC_MESSAGES" / "cubilete.po", "rb") as f:
        catalogue = read_po(f)
    for message in catalogue:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in texts:
            yield msgid, text


@pytest.fixture(params=TRANSLATIONS)
def language(request) -> Iterator[str]:
    i18n.use_language(request.param)
    yield request.param
    i18n.use_language("en")


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_no_article_stands_before_a_placeholder_that_is_a_noun(code):
    """An article before "{place}" gives "El tripulación" when the place is the crew: the noun
    comes with no article, "Es un 4 (tripulación)"."""
    names = "|".join(NOUN_PLACEHOLDERS)
    before = re.compile(rf"\b({ARTICLES[code]})\s+\{{({names})\}}", re.IGNORECASE)
    assert [text for _msgid, text in strings(code) if before.search(text)] == []


def test_a_place_set_aside_reads_right_for_every_place(language):
    aside = N_("The {place} is a {face}: the table sets it aside by itself")
    expected = {
        "es": "Es un 4 (tripulación): la mesa aparta ese dado sola",
        "pt": "É um 4 (tripulação): a mesa separa esse dado sozinha",
    }
    crew = i18n._(C_("navio", "Crew")).lower()
    assert i18n.render(Text(aside, {"place": crew, "face": 4})) == expected[language]


def test_a_race_is_a_race_to_the_target_not_won_by_the_first_to_reach_it(language):
    """The round is finished and the highest total wins: "first to 100" is a race, and must
    not say that whoever gets there first wins."""
    race = NP_("Round {round}, first to {target} point", "Round {round}, first to {target} points")
    expected = {"es": "Ronda 3, carrera a 100 puntos", "pt": "Rodada 3, corrida até 100 pontos"}
    assert (
        i18n.render(Text(race, {"round": 3, "target": 100}, count="target")) == expected[language]
    )


def test_navios_leader_is_the_one_winning_not_the_first_in_turn(language):
    """Spanish "el que va primero" reads as the first to play; the limit is set by the best treasure
    so far."""
    leads = N_("{player} leads with {treasure}")
    said = i18n.render(Text(leads, {"player": "Ana", "treasure": 9}))
    assert said == {"es": "Ana va ganando con 9", "pt": "Ana lidera com 9"}[language]
    limit = N_("{player} may use {allowed}: {leader} leads with {treasure}")
    said = i18n.render(
        Text(limit, {"player": "Bruno", "allowed": "1", "leader": "Ana", "treasure": 9})
    )
    assert "va primero" not in said


@pytest.mark.parametrize(
    ("code", "leader", "wrong"),
    [("es", "puntero", "va primero"), ("pt", "líder", "primeiro a jogar")],
)
def test_navios_card_names_the_leader_as_the_screens_do(code, leader, wrong):
    card = card_path("navio", code).read_text(encoding="utf-8")
    assert leader in card and wrong not in card


NUMBER_BOXES = [N_("Ones"), N_("Twos"), N_("Threes"), N_("Fours"), N_("Fives"), N_("Sixes")]
CATEGORIES = {
    "es": {"trío", "trio", "poker", "póker", "full", "escalera", "generala", "par", "doble"},
    "pt": {
        "trinca",
        "quadra",
        "quadrada",
        "quina",
        "full",
        "sequência",
        "seguida",
        "general",
        "generala",
        "par",
        "poker",
        "pôquer",
    },
}
"""What players of each language call a combination in a dice (or card) game: four of a kind
is a "quadra" to a Brazilian player, five of a kind a "quina"."""


def test_no_number_box_is_named_like_another_games_category(language):
    """Generala's fours sit beside its Poker: a box called "Quadra" would read as four of a
    kind. The number boxes are named by their faces (Uno … Seis, Um … Seis)."""
    names = [i18n._(box) for box in NUMBER_BOXES]
    assert len(set(names)) == 6
    assert [name for name in names if name.lower() in CATEGORIES[language]] == []


def test_a_zero_in_generala_is_crossing_a_box_out(language):
    asked = i18n.tr(N_("Write 0 in {box}?"), box=i18n._(N_("Fours")))
    assert asked == {"es": "¿Tachar Cuatro?", "pt": "Riscar Quatro?"}[language]


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_the_cards_say_the_words_the_screens_say(code):
    """Words a card used and the screens no longer do (issue 28): the cup is not what is
    thrown again, a number box is not a Quadra, the lobby is the Sala."""
    wrong = {
        "es": ["tirar el cubilete", "asiento", "de a par", "casilla libre", "va primero"],
        "pt": [
            "o copo de novo",
            "salão",
            "assento",
            "Quadra",
            "Terno",
            "**0 à 15**",
            "uma vez\n  sempre",
            "rolagens por vez",
        ],
    }[code]
    found = []
    for game in ("barco", "generala", "multiplicacion", "navio", "piratas"):
        card = card_path(game, code).read_text(encoding="utf-8")
        found += [f"{game}: {word}" for word in wrong if word.lower() in card.lower()]
    assert found == []
