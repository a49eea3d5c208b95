"""The catalogues keep docs/glossary.md: one word per concept in each language. For each
concept the glossary lists, no translation of a string that names it uses a word the glossary
keeps out, and the chosen word is in use."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app import i18n

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"
TRANSLATIONS = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]


@dataclass(frozen=True)
class Concept:
    name: str
    pattern: re.Pattern[str]
    """What an English msgid that names the concept matches."""
    chosen: dict[str, tuple[str, ...]]
    never: dict[str, tuple[str, ...]]


def cells(row: str) -> list[str]:
    """A markdown table row's cells (a `\\|` inside a cell is a `|`)."""
    parts = re.split(r"(?<!\\)\|", row.strip().strip("|"))
    return [part.strip().replace("\\|", "|") for part in parts]


def words(cell: str) -> tuple[str, ...]:
    return () if cell in ("—", "") else tuple(word.strip() for word in cell.split(","))


def concepts(text: str) -> list[Concept]:
    """The glossary's table: concept, msgid pattern, then for each language its word and the
    words it never uses."""
    found = []
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith("| Concept"):
            continue
        name, pattern, es, es_never, pt, pt_never, _why = cells(line)
        found.append(
            Concept(
                name,
                re.compile(pattern.strip("`"), re.IGNORECASE),
                {"es": words(es), "pt": words(pt)},
                {"es": words(es_never), "pt": words(pt_never)},
            )
        )
    return found


CONCEPTS = concepts(GLOSSARY.read_text(encoding="utf-8"))


def translations(code: str) -> list[tuple[str, str]]:
    """(msgid, msgstr) of a catalogue, every plural form of both."""
    with open(i18n.LOCALE_DIR / code / "LC_MESSAGES" / "cubilete.po", "rb") as f:
        catalogue = read_po(f)
    pairs = []
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        pairs += [(msgid, text) for msgid in ids for text in texts]
    return pairs


def uses(text: str, word: str) -> bool:
    """`word` starts a word of `text` (any case): "guard" is in "Guardados: 3"."""
    return re.search(rf"(?<!\w){re.escape(word)}", text, re.IGNORECASE) is not None


def test_the_glossary_lists_the_concepts_of_the_issue():
    names = {concept.name for concept in CONCEPTS}
    assert {"the coach", "hold a die (Generala)", "a seat at the table", "the lobby"} <= names
    assert {"a game being played (a match)", "the replay of a finished game"} <= names


@pytest.mark.parametrize("code", TRANSLATIONS)
@pytest.mark.parametrize("concept", CONCEPTS, ids=lambda concept: concept.name)
def test_every_translation_of_a_concept_uses_the_glossarys_word(concept, code):
    naming = [(msgid, text) for msgid, text in translations(code) if concept.pattern.search(msgid)]
    assert naming, f"no msgid matches {concept.pattern.pattern!r}"
    wrong = [
        f"{msgid!r} → {text!r} ({word})"
        for msgid, text in naming
        for word in concept.never[code]
        if uses(text, word)
    ]
    assert wrong == []
    assert any(uses(text, word) for _msgid, text in naming for word in concept.chosen[code])


def test_the_check_finds_a_synonym_the_glossary_keeps_out():
    coach = next(concept for concept in CONCEPTS if concept.name == "the coach")
    assert coach.pattern.search("The coach is reviewing the games…")
    assert any(uses("El entrenador está analizando", word) for word in coach.never["es"])
    assert not any(uses("El tutor está analizando", word) for word in coach.never["es"])
