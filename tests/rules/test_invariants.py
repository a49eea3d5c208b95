"""What every game in `rules.GAMES` promises, whatever the dice and whatever the players choose.

Each property runs over every registered game, so a game added to `rules.GAMES` is checked
without touching this file. A game is played by a seeded random player drawing the dice from
`chance_outcomes` with their probabilities: hypothesis picks the seats, the options and the
seed (fair dice keep every game finite; dice chosen adversarially could replay a round for ever).

Random play can be long (a piratas game of 3 lives often takes 10,000 steps), so the walk that
checks every state stops after `CHECKED_STEPS`, and the games played to their end use the
smallest value of each numeric option (fewest rounds, lives, chips...).
"""

from __future__ import annotations

import copy
import enum
import json
import random
from fractions import Fraction
from itertools import accumulate
from typing import Any, Literal, get_args, get_origin

import pytest
from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import rules
from rules import IllegalAction, InvalidOptions

GAME_IDS = list(rules.GAMES)
MAX_SEATS = 4
MAX_STEPS = 200_000
"""Far beyond any game played out by fair dice; reaching it means the game does not end."""
CHECKED_STEPS = 1_500

PROPERTY = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
"""No shrinking: a smaller seed is a different game, not a simpler one, so shrinking would
replay whole games for minutes and report nothing clearer than the failing seed."""
WHOLE_GAMES = settings(PROPERTY, max_examples=10)


# -- building blocks ------------------------------------------------------------------------


def option_values(annotation: Any) -> list[Any] | None:
    """The choices of a categorical option (Literal, Enum, bool), or None for other fields."""
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    if annotation is bool:
        return [False, True]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return list(annotation)
    return None


def smallest(field: Any) -> int | None:
    """The lowest value a whole-number option allows, if it says."""
    if field.annotation is not int:
        return None
    bounds = [m.ge for m in field.metadata if getattr(m, "ge", None) is not None]
    bounds += [m.gt + 1 for m in field.metadata if getattr(m, "gt", None) is not None]
    return max(bounds) if bounds else None


@st.composite
def new_games(draw: st.DrawFn, game: rules.Game, shortest: bool = False) -> BaseModel:
    """A fresh game for 1..4 of the seats the game takes, each categorical option varied,
    each numeric option at its default or its smallest (always its smallest if `shortest`)."""
    seats = draw(st.integers(game.min_players, min(game.max_players, MAX_SEATS)), label="seats")
    options = {}
    for name, field in game.options_model.model_fields.items():
        values = option_values(field.annotation)
        low = smallest(field)
        if values is not None:
            options[name] = draw(st.sampled_from(values), label=f"option {name}")
        elif low is not None:
            options[name] = low if shortest else draw(st.sampled_from([field.default, low]))
    try:
        return game.new_game([f"Player {seat + 1}" for seat in range(seats)], options)
    except InvalidOptions:
        reject()


_checked_outcomes: dict[int, tuple[Any, list[tuple[int, ...]], list[float]]] = {}


def checked_outcomes(outcomes: Any) -> tuple[list[tuple[int, ...]], list[float]]:
    """The outcomes and their cumulative weights, once checked: exact probabilities that sum
    to 1, every outcome listed once. Checked once per distinct outcome table."""
    known = _checked_outcomes.get(id(outcomes))
    if known is not None and known[0] is outcomes:
        return known[1], known[2]
    faces = [tuple(f) for f, _ in outcomes]
    probabilities = [p for _, p in outcomes]
    assert all(isinstance(p, Fraction | int) and p > 0 for p in probabilities)
    assert sum(probabilities, Fraction(0)) == 1, "the probabilities must sum to exactly 1"
    assert len(set(faces)) == len(faces), "an outcome is listed twice"
    assert all(1 <= face <= 6 for outcome in faces for face in outcome)
    cumulative = list(accumulate(float(p) for p in probabilities))
    _checked_outcomes[id(outcomes)] = (outcomes, faces, cumulative)
    return faces, cumulative


def throw_dice(game: rules.Game, state: BaseModel, rng: random.Random) -> BaseModel:
    """Resolve the pending throw with an outcome drawn from `chance_outcomes`."""
    pending = game.pending_throw(state)
    outcomes, cumulative = checked_outcomes(game.chance_outcomes(state))
    (faces,) = rng.choices(outcomes, cum_weights=cumulative)
    assert len(faces) == pending.count
    if not pending.ordered:
        faces = tuple(rng.sample(faces, len(faces)))
    return game.apply_chance(state, faces)


def assert_one_thing_happens(game: rules.Game, state: BaseModel) -> list[Any]:
    """Exactly one of: dice pending, a player to decide, the game over. Returns the moves."""
    legal = game.legal_actions(state)
    waiting_for_dice = game.pending_throw(state) is not None
    deciding = game.current_player(state) is not None and bool(legal)
    over = game.is_over(state)
    assert waiting_for_dice + deciding + over == 1, (waiting_for_dice, deciding, over)
    if not deciding:
        assert game.current_player(state) is None
        assert legal == []
    return legal


def assert_sound(
    game: rules.Game, state: BaseModel, names: tuple[str, ...], as_saved: bool = True
) -> None:
    """One thing happens, and the state is exact JSON: as a string and (`as_saved`) as the
    JSON object a save file holds."""
    assert_one_thing_happens(game, state)
    assert game.load_state(state.model_dump_json()) == state
    if as_saved:
        assert game.load_state(json.loads(json.dumps(state.model_dump(mode="json")))) == state
    assert state.game == game.id
    assert game.players(state) == names
    assert len(game.scores(state)) == len(names)


def play(
    game: rules.Game,
    state: BaseModel,
    seed: int,
    steps: int = MAX_STEPS,
    check: str = "turn",
) -> list[tuple[BaseModel, Any]]:
    """A random game from `state`, with the event that followed each state ("dice", an
    action, or None after the end). It stops at the end or after `steps` steps.

    `check`: "turn" asserts at every step that exactly one thing happens; "full" also that
    the state is sound (`assert_sound`); "" checks nothing.
    """
    rng = random.Random(seed)
    names = game.players(state)
    history: list[tuple[BaseModel, Any]] = []
    for step in range(steps):
        if check == "full":
            assert_sound(game, state, names, as_saved=step % 20 == 0 or game.is_over(state))
        elif check == "turn":
            assert_one_thing_happens(game, state)
        if game.is_over(state):
            history.append((state, None))
            return history
        if game.pending_throw(state) is not None:
            after = throw_dice(game, state, rng)
            event: Any = "dice"
        else:
            event = rng.choice(game.legal_actions(state))
            after = game.apply(state, event)
        history.append((state, event))
        state = after
    history.append((state, "not over"))
    return history


def play_to_the_end(game: rules.Game, state: BaseModel, seed: int, check: str = "turn"):
    history = play(game, state, seed, check=check)
    _, event = history[-1]
    assert event is None, f"{game.id}: still not over after {MAX_STEPS} steps"
    return history


# -- (a), (b), (d): random legal play --------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@WHOLE_GAMES
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_always_ends_with_one_thing_happening_at_each_step(game_id, data, seed):
    game = rules.get_game(game_id)
    state = data.draw(new_games(game, shortest=True), label="new game")
    final, _ = play_to_the_end(game, state, seed)[-1]
    assert game.is_over(final)
    winners = game.winners(final)
    assert winners
    assert all(0 <= seat < len(game.players(final)) for seat in winners)


@pytest.mark.parametrize("game_id", GAME_IDS)
@PROPERTY
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_every_state_of_random_play_is_sound_and_survives_json(game_id, data, seed):
    game = rules.get_game(game_id)
    state = data.draw(new_games(game), label="new game")
    play(game, state, seed, steps=CHECKED_STEPS, check="full")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_chance_outcomes_of_every_first_throw_sum_to_exactly_one(game_id):
    game = rules.get_game(game_id)
    seats = range(game.min_players, min(game.max_players, MAX_SEATS) + 1)
    for state in (game.new_game([f"P{i}" for i in range(n)]) for n in seats):
        if game.pending_throw(state) is not None:
            outcomes = game.chance_outcomes(state)
            assert sum((p for _, p in outcomes), Fraction(0)) == Fraction(1)
            assert len({faces for faces, _ in outcomes}) == len(outcomes)


# -- (c): illegal moves -----------------------------------------------------------------------


def action_classes(game: rules.Game) -> list[type[BaseModel]]:
    """The member models of the game's action union, read from the pydantic schema."""
    found: list[type[BaseModel]] = []

    def walk(schema: Any, definitions: dict[str, Any]) -> None:
        kind = schema["type"]
        if kind == "definitions":
            definitions = {**definitions, **{d["ref"]: d for d in schema["definitions"]}}
            walk(schema["schema"], definitions)
        elif kind == "definition-ref":
            walk(definitions[schema["schema_ref"]], definitions)
        elif kind == "model":
            found.append(schema["cls"])
        elif kind == "tagged-union":
            for choice in schema["choices"].values():
                if isinstance(choice, dict):
                    walk(choice, definitions)
        elif kind == "union":
            for choice in schema["choices"]:
                walk(choice[0] if isinstance(choice, tuple) else choice, definitions)
        elif isinstance(schema.get("schema"), dict):
            walk(schema["schema"], definitions)

    walk(game.action_adapter.core_schema, {})
    assert found, f"no action models found in {game.id}'s action_adapter"
    return found


def field_values(annotation: Any) -> st.SearchStrategy[Any]:
    try:
        return st.from_type(annotation)
    except Exception:  # a type hypothesis cannot build: any junk will do
        return st.none()


def made_up_actions(game: rules.Game) -> st.SearchStrategy[dict[str, Any]]:
    """Dicts of the right shape for one of the game's action models, with any field values."""
    shapes = [
        st.fixed_dictionaries(
            {name: field_values(field.annotation) for name, field in cls.model_fields.items()}
        )
        for cls in action_classes(game)
    ]
    return st.one_of(shapes)


junk = st.none() | st.booleans() | st.integers() | st.text(max_size=4)
malformed_actions = st.one_of(
    junk,
    st.lists(junk, max_size=3),
    st.dictionaries(st.text(max_size=6), junk, max_size=3),
    st.builds(
        lambda kind, extra: {"kind": kind, "no_such_field": extra}, st.text(max_size=8), junk
    ),
)


def assert_refused_unchanged(call, state: BaseModel) -> None:
    before = copy.deepcopy(state)
    as_json = state.model_dump_json()
    with pytest.raises(IllegalAction) as refused:
        call()
    assert str(refused.value), "the player must be told why"
    assert state == before
    assert state.model_dump_json() == as_json


def try_action(game: rules.Game, state: BaseModel, action: Any) -> None:
    """An action outside `legal_actions` is refused, or is a listed legal action spelled
    differently (it leads to the very state a listed action leads to)."""
    legal = game.legal_actions(state)
    before = copy.deepcopy(state)
    try:
        after = game.apply(state, action)
    except IllegalAction:
        assert state == before
        return
    parsed = game.parse_action(action)
    assert legal, f"{action!r} was accepted where no action is legal"
    if parsed in legal:
        return
    assert any(game.apply(state, other) == after for other in legal), (
        f"{action!r} is not in legal_actions, yet was accepted"
    )


def try_chance(game: rules.Game, state: BaseModel, faces: list[int]) -> None:
    pending = game.pending_throw(state)
    if pending is not None and len(faces) == pending.count and all(1 <= f <= 6 for f in faces):
        return  # a legal throw
    assert_refused_unchanged(lambda: game.apply_chance(state, faces), state)


@pytest.mark.parametrize("game_id", GAME_IDS)
@PROPERTY
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_illegal_moves_and_throws_are_refused_and_change_nothing(game_id, data, seed):
    game = rules.get_game(game_id)
    history = play(game, data.draw(new_games(game), label="new game"), seed, CHECKED_STEPS, "")
    states = [state for state, _ in history]
    seen = {event.model_dump_json(): event for _, event in history if isinstance(event, BaseModel)}
    played = list(seen.values())
    moves_from_elsewhere = st.integers(0, len(played) - 1).map(played.__getitem__)
    attempts = st.one_of(
        st.tuples(st.just("action"), moves_from_elsewhere),
        st.tuples(st.just("action"), made_up_actions(game)),
        st.tuples(st.just("action"), malformed_actions),
        st.tuples(st.just("dice"), st.lists(st.integers(-1, 8), max_size=6)),
    )
    for _ in range(25):
        state = states[data.draw(st.integers(0, len(states) - 1), label="state")]
        what, attempt = data.draw(attempts, label="attempt")
        if what == "dice":
            try_chance(game, state, attempt)
        else:
            try_action(game, state, attempt)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_action_is_refused_while_the_dice_roll_or_after_the_end(game_id):
    game = rules.get_game(game_id)
    seats = max(game.min_players, min(2, game.max_players))
    shortest = {
        name: smallest(field)
        for name, field in game.options_model.model_fields.items()
        if smallest(field) is not None
    }
    history = play_to_the_end(game, game.new_game(["Ana", "Beto", "Caro"][:seats], shortest), 7)
    played = [event for _, event in history if isinstance(event, BaseModel)]
    rolling = next(s for s, _ in history if game.pending_throw(s) is not None)
    final, _ = history[-1]
    for state in (rolling, final):
        for action in played[:20]:
            assert_refused_unchanged(lambda s=state, a=action: game.apply(s, a), state)
    assert_refused_unchanged(lambda: game.chance_outcomes(final), final)


# -- Generala -------------------------------------------------------------------------------


@PROPERTY
@given(seats=st.integers(1, MAX_SEATS), seed=st.integers(0, 2**32 - 1))
def test_a_random_generala_fills_thirteen_boxes_a_player_and_scores_their_sum(seats, seed):
    game = rules.get_game("generala")
    history = play_to_the_end(game, game.new_game([f"P{i}" for i in range(seats)]), seed)
    final, _ = history[-1]
    fills = [state.current for state, event in history if getattr(event, "kind", "") == "fill"]
    assert [fills.count(seat) for seat in range(seats)] == [13] * seats
    assert final.round == 13
    for seat, sheet in enumerate(final.sheets):
        assert len(sheet) == 13
        assert None not in sheet
        assert game.scores(final)[seat] == final.total(seat) == sum(sheet)
    best = max(game.scores(final))
    assert game.winners(final) == tuple(
        seat for seat, total in enumerate(game.scores(final)) if total == best
    )
