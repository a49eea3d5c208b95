"""What the lobby shows of each game — player counts and the options form — as plain data.

The rules' pydantic models are the one source of truth. `assets/catalog.json` is generated from
them (`python -m app.catalog`) and a test fails when it is out of date, so the lobby can be
drawn without importing pydantic or any game's rules: they load when a game is started (or a
save is read), and a player who only opens the lobby does not pay for them.
"""

from __future__ import annotations

import json
import sys
import typing
from functools import cache
from pathlib import Path
from typing import Any, Literal, NamedTuple

from kits import KITS
from rules import C_

CATALOG = Path(__file__).resolve().parents[1] / "assets" / "catalog.json"

CHOICE_LABELS: dict[str, str] = {
    "rounds": C_("option", "rounds"),
    "race": C_("option", "race"),
    "pot": C_("option", "pot"),
    "margin": C_("option", "margin"),
    "stakes": C_("option", "stakes"),
    "points": C_("option", "points"),
}
"""What the setup sheet shows for each value of a choice option, marked for translation (the
values themselves are the rules' and saved games'). A test checks every choice has one."""


def choice_label(value: object) -> str:
    """The marked words for a choice's value (the value itself if it has none)."""
    return CHOICE_LABELS.get(str(value), str(value))


FieldKind = Literal["bool", "int", "float", "choice", "text"]


class OptionField(NamedTuple):
    """One field of a game's options model, as the form needs it."""

    name: str
    kind: FieldKind
    title: str
    description: str
    default: Any
    choices: tuple[Any, ...] = ()
    applies_when: tuple[tuple[str, Any], ...] = ()
    """(other option, value) pairs that must all hold for this option to matter (the rules'
    `rules.model.applies_when`); otherwise the lobby dims it and says why."""

    def applies(self, values: dict[str, Any]) -> bool:
        """Whether the option matters with the other options at `values`."""
        return all(values.get(other) == value for other, value in self.applies_when)


class GameInfo(NamedTuple):
    id: str
    name: str
    min_players: int
    max_players: int
    options: tuple[OptionField, ...]


def _from_json(game_id: str, data: dict[str, Any]) -> GameInfo:
    return GameInfo(
        id=game_id,
        name=KITS[game_id].name,
        min_players=int(data["min_players"]),
        max_players=int(data["max_players"]),
        options=tuple(
            OptionField(
                name=f["name"],
                kind=f["kind"],
                title=f["title"],
                description=f["description"],
                default=f["default"],
                choices=tuple(f.get("choices", ())),
                applies_when=tuple(f.get("applies_when", {}).items()),
            )
            for f in data["options"]
        ),
    )


@cache
def catalog() -> dict[str, GameInfo]:
    """Every game, in lobby order (read once from `assets/catalog.json`)."""
    data = json.loads(CATALOG.read_text(encoding="utf-8"))
    return {game_id: _from_json(game_id, data[game_id]) for game_id in KITS}


def game_info(game_id: str) -> GameInfo:
    return catalog()[game_id]


# -- generating the catalogue from the rules (imports pydantic and every game) ---------------
def _field(model: Any, name: str, info: Any) -> dict[str, Any]:
    import enum

    from rules.model import conditions

    annotation = info.annotation
    default = info.get_default(call_default_factory=True)
    if isinstance(default, enum.Enum):
        default = default.value
    field: dict[str, Any] = {
        "name": name,
        "title": info.title or name.replace("_", " ").capitalize(),
        "description": info.description or "",
        "default": default,
    }
    if annotation is bool:
        field["kind"] = "bool"
    elif typing.get_origin(annotation) is typing.Literal:
        field["kind"] = "choice"
        field["choices"] = list(typing.get_args(annotation))
    elif isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        field["kind"] = "choice"
        field["choices"] = [member.value for member in annotation]
    elif annotation is int:
        field["kind"] = "int"
    elif annotation is float:
        field["kind"] = "float"
    else:
        field["kind"] = "text"
    if needs := conditions(model, name):
        field["applies_when"] = needs
    return field


def build() -> dict[str, Any]:
    """The catalogue as the rules define it now."""
    from rules import GAMES
    from rules.model import in_lobby

    return {
        game_id: {
            "min_players": game.min_players,
            "max_players": game.max_players,
            "options": [
                _field(game.options_model, name, info)
                for name, info in game.options_model.model_fields.items()
                if in_lobby(game.options_model, name)
            ],
        }
        for game_id, game in GAMES.items()
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main() -> int:
    CATALOG.write_text(dumps(build()), encoding="utf-8")
    sys.stderr.write(f"wrote {CATALOG}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
