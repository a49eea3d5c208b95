"""Multiplicación: the exact best play of a turn, for the expected score or for the win.

A turn is solved for any utility u of its score (the score itself, or the chance to win with
it in the last round). Backwards:

- the multiplier m on (A + B) = S: accept, u(S·m); or refuse, the mean of u((S − p)·m') over
  the new die, p the penalty. E_M(S) is the mean over m of the better of the two.
- the throw of two dice with A set aside: a non-pair sets the higher aside, giving E_M(A + b);
  a pair (b, b) may be kept, E_M(A + b), or thrown again, which is the throw itself again. Its
  value V_B(A) solves V = c + 1/36 Σ_b max(E_M(A + b), V): the best policy keeps exactly the
  pairs worth at least V, so V is the best of the seven "keep the k best pairs" policies,
  V_k = (c + Σ kept / 36) / (1 − rethrown / 36).
- the throw of three dice: the same with triples (1/216 each) and V_B of the die set aside.

With the score as utility every value is an exact fraction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any, ClassVar

from rules.multiplicacion import (
    ROUNDS,
    Accept,
    Keep,
    Multiplicacion,
    MultiplicacionState,
    PenaltyRethrow,
    Rethrow,
    Step,
    Throw,
    penalty_for,
)

from .base import WIN_THRESHOLDS, Bot, Coach, Thresholds, Unit
from .lastround import win_utility

FACES = (1, 2, 3, 4, 5, 6)
SUMS = tuple(range(2, 13))
"""A + B: each of A and B is a die."""
GAME = Multiplicacion()

Number = Any  # Fraction for the expected score, float for a win probability


def _scores() -> tuple[int, ...]:
    found = set()
    for s, m in product(SUMS, FACES):
        found.add(s * m)
        found.add((s - penalty_for(s)) * m)
    return tuple(sorted(found))


SCORES = _scores()


def _best_fixed_point(direct: Number, repeats: Sequence[Number], p: Number) -> Number:
    """The V of V = direct + p Σ max(e, V): the best "keep the k best" policy."""
    ranked = sorted(repeats, reverse=True)
    best = None
    for k in range(len(ranked) + 1):
        value = (direct + p * sum(ranked[:k], start=0 * p)) / (1 - p * (len(ranked) - k))
        if best is None or value > best:
            best = value
    return best


@dataclass(frozen=True)
class TurnSolution:
    """The value of every decision point of a turn for one utility of its score."""

    accept: dict[tuple[int, int], Number]
    """(S, m): the multiplier m accepted on the set-aside sum S."""
    refuse: dict[int, Number]
    """S: the multiplier refused (the penalty off S, a new die taken as it falls)."""
    multiplier: dict[int, Number]
    """E_M(S): throwing the multiplier on S, the refusal still unused."""
    second: dict[int, Number]
    """V_B(A): throwing the two dice with A set aside."""
    first: Number
    """V_A: the turn from its first throw."""

    def keep_pair(self, first: int, face: int) -> Number:
        return self.multiplier[first + face]

    def keeps_pair(self, first: int, face: int) -> bool:
        return self.keep_pair(first, face) >= self.second[first]

    def keeps_triple(self, face: int) -> bool:
        return self.second[face] >= self.first

    def accepts(self, kept: int, multiplier: int) -> bool:
        return self.accept[kept, multiplier] >= self.refuse[kept]


def solve(utility: Callable[[int], Number], one: Number = 1) -> TurnSolution:
    """Every decision point's value when the player maximises the expected utility.

    `one` is 1 in the number type to use: Fraction(1) for exact values, 1.0 for floats."""
    sixth = one / 6
    accept = {(s, m): utility(s * m) for s in SUMS for m in FACES}
    refuse = {s: sixth * sum(utility((s - penalty_for(s)) * m) for m in FACES) for s in SUMS}
    multiplier = {s: sixth * sum(max(accept[s, m], refuse[s]) for m in FACES) for s in SUMS}
    second = {}
    for a in FACES:
        direct = sum((one * 2 * (b - 1) / 36 * multiplier[a + b] for b in FACES), start=0 * one)
        pairs = [multiplier[a + b] for b in FACES]
        second[a] = _best_fixed_point(direct, pairs, one / 36)
    direct = sum((one * (a**3 - (a - 1) ** 3 - 1) / 216 * second[a] for a in FACES), start=0 * one)
    first = _best_fixed_point(direct, [second[a] for a in FACES], one / 216)
    return TurnSolution(accept, refuse, multiplier, second, first)


def distribution(solution: TurnSolution) -> dict[int, float]:
    """The turn score's distribution under the solution's policy (ties: keep, accept).

    The policy fixes the chance of each first die A, then of each sum S = A + B, then of each
    score given S; re-thrown triples and pairs only rescale what is kept."""
    kept = [
        (a**3 - (a - 1) ** 3 - 1 + solution.keeps_triple(a)) / 216 for a in FACES
    ]  # the chance to set A = a aside on one throw of three
    first = [k / sum(kept) for k in kept]
    sums: dict[int, float] = {}
    for a, p_a in zip(FACES, first, strict=True):
        pairs = [(2 * (b - 1) + solution.keeps_pair(a, b)) / 36 for b in FACES]
        scale = p_a / sum(pairs)
        for b, p_b in zip(FACES, pairs, strict=True):
            sums[a + b] = sums.get(a + b, 0.0) + scale * p_b
    scores: dict[int, float] = {}
    for total, p_s in sums.items():
        for m in FACES:
            if solution.accepts(total, m):
                scores[total * m] = scores.get(total * m, 0.0) + p_s / 6
            else:
                for m2 in FACES:
                    score = (total - penalty_for(total)) * m2
                    scores[score] = scores.get(score, 0.0) + p_s / 36
    return scores


@lru_cache(maxsize=1)
def expected_score_solution() -> TurnSolution:
    """The turn solved for its expected score, in exact fractions."""
    return solve(Fraction, Fraction(1))


class _Model:
    """The turn as lastround sees it."""

    scores = SCORES

    @lru_cache(maxsize=4096)  # noqa: B019 - one model for the whole process
    def distribution(self, utility: tuple[float, ...]) -> dict[int, float]:
        values = dict(zip(SCORES, utility, strict=True))
        return distribution(solve(values.__getitem__, 1.0))


MODEL = _Model()


def decision_values(state: MultiplicacionState, solution: TurnSolution) -> list[tuple[Any, Any]]:
    """Each legal action with its value under `solution`."""
    turn = state.turn
    # Slots the step has filled: slot A after the throw of three, B after the throw of two.
    first, second = turn.first or 0, turn.second or 0
    values: list[tuple[Any, Any]] = []
    for action in GAME.legal_actions(state):
        if isinstance(action, Throw):
            if turn.step is Step.THROW_THREE:
                value = solution.first
            elif turn.step is Step.THROW_TWO:
                value = solution.second[first]
            elif turn.penalty_used:
                kept = turn.kept_sum + turn.penalty_taken
                value = solution.refuse[kept]
            else:
                value = solution.multiplier[first + second]
        elif isinstance(action, Keep | Rethrow):
            if turn.step is Step.TRIPLE:
                face = turn.thrown[0]
                value = solution.second[face] if isinstance(action, Keep) else solution.first
            else:
                face = turn.thrown[0]
                value = (
                    solution.keep_pair(first, face)
                    if isinstance(action, Keep)
                    else solution.second[first]
                )
        elif isinstance(action, Accept):
            assert turn.multiplier is not None
            value = solution.accept[first + second, turn.multiplier]
        else:
            value = solution.refuse[first + second]
        values.append((action, value))
    return values


def last_round(state: MultiplicacionState) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """(total, finished totals, later totals) if the mover plays his last turn against
    others, else None."""
    n = len(state.players)
    seat = state.current
    if n == 1 or len(state.sheets[seat]) != ROUNDS - 1:
        return None
    in_round = state.played % n
    order = [(state.first + i) % n for i in range(n)]
    later = tuple(state.total(s) for s in order[in_round + 1 :])
    finished = tuple(state.total(s) for s in order[:in_round])
    return state.total(seat), finished, later


class MultiplicacionCoach(Coach):
    """Expected round score, or the win probability in a last turn against others."""

    game_id = "multiplicacion"
    thresholds: ClassVar[dict[Unit, Thresholds]] = {
        Unit.ROUND_SCORE: Thresholds(good=0.5, inaccuracy=2.0, mistake=5.0),
        Unit.WIN_PROBABILITY: WIN_THRESHOLDS,
    }

    def __init__(self, target_aware: bool = True) -> None:
        self.target_aware = target_aware

    def _solution(self, state: MultiplicacionState) -> TurnSolution:
        situation = last_round(state) if self.target_aware else None
        if situation is None:
            return expected_score_solution()
        return _win_solution(*situation)

    def prepare(self, state: MultiplicacionState) -> None:
        if self.target_aware and not state.over and state.rolloff.done:
            self._solution(state)

    def unit(self, state: MultiplicacionState) -> Unit:
        if self.target_aware and last_round(state) is not None:
            return Unit.WIN_PROBABILITY
        return Unit.ROUND_SCORE

    def values(self, state: MultiplicacionState) -> list[tuple[Any, float]]:
        return [
            (action, float(value))
            for action, value in decision_values(state, self._solution(state))
        ]


@lru_cache(maxsize=64)
def _win_solution(total: int, finished: tuple[int, ...], later: tuple[int, ...]) -> TurnSolution:
    utility = win_utility(MODEL, total, finished, later)
    return solve(utility.__getitem__, 1.0)


class MultiplicacionMedium(Bot):
    """A casual player: keeps a triple or pair of 4 or more, refuses a multiplier of 1 or 2."""

    game_id = "multiplicacion"
    level = "medium"

    def _choose(self, state: MultiplicacionState, legal: Sequence[Any]) -> Any:
        turn = state.turn
        if turn.step in (Step.TRIPLE, Step.PAIR):
            return Keep() if turn.thrown[0] >= 4 else Rethrow()
        if turn.step is Step.MULTIPLIER:
            return PenaltyRethrow() if (turn.multiplier or 0) <= 2 else Accept()
        return Throw()


def expected_turn_score() -> Fraction:
    return expected_score_solution().first
