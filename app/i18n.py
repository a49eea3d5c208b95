"""The one translation function for every string a player reads.

English is the source language. Catalogues go in `app/locale/<lang>/LC_MESSAGES/cubilete.mo`
(the standard gettext layout, chosen by LANGUAGE / LC_ALL / LC_MESSAGES / LANG); until one
exists for the user's language, text stays English. Rules messages arrive as `rules.Text`
(an English template and its values) and are translated here, so `rules/` stays free of I/O.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from pathlib import Path

from rules import IllegalAction, Text

DOMAIN = "cubilete"
LOCALE_DIR = Path(__file__).parent / "locale"
_translation: gettext.NullTranslations = gettext.translation(
    DOMAIN, localedir=LOCALE_DIR, fallback=True
)


def use_language(languages: Sequence[str] | None = None, localedir: Path | None = None) -> None:
    """Switch catalogues (no languages: follow the environment again). Only the tests call it:
    at start-up the module follows the environment (LANGUAGE, LC_ALL, ...) by itself."""
    global _translation
    _translation = gettext.translation(
        DOMAIN, localedir=localedir or LOCALE_DIR, languages=languages, fallback=True
    )


def _(message: str) -> str:
    return _translation.gettext(message)


def render(text: Text) -> str:
    """A rules message (template + values) in the player's language."""
    return _(text.template).format(**text.params)


def explain(error: IllegalAction) -> str:
    return render(error.text)
