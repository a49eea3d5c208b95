"""The checks the README and docs/architecture.md promise, run by the one test command.

Each tool runs as its own process from the project's root, with its settings in
pyproject.toml, and a finding fails the test with the tool's own report:

- `ruff check .`: the lint rules of [tool.ruff.lint];
- `mypy`: kits, rules, bots and app, with the pydantic plugin and unused ignores reported
  ([tool.mypy]; its cache in .mypy_cache keeps a run after a small change well under a second);
- `lint-imports`: the layers, the pure rules and bots, and the modules of the app that must
  never load Textual ([tool.importlinter]);
- and no `# type: ignore` in kits, rules, bots or app without its error codes and, after it on the
  same line, the reason it is needed.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("kits", "rules", "bots", "app")
"""The packages mypy checks, and where a type: ignore must say why."""


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )


def report(result: subprocess.CompletedProcess[str]) -> str:
    return f"{' '.join(map(str, result.args))} failed:\n{result.stdout}{result.stderr}"


def test_ruff_finds_nothing():
    result = run(sys.executable, "-m", "ruff", "check", ".")
    assert result.returncode == 0, report(result)


def test_mypy_finds_nothing_in_the_rules_the_bots_and_the_app():
    result = run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, report(result)
    assert "Success" in result.stdout, report(result)


def test_the_import_contracts_are_kept():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = run(str(lint_imports), "--no-cache", "--no-logo")
    assert result.returncode == 0, report(result)


# -- type: ignore says why ------------------------------------------------------------------

IGNORE = re.compile(r"#\s*type:\s*ignore\b")
IGNORE_WITH_REASON = re.compile(r"#\s*type:\s*ignore\[[\w\-, ]+\]\s+#\s*\w")
"""`# type: ignore[code, ...]  # the reason`: which errors, and why they may stand."""


def ignores_without_reason(source: str, filename: str = "<source>") -> list[str]:
    """Every comment in `source` that silences mypy without codes or without a reason."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT or not IGNORE.search(token.string):
            continue
        if not IGNORE_WITH_REASON.search(token.string):
            found.append(f"{filename}:{token.start[0]}: {token.string}")
    return found


def checked_sources() -> list[Path]:
    return sorted(path for package in CHECKED for path in (ROOT / package).rglob("*.py"))


def test_every_type_ignore_in_rules_bots_and_app_names_its_errors_and_says_why():
    assert (ROOT / "rules" / "game.py") in checked_sources()
    found = []
    for path in checked_sources():
        source = path.read_text(encoding="utf-8")
        found += ignores_without_reason(source, str(path.relative_to(ROOT)))
    assert not found, "say why, after the ignore:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        "x = f()  # type: ignore",
        "x = f()  # type: ignore[attr-defined]",
        "x = f()  # type: ignore[attr-defined]  #",
        "x = f()  #type:ignore[union-attr]",
        "x = f()  # noqa: E501  # type: ignore[arg-type]",
    ],
)
def test_the_checker_catches_an_ignore_without_a_reason(line):
    assert ignores_without_reason(line) != []


@pytest.mark.parametrize(
    "line",
    [
        "x = f()  # type: ignore[attr-defined]  # every state has players",
        "x = f()  # type: ignore[arg-type, union-attr]  # None is caught below",
        "'''A docstring may say # type: ignore without being one.'''",
        "x = f()  # a comment about types",
    ],
)
def test_the_checker_lets_an_ignore_with_its_reason_through(line):
    assert ignores_without_reason(line) == []
