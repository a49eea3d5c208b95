"""An option that says when it applies (`rules.model.applies_when`) is honest about it: while its
conditions do not hold, any value of it plays exactly the same game; while they hold, its value
changes the game. The lobby dims such an option by this metadata (via assets/catalog.json)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from pydantic import BaseModel
from test_invariants import option_values, play, smallest

import rules
from rules.model import conditions, option_applies

DEPENDENT = [
    (game_id, name)
    for game_id, game in rules.GAMES.items()
    for name in game.options_model.model_fields
    if conditions(game.options_model, name)
]
SEEDS = range(12)


def test_the_options_that_apply_only_sometimes() -> None:
    needs = {
        (game_id, name): conditions(rules.GAMES[game_id].options_model, name)
        for game_id, name in DEPENDENT
    }
    assert needs == {
        ("barco", "rounds"): {"end": "rounds"},
        ("barco", "target"): {"end": "race"},
        ("barco", "settlement"): {"stakes": True},
        ("barco", "stake"): {"stakes": True, "settlement": "pot"},
        ("barco", "rate"): {"stakes": True, "settlement": "margin"},
        ("navio", "bankroll"): {"mode": "stakes"},
        ("navio", "ante"): {"mode": "stakes"},
    }


def test_every_condition_names_another_option_and_one_of_its_values() -> None:
    for game_id, name in DEPENDENT:
        model = rules.GAMES[game_id].options_model
        for other, value in conditions(model, name).items():
            assert other != name and other in model.model_fields
            assert value in option_values(model.model_fields[other].annotation)


def short_game(model: type[BaseModel]) -> dict[str, Any]:
    """Every whole-number option that always applies at its smallest (fewest rounds...)."""
    values = {}
    for name, field in model.model_fields.items():
        low = smallest(field)
        if low is not None and not conditions(model, name):
            values[name] = low
    return values


def two_values(game: rules.Game, base: dict[str, Any], name: str) -> tuple[Any, Any]:
    """Two far-apart values of an option, each valid beside the others in `base`."""
    field = game.options_model.model_fields[name]
    choices = option_values(field.annotation)
    if choices is None:
        low = smallest(field) if field.annotation is int else 0.1
        high = next(m.le for m in field.metadata if getattr(m, "le", None) is not None)
        choices = [low, field.default, field.default + 1, field.default * 2, high]
    valid = []
    for value in choices:
        try:
            game.options({**base, name: value})
        except rules.InvalidOptions:
            continue
        valid.append(value)
    assert len(set(valid)) >= 2, f"{name}: no two valid values beside {base}"
    return valid[0], valid[-1]


def settings_of(model: type[BaseModel], name: str, holding: bool) -> list[dict[str, Any]]:
    """Every way of setting the options the field depends on, where its conditions hold
    (`holding`) or not."""
    needs = conditions(model, name)
    ways = []
    for values in itertools.product(
        *(option_values(model.model_fields[other].annotation) for other in needs)
    ):
        chosen = dict(zip(needs, values, strict=True))
        if (chosen == needs) == holding:
            ways.append(chosen)
    return ways


def course(game: rules.Game, options: dict[str, Any], seed: int) -> list[Any]:
    """A whole random game, each state without its options, and the event that followed."""
    state = game.new_game(["Ana", "Bruno", "Carla"], options)
    return [
        (after.model_dump(exclude={"options"}), repr(event))
        for after, event in play(game, state, seed, check="")
    ]


@pytest.mark.parametrize(("game_id", "name"), DEPENDENT)
def test_while_its_conditions_fail_an_option_changes_nothing(game_id: str, name: str) -> None:
    game = rules.GAMES[game_id]
    model = game.options_model
    for others in settings_of(model, name, holding=False):
        base = {**short_game(model), **others}
        first, second = two_values(game, base, name)
        one, two = {**base, name: first}, {**base, name: second}
        assert not option_applies(game.options(one), name)
        for seed in SEEDS:
            assert course(game, one, seed) == course(game, two, seed), (others, seed)


@pytest.mark.parametrize(("game_id", "name"), DEPENDENT)
def test_while_its_conditions_hold_an_option_changes_the_game(game_id: str, name: str) -> None:
    game = rules.GAMES[game_id]
    model = game.options_model
    (needs,) = settings_of(model, name, holding=True)
    base = {**short_game(model), **needs}
    first, second = two_values(game, base, name)
    one, two = {**base, name: first}, {**base, name: second}
    assert option_applies(game.options(one), name)
    assert any(course(game, one, seed) != course(game, two, seed) for seed in SEEDS)
