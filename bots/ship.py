"""The Ship-Captain-Crew turn solved exactly, for any utility of how it ends.

A turn ends qualified with the two scoring dice (a, b) after t throws, or unqualified (after
all its throws). For a utility u(score, t) (score None when unqualified) the best play is
found backwards over the turn's few states:

- qualified after t throws with dice {a, b}: stop, u(a + b, t); or, with throws left, throw
  one die (barco) or both (both games) again: the mean over the new faces of the state after
  t + 1 throws.
- f of ship, captain and crew aside after t throws: throw the 5 - f dice in the cup; the
  rules' own `collect` says what is set aside, so each outcome leads to f' places or to a
  qualified state.

Barco maximises the expected score (u = the crew's sum), or the win in a last round; navio
maximises the chance to win the round, where the throws used matter (the leader's roll limit).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

from rules.dice import throw_outcomes
from rules.ship import DICE, SLOTS, THROWS, Hand, Reroll, Roll, Stop, collect

FACES = (1, 2, 3, 4, 5, 6)
PAIRS: tuple[tuple[int, int], ...] = tuple(combinations_with_replacement(FACES, 2))
"""The scoring dice as a sorted pair."""
PAIR_PROBABILITY = {pair: Fraction(1 if pair[0] == pair[1] else 2, 36) for pair in PAIRS}
QUALIFIED = len(SLOTS)

Number = Any  # Fraction for exact expected scores, float for probabilities
Utility = Callable[[int | None, int], Number]
"""u(score, throws used): score is the scoring dice's sum, or None when not qualified."""


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


@cache
def transitions(filled: int) -> tuple[tuple[int, tuple[int, int] | None, Fraction], ...]:
    """A throw of the cup with `filled` places taken: (places now, scoring pair, probability)."""
    grouped: dict[tuple[int, tuple[int, int] | None], Fraction] = {}
    for faces, p in throw_outcomes(DICE - filled):
        now, scoring, _ = collect(filled, faces)
        key = (now, _pair(*scoring) if now == QUALIFIED else None)
        grouped[key] = grouped.get(key, Fraction(0)) + p
    return tuple((now, pair, p) for (now, pair), p in grouped.items())


@dataclass(frozen=True)
class ShipSolution:
    """The value of every state of a turn with `limit` throws, for one utility."""

    limit: int
    singles: bool
    """Whether one scoring die may be thrown again alone (barco) or only both (navio)."""
    utility: Utility
    qualified: dict[tuple[int, tuple[int, int]], Number]
    """(t, pair): qualified after t throws, playing on optimally."""
    both: dict[int, Number]
    """t: throwing both scoring dice as the throw t + 1."""
    single: dict[tuple[int, int], Number]
    """(t, kept): throwing one scoring die as the throw t + 1, keeping the other."""
    cup: dict[tuple[int, int], Number]
    """(t, f): t throws made, f places filled, about to throw the cup."""
    policy: dict[tuple[int, tuple[int, int]], str]
    """(t, pair) -> the first best option in the rules' order: "stop", "lo"/"hi" (throw the
    lower/higher die again), "both"."""

    def stop(self, throws: int, pair: tuple[int, int]) -> Number:
        return self.utility(pair[0] + pair[1], throws)

    def throw_one(self, throws: int, kept: int) -> Number:
        return self.single[throws, kept]

    def throw_both(self, throws: int) -> Number:
        return self.both[throws]

    def roll(self, throws: int, filled: int) -> Number:
        return self.cup[throws, filled]

    @property
    def value(self) -> Number:
        """The turn from its first throw."""
        return self.cup[0, 0]

    def options(self, throws: int, pair: tuple[int, int]) -> dict[str, Number]:
        """Qualified with `pair` after `throws`: "stop", "lo"/"hi" (throw that die), "both"."""
        result = {"stop": self.stop(throws, pair)}
        if throws < self.limit:
            if self.singles:
                result["lo"] = self.single[throws, pair[1]]
                result["hi"] = self.single[throws, pair[0]]
            result["both"] = self.both[throws]
        return result

    def choice(self, throws: int, pair: tuple[int, int]) -> str:
        return self.policy.get((throws, pair), "stop")


def solve(
    utility: Utility, limit: int = THROWS, singles: bool = True, one: Number = 1.0
) -> ShipSolution:
    """Solve the turn for `utility`; `one` is 1 in the number type (Fraction(1) or 1.0)."""
    solution = ShipSolution(limit, singles, utility, {}, {}, {}, {}, {})
    qualified, both, single, cup = (
        solution.qualified,
        solution.both,
        solution.single,
        solution.cup,
    )
    exact = not isinstance(one, float)
    weights = PAIR_PROBABILITY.items() if exact else FLOAT_PAIR_PROBABILITY
    zero = 0 * one
    for throws in range(limit, 0, -1):
        if throws == limit:
            for pair in PAIRS:
                qualified[throws, pair] = utility(pair[0] + pair[1], throws)
            continue
        after = throws + 1
        both[throws] = sum((p * qualified[after, pair] for pair, p in weights), start=zero)
        for kept in FACES:
            single[throws, kept] = (
                sum((qualified[after, _pair(kept, f)] for f in FACES), start=zero) / 6
            )
        for pair in PAIRS:
            best, choice = utility(pair[0] + pair[1], throws), "stop"
            if singles:
                # Reroll die 0, die 1, both: in the rules' order ("lo" is the lower die).
                for name, value in (
                    ("lo", single[throws, pair[1]]),
                    ("hi", single[throws, pair[0]]),
                ):
                    if value > best:
                        best, choice = value, name
            if both[throws] > best:
                best, choice = both[throws], "both"
            qualified[throws, pair] = best
            solution.policy[throws, pair] = choice
    for throws in range(limit - 1, -1, -1):
        for filled in range(QUALIFIED):
            value = zero
            moves = transitions(filled) if exact else _float_transitions(filled)
            for now, landed, p in moves:
                if landed is not None:
                    then = qualified[throws + 1, landed]
                elif throws + 1 < limit:
                    then = cup[throws + 1, now]
                else:
                    then = utility(None, throws + 1)
                value += p * then
            cup[throws, filled] = value
    return solution


def outcome_distribution(solution: ShipSolution) -> dict[tuple[int | None, int], float]:
    """How the turn ends under the solution's policy: (score or None, throws) -> probability.

    The probability flows forward from the first throw, throw by throw."""
    limit = solution.limit
    ends: dict[tuple[int | None, int], float] = {}
    cup = {0: 1.0}
    qualified: dict[tuple[int, int], float] = {}
    for throws in range(limit):
        after_cup: dict[int, float] = {}
        after_qualified: dict[tuple[int, int], float] = {}
        for filled, mass in cup.items():
            for now, pair, p in _float_transitions(filled):
                if pair is not None:
                    after_qualified[pair] = after_qualified.get(pair, 0.0) + mass * p
                elif throws + 1 < limit:
                    after_cup[now] = after_cup.get(now, 0.0) + mass * p
                else:
                    key: tuple[int | None, int] = (None, throws + 1)
                    ends[key] = ends.get(key, 0.0) + mass * p
        for pair, mass in qualified.items():
            choice = solution.choice(throws, pair)
            if choice == "stop":
                key = (pair[0] + pair[1], throws)
                ends[key] = ends.get(key, 0.0) + mass
            elif choice == "both":
                for nxt, p in FLOAT_PAIR_PROBABILITY:
                    after_qualified[nxt] = after_qualified.get(nxt, 0.0) + mass * p
            else:
                kept = pair[1] if choice == "lo" else pair[0]
                for face in FACES:
                    nxt = _pair(kept, face)
                    after_qualified[nxt] = after_qualified.get(nxt, 0.0) + mass / 6
        cup, qualified = after_cup, after_qualified
    for pair, mass in qualified.items():
        key = (pair[0] + pair[1], limit)
        ends[key] = ends.get(key, 0.0) + mass
    return ends


FLOAT_PAIR_PROBABILITY = tuple((pair, float(p)) for pair, p in PAIR_PROBABILITY.items())


@cache
def _float_transitions(filled: int) -> tuple[tuple[int, tuple[int, int] | None, float], ...]:
    return tuple((now, pair, float(p)) for now, pair, p in transitions(filled))


def hand_values(hand: Hand, legal: list[Any], solution: ShipSolution) -> list[tuple[Any, Any]]:
    """Each legal action of the hand with its value under `solution`."""
    values = []
    for action in legal:
        if isinstance(action, Roll):
            value = solution.roll(hand.throws, hand.filled)
        elif isinstance(action, Stop):
            value = solution.stop(hand.throws, _pair(*hand.scoring))
        else:
            assert isinstance(action, Reroll)
            dice = tuple(sorted(set(action.dice)))
            if len(dice) == 2:
                value = solution.throw_both(hand.throws)
            else:
                kept = hand.scoring[1 - dice[0]]
                value = solution.throw_one(hand.throws, kept)
        values.append((action, value))
    return values


def hand_decision(hand: Hand, action: Any) -> Hashable:
    """What a player decides: a re-throw is the faces thrown again, whichever scoring dice
    show them (with a crew of 3 and 3, throwing die 1 or die 2 again is one decision)."""
    if isinstance(action, Reroll) and hand.qualified:
        return tuple(sorted(hand.scoring[i] for i in set(action.dice)))
    return action  # frozen models hash


def expected_score(limit: int = THROWS, singles: bool = True) -> ShipSolution:
    """The turn solved for the expected crew (or treasure) sum, exactly."""
    return _expected_score(limit, singles)


@cache
def _expected_score(limit: int, singles: bool) -> ShipSolution:
    return solve(lambda score, _: Fraction(score or 0), limit, singles, Fraction(1))


def score_distribution(
    utility: tuple[float, ...], scores: tuple[int, ...], singles: bool
) -> Mapping[int, float]:
    """For lastround: the score's distribution (0 when unqualified) when the player maximises
    `utility` (aligned with `scores`), three throws."""
    values = dict(zip(scores, utility, strict=True))
    solution = solve(lambda score, _: values[score or 0], THROWS, singles)
    result: dict[int, float] = {}
    for (score, _), p in outcome_distribution(solution).items():
        result[score or 0] = result.get(score or 0, 0.0) + p
    return result
