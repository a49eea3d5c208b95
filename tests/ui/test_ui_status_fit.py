"""At 80×24, in every language, every status line fits the status area's two lines, and every
coach title fits the coach's panel.

The widths are measured on the game screens themselves at 80×24 (the status area is what the
table leaves beside the side panel; the coach's panel, its place). The templates are every
string of the game screens (their prompts, what a bot is doing, what a key said) and every
message a rule refuses a move with (shown on the status line after "⚠ "), each filled with the
longest values a table really shows: an 11-letter name, the longest piece, side and box names
of the language, the widest numbers."""

from __future__ import annotations

import ast
import asyncio
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from textual.content import Content
from uihelpers import screen_text, settle, start_game

from app import i18n
from app.coach_words import UNIT_NAMES
from app.dice import RandomDice
from app.main import CubileteApp
from app.table import Seat
from rules import C_, N_, NP_
from rules.piratas import PIECE_NAMES, SIDE_NAMES

ROOT = Path(__file__).resolve().parents[2]
SIZE = (80, 24)
STATUS_LINES = 2
NAME = "Maximiliano"
"""A long name a player really types (the server allows 24 letters; few names have more than
eleven)."""
SEATS = [Seat(name=NAME), Seat(name="Florentino")]
PLAYS = {
    "generala": ["space"],
    "barco": ["space", "space", "space"],
    "navio": ["space", "space", "space"],
    "multiplicacion": ["space", "space"],
    "piratas": ["space", "enter", "space", "enter", "space"],
}
"""Keys that bring each game to a decision the coach rates."""
OPTIONS = {"barco": {"stakes": True}}
SCREEN_FILES = {
    "app/screens/game.py": tuple(PLAYS),
    "app/screens/ship.py": ("barco", "navio"),
    "app/screens/barco.py": ("barco",),
    "app/screens/navio.py": ("navio",),
    "app/screens/generala.py": ("generala",),
    "app/screens/multiplicacion.py": ("multiplicacion",),
    "app/screens/piratas.py": ("piratas",),
}
"""The game screens' code, and the games whose status line it writes."""
RULE_FILES = {"ship": ("barco", "navio"), "game": tuple(PLAYS), "dice": tuple(PLAYS)}


# -- what the screens measure -----------------------------------------------------------------
async def measure(language: str) -> dict[str, tuple[int, int, bool]]:
    """Each game's status width and coach width at 80×24, and whether the coach's title and
    unit show whole on the screen."""
    found = {}
    i18n.use_language(language)
    try:
        for game, keys in PLAYS.items():
            app = CubileteApp(dice=RandomDice(4), animate=False)
            async with app.run_test(size=SIZE) as pilot:
                await start_game(pilot, game, SEATS, OPTIONS.get(game, {}))
                for key in [*keys, "h"]:
                    await pilot.press(key)
                    await settle(pilot)
                status = app.screen.query_one("#status")
                coach = app.screen.query_one("#coach")
                assert NAME in str(coach.border_title) or "Florentino" in str(coach.border_title)
                shown = screen_text(app)
                whole = str(coach.border_title) in shown and str(coach.border_subtitle) in shown
                found[game] = (status.content_region.width, coach.outer_size.width, whole)
    finally:
        i18n.use_language("en")
    return found


MEASURED: dict[str, dict[str, tuple[int, int, bool]]] = {}


def widths(language: str) -> dict[str, tuple[int, int, bool]]:
    if language not in MEASURED:
        MEASURED[language] = asyncio.run(measure(language))
    return MEASURED[language]


# -- the status-line templates ------------------------------------------------------------------
def screen_templates() -> Iterator[tuple[str | tuple[str, str], tuple[str, ...]]]:
    """Every string the game screens' code marks, with the games whose screen shows it."""
    with open(ROOT / "app" / "locale" / "cubilete.pot", "rb") as f:
        template = read_po(f)
    for message in template:
        games = {game for path, _line in message.locations for game in SCREEN_FILES.get(path, ())}
        one_line = "\n" not in (message.id if isinstance(message.id, str) else message.id[0])
        if message.id and games and one_line:  # (a string of several lines is a legend)
            msgid = message.id
            if message.context:
                msgid = C_(message.context, msgid) if isinstance(msgid, str) else msgid
            yield msgid, tuple(sorted(games))


def marked(node: ast.AST) -> Iterator[str | tuple[str, str]]:
    """The strings marked with N_ (or NP_) anywhere under `node`."""
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and getattr(call.func, "id", "") in ("N_", "NP_"):
            texts = [arg.value for arg in call.args if isinstance(arg, ast.Constant)]
            yield texts[0] if len(texts) == 1 else (texts[0], texts[1])


def refusals() -> Iterator[tuple[str | tuple[str, str], tuple[str, ...]]]:
    """Every message a rule refuses a move with: the first argument of each IllegalAction,
    a marked string there or a name (constant, attribute, table, keyword) given marked
    strings."""
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8")) for path in (ROOT / "rules").glob("*.py")
    }
    assigned: dict[str, list[str | tuple[str, str]]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                name = getattr(target, "id", getattr(target, "attr", None))
                if name is not None and node.value is not None:
                    assigned.setdefault(name, []).extend(marked(node.value))
            if isinstance(node, ast.keyword) and node.arg is not None:  # ShipRules(complete=…)
                assigned.setdefault(node.arg, []).extend(marked(node.value))
    for path, tree in trees.items():
        games = RULE_FILES.get(path.stem, (path.stem,) if path.stem in PLAYS else tuple(PLAYS))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalAction"):
                continue
            first = node.args[0]
            yield from ((text, games) for text in marked(first))
            for name in ast.walk(first):
                key = getattr(name, "id", getattr(name, "attr", None))
                yield from ((text, games) for text in assigned.get(key or "", ()))


def values(language: str) -> dict[str, object]:
    """The longest value each placeholder takes at a table, in the language in use."""
    longest = lambda names: max((i18n._(name) for name in names), key=len)  # noqa: E731
    piece = longest(PIECE_NAMES.values())
    side = longest(SIDE_NAMES)
    place = max(
        (
            i18n._(C_(game, word)).lower()
            for game in ("barco", "navio")
            for word in ("Ship", "Captain", "Pilot", "Crew", "Treasure")
        ),
        key=len,
    )
    move = i18n.tr(
        N_("The {piece}: {start} → {end}, strikes {enemy} {target}"),
        piece=piece,
        start=15,
        end=14,
        enemy=side,
        target=piece,
    )
    return {
        "player": NAME,
        "leader": NAME,
        "payer": NAME,
        "payee": NAME,
        "players": f"{NAME}, Florentino",
        "side": side,
        "turn": side,
        "piece": piece,
        "place": place,
        "box": "Escalera escasa",
        "move": move,
        "action": i18n._(N_("Throw the triple again")),
        "key": i18n._(C_("key", "space")),
        "allowed": i18n.ntr(NP_("{n} throw", "{n} throws"), 3),
        "held": "6 6 6 6",
        "faces": "6 6 6 6 6",
        "dice": "6 6",
        "formula": "(11 − 4) × 6 = 42",
        "a": 6,
        "b": 6,
        "face": 6,
        "blue": 6,
        "red": 6,
        "n": 3,
        "limit": 3,
        "throws": 3,
        "count": 5,
        "score": 12,
        "treasure": 12,
        "points": 50,
        "round": 10,
        "rounds": 10,
        "target": 100,
        "chips": 100,
        "pot": 100,
        "bankroll": 100,
        "net": "+100",
        "expected": 5,
        "got": 4,
        "game": "Batalla de Piratas",
        "penalty": 4,
        "total": 100,
        "time": "59 s",
        "wins": f"{NAME} 5",
        "what": move,
    }


def rendered(msgid: str | tuple[str, str], filled: dict[str, object]) -> list[str]:
    forms = (
        [i18n.ngettext(msgid[0], msgid[1], n) for n in (1, 2)]
        if isinstance(msgid, tuple)
        else [i18n._(msgid)]
    )
    texts = []
    for form in forms:
        names = {name for _t, name, _s, _c in string.Formatter().parse(form) if name}
        missing = names - filled.keys()
        assert not missing, f"no realistic value for {missing} in {form!r}: add one to values()"
        texts.append(form.format(**filled) if names else form)
    return texts


def lines(text: str, width: int) -> int:
    return len(Content(text).wrap(width))


LANGUAGES = list(i18n.LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_status_line_fits_two_lines_at_80_columns(language):
    measured = widths(language)
    i18n.use_language(language)
    try:
        filled = values(language)
        too_long = []
        for source, prefix in ((screen_templates(), ""), (refusals(), "⚠ ")):
            for msgid, games in source:
                width = min(measured[game][0] for game in games)
                for text in rendered(msgid, filled):
                    if lines(prefix + text, width) > STATUS_LINES:
                        too_long.append(f"{width} columns: {prefix + text}")
    finally:
        i18n.use_language("en")
    assert too_long == []


BORDER = 4
"""What a panel's border leaves of its width to a title: the two corners and a cell of line
beside each (the whole title on screen beside the table proves it, above)."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_coach_title_fits_its_panel_at_80_columns(language):
    """On each game's screen the title (whose decision) and the unit (under the panel) show
    whole; and any unit, in the narrowest panel of any game."""
    measured = widths(language)
    assert {game: whole for game, (_status, _coach, whole) in measured.items()} == {
        game: True for game in PLAYS
    }
    narrowest = min(coach for _status, coach, _whole in measured.values()) - BORDER
    i18n.use_language(language)
    try:
        title = i18n.tr(N_("Coach · {who}"), who=NAME)
        units = [i18n._(unit) for unit in UNIT_NAMES.values()]
    finally:
        i18n.use_language("en")
    assert [text for text in [title, *units] if len(text) > narrowest] == []


def test_the_fit_check_catches_a_third_line():
    assert lines("x" * 86, 43) == 2 and lines("x" * 87, 43) == 3
