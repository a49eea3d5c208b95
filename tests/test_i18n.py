"""The app speaks English, Spanish and Portuguese: catalogues complete and in step with the
code, every player-facing string marked and translated late, the language chosen the way
gettext chooses it."""

from __future__ import annotations

import ast
import gettext
import io
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from app import i18n
from rules import C_, N_, NP_, IllegalAction, Text

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
LOCALE = APP / "locale"
TRANSLATIONS = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]
KEYWORDS = {
    "_": None,
    "N_": None,
    "C_": ((1, "c"), 2),
    "NP_": (1, 2),
    "tr": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
"""What marks a string for translation (babel.cfg and app/locale/README.md say the same)."""


def catalogue(code: str):
    with open(LOCALE / code / "LC_MESSAGES" / "cubilete.po", "rb") as f:
        return read_po(f)


def template():
    with open(LOCALE / "cubilete.pot", "rb") as f:
        return read_po(f)


def placeholders(message: str) -> set[str]:
    """{name} fields and %-conversions (argparse's words), as str.format and % read them."""
    parsed = string.Formatter().parse(message)
    fields = {f"{{{name}}}" for _text, name, _spec, _conv in parsed if name is not None}
    return fields | set(re.findall(r"%(?:\(\w+\))?[sdr]", message))


# -- the catalogues ---------------------------------------------------------------------------
def test_the_template_lists_every_marked_string_in_the_code():
    """`pybabel extract` has been run since the last string was added or changed."""
    mapping = [("app/**.py", "python"), ("rules/**.py", "python"), ("bots/**.py", "python")]
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), mapping, keywords=KEYWORDS
    ):
        if "/locale/" in _file:
            continue
        found.add((context, message if isinstance(message, str) else message[0]))
    listed = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template() if m.id}
    assert found - listed == set(), "new strings: run pybabel extract (app/locale/README.md)"
    assert listed - found == set(), "strings no longer in the code: run pybabel extract"


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_every_string_is_translated_with_the_same_placeholders(code):
    translated = catalogue(code)
    problems = []
    for message in template():
        if not message.id:
            continue
        found = translated.get(message.id, message.context)
        if found is None:
            problems.append(f"missing: {message.id!r}")
            continue
        if found.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        if isinstance(message.id, tuple) and len(strings) != translated.num_plurals:
            problems.append(f"plural forms: {message.id!r}")
        wanted = set().union(*(placeholders(m) for m in ids))
        for text in strings:
            if not text:
                problems.append(f"untranslated: {message.id!r}")
            elif placeholders(text) != wanted and not (
                isinstance(message.id, tuple) and placeholders(text) <= wanted
            ):
                problems.append(f"placeholders {placeholders(text)} ≠ {wanted}: {text!r}")
    assert problems == []
    assert [m.id for m in translated.obsolete.values()] == []


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_the_plural_rule_is_the_languages(code):
    """Two forms: one for exactly 1, the other for 0, 2, 3... ("0 fichas", "2 tiros")."""
    assert catalogue(code).plural_forms == "nplurals=2; plural=(n != 1);"


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_the_compiled_catalogue_is_the_po_file(code):
    """The .mo shipped in the package says what the .po says (pybabel compile)."""
    compiled = io.BytesIO()
    write_mo(compiled, catalogue(code))
    expected = gettext.GNUTranslations(io.BytesIO(compiled.getvalue()))
    with open(LOCALE / code / "LC_MESSAGES" / "cubilete.mo", "rb") as f:
        shipped = gettext.GNUTranslations(f)
    assert shipped._catalog == expected._catalog  # type: ignore[attr-defined]


# -- late translation -------------------------------------------------------------------------
NOT_AT_IMPORT = """
import sys
from app import i18n
calls = []
original = i18n._translation
class Recorder(type(original)):
    def gettext(self, message):
        calls.append(message); return message
    def ngettext(self, singular, plural, n):
        calls.append(singular); return singular
i18n._translation = Recorder()
import app.main, app.cli, app.web, app.palette
import app.screens.barco, app.screens.navio, app.screens.multiplicacion
import app.screens.piratas, app.screens.generala, app.screens.game_over
import app.screens.rules, app.screens.confirm, app.screens.too_small
assert calls == [], calls
"""


def test_nothing_is_translated_when_a_module_is_imported():
    """Words on screen follow the language of the moment: a string translated at import
    (a class constant, a binding's description) would stay in the language of the start."""
    result = subprocess.run(
        [sys.executable, "-c", NOT_AT_IMPORT], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr


# Calls whose first argument (or `label`/`description`) is text a player reads.
TEXT_CALLS = {"Button", "Label", "Static", "Checkbox", "SystemCommand", "notify", "say", "Binding"}
TRANSLATING = {"_", "tr", "ntr", "ngettext", "pgettext", "render"}
MARKING = {"N_", "C_", "NP_"}


def name_of(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def untranslated_literals(source: str) -> list[str]:
    """Player-facing calls given a bare string: they must be marked (`N_`, `C_`) or
    translated (`_`, `tr`)."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or (name := name_of(node)) not in TEXT_CALLS:
            continue
        candidates = node.args[:1] if name != "Binding" else node.args[2:3]
        candidates += [k.value for k in node.keywords if k.arg in ("label", "description")]
        for arg in candidates:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.strip():
                problems.append(f"line {node.lineno}: {name}({arg.value!r})")
            if isinstance(arg, ast.JoinedStr):
                problems.append(f"line {node.lineno}: {name}(f-string)")
    return problems


def translated_at_import(source: str) -> list[str]:
    """Translations made outside any function (in a module or class body): they would be
    frozen in the language of the start. Such strings are marked and translated when shown."""
    problems = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            )
            if not inside and isinstance(child, ast.Call) and name_of(child) in TRANSLATING:
                problems.append(f"line {child.lineno}: {name_of(child)}(...) at import")
            visit(child, inside)

    visit(ast.parse(source), False)
    return problems


def test_the_checkers_catch_an_untranslated_button_and_a_frozen_binding():
    assert untranslated_literals('Button("Throw")') == ["line 1: Button('Throw')"]
    assert untranslated_literals('Button(_("Throw"))') == []
    frozen = 'class S:\n    BINDINGS = [Binding("r", "throw", _("Throw"))]'
    assert translated_at_import(frozen) == ["line 2: _(...) at import"]
    assert translated_at_import('class S:\n    BINDINGS = [Binding("r", "t", N_("Throw"))]') == []
    assert translated_at_import('def f():\n    return _("Throw")') == []


@pytest.mark.parametrize("path", sorted(APP.rglob("*.py")), ids=lambda p: str(p.relative_to(APP)))
def test_no_player_facing_literal_bypasses_the_catalogue(path):
    source = path.read_text(encoding="utf-8")
    assert untranslated_literals(source) == []
    assert translated_at_import(source) == []


# -- rendering --------------------------------------------------------------------------------
@pytest.fixture
def spanish():
    i18n.use_language("es")
    yield
    i18n.use_language("en")


def test_a_rules_message_is_rendered_in_the_readers_language(spanish):
    error = IllegalAction("Box '{box}' is already filled", box=Text(N_("Ones")))
    assert str(error) == "Box 'Ones' is already filled"
    assert i18n.explain(error) == "La casilla 'Uno' ya está anotada"


def test_counted_words_take_the_languages_plural(spanish):
    forms = NP_("{n} throw", "{n} throws")
    assert [i18n.ntr(forms, n) for n in (0, 1, 2)] == ["0 tiros", "1 tiro", "2 tiros"]
    assert i18n.render(Text(forms, {"n": 1})) == "1 tiro"
    i18n.use_language("pt")
    assert [i18n.ntr(forms, n) for n in (0, 1, 2)] == ["0 rolagens", "1 rolagem", "2 rolagens"]


def test_a_short_word_is_translated_by_its_context(spanish):
    assert i18n._(C_("barco", "Ship")) == "Barco"
    assert i18n._(C_("navio", "Ship")) == "Navío"
    i18n.use_language("en")
    assert i18n._(C_("navio", "Ship")) == "Ship"  # English shows it without its context


def test_numbers_take_the_decimal_comma_in_spanish_and_portuguese(spanish):
    seconds = N_("Bots now wait {seconds} s between moves")
    assert i18n.tr(seconds, seconds=0.8) == "Ahora los bots esperan 0,8 s entre jugadas"
    assert i18n.number(0.25, 2) == "0,25"
    i18n.use_language("en")
    assert i18n.tr(seconds, seconds=0.8) == "Bots now wait 0.8 s between moves"


def test_a_message_is_stored_as_its_template_and_values():
    text = Text(
        NP_("{player} takes the pot of {chips} chip", "{player} takes the pot of {chips} chips"),
        {"player": "Ana", "chips": 3, "box": Text(N_("Ones")), "pieces": (Text(N_("parrot")),)},
        count="chips",
    )
    data = i18n.text_to_data(text)
    assert "Ana takes" not in str(data)  # no rendered words
    assert i18n.text_from_data(data) == text


def test_a_late_value_is_worked_out_in_the_language_of_the_moment(spanish):
    text = Text(N_("Coach: {player} — {rating} (−{loss}; best: {best})"), {
        "player": "Ana",
        "rating": Text(N_("mistake")),
        "loss": i18n.Late(i18n.number, 0.25, 2),
        "best": Text(N_("Throw the dice")),
    })
    assert i18n.render(text) == "Tutor: Ana — error (−0,25; mejor: Tirar los dados)"
    i18n.use_language("en")
    assert i18n.render(text) == "Coach: Ana — mistake (−0.25; best: Throw the dice)"


# -- choosing the language --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("environment", "language"),
    [
        ({"LANG": "es_AR.UTF-8"}, "es"),
        ({"LANG": "pt_PT.UTF-8"}, "pt"),
        ({"LANG": "pt_BR.UTF-8"}, "pt"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
        ({"LANGUAGE": "pt_BR:es", "LANG": "es_AR.UTF-8"}, "pt"),
        ({"LANGUAGE": "fr:es", "LANG": "en_US.UTF-8"}, "es"),
        ({"LC_ALL": "es_ES.UTF-8", "LC_MESSAGES": "pt_BR.UTF-8", "LANG": "en_US"}, "es"),
        ({"LC_MESSAGES": "pt_BR.UTF-8", "LANG": "es_AR.UTF-8"}, "pt"),
        ({"LANGUAGE": "", "LANG": "es_AR.UTF-8@euro"}, "es"),
    ],
)
def test_the_language_comes_from_the_environment_in_gettexts_order(environment, language):
    assert i18n.language_from_environment(environment) == language


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("es-AR,es;q=0.9,en;q=0.8", "es"),
        ("en-US,en;q=0.9,pt-BR;q=0.8", "en"),
        ("fr-FR,pt;q=0.5", "pt"),
        ("fr,de", None),
        ("pt;q=0.4,es;q=0.6", "es"),
        ("", None),
        (None, None),
    ],
)
def test_a_browser_is_answered_in_the_language_it_prefers(header, language):
    assert i18n.language_of_browser(header) == language


def test_a_web_page_is_written_in_one_browsers_language_and_the_server_keeps_its_own():
    from app import web

    page = web.full_page(3, "pt")
    assert "O Cubilete está lotado" in page and 'lang="pt"' in page
    assert "Cubilete is full" in web.full_page(3)
    assert i18n.current_language() == "en"
