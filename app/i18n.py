"""The player's language: the catalogues, the one translation function, and late rendering.

English is the source language. The catalogues are `app/locale/<lang>/LC_MESSAGES/cubilete.mo`
(the standard gettext layout; `app/locale/README.md` says how they are made), one for each of
`LANGUAGES` but English. The language is chosen once at start-up (`--lang`, else the one the
player chose in the lobby, else the environment: LANGUAGE, LC_ALL, LC_MESSAGES, LANG) and can
change while the app runs (`use_language`): so nothing may translate a string when a module is
imported. Module and class constants hold marked English strings (`N_`, `C_`, `NP_` from
`rules`), translated where they are shown; rules messages arrive as `rules.Text` (a template
and its values) and are rendered here, in the reader's language, as late as possible.

Numbers are written the reader's way too: a decimal comma in Spanish and Portuguese.
"""

from __future__ import annotations

import gettext
import os
import string
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rules import IllegalAction, Text
from rules.errors import CONTEXT, Forms, untranslated

DOMAIN = "cubilete"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "pt": "Português"}
"""Every language the app speaks, by its code, named in itself (as a language menu shows it)."""
SOURCE = "en"
DECIMAL_COMMA = frozenset({"es", "pt"})
"""Languages that write 0,25 for 0.25."""
YES_KEYS: dict[str, str] = {"en": "y", "es": "s", "pt": "s"}
"""The key that answers yes in each language (sí, sim), as the buttons and prompts name it;
"y" answers yes in every language, and "n" (no, não) no."""
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the language is read from, in gettext's order: the first one set counts."""

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE


# -- choosing the language ----------------------------------------------------------------
def language_code(name: str) -> str | None:
    """The supported language a locale name means: "es_AR.UTF-8" → "es", "pt_PT" → "pt",
    "C" → "en"; None if the app does not speak it."""
    base = name.strip().split(".")[0].split("@")[0]
    if base in ("C", "POSIX"):
        return SOURCE
    code = base.replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: the first of LANGUAGE,
    LC_ALL, LC_MESSAGES and LANG that is set (LANGUAGE may list several, "pt_BR:es"); the
    first name in it that the app speaks. English otherwise."""
    environ = os.environ if environ is None else environ
    for variable in ENVIRONMENT:
        value = environ.get(variable, "")
        if value:
            for name in value.split(":"):
                code = language_code(name) if name else None
                if code is not None:
                    return code
            return SOURCE
    return SOURCE


def use_language(code: str | None = None, localedir: Path | None = None) -> str:
    """Speak `code` from now on (None: what the environment asks for). A language without a
    catalogue (or English) shows the English source. Returns the language now in use."""
    global _translation, _language
    code = code if code in LANGUAGES else language_from_environment()
    assert code is not None
    if code == SOURCE:
        _translation = gettext.NullTranslations()
    else:
        _translation = gettext.translation(
            DOMAIN, localedir=localedir or LOCALE_DIR, languages=[code], fallback=True
        )
    _language = code
    return code


def use_catalogue(translation: gettext.NullTranslations, code: str) -> None:
    """Speak from a catalogue that is not installed (the tests' pseudo-locale)."""
    global _translation, _language
    _translation, _language = translation, code


def current_language() -> str:
    return _language


def yes_key() -> str:
    """The key that answers yes in the language in use (`YES_KEYS`)."""
    return YES_KEYS.get(_language, YES_KEYS[SOURCE])


@contextmanager
def speaking(code: str | None) -> Iterator[None]:
    """Speak `code` for a moment (a web page for one browser's language), then go back to
    the language in use. None: no change."""
    if code is None or code == _language:
        yield
        return
    saved = _translation, _language
    use_language(code)
    try:
        yield
    finally:
        use_catalogue(*saved)


def language_of_browser(accept_language: str | None) -> str | None:
    """The language the app speaks that a browser's Accept-Language header prefers most
    ("es-AR,es;q=0.9,en;q=0.8" → "es"); None if it names none of them."""
    best: tuple[float, int, str] | None = None
    for order, part in enumerate((accept_language or "").split(",")):
        name, _semicolon, rest = part.strip().partition(";")
        weight = 1.0
        for parameter in rest.split(";"):
            key, _equals, value = parameter.strip().partition("=")
            if key == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        code = language_code(name) if name and name != "*" else None
        if code is None or weight <= 0:
            continue
        if best is None or (weight, -order) > (best[0], best[1]):
            best = (weight, -order, code)
    return best[2] if best is not None else None


# -- translating ----------------------------------------------------------------------------
def _(message: str) -> str:
    """`message` in the player's language (a `C_`-marked one is looked up with its context,
    and shown without it)."""
    if not message:  # (argparse asks for None's translation)
        return message
    return untranslated(_translation.gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message that `n` takes in the player's language."""
    return untranslated(_translation.ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    return _(context + CONTEXT + message)


class _Formatter(string.Formatter):
    """`str.format` that writes numbers the reader's way and renders `Text` values."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Text):
            value = render(value)
        elif isinstance(value, (list, tuple)):
            value = ", ".join(
                render(item) if isinstance(item, Text) else str(item) for item in value
            )
        elif isinstance(value, float):
            return decimal(format(value, format_spec))
        return format(value, format_spec)


_FORMATTER = _Formatter()


def decimal(figures: str) -> str:
    """A number written with a decimal point ("0.25", "+1.50", "3.1%"), the reader's way."""
    return figures.replace(".", ",") if _language in DECIMAL_COMMA else figures


def number(value: float, digits: int | None = None) -> str:
    """A number for a player to read: `digits` decimals (None: as few as it needs)."""
    figures = f"{value:.{digits}f}" if digits is not None else f"{value:g}"
    return decimal(figures)


def parse_number(text: str) -> str:
    """What a player typed as a number, in the form Python reads ("0,5" → "0.5")."""
    return text.strip().replace(",", ".")


class Late:
    """A value of a message worked out when the message is rendered, in the reader's
    language: `Late(format_loss, 0.25, unit)` is "0.25" in English, "0,25" in Spanish."""

    __slots__ = ("args", "function")

    def __init__(self, function: Callable[..., str], *args: Any) -> None:
        self.function = function
        self.args = args

    def __format__(self, format_spec: str) -> str:
        return format(self.function(*self.args), format_spec)

    def __str__(self) -> str:
        return self.function(*self.args)


def tr(message: str, **params: Any) -> str:
    """`message` translated and filled: numbers the reader's way, `Text` values rendered."""
    return _FORMATTER.vformat(_(message), (), params)


def ntr(forms: Forms, n: int, **params: Any) -> str:
    """A counted message (`NP_`) translated for `n` and filled (`n` fills {n} too)."""
    return _FORMATTER.vformat(ngettext(forms.singular, forms.plural, n), (), {"n": n, **params})


def render(text: Text | str) -> str:
    """A message (template + values) in the player's language. A plain string (a name, or
    words that were never marked) is shown as it is."""
    if isinstance(text, str):
        return text
    template = text.template
    if isinstance(template, Forms):
        words = ngettext(template.singular, template.plural, int(text.params[text.count]))
    else:
        words = _(template)
    return _FORMATTER.vformat(words, (), dict(text.params))


def render_all(texts: Sequence[Text | str]) -> list[str]:
    return [render(text) for text in texts]


def explain(error: IllegalAction) -> str:
    return render(error.text)


# -- messages as data: stored and sent without words in one language ------------------------
def _value_to_data(value: Any) -> Any:
    if isinstance(value, Text):
        return text_to_data(value)
    if isinstance(value, (list, tuple)):
        return [_value_to_data(item) for item in value]
    return value


def _value_from_data(value: Any) -> Any:
    if isinstance(value, dict):
        return text_from_data(value)
    if isinstance(value, list):
        return tuple(_value_from_data(item) for item in value)
    return value


def text_to_data(text: Text | str) -> Any:
    """A message as JSON data: its template and values (values that are messages too)."""
    if isinstance(text, str):
        return text
    template = text.template
    data: dict[str, Any] = {
        "template": list(template) if isinstance(template, Forms) else template,
        "params": {key: _value_to_data(value) for key, value in text.params.items()},
    }
    if text.count != "n":
        data["count"] = text.count
    return data


def text_from_data(data: Any) -> Text | str:
    """`text_to_data` undone; a plain string (a log line of an older save) stays one."""
    if isinstance(data, str):
        return data
    if not isinstance(data, dict) or "template" not in data:
        raise ValueError(f"not a message: {data!r:.60}")
    template = data["template"]
    if isinstance(template, list) and len(template) == 2:
        template = Forms(str(template[0]), str(template[1]))
    elif not isinstance(template, str):
        raise ValueError(f"not a message template: {template!r:.60}")
    params = {
        str(key): _value_from_data(value) for key, value in dict(data.get("params", {})).items()
    }
    return Text(template, params, str(data.get("count", "n")))


use_language()
