"""What every bot and coach promises, over random states of every game (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bots
import rules
from bots import LEVELS, Rating, Unit, UnknownBot, coach, get_bot

GAME_IDS = list(rules.GAMES)
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_decision(game_id: str, seats: int, seed: int, steps: int):
    """A state where a player must decide, reached by `steps` random legal steps (or the
    last decision before the game ended)."""
    game = rules.get_game(game_id)
    rng = random.Random(seed)
    seats = max(game.min_players, min(game.max_players, seats))
    state = game.new_game([f"P{i}" for i in range(seats)])
    decision = None
    for _ in range(steps):
        if game.is_over(state):
            break
        pending = game.pending_throw(state)
        if pending is not None:
            faces = tuple(rng.randint(1, 6) for _ in range(pending.count))
            state = game.apply_chance(state, faces)
            continue
        decision = state
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    if not game.is_over(state) and game.current_player(state) is not None:
        decision = state
    return decision


def decisions(game_id: str):
    return st.builds(
        lambda seats, seed, steps: random_decision(game_id, seats, seed, steps),
        st.integers(1, 4),
        st.integers(0, 2**32 - 1),
        st.integers(0, 400),
    ).filter(lambda state: state is not None)


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(data=st.data())
def test_bots_only_ever_play_legal_actions(game_id, data):
    state = data.draw(decisions(game_id))
    game = rules.get_game(game_id)
    legal = game.legal_actions(state)
    for level in LEVELS:
        for seed in (0, 1):
            assert get_bot(game_id, level, seed=seed).choose(state) in legal


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(data=st.data())
def test_the_coach_ranks_every_legal_action_and_its_best_is_the_experts_choice(game_id, data):
    state = data.draw(decisions(game_id))
    game = rules.get_game(game_id)
    the_coach = coach(game_id)
    hint = the_coach.hint(state)
    legal = game.legal_actions(state)
    # every legal action is in exactly one option, the first of its actions is the option's
    assert sorted(repr(a) for o in hint.options for a in o.actions) == sorted(map(repr, legal))
    assert all(o.action == o.actions[0] for o in hint.options)
    # one row per decision: what the player reads tells the rows apart
    labels = [str(o.label) for o in hint.options]
    assert len(set(labels)) == len(labels), labels
    # actions gathered into one decision are worth the same and are reviewed as one
    worth = {repr(action): value for action, value in the_coach.values(state)}
    for option in hint.options:
        assert {worth[repr(a)] for a in option.actions} == {option.value}
        for action in option.actions:
            review = the_coach.review(state, action)
            assert review.option == option and review.loss == option.loss
    assert hint.forced == (len(hint.options) == 1)
    values = [o.value for o in hint.options]
    assert values == sorted(values, reverse=True)
    assert hint.options[0].best and hint.options[0].loss == 0
    assert all(o.loss >= 0 and o.best == (o.loss <= bots.EPSILON) for o in hint.options)
    assert hint.unit in the_coach.thresholds
    assert get_bot(game_id, "expert").choose(state) == hint.best.action
    chosen = random.Random(len(values)).choice(legal)
    review = the_coach.review(state, chosen)
    assert review.loss == pytest.approx(hint.option(chosen).loss)
    assert review.rating in Rating
    assert the_coach.review(state, hint.best.action).rating is Rating.BEST


def test_no_hint_when_nobody_decides():
    game = rules.get_game("generala")
    state = game.new_game(["Ana", "Beto"])  # the roll-off is pending
    assert coach("generala").hint(state) is None
    assert coach("generala").options(state) == []
    with pytest.raises(ValueError):
        get_bot("generala", "expert").choose(state)


def test_the_easy_bot_is_a_pure_function_of_state_and_seed():
    game = rules.get_game("generala")
    state = game.apply_chance(game.apply(game.new_game(["Ana"]), {"kind": "roll"}), (1, 2, 3, 4, 6))
    first = get_bot("generala", "easy", seed=3)
    assert first.choose(state) == get_bot("generala", "easy", seed=3).choose(state)
    picks = {repr(get_bot("generala", "easy", seed=s).choose(state)) for s in range(30)}
    assert len(picks) > 1


def test_unknown_games_and_levels_are_refused():
    with pytest.raises(UnknownBot):
        get_bot("generala", "grandmaster")
    with pytest.raises(UnknownBot):
        get_bot("parcheesi", "medium")
    with pytest.raises(UnknownBot):
        coach("parcheesi")


def test_ratings_follow_the_thresholds():
    rate = coach("generala").rate
    assert rate(0.0, Unit.FINAL_SCORE) is Rating.BEST
    assert rate(0.5, Unit.FINAL_SCORE) is Rating.GOOD
    assert rate(2.0, Unit.FINAL_SCORE) is Rating.INACCURACY
    assert rate(5.0, Unit.FINAL_SCORE) is Rating.MISTAKE
    assert rate(20.0, Unit.FINAL_SCORE) is Rating.BLUNDER
    assert coach("navio").rate(0.05, Unit.WIN_PROBABILITY) is Rating.MISTAKE


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_coach_can_prepare_a_new_game_ahead(game_id):
    game = rules.get_game(game_id)
    state = game.new_game(["Ana", "Beto"])
    coach(game_id).prepare(state)
    decision = random_decision(game_id, 2, 1, 60)
    assert coach(game_id).hint(decision) is not None
