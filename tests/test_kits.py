"""One kit per game: a game id leads to every part of the game through its declaration
(`kits/<id>.py`) and one registry line (`kits.LOBBY`), as "Adding a game" in
docs/architecture.md says; and that section, followed to the letter, gives Generala's kit."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

import kits
from app import i18n, strategy_tables
from app.catalog import CATALOG, catalog
from app.games import playable, screen_class
from app.rule_cards import card_path, rule_card
from app.screens.game import GameScreen
from bots import LEVELS, Bot, Coach, coach, get_bot
from kits import KITS, GameKit, StrategyTable
from rules import Game, get_game

ROOT = Path(__file__).resolve().parent.parent


def adding_a_game() -> str:
    """The section "Adding a game" of docs/architecture.md."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return doc.split("\n## Adding a game\n", 1)[1].split("\n## ", 1)[0]


def declaration_in_the_docs(game_id: str, cls: str, name: str, tables: bool) -> str:
    """The section's `kits/<id>.py`, filled in; without its `tables` line when the game's bots
    ship no table, as the section says."""
    (block,) = re.findall(r"```python\n(.*?)```", adding_a_game(), re.S)
    source = textwrap.dedent(block)
    if not tables:
        source = "".join(line for line in source.splitlines(True) if "tables=" not in line)
    for placeholder, value in (("<id>", game_id), ("<Class>", cls), ("<Name>", name)):
        source = source.replace(placeholder, value)
    return source


def declare(source: str, game_id: str) -> GameKit:
    """Run a declaration as the module `kits/<id>.py` would run, and give its KIT."""
    module = types.ModuleType(f"kits.{game_id}")
    module.__package__ = "kits"
    exec(compile(source, f"kits/{game_id}.py", "exec"), module.__dict__)
    kit = module.KIT
    assert isinstance(kit, GameKit)
    return kit


def check_every_part(kit: GameKit) -> None:
    """Every part the kit names is where it says, of its layer, and loads."""
    # the rules
    assert kit.rules.startswith("rules."), kit.rules
    game_class = kits.load(kit.rules)
    assert issubclass(game_class, Game)
    game = get_game(kit.id)
    assert type(game) is game_class
    assert (game.id, game.name) == (kit.id, kit.name)
    # the bots: the coach, and the three levels made from it or named by the kit
    assert kit.coach.startswith("bots.") and kit.medium.startswith("bots."), kit
    coach_class = kits.load(kit.coach)
    assert issubclass(coach_class, Coach)
    assert type(coach(kit.id)) is coach_class and coach_class.game_id == kit.id
    medium_class = kits.load(kit.medium)
    assert issubclass(medium_class, Bot)
    assert type(get_bot(kit.id, "medium")) is medium_class
    for level in LEVELS:
        assert get_bot(kit.id, level).game_id == kit.id
    # the screen, resolved by the UI only
    assert kit.screen.startswith("app.screens."), kit.screen
    screen = screen_class(kit.id)
    assert screen is kits.load(kit.screen) and issubclass(screen, GameScreen)
    assert kit.id in playable()
    # the rule card, in every language the app speaks, opening with the game's name
    for language in i18n.LANGUAGES:
        path = card_path(kit.id, language)
        assert path.is_file(), path
        card = rule_card(kit.id, language)
        assert card == path.read_text(encoding="utf-8")
        assert card.startswith(f"# {kit.name}\n"), (path, card.splitlines()[0])
    # the catalogue entry, shipped in assets/catalog.json
    assert kit.id in json.loads(CATALOG.read_text(encoding="utf-8"))
    entry = catalog()[kit.id]
    assert (entry.id, entry.name) == (kit.id, kit.name)
    assert (entry.min_players, entry.max_players) == (game.min_players, game.max_players)
    # the strategy tables, if its bots ship any: checksummed, and taken by their holder
    for table in kit.tables:
        assert table.holder.startswith("bots."), table.holder
        values = strategy_tables.read_table(*strategy_tables.table_files(table))
        holder = kits.load(table.holder)
        holder.load(values)
        assert holder.values() == list(values)


def test_adding_generala_by_the_book():
    # the modules Generala brings, steps 1 to 7
    brought = [
        "rules/generala.py",
        "tests/rules/test_generala.py",
        "bots/generala.py",
        "assets/generala_table.bin",
        "assets/generala_table.sha256",
        "app/screens/generala.py",
        "app/screens/generala.tcss",
        "seeds/generala.md",
        "seeds/generala.es.md",
        "seeds/generala.pt.md",
        "kits/generala.py",
    ]
    for path in brought:
        assert (ROOT / path).is_file(), path
    assert list((ROOT / "tests" / "ui").glob("test_ui_generala_*.py"))
    # step 6: its declaration is the section's, filled in
    source = declaration_in_the_docs("generala", "Generala", "Generala", tables=True)
    built = declare(source, "generala")
    assert built == GameKit(
        id="generala",
        name="Generala",
        rules="rules.generala:Generala",
        coach="bots.generala:GeneralaCoach",
        medium="bots.generala:GeneralaMedium",
        screen="app.screens.generala:GeneralaScreen",
        card="generala",
        tables=(StrategyTable(asset="generala_table", holder="bots.generala:TABLE"),),
    )
    assert kits.declaration("generala") == built
    # the one registry line, and the registry entry it makes
    registry = (ROOT / "kits" / "__init__.py").read_text(encoding="utf-8")
    assert registry.count('\n    "generala",\n') == 1
    assert "generala" in kits.LOBBY
    assert KITS["generala"] == built
    # every part loads
    check_every_part(built)


def test_a_game_without_tables_leaves_the_line_out():
    source = declaration_in_the_docs("barco", "Barco", "Barco, Capitán y Tripulación", False)
    assert declare(source, "barco") == KITS["barco"]


@pytest.mark.parametrize("game_id", list(KITS))
def test_every_registered_game_has_every_part(game_id):
    check_every_part(KITS[game_id])


def test_every_declaration_is_registered_and_every_game_of_the_rules_declared():
    declared = {path.stem for path in (ROOT / "kits").glob("*.py")} - {"__init__", "kit"}
    assert declared == set(kits.LOBBY) == set(KITS)
    rules_ids = set()
    for path in (ROOT / "rules").glob("*.py"):
        rules_ids |= set(re.findall(r'\n    id: ClassVar\[str\] = "(\w+)"', path.read_text()))
    assert rules_ids == set(KITS)


def test_a_declaration_of_another_id_is_refused(monkeypatch):
    module = types.ModuleType("kits.misnamed")
    module.KIT = KITS["barco"]  # type: ignore[attr-defined]  # a module made by hand
    monkeypatch.setitem(sys.modules, "kits.misnamed", module)
    with pytest.raises(TypeError, match=r"kits/misnamed\.py must declare"):
        kits.declaration("misnamed")


def test_an_unknown_game_is_named_in_the_error():
    with pytest.raises(kits.UnknownGame, match="the games are barco, navio"):
        kits.kit("parchis")


def test_reading_the_registry_loads_no_part_of_any_game():
    code = (
        "import sys, kits; kits.KITS; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'rules', 'bots', 'app', 'pydantic', 'textual'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
