"""The rules and the bots stay pure: no UI, no app, no random numbers, no clock, no I/O."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import rules
from kits import KITS

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
BOTS = ROOT / "bots"
KITS_DIR = ROOT / "kits"
FORBIDDEN = frozenset(
    {
        "textual",
        "app",
        "random",
        "secrets",
        "time",
        "datetime",
        "os",
        "io",
        "pathlib",
        "socket",
        "subprocess",
        "tempfile",
        "shutil",
    }
)


def forbidden_imports(source: str, filename: str = "<rules>") -> list[str]:
    """The absolute imports in `source` whose top-level package is forbidden to the rules."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found.extend(
            f"{filename}:{node.lineno}: {name}" for name in names if name.split(".")[0] in FORBIDDEN
        )
    return found


def rules_modules() -> list[Path]:
    return sorted([*RULES.rglob("*.py"), *BOTS.rglob("*.py"), *KITS_DIR.rglob("*.py")])


def test_the_rules_package_is_where_we_look():
    assert (RULES / "__init__.py") in rules_modules()
    assert (RULES / "generala.py") in rules_modules()
    assert (BOTS / "__init__.py") in rules_modules()


@pytest.mark.parametrize("path", rules_modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_rules_module_imports_the_ui_the_app_randomness_the_clock_or_io(path):
    assert forbidden_imports(path.read_text(encoding="utf-8"), str(path)) == []


@pytest.mark.parametrize(
    "snippet",
    [
        "import random",
        "import os.path",
        "from time import monotonic",
        "from textual.app import App",
        "import app.table as table",
        "import json, secrets",
        "def roll():\n    from random import randint\n    return randint(1, 6)",
    ],
)
def test_the_checker_catches_a_forbidden_import(snippet):
    assert forbidden_imports(snippet) != []


@pytest.mark.parametrize(
    "snippet",
    [
        "from .dice import PendingThrow",
        "from . import errors",
        "import fractions",
        "from collections import Counter",
        "import randomness_free_helper",
    ],
)
def test_the_checker_lets_pure_imports_through(snippet):
    assert forbidden_imports(snippet) == []


# -- the parts of the app below the screens ---------------------------------------------


def textual_free_modules() -> list[str]:
    """The app's modules that must never load Textual: import-linter's contract lists them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c.get("id") == "textual-free"]
    return list(contract["source_modules"])


def test_the_host_table_dice_saves_and_their_kin_are_the_textual_free_modules():
    assert {
        "app.host",
        "app.coach_words",
        "app.table",
        "app.dice",
        "app.saves",
        "app.locations",
        "app.i18n",
        "app.server",
    } <= set(textual_free_modules())


@pytest.mark.parametrize("module", textual_free_modules())
def test_a_textual_free_module_loads_no_textual_when_the_program_runs(module):
    """What lint-imports cannot see: an import made by name at run time (import_module)."""
    code = f"import sys, {module}; print(sorted({{m.split('.')[0] for m in sys.modules}}))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = set(ast.literal_eval(result.stdout))
    assert "textual" not in loaded


def test_the_architecture_doc_names_every_textual_free_module():
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for module in textual_free_modules():
        path = module.removeprefix("app.").replace(".", "/")
        assert f"`{path}.py`" in doc or f"`{path}/`" in doc, module  # a module, or a package


@pytest.mark.parametrize("game_id", list(KITS))
def test_the_lobby_name_of_each_game_is_its_rules_name(game_id):
    assert rules.game_name(game_id) == rules.get_game(game_id).name
    assert rules.get_game(game_id).id == game_id


def test_importing_the_rules_loads_no_game_until_one_is_asked_for():
    code = (
        "import sys, kits, rules; "
        "print(sorted(m for m in sys.modules if m.startswith('rules.') and "
        "m.split('.')[1] in kits.KITS))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_every_playable_game_has_a_screen_that_loads():
    from app.games import playable, screen_class
    from app.screens.game import GameScreen

    assert playable() == list(KITS)
    for game_id in playable():
        assert issubclass(screen_class(game_id), GameScreen)
