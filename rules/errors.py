"""The one exception every illegal action raises, and player-readable text without I/O.

A message for a player is a `Text`: an English template and the values that fill it. The
rules never translate: the app renders each `Text` late, in the language of whoever reads it
(`app.i18n.render`), so what is stored or sent carries templates and values, never words in
one language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

CONTEXT = "\x04"
"""gettext's separator between a message's context and its text (`pgettext`)."""


def N_(message: str) -> str:
    """Mark a string for translation without translating it (the rules do no I/O).

    The app passes every `Text.template` through its gettext function before formatting,
    so the catalogues live in the app and the rules stay pure.
    """
    return message


def C_(context: str, message: str) -> str:
    """Mark a string with a context, for a short word that means two things ("Throw" the
    button, "throw" the noun): the catalogue holds one translation per context. The string
    carries its context as gettext stores it; the app's `_` looks it up and shows the text
    without it."""
    return context + CONTEXT + message


class Forms(NamedTuple):
    """The singular and plural English forms of a counted message ("{n} throw", "{n} throws");
    the catalogue has as many forms as the language needs."""

    singular: str
    plural: str

    def english(self, n: int) -> str:
        return self.singular if n == 1 else self.plural


def NP_(singular: str, plural: str) -> Forms:
    """Mark a counted message for translation (`ngettext`) without translating it."""
    return Forms(singular, plural)


def untranslated(message: str) -> str:
    """A marked string as English shows it: without its context."""
    return message.rpartition(CONTEXT)[2]


@dataclass(frozen=True)
class Text:
    """A message for a player: an English template and the values that fill it.

    `template` is a marked string (`N_`, `C_`) or the forms of a counted message (`NP_`),
    whose count is the value named `count`. A value may itself be a `Text` (a box's or a
    piece's name, which the reader's language names too)."""

    template: str | Forms
    params: Mapping[str, Any] = field(default_factory=dict)
    count: str = "n"
    """With `Forms`: the value that chooses the singular or the plural."""

    def __str__(self) -> str:
        """The message in English (for logs and tests; a player reads `app.i18n.render`)."""
        template = self.template
        if isinstance(template, Forms):
            template = template.english(int(self.params[self.count]))
        values = {key: _english(value) for key, value in self.params.items()}
        return untranslated(template).format(**values)


def _english(value: Any) -> Any:
    """A value of a message as English shows it: a message as its words, a list of them
    joined with commas."""
    if isinstance(value, Text):
        return str(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value)
    return value


class IllegalAction(ValueError):
    """An action the rules do not allow in this state. The state is never changed."""

    def __init__(self, template: str | Forms, **params: Any) -> None:
        self.text = Text(template, params)
        super().__init__(str(self.text))


class InvalidOptions(ValueError):
    """Options for a game that its options model rejects; the message names each field.

    Each problem is the field's name and why, as a `Text` (or plain words, which are shown
    as they are)."""

    def __init__(self, problems: list[tuple[str, Text | str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{name}: {why}" for name, why in problems))
