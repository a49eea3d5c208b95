"""Multiplicación's exact turn against brute force: the rules engine, and a plain search."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from bots import Unit, coach, get_bot
from bots.multiplicacion import (
    MODEL,
    distribution,
    expected_score_solution,
    expected_turn_score,
    last_round,
    solve,
)
from rules.multiplicacion import (
    Accept,
    Keep,
    Multiplicacion,
    MultiplicacionState,
    PenaltyRethrow,
    Rethrow,
    Step,
    Throw,
    Turn,
    penalty_for,
)
from rules.rolloff import RollOff

GAME = Multiplicacion()
FACES = range(1, 7)
BUDGET = 12
"""Re-throws of triples and pairs the plain search allows in a turn: the value it misses is
below the chance of needing more, (6/36)^13 times the top score."""


def search(utility, budget: int = BUDGET):
    """A plain depth-limited expectimax over a turn, every throw enumerated die by die.

    Returns the values of its decision points: (three(b), two(a, b), multiplier(s))."""

    @cache
    def multiplier(s: int) -> float:
        refuse = sum(utility((s - penalty_for(s)) * m) for m in FACES) / 6
        return sum(max(utility(s * m), refuse) for m in FACES) / 6

    @cache
    def two(a: int, b: int) -> float:
        total = 0.0
        for d1, d2 in product(FACES, repeat=2):
            value = multiplier(a + max(d1, d2))
            if d1 == d2 and b > 0:
                value = max(value, two(a, b - 1))
            total += value / 36
        return total

    @cache
    def three(b: int) -> float:
        total = 0.0
        for faces in product(FACES, repeat=3):
            value = two(max(faces), b)
            if len(set(faces)) == 1 and b > 0:
                value = max(value, three(b - 1))
            total += value / 216
        return total

    return three, two, multiplier


def test_the_plain_search_models_the_rules_engine():
    """The same depth-limited search run on the rules' own states, actions and dice."""

    @cache
    def engine(state_json: str, budget: int) -> float:
        state = GAME.load_state(state_json)
        if state.sheets[0]:
            return float(state.sheets[0][-1].score)
        if GAME.pending_throw(state) is not None:
            return sum(
                float(p) * engine(GAME.apply_chance(state, faces).model_dump_json(), budget)
                for faces, p in GAME.chance_outcomes(state)
            )
        values = []
        for action in GAME.legal_actions(state):
            if isinstance(action, Rethrow):
                if budget == 0:
                    continue
                values.append(engine(GAME.apply(state, action).model_dump_json(), budget - 1))
            else:
                values.append(engine(GAME.apply(state, action).model_dump_json(), budget))
        return max(values)

    start = GAME.new_game(["Ana"])
    three, _, _ = search(float, budget=3)
    assert engine(start.model_dump_json(), 3) == pytest.approx(three(3), abs=1e-9)


def test_the_exact_expected_score_matches_brute_force():
    exact = expected_turn_score()
    assert isinstance(exact, Fraction)
    three, two, multiplier = search(float)
    assert float(exact) == pytest.approx(three(BUDGET), abs=1e-9)
    solution = expected_score_solution()
    for a in FACES:
        assert float(solution.second[a]) == pytest.approx(two(a, BUDGET), abs=1e-9)
    for s in range(2, 13):
        assert float(solution.multiplier[s]) == pytest.approx(multiplier(s), abs=1e-12)


def test_a_turn_is_worth_about_36_points():
    assert float(expected_turn_score()) == pytest.approx(36.3425404818, abs=1e-9)


def test_the_policy_distribution_has_the_expected_mean():
    dist = distribution(expected_score_solution())
    assert sum(dist.values()) == pytest.approx(1)
    assert sum(s * p for s, p in dist.items()) == pytest.approx(float(expected_turn_score()))


def state_at(turn: Turn, sheets=((),), players=("Ana",), first=0) -> MultiplicacionState:
    contenders = tuple(range(len(players)))
    return MultiplicacionState(
        players=players,
        rolloff=RollOff(dice=3, contenders=contenders, winner=first),
        sheets=sheets,
        turn=turn,
    )


DECISIONS = [
    Turn(step=Step.TRIPLE, thrown=(2, 2, 2)),
    Turn(step=Step.TRIPLE, thrown=(6, 6, 6)),
    Turn(step=Step.PAIR, thrown=(3, 3), first=5),
    Turn(step=Step.PAIR, thrown=(5, 5), first=4),
    Turn(step=Step.MULTIPLIER, first=6, second=5, multiplier=1),
    Turn(step=Step.MULTIPLIER, first=3, second=2, multiplier=2),
    Turn(step=Step.MULTIPLIER, first=6, second=6, multiplier=3),
]


def searched_values(turn: Turn, utility) -> dict[str, float]:
    three, two, multiplier = search(utility)
    if turn.step is Step.TRIPLE:
        return {"keep": two(turn.thrown[0], BUDGET), "rethrow": three(BUDGET)}
    if turn.step is Step.PAIR:
        return {"keep": multiplier(turn.first + turn.thrown[0]), "rethrow": two(turn.first, BUDGET)}
    s = turn.first + turn.second
    return {
        "accept": utility(s * turn.multiplier),
        "penalty_rethrow": sum(utility((s - penalty_for(s)) * m) for m in FACES) / 6,
    }


@pytest.mark.parametrize("turn", DECISIONS, ids=lambda t: f"{t.step}-{t.thrown}-{t.multiplier}")
def test_every_option_of_a_turn_is_valued_as_brute_force_values_it(turn):
    hint = coach("multiplicacion").hint(state_at(turn))
    assert hint.unit is Unit.ROUND_SCORE
    expected = searched_values(turn, float)
    assert {o.action.kind: o.value for o in hint.options} == pytest.approx(expected, abs=1e-9)


def done(first: int, second: int, multiplier: int) -> Turn:
    return Turn(step=Step.DONE, first=first, second=second, multiplier=multiplier)


ANA_9 = (done(5, 5, 3),) * 9  # 270
BETO_9 = (done(6, 5, 3),) * 8 + (done(2, 1, 3),)  # 273


def share_against(own_total: int, rival_total: int):
    """The chance to win a last turn, the rival's turn already over, a tie shared."""
    return lambda x: (
        1.0 if own_total + x > rival_total else 0.5 if own_total + x == rival_total else 0.0
    )


def test_the_last_player_plays_for_the_win():
    beto_10 = (*BETO_9, done(6, 6, 6))  # 345: Ana needs 76 or more... she cannot
    state = state_at(DECISIONS[4], (ANA_9, beto_10), ("Ana", "Beto"), first=1)
    assert last_round(state) == (270, (345,), ())
    hint = coach("multiplicacion").hint(state)
    assert hint.unit is Unit.WIN_PROBABILITY
    assert all(o.value == 0 for o in hint.options)
    beto_10 = (*BETO_9, done(4, 3, 5))  # 308: Ana needs 38 or more
    for turn in DECISIONS:
        state = state_at(turn, (ANA_9, beto_10), ("Ana", "Beto"), first=1)
        expected = searched_values(turn, share_against(270, 308))
        values = {o.action.kind: o.value for o in coach("multiplicacion").options(state)}
        assert values == pytest.approx(expected, abs=1e-9)


def test_the_first_player_of_the_last_round_plays_against_the_best_reply():
    """Ana plays first, Beto after her: her utility is 1 minus Beto's best chance."""

    @cache
    def ana_share(x: int) -> float:
        three, _, _ = search(share_against(273, 270 + x))
        return 1 - three(BUDGET)

    for turn in DECISIONS:
        state = state_at(turn, (ANA_9, BETO_9), ("Ana", "Beto"), first=0)
        assert last_round(state) == (270, (), (273,))
        expected = searched_values(turn, ana_share)
        values = {o.action.kind: o.value for o in coach("multiplicacion").options(state)}
        assert values == pytest.approx(expected, abs=1e-8)


def test_a_win_utility_solution_is_a_distribution_model():
    utility = tuple(1.0 if s >= 40 else 0.0 for s in MODEL.scores)
    dist = MODEL.distribution(utility)
    assert sum(dist.values()) == pytest.approx(1)
    win = solve(dict(zip(MODEL.scores, utility, strict=True)).__getitem__, 1.0).first
    assert sum(p for s, p in dist.items() if s >= 40) == pytest.approx(win)


def test_the_expert_throws_again_a_low_pair_and_refuses_a_one():
    expert = get_bot("multiplicacion", "expert")
    assert expert.choose(state_at(DECISIONS[2])) == Rethrow()
    assert expert.choose(state_at(DECISIONS[3])) == Keep()
    assert expert.choose(state_at(DECISIONS[4])) == PenaltyRethrow()
    assert expert.choose(state_at(DECISIONS[6])) == Accept()
    assert expert.choose(state_at(Turn())) == Throw()


def test_the_casual_player_keeps_fours_and_up_and_refuses_ones_and_twos():
    medium = get_bot("multiplicacion", "medium")
    assert medium.choose(state_at(DECISIONS[0])) == Rethrow()
    assert medium.choose(state_at(DECISIONS[3])) == Keep()
    assert medium.choose(state_at(DECISIONS[5])) == PenaltyRethrow()
    assert medium.choose(state_at(DECISIONS[6])) == Accept()
