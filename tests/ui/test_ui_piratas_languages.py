"""Batalla de Piratas speaks each language with its own piece letters (loro is l, not p; the
sailor and the monkey do not share m), on the board, the roster, the key bar and the rule
card; and a yes is answered with the language's key (s for sí and sim) while y still works."""

from __future__ import annotations

import re

import pytest
from piratas_script import loaded_faces, turns
from uihelpers import screen_text, start_game

from app import i18n
from app.dice import LoadedDice
from app.main import CubileteApp
from app.rule_cards import card_path
from app.screens.confirm import ConfirmScreen
from app.screens.game import GameScreen
from app.screens.piratas import PiratasScreen
from app.widgets.piratas.board import PIECE_LETTERS, letters
from app.widgets.piratas.roster import Roster
from rules import N_, Text
from rules.piratas import BLUE, PIECE_NAMES, PIECES

LANGUAGES = list(i18n.LANGUAGES)


@pytest.fixture
def speaking():
    def use(code: str) -> None:
        i18n.use_language(code)

    yield use
    i18n.use_language("en")


def another_languages_yes(action: str) -> bool:
    """A yes binding that works only in another language (s in English)."""
    key = re.search(r", '(\w)'\)$", action)
    return key is not None and key.group(1) != i18n.yes_key()


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_language_has_five_letters_for_five_pieces_and_no_other_key(speaking, code):
    speaking(code)
    keys = letters()
    assert keys is PIECE_LETTERS[code] and len(set(keys.values())) == len(PIECES)
    other_keys = {
        key
        for screen in (PiratasScreen, GameScreen, CubileteApp)
        for binding in screen.BINDINGS
        if "piece_key" not in binding.action  # type: ignore[union-attr]
        if not another_languages_yes(binding.action)  # type: ignore[union-attr]
        for key in binding.key.split(",")  # type: ignore[union-attr]
    }
    assert set(keys.values()) & other_keys == set()
    assert i18n.yes_key() not in keys.values() and "n" not in keys.values()


@pytest.mark.parametrize(("code", "initials"), [("es", "celam"), ("pt", "cepam")])
def test_a_letter_is_the_pieces_own_initial_in_its_language(speaking, code, initials):
    """loro is l, papagaio p; where two names start alike the monkey keeps m (as in
    English) and the sailor takes the a of marinero / marinheiro."""
    speaking(code)
    names = [i18n._(PIECE_NAMES[piece]) for piece in PIECES]
    assert "".join(letters().values()) == initials
    assert [letters()[piece] in name for piece, name in zip(PIECES, names, strict=True)] == [
        True
    ] * 5
    assert i18n._("c e p s m · ↑↓ enter").startswith(" ".join(initials))


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_rule_card_gives_each_piece_its_letter(speaking, code):
    speaking(code)
    card = card_path("piratas", code).read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([^|(]+?) \((\w)\) \|", card, re.MULTILINE)
    names = [i18n._(PIECE_NAMES[piece]).capitalize() for piece in PIECES]
    assert rows == [(name, letters()[piece]) for name, piece in zip(names, PIECES, strict=True)]


@pytest.mark.parametrize("code", ["es", "pt"])
async def test_a_whole_game_by_the_languages_letters(speaking, code):
    """The script's game by keyboard in Spanish and in Portuguese: after the opening each
    piece moves by its letter in the language; the English letter of a piece whose letter
    differs does nothing."""
    speaking(code)
    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="piratas")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "piratas", ["Ana", "Bruno"], {"lives": 1})
        assert isinstance(screen, PiratasScreen)
        english = PIECE_LETTERS["en"]
        first_free = True
        for turn in turns():
            await pilot.press("space")
            await pilot.pause()
            assert screen.state.dice == turn.dice
            if screen.state.in_opening:
                await pilot.press("enter")
            else:
                if first_free:  # the key bar and the board in the language's letters
                    first_free = False
                    shown = screen_text(app)
                    assert " ".join(letters().values()) in shown.splitlines()[-1]
                    own = [piece for piece in PIECES if letters()[piece] != english[piece]]
                    on_board = [  # a piece on the board: its letter and its one life
                        piece
                        for piece in own
                        for key in (letters()[piece].upper(), letters()[piece])
                        if f"{key}1" in shown
                    ]
                    assert on_board, shown
                    roster_text = str(screen.query_one(Roster).render())
                    for piece in PIECES:
                        name = i18n._(PIECE_NAMES[piece])
                        assert f"{letters()[piece].upper()} {name}" in roster_text
                    foreign = [english[p] for p in PIECES if english[p] not in letters().values()]
                    for key in foreign:  # (p, s in Spanish; s in Portuguese)
                        before = screen.state
                        await pilot.press(key)
                        await pilot.pause()
                        assert screen.state == before
                await pilot.press(letters()[turn.piece])
            await pilot.pause()
            if not isinstance(app.screen, PiratasScreen):
                break
            last = screen.state.last_move
            assert last is not None and last.piece == turn.piece and last.side == turn.side
        assert screen.table.over and screen.state.winner == BLUE


@pytest.mark.parametrize(("code", "yes"), [("en", "y"), ("es", "s"), ("pt", "s")])
async def test_a_question_is_answered_yes_with_the_languages_key(speaking, code, yes):
    speaking(code)
    app = CubileteApp(animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key, expected in ((yes, True), ("y", True), ("n", False)):
            answers: list[bool | None] = []
            app.confirm(Text(N_("Write 0 in {box}?"), {"box": "Generala"}), answers.append)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            label = {"en": "Yes (y)", "es": "Sí (s)", "pt": "Sim (s)"}[code]
            assert label in screen_text(app)
            await pilot.press(key)
            await pilot.pause()
            assert answers == [expected]
        if code == "en":  # s is not yes in English
            answers = []
            app.confirm(Text(N_("Write 0 in {box}?"), {"box": "Generala"}), answers.append)
            await pilot.pause()
            await pilot.press("s")
            await pilot.pause()
            assert answers == [] and isinstance(app.screen, ConfirmScreen)


def test_the_undo_question_names_the_languages_yes_key(speaking):
    asks = N_("{player} asks to take back their last decision: y agrees, n refuses")
    for code in LANGUAGES:
        speaking(code)
        assert f": {i18n.yes_key()} " in i18n.tr(asks, player="Ana")
    assert i18n.YES_KEYS == {"en": "y", "es": "s", "pt": "s"}
