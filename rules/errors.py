"""The one exception every illegal action raises, and player-readable text without I/O."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(message: str) -> str:
    """Mark a string for translation without translating it (the rules do no I/O).

    The app passes every `Text.template` through its gettext function before formatting,
    so the catalogues live in the app and the rules stay pure.
    """
    return message


@dataclass(frozen=True)
class Text:
    """A message for a player: an English template and the values that fill it."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.template.format(**self.params)


class IllegalAction(ValueError):
    """An action the rules do not allow in this state. The state is never changed."""

    def __init__(self, template: str, **params: Any) -> None:
        self.text = Text(template, params)
        super().__init__(str(self.text))


class InvalidOptions(ValueError):
    """Options for a game that its options model rejects; the message names each field."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{name}: {why}" for name, why in problems))
