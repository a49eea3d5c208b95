"""Base model for every option, state and action: frozen, strict about unknown fields."""

from typing import Any

from pydantic import BaseModel, ConfigDict

APPLIES_WHEN = "applies_when"


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def applies_when(**conditions: Any) -> dict[str, Any]:
    """An option field's metadata (its `json_schema_extra`): the option matters only while
    each option named has the value given, e.g. Barco's target only in a race,
    `Field(..., json_schema_extra=applies_when(end="race"))`. Otherwise the game never reads
    it (tests/rules/test_option_dependencies.py plays games to check), and the lobby dims it
    and says why."""
    return {APPLIES_WHEN: conditions}


NOT_IN_LOBBY_YET = "not_in_lobby_yet"


def not_in_lobby_yet() -> dict[str, Any]:
    """An option field's metadata: the rules play it, but the lobby does not offer it yet
    (its screens do not show it yet); the catalogue leaves it out (`app.catalog.build`)."""
    return {NOT_IN_LOBBY_YET: True}


def in_lobby(options_model: type[BaseModel], name: str) -> bool:
    """Whether the lobby offers option `name` (every option unless marked otherwise)."""
    extra = options_model.model_fields[name].json_schema_extra
    return not (isinstance(extra, dict) and extra.get(NOT_IN_LOBBY_YET))


def conditions(options_model: type[BaseModel], name: str) -> dict[str, Any]:
    """What option `name` of the model needs of the others to matter ({} if nothing)."""
    extra = options_model.model_fields[name].json_schema_extra
    found = extra.get(APPLIES_WHEN) if isinstance(extra, dict) else None
    return dict(found) if isinstance(found, dict) else {}


def option_applies(options: BaseModel, name: str) -> bool:
    """Whether option `name` matters with the values the other options have."""
    needs = conditions(type(options), name)
    return all(getattr(options, other) == value for other, value in needs.items())
