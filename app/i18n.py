"""The one translation function for every string a player reads.

English is the source language. Catalogues go in `app/locale/<lang>/LC_MESSAGES/cubilete.mo`
(the standard gettext layout); until one exists for the user's language, text stays English.
"""

from __future__ import annotations

import gettext
from pathlib import Path

from rules import IllegalAction, Text

LOCALE_DIR = Path(__file__).parent / "locale"
_translation = gettext.translation("cubilete", localedir=LOCALE_DIR, fallback=True)


def _(message: str) -> str:
    return _translation.gettext(message)


def render(text: Text) -> str:
    """A rules message (template + values) in the player's language."""
    return _(text.template).format(**text.params)


def explain(error: IllegalAction) -> str:
    return render(error.text)
