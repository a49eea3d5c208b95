"""A screen looks and works the same whatever was opened before it in the same run (issue 27,
item 1).

A screen's style sheet becomes the app's once the screen is first shown, and stays: a rule
written for one screen's widgets that also matches another screen's (`#side`, `#status`,
`#log`…) changes that other screen for the rest of the run. After Batalla de Piratas had been
opened, every later game lost its side panel (the scoresheet and the coach).

Each game is opened after every other game in one app (and after itself) and compared with the
same game opened first in a fresh app: what the screen shows, where each widget sits and how
big it is, with the coach closed and open: 25 pairs. A replay opened after every game is
compared the same way with the replay opened first.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any

import pytest
from records_fixtures import play
from textual.app import App
from textual.css.model import SelectorType
from textual.css.stylesheet import Stylesheet
from textual.pilot import Pilot
from textual.screen import Screen
from uihelpers import screen_text, settle, start_game, until

from app import screens as screens_package
from app.dice import RandomDice
from app.games import screen_class
from app.main import CubileteApp
from app.records.events import Record
from app.screens.lobby import LobbyScreen
from app.screens.replay import ReplayScreen, replay_class
from app.table import Seat
from kits import KITS

SIZE = (100, 30)
GAMES = list(KITS)
SEED = 27


def look(app: CubileteApp) -> dict[str, Any]:
    """What a player sees of the screen: its text, and every widget shown with its place, its
    size and its style (by type and id, in the order of the tree)."""
    screen = app.screen
    placed = [
        (type(widget).__name__, widget.id, tuple(widget.region), widget.styles.css)
        for widget in screen.walk_children()
        if widget.display and widget.region.area
    ]
    return {"text": screen_text(app), "widgets": placed}


async def open_and_look(pilot: Pilot, game: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Open `game` (two people, the same dice each time), and look at it with the coach closed
    and open; then back to the lobby."""
    app = pilot.app
    assert isinstance(app, CubileteApp)
    app.dice = RandomDice(SEED)  # the same roll-off each time: the same first screen
    await start_game(pilot, game, [Seat(name="Ana"), Seat(name="Bruno")])
    closed = look(app)
    await pilot.press("h")
    await settle(pilot)
    coach = look(app)
    await pilot.press("h")
    await settle(pilot)
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    return closed, coach


async def first_looks() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    looks = {}
    for game in GAMES:
        app = CubileteApp(animate=False, bot_pace=600)
        async with app.run_test(size=SIZE) as pilot:
            looks[game] = await open_and_look(pilot, game)
    return looks


@pytest.fixture(scope="module")
def fresh() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Each game as it looks opened first in a fresh app."""
    import asyncio

    return asyncio.run(first_looks())


def differences(game: str, after: str, seen: dict[str, Any], first: dict[str, Any]) -> str:
    lines = [f"{game} opened after {after} differs from {game} opened first:"]
    if seen["text"] != first["text"]:
        lines += ["-- first:", first["text"], "-- after:", seen["text"]]
    for was, now in zip(first["widgets"], seen["widgets"], strict=False):
        if was != now:
            lines.append(f"widget {was} is now {now}")
            break
    if len(first["widgets"]) != len(seen["widgets"]):
        lines.append(f"{len(first['widgets'])} widgets shown, now {len(seen['widgets'])}")
    return "\n".join(lines)


@pytest.mark.parametrize("first_game", GAMES)
async def test_every_game_looks_the_same_after_every_other_game(first_game, fresh):
    """In one app: `first_game`, then each other game, then `first_game` again; each looks
    as it does opened first in a fresh app (5 games after `first_game`: 25 pairs in all)."""
    app = CubileteApp(animate=False, bot_pace=600)
    async with app.run_test(size=SIZE) as pilot:
        await open_and_look(pilot, first_game)
        others = [game for game in GAMES if game != first_game]
        for game in [*others, first_game]:
            closed, coach = await open_and_look(pilot, game)
            fresh_closed, fresh_coach = fresh[game]
            assert closed == fresh_closed, differences(game, first_game, closed, fresh_closed)
            assert coach == fresh_coach, differences(
                f"{game} (coach open)", first_game, coach, fresh_coach
            )


# -- every rule of a screen's style sheet is the screen's ------------------------------------

SCREENS_DIR = Path(screens_package.__file__).parent


def screen_classes() -> dict[str, type[Screen[Any]]]:
    """Every screen class of app/screens, by name, and every game's replay screen."""
    found: dict[str, type[Screen[Any]]] = {}
    for module_info in pkgutil.iter_modules([str(SCREENS_DIR)]):
        module = importlib.import_module(f"app.screens.{module_info.name}")
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, Screen):
                found[name] = value
    for game in GAMES:
        replay = replay_class(screen_class(game))
        found[replay.__name__] = replay
    return found


def css_files(screen: type[Screen[Any]]) -> list[str]:
    paths = screen.CSS_PATH
    return [str(path) for path in (paths if isinstance(paths, list) else [paths]) if path]


@pytest.mark.parametrize("path", sorted(SCREENS_DIR.glob("*.tcss")), ids=lambda path: path.name)
def test_every_rule_of_a_screens_style_sheet_names_the_screen_first(path):
    """Each rule of a screen's .tcss starts with the type of a screen that reads the file
    (`GameScreen #side`, never `#side`), so that it cannot reach another screen's widgets;
    and each screen that reads the file is named in each of its rules (a game's replay, whose
    type Textual does not see as the game's, beside the game's screen)."""
    screens = screen_classes()
    readers = {name for name, screen in screens.items() if path.name in css_files(screen)} | (
        {"LobbyScreen"} if path.name == "lobby.tcss" else set()
    )  # (read with the app's)
    assert readers, f"no screen reads {path.name}"
    sheet = Stylesheet(variables=App().get_css_variables())
    sheet.read(path)
    sheet.parse()
    for rule in sheet.rules:
        named = set()
        for selectors in rule.selector_set:
            first = selectors.selectors[0]
            assert first.type == SelectorType.TYPE and first.name in readers, (
                f"{path.name}: {selectors.css!r} does not start with the screen it styles "
                f"({' or '.join(sorted(readers))})"
            )
            named.add(screens[first.name])
        left_out = [
            name
            for name in sorted(readers)
            if not any(issubclass_by_css(screens[name], scope) for scope in named)
        ]
        assert not left_out, f"{path.name}: {rule.css!r} does not reach {left_out}"


def issubclass_by_css(screen: type[Screen[Any]], scope: type[Screen[Any]]) -> bool:
    """Whether a type selector naming `scope` matches `screen` (Textual follows each class's
    first base only)."""
    cls: type[Any] = screen
    while True:
        if cls is scope:
            return True
        bases = [base for base in cls.__bases__ if issubclass(base, Screen)]
        if not bases:
            return False
        cls = bases[0]


# -- replays -----------------------------------------------------------------------------------
# A replay is its game's screen with the replay's style sheet after the game's: a replay opened
# first reads them in that order, a replay opened after another game's replay has read the
# replay's before this game's.


def short_record(game: str) -> Record:
    return play(game, [Seat(name="Ana"), Seat(name="Bruno", kind="medium")], SEED, moves=6).record


async def open_replay_and_look(pilot: Pilot, game: str) -> tuple[dict[str, Any], dict[str, Any]]:
    app = pilot.app
    assert isinstance(app, CubileteApp)
    app.open_replay(short_record(game))
    await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
    await settle(pilot)
    closed = look(app)
    await pilot.press("h")
    await settle(pilot)
    coach = look(app)
    await pilot.press("h", "escape")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    return closed, coach


async def first_replay_looks() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    looks = {}
    for game in GAMES:
        app = CubileteApp(animate=False, bot_pace=600)
        async with app.run_test(size=SIZE) as pilot:
            looks[game] = await open_replay_and_look(pilot, game)
    return looks


async def test_every_replay_looks_the_same_after_other_replays_and_games():
    """In one app: the replay of each game in turn, then each game, then each replay again;
    each replay looks as it does opened first in a fresh app."""
    first = await first_replay_looks()
    app = CubileteApp(animate=False, bot_pace=600)
    async with app.run_test(size=SIZE) as pilot:
        for round_, games in enumerate(([], GAMES)):
            for game in games:
                await open_and_look(pilot, game)
            for game in GAMES:
                closed, coach = await open_replay_and_look(pilot, game)
                after = "every game and replay" if round_ else "the replays before it"
                assert closed == first[game][0], differences(
                    f"the replay of {game}", after, closed, first[game][0]
                )
                assert coach == first[game][1], differences(
                    f"the replay of {game} (coach open)", after, coach, first[game][1]
                )
