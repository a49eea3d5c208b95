"""Every word on every screen comes from the catalogue, and a change of language reaches it.

A pseudo-language, made at test time from the template (`app/locale/cubilete.pot`), marks
every translated string: "Throw" reads "⟦Throw⟧". Pilot then visits every screen of every
game (the lobby, each game through a few turns with the coach open and a bot to move, an
error in the status line, the rules, the question before a 0, the game over, the palette,
the too-small note), and the test fails on any text on screen outside the marks that is not
a name (a game's, a Generala box's, a player's), a number, a key or a drawing.

Each visit is made twice: in the pseudo-language from the start, and in English with the
language switched on the spot (the lobby's and the palette's switch: every screen must follow).
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from textual.command import CommandList
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from uihelpers import screen_text, start_game, until

from app import i18n
from app.dice import RandomDice
from app.games import screen_class
from app.main import CubileteApp
from app.screens.confirm import ConfirmScreen
from app.screens.game_over import GameOverScreen
from app.screens.lobby import LobbyScreen
from app.table import Seat, Table
from app.widgets.piratas.board import PIECE_LETTERS
from kits import KITS
from rules.generala import BOX_NAMES

POT = Path(__file__).resolve().parents[2] / "app" / "locale" / "cubilete.pot"
OPEN, CLOSE = "⟦", "⟧"
PSEUDO = "es"
"""The pseudo-language stands in for Spanish: numbers take the decimal comma, the rule cards
are Spanish (they are files, checked by tests/test_rule_cards.py, not catalogue words)."""


class Pseudo(gettext.NullTranslations):
    """Every msgid of the template, marked; anything else comes back as it went in."""

    def __init__(self) -> None:
        super().__init__()
        self.words: dict[str, str] = {}
        self.plurals: dict[str, tuple[str, str]] = {}
        with open(POT, "rb") as f:
            for message in read_po(f):
                if not message.id:
                    continue
                prefix = f"{message.context}\x04" if message.context else ""
                if isinstance(message.id, tuple):
                    self.plurals[prefix + message.id[0]] = message.id
                else:
                    self.words[prefix + message.id] = self.mark(message.id)

    @staticmethod
    def mark(message: str) -> str:
        # a trailing newline (argparse's) stays outside, as the message's own layout
        body = message.rstrip("\n")
        return OPEN + body + CLOSE + message[len(body) :]

    def gettext(self, message: str) -> str:
        return self.words.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        if msgid1 in self.plurals:
            return self.mark(self.plurals[msgid1][0 if n == 1 else 1])
        return msgid1 if n == 1 else msgid2


PSEUDO_CATALOGUE = Pseudo()

NAMES = {"Ana", "Bruno", "Carla", "Diego", "Cubilete"}
GAME_WORDS = {word.strip(",") for kit in KITS.values() for word in kit.name.split()}
BOX_WORDS = {word for name in BOX_NAMES.values() for word in name.split()}
ALLOWED_WORDS = NAMES | GAME_WORDS | BOX_WORDS | {"y", "&"}
"""What may stay untranslated: names (players', games', Generala's Spanish boxes)."""
PIECE_KEYS = "".join(sorted({key for keys in PIECE_LETTERS.values() for key in keys.values()}))
"""Batalla de Piratas' piece letters, of every language."""
ALLOWED_TOKEN = re.compile(
    r"""^(
        [^\w]*                      # drawings, arrows, punctuation, marks (★ ✗ ⚔ ☠ ◇ ▸ ⏎)
      | [-+−]?\d+([.,]\d+)?%?[→]? # numbers, signed, decimal, percent, a carried pot
      | \d+(-\d+)+                # 1-5, 3-3-4-4-5
      | \d{1,2}:\d{2}             # a time of day: 19:24 (the lists of games)
      | ([PIECE_KEYS]\d+)+        # pieces on the board: C3E3
      | [PIECE_KEYS]              # a piece's key and letter
      | d[12]                     # the two dice of Piratas
      | [AB]                      # Multiplicación's slots
      | f\d+|\^[a-z]              # function keys, ctrl+ keys
      | [1-5rsfhkatpqylng?]       # single keys
    )$""".replace("PIECE_KEYS", PIECE_KEYS + PIECE_KEYS.upper()),
    re.VERBOSE,
)
EXCLUDED = ("#game-blurb", "#rules-text")
"""Widgets that show a rule card (a file per language, not catalogue words)."""


def shown_screens(app: CubileteApp) -> list[Screen]:
    """The screen on top, and those a modal one (the palette, a question) lets show."""
    stack = app.screen_stack
    shown = [stack[-1]]
    while isinstance(shown[-1], ModalScreen) and len(shown) < len(stack):
        shown.append(stack[-1 - len(shown)])
    return shown


def unmarked(app: CubileteApp, typed: frozenset[str] = frozenset()) -> list[str]:
    """The words on screen that did not come through the catalogue (and may not stay);
    `typed`: words the player typed."""
    lines = screen_text(app).split("\n")
    for selector in EXCLUDED:
        screens = shown_screens(app)
        for widget in [w for screen in screens for w in screen.query(selector).results(Widget)]:
            region = widget.region  # as far as it shows: its containers clip it (a long card)
            for container in widget.ancestors:
                if isinstance(container, Widget) and not isinstance(container, Screen):
                    region = region.intersection(container.region)
            for y in range(region.y, min(region.bottom, len(lines))):
                line = lines[y].ljust(region.right)
                lines[y] = line[: region.x] + " " * region.width + line[region.right :]
    return leftover_words("\n".join(lines), typed)


def leftover_words(text: str, typed: frozenset[str] = frozenset()) -> list[str]:
    """The words of `text` outside the marks that may not stay untranslated."""
    # a mark can hold another (a message's value is a message): take the innermost first
    previous = None
    while previous != text:
        previous = text
        text = re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", text)
    # a mark cut by the edge of its widget (an ellipsis, a narrow column): to the line's end
    text = re.sub(f"{OPEN}[^\n]*", " ", text)
    text = re.sub(f"[^\n]*{CLOSE}", " ", text)
    leftovers = []
    for token in re.split(r"[\s\u2500-\u257f]+", text):  # (box drawings part words too)
        word = re.sub(r"^[^\w^−+-]+|[^\w%→]+$", "", token)  # drawings, punctuation around
        if word and word not in ALLOWED_WORDS | typed and not ALLOWED_TOKEN.match(word):
            if token.endswith("…") and any(
                allowed.startswith(word) for allowed in ALLOWED_WORDS | typed
            ):
                continue  # a name cut short in a narrow column ("Multiplica…")
            leftovers.append(token)
    return leftovers


def speak_pseudo(app: CubileteApp | None = None) -> None:
    i18n.use_catalogue(PSEUDO_CATALOGUE, PSEUDO)
    if app is not None:
        app.retranslate()


async def check(pilot, live: bool, where: str, typed: frozenset[str] = frozenset()) -> None:
    """In the pseudo-language (switched to now if `live`), every word on screen is marked."""
    app = pilot.app
    if live:
        speak_pseudo(app)
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()
    shown = screen_text(app)
    assert unmarked(app, typed) == [], f"{where}:\n{shown}"
    if live:  # back to English for the next step, as the player would switch back
        i18n.use_language("en")
        app.retranslate()
        await pilot.pause()


def new_app(**kwargs) -> CubileteApp:
    return CubileteApp(dice=RandomDice(7), animate=False, **kwargs)


@pytest.fixture(params=[False, True], ids=["from-the-start", "switched-live"])
def live(request):
    if not request.param:
        speak_pseudo()
    yield request.param
    i18n.use_language("en")


def test_the_checker_sees_an_unmarked_word():
    assert leftover_words("│ ⟦Tutor: ⟦error⟧ (−0,25)⟧ Throw │") == ["Throw"]
    assert leftover_words("⟦Ana: press space to\n throw⟧ ⟦wrapped and cut at the ed\n╰─") == []
    assert leftover_words("│C3E3P3│ f2 ⟦Start⟧ ▏^p Ana 12 (25) Escalera larga ⏎ 1-5") == []
    assert leftover_words("Throw the dice  space") == ["Throw", "the", "dice", "space"]


async def test_the_lobby_of_every_game_with_its_options_and_notices(live, tmp_path):
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _game in KITS:
            await check(pilot, live, f"lobby, {app.screen.game_id}")
            await pilot.press("down")
        await pilot.press("tab")  # the setup sheet: a note under each row
        for _row in range(12):
            await pilot.press("down")
            await check(pilot, live, "lobby, a row of the sheet")
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        screen.query_one("#game-list").highlighted = 0  # Barco: a refused option
        await pilot.pause()
        screen.sheet.raw["rounds"] = "0"
        await pilot.press("f2")
        await check(pilot, live, "lobby, a refused option")


async def test_a_resumable_game_and_an_unreadable_save_are_announced(live, private_data_dir):
    table = Table.new("generala", [Seat(name="Ana"), Seat(name="Bruno")], dice=RandomDice(3))
    from app import saves

    saves.write(table)
    (private_data_dir / "saves" / "game-broken.json").write_text("{", encoding="utf-8")
    app = new_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await check(pilot, live, "lobby with notices")


PLAYS = {
    "generala": ["space", "1", "2", "space", "9", "space", "space", "enter", "n", "up", "enter"],
    "barco": ["space", "1", "space", "space", "s", "space", "2", "space", "space", "s"],
    "navio": ["space", "1", "space", "space", "s", "space", "space", "space"],
    "multiplicacion": ["a", "space", "k", "t", "space", "space", "p", "space", "a", "space"],
    "piratas": ["enter", "space", "enter", "space", "x", "enter", "space", "enter", "up"],
}
"""Keys a player might press in each game, legal or not (a refusal says why on the status)."""


@pytest.mark.parametrize("game", list(KITS))
async def test_every_games_screen_through_a_few_turns_with_the_coach(game, live):
    app = new_app(bot_pace=600)  # a bot's turn stays a bot's turn
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, game, ["Ana", "Bruno"])
        await check(pilot, live, f"{game} at the start")
        for key in PLAYS[game]:
            await pilot.press(key)
            await app.workers.wait_for_complete()
            if isinstance(app.screen, ConfirmScreen):
                await check(pilot, live, f"{game}, the question before writing 0")
                await pilot.press("n")
            await check(pilot, live, f"{game} after {key}")
        await pilot.press("h")
        await check(pilot, live, f"{game} with the coach open")
        await pilot.press("f1")
        await check(pilot, live, f"{game}'s rules")
        await pilot.press("escape")
        await pilot.press("escape")
        await check(pilot, live, "back in the lobby")


@pytest.mark.parametrize("game", list(KITS))
async def test_a_bots_turn_says_what_the_bot_does(game, live):
    app = new_app(bot_pace=600)
    async with app.run_test(size=(80, 24)) as pilot:
        bots = [Seat(name="Ana", kind="easy"), Seat(name="Bruno", kind="easy")]
        await start_game(pilot, game, bots)
        await check(pilot, live, f"{game}, a bot to move")
        await pilot.press("space")  # refused: a bot plays
        await check(pilot, live, f"{game}, a key in a bot's turn")


@pytest.mark.parametrize("game", list(KITS))
async def test_the_game_over_screen(game, live):
    seats = [Seat(name="Ana"), Seat(name="Bruno")]
    options = {"stakes": True} if game == "barco" else {}
    table = Table.new(game, seats, options, dice=RandomDice(11))
    while not table.over:
        table.act(table.game.legal_actions(table.state)[-1])
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_screen(screen_class(game)(table))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await check(pilot, live, f"{game}, game over")


async def test_the_palette_and_its_commands(live):
    if live:
        pytest.skip("the palette is closed when the language changes: the change is its command")
    app = new_app()
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await check(pilot, live, "the palette")
        await pilot.press(*"zzzz")
        commands = app.screen.query_one(CommandList)
        await until(
            pilot,
            lambda: [option.disabled for option in commands.options] == [True],
            "the palette's note that it found nothing (one option, not to be chosen)",
        )
        await check(pilot, live, "the palette, nothing found", typed=frozenset({"zzzz"}))


async def test_the_too_small_note(live):
    app = new_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await check(pilot, live, "too small")


# -- switching ----------------------------------------------------------------------------------
async def test_the_lobbys_language_button_switches_every_screen_and_is_remembered(
    private_data_dir,
):
    from app.settings import remembered_language

    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "generala", ["Ana", "Bruno"])
        await pilot.press("space")
        await app.workers.wait_for_complete()
        await pilot.press("escape")  # back to the lobby; the game waits to be resumed
        await pilot.pause()
        await pilot.press("f4")  # English → Español
        await pilot.pause()
        text = screen_text(app)
        assert "Idioma: Español" in text and "Empezar (F2)" in text
        assert remembered_language() == "es"
        await pilot.press("f3")  # the game comes back in Spanish, its log too
        await pilot.pause()
        text = screen_text(app)
        assert "Charla de mesa" in text and "Planilla" in text
        assert "para ver quién sale" in " ".join(text.split())
        await pilot.press("escape", "f4")  # Español → Português
        await pilot.pause()
        assert "Idioma: Português" in screen_text(app)
        assert remembered_language() == "pt"
        await pilot.press("f4")
        await pilot.pause()
        assert "Language: English" in screen_text(app)


async def test_a_rule_card_kept_while_closed_opens_in_the_language_chosen_meanwhile(
    private_data_dir,
):
    """Each game's rule card is built once and kept (app/screens/rules.py); a change of
    language reaches only the screens on show, so the kept card catches up when it opens."""
    from app.rule_cards import rule_card
    from app.screens.rules import RulesScreen

    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_game("generala", [Seat(name="Ana"), Seat(name="Bruno")], {})
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        rules = app.screen
        assert isinstance(rules, RulesScreen)
        await pilot.press("escape")
        await pilot.pause()
        app.set_language("es", remember=False)
        await pilot.pause()
        await pilot.press("f1")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is rules
        assert rules.query_one("#rules-text").source == rule_card("generala", "es")
        assert "Reglas de Generala" in screen_text(app)
        assert rule_card("generala", "es") != rule_card("generala", "en")


async def test_the_statistics_in_every_view(live, private_data_dir):
    """The figures (the expert's column and its notes), and each view: the plots' titles and
    axes, the costliest kinds of decision in words."""
    from records_fixtures import finished as finished_game
    from records_fixtures import history, write

    history(private_data_dir, 6)
    write(private_data_dir, finished_game("navio", 4), 1_780_100_000.0)  # (no expected score)
    app = new_app(game="generala")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("f6")
        await until(pilot, lambda: type(app.screen).__name__ == "StatisticsScreen", "it")
        await check(pilot, live, "statistics, every game")
        await pilot.press("g")  # Barco: its plots
        for view in ("scores", "distribution", "loss", "mistakes"):
            app.screen.action_show_view(view)
            await check(pilot, live, f"statistics, {view}")
