"""A chance outcome that is not a throw is an IllegalAction in every game, never a TypeError.

The app feeds `apply_chance` from its dice sources, but a save, a future network peer or a
bug could hand it anything: whatever it is, the rules answer with the one exception they
promise, and the state stays as it was.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import rules
from rules import IllegalAction

GAME_IDS = list(rules.GAMES)


def waiting_for_dice(game_id: str, steps: int) -> BaseModel:
    """A state of `game_id` that waits for a throw, `steps` random decisions into a game."""
    game = rules.get_game(game_id)
    rng = random.Random(steps)
    state = game.new_game(["Ana", "Beto"])
    for _ in range(steps * 2):
        if game.is_over(state):
            break
        pending = game.pending_throw(state)
        if pending is None:
            state = game.apply(state, rng.choice(game.legal_actions(state)))
        elif steps <= 0:
            break
        else:
            steps -= 1
            state = game.apply_chance(state, tuple(rng.randint(1, 6) for _ in range(pending.count)))
    while game.pending_throw(state) is None and not game.is_over(state):
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    assert game.pending_throw(state) is not None
    return state


NOT_A_THROW = [
    None,
    0,
    7,
    3,
    3.0,
    True,
    False,
    "",
    "3",
    "12345",
    b"\x03",
    {3: 3},
    {3},
    object(),
    iter([3]),
]
"""Things that are not a list of faces at all (a string or a dict is not one either: each
would otherwise pass as its characters or keys)."""


def junk_throws(count: int) -> list[object]:
    """Lists of the right kind but wrong contents, for a throw of `count` dice."""
    right = [3] * count
    return [
        [],
        [3] * (count + 1),
        right[:-1],
        [0] * count,
        [7] * count,
        [-1] * count,
        [3.0] * count,
        [True] * count,
        [None] * count,
        ["3"] * count,
        [[3]] * count,
        [2**64] * count,
        [*right[:-1], 3.5],
        [*right[:-1], "6"],
    ]


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("junk", NOT_A_THROW, ids=repr)
def test_anything_but_a_list_of_faces_is_an_illegal_throw(game_id, junk):
    game = rules.get_game(game_id)
    state = waiting_for_dice(game_id, 0)
    before = state.model_dump()
    with pytest.raises(IllegalAction):
        game.apply_chance(state, junk)
    assert state.model_dump() == before


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_wrong_faces_or_the_wrong_number_of_dice_are_illegal(game_id):
    game = rules.get_game(game_id)
    state = waiting_for_dice(game_id, 0)
    count = game.pending_throw(state).count
    for junk in junk_throws(count):
        for kind in (list, tuple):
            with pytest.raises(IllegalAction):
                game.apply_chance(state, kind(junk))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_throw_when_no_dice_are_rolling_is_illegal_whatever_it_is(game_id):
    game = rules.get_game(game_id)
    state = waiting_for_dice(game_id, 0)
    count = game.pending_throw(state).count
    rng = random.Random(1)
    decided = game.apply_chance(state, (3,) * count)
    while game.pending_throw(decided) is not None:  # (a roll-off throws for every player)
        throw = tuple(rng.randint(1, 6) for _ in range(game.pending_throw(decided).count))
        decided = game.apply_chance(decided, throw)
    for junk in [*NOT_A_THROW, (3,) * count]:
        with pytest.raises(IllegalAction):
            game.apply_chance(decided, junk)


faces = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.binary(max_size=3),
    st.decimals(allow_nan=False, allow_infinity=False),
    st.fractions(),
    st.lists(st.integers(1, 6), max_size=2),
)
outcomes = st.one_of(
    faces,
    st.lists(faces, max_size=8),
    st.tuples(faces, faces),
    st.dictionaries(st.integers(1, 6), faces, max_size=5),
    st.text(alphabet="123456", max_size=6),
)


@settings(max_examples=300, deadline=None)
@given(game_id=st.sampled_from(GAME_IDS), steps=st.integers(0, 12), outcome=outcomes)
def test_any_outcome_is_either_a_legal_throw_or_an_illegal_action(game_id, steps, outcome):
    """Whatever is fed in as a throw, the rules either take it (exactly the faces 1-6 the
    pending throw needs, as ints in a list or tuple) or raise IllegalAction."""
    game = rules.get_game(game_id)
    state = waiting_for_dice(game_id, steps)
    count = game.pending_throw(state).count
    legal = (
        isinstance(outcome, list | tuple)
        and len(outcome) == count
        and all(type(face) is int and 1 <= face <= 6 for face in outcome)
    )
    try:
        game.apply_chance(state, outcome)
    except IllegalAction:
        assert not legal, outcome
    else:
        assert legal, outcome
