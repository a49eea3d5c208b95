"""Barco: the exact best crew for the round's expected score, or for the win in a last round.

The round's score is the crew's sum (0 unqualified), so outside the last round each turn is
solved for its expected score (`bots.ship`). In a round that certainly ends the game — the
last of `rounds`, an extra round between tied leaders, or a race round in which someone has
already reached the target — the turn is solved for the probability of winning given the other
totals, the players still to play in the round playing for their own win (`bots.lastround`;
tied leaders play on, counted as an even share).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from rules.barco import BarcoState
from rules.ship import Reroll, Stop

from .base import WIN_THRESHOLDS, Bot, Coach, Thresholds, Unit
from .lastround import win_utility
from .ship import (
    ShipSolution,
    expected_score,
    hand_decision,
    hand_values,
    score_distribution,
    solve,
)

SCORES = (0, *range(2, 13))


class _Model:
    scores = SCORES

    @lru_cache(maxsize=4096)  # noqa: B019 - one model for the whole process
    def distribution(self, utility: tuple[float, ...]) -> Mapping[int, float]:
        return score_distribution(utility, SCORES, singles=True)


MODEL = _Model()


def last_round(state: BarcoState) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """(total, others' final totals, later players' totals) when this round ends the game
    for sure and the mover has rivals; else None."""
    if len(state.players) == 1 or state.hand is None:
        return None
    options = state.options
    certain = (
        state.in_extra_round
        or (options.end == "rounds" and state.regular_rounds >= options.rounds)
        or (options.end == "race" and max(state.totals) >= options.target)
    )
    if not certain:
        return None
    seat = state.hand.seat
    later_seats = state.playing[state.turn + 1 :]
    finished = tuple(
        state.total(s) for s in range(len(state.players)) if s != seat and s not in later_seats
    )
    return state.total(seat), finished, tuple(state.total(s) for s in later_seats)


@lru_cache(maxsize=64)
def _win_solution(total: int, finished: tuple[int, ...], later: tuple[int, ...]) -> ShipSolution:
    utility = win_utility(MODEL, total, finished, later)
    return solve(lambda score, _: utility[score or 0])


class BarcoCoach(Coach):
    """Expected round score; the win probability in a round that ends the game."""

    game_id = "barco"
    thresholds: ClassVar[dict[Unit, Thresholds]] = {
        Unit.ROUND_SCORE: Thresholds(good=0.2, inaccuracy=0.6, mistake=1.5),
        Unit.WIN_PROBABILITY: WIN_THRESHOLDS,
    }

    def __init__(self, target_aware: bool = True) -> None:
        self.target_aware = target_aware

    def _situation(self, state: BarcoState) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
        return last_round(state) if self.target_aware else None

    def prepare(self, state: BarcoState) -> None:
        situation = self._situation(state)
        if situation is None:
            expected_score()
        else:
            _win_solution(*situation)

    def unit(self, state: BarcoState) -> Unit:
        return Unit.ROUND_SCORE if self._situation(state) is None else Unit.WIN_PROBABILITY

    def values(self, state: BarcoState) -> list[tuple[Any, float]]:
        situation = self._situation(state)
        solution = expected_score() if situation is None else _win_solution(*situation)
        assert state.hand is not None
        legal = self.game.legal_actions(state)
        return [(a, float(v)) for a, v in hand_values(state.hand, legal, solution)]

    def decision(self, state: BarcoState, action: Any) -> Hashable:
        assert state.hand is not None
        return hand_decision(state.hand, action)


class BarcoMedium(Bot):
    """A casual player: stops on a crew of 8 or more, else throws again the dice under 4
    (the lower die if both are 4 or more)."""

    game_id = "barco"
    level = "medium"

    def _choose(self, state: BarcoState, legal: Sequence[Any]) -> Any:
        hand = state.hand
        assert hand is not None
        if len(legal) == 1:
            return legal[0]
        a, b = hand.scoring
        if a + b >= 8:
            return Stop()
        low = tuple(i for i, face in enumerate((a, b)) if face < 4)
        if not low:
            low = (0,) if a <= b else (1,)
        return Reroll(dice=low)


def expected_round_score() -> Any:
    return expected_score().value
