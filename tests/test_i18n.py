"""Every string a player reads goes through one gettext function, so catalogues can be added."""

from __future__ import annotations

import ast
import struct
from pathlib import Path

import pytest

from app import i18n
from rules import IllegalAction

APP = Path(__file__).resolve().parents[1] / "app"
# Calls whose first argument (or `label`/`description`/`title`) is text a player reads.
TEXT_CALLS = {"Button", "Label", "Static", "Checkbox", "SystemCommand", "notify", "say", "Binding"}


def write_mo(path: Path, catalogue: dict[str, str]) -> None:
    """A minimal GNU .mo file (what msgfmt writes), so the test needs no gettext tools."""
    keys = sorted(catalogue)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(catalogue[k].encode() + b"\0" for k in keys)
    header = 7 * 4
    table = header + 16 * len(keys)
    offsets, o = [], table
    for k in keys:
        offsets.append((len(k.encode()), o))
        o += len(k.encode()) + 1
    str_offsets = []
    for k in keys:
        str_offsets.append((len(catalogue[k].encode()), o))
        o += len(catalogue[k].encode()) + 1
    data = struct.pack("<7I", 0x950412DE, 0, len(keys), header, header + 8 * len(keys), 0, 0)
    data += b"".join(struct.pack("<2I", *p) for p in offsets)
    data += b"".join(struct.pack("<2I", *p) for p in str_offsets)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data + ids + strs)


@pytest.fixture
def spanish(tmp_path):
    write_mo(
        tmp_path / "es" / "LC_MESSAGES" / "cubilete.mo",
        {
            "": "Content-Type: text/plain; charset=UTF-8\n",
            "Throw": "Tirar",
            "Box '{box}' is already filled": "La casilla '{box}' ya está llena",
        },
    )
    i18n.use_language(["es"], tmp_path)
    yield
    i18n.use_language()


def test_a_catalogue_translates_app_strings(spanish):
    assert i18n._("Throw") == "Tirar"
    assert i18n._("Not in the catalogue") == "Not in the catalogue"


def test_a_catalogue_translates_rules_messages_with_their_values(spanish):
    error = IllegalAction("Box '{box}' is already filled", box="Full")
    assert str(error) == "Box 'Full' is already filled"
    assert i18n.explain(error) == "La casilla 'Full' ya está llena"


def untranslated_literals(source: str) -> list[str]:
    problems = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name not in TEXT_CALLS:
            continue
        candidates = node.args[:1] if name != "Binding" else node.args[2:3]
        candidates += [k.value for k in node.keywords if k.arg in ("label", "description")]
        for arg in candidates:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.strip():
                problems.append(f"line {node.lineno}: {name}({arg.value!r})")
            if isinstance(arg, ast.JoinedStr):
                problems.append(f"line {node.lineno}: {name}(f-string)")
    return problems


def test_the_checker_catches_an_untranslated_button():
    assert untranslated_literals('Button("Throw")') == ["line 1: Button('Throw')"]
    assert untranslated_literals('Button(_("Throw"))') == []


@pytest.mark.parametrize("path", sorted(APP.rglob("*.py")), ids=lambda p: str(p.relative_to(APP)))
def test_no_player_facing_literal_bypasses_the_translation_function(path):
    assert untranslated_literals(path.read_text(encoding="utf-8")) == []
