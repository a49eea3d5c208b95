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


def conditions(options_model: type[BaseModel], name: str) -> dict[str, Any]:
    """What option `name` of the model needs of the others to matter ({} if nothing)."""
    extra = options_model.model_fields[name].json_schema_extra
    found = extra.get(APPLIES_WHEN) if isinstance(extra, dict) else None
    return dict(found) if isinstance(found, dict) else {}


def option_applies(options: BaseModel, name: str) -> bool:
    """Whether option `name` matters with the values the other options have."""
    needs = conditions(type(options), name)
    return all(getattr(options, other) == value for other, value in needs.items())
