"""Navio: the exact best play for the chance of winning the round.

What a turn is worth depends on how it ends — the treasure, or out of the round — and on the
throws it used, because a new leader caps everyone after him at his own count. From the
mover's view the round is in the state (best treasure, how many hold it, whether he does, the
throw limit) with k players still to come; each of them in turn plays the turn that maximises
his own chance (`bots.ship` solved for his utility), and so on to the end of the round
(backward induction over the players still to play). The mover's payoff: 1 if he alone holds
the best treasure at the end; 0 if someone else does; and if the round is replayed (a tie for
the best, or nobody qualified), an even share 1/n of the replay, n the players in the round.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache
from typing import Any, ClassVar

from rules.navio import NavioState
from rules.ship import THROWS, Reroll, Stop

from .base import WIN_THRESHOLDS, Bot, Coach, Thresholds, Unit
from .ship import ShipSolution, hand_decision, hand_values, outcome_distribution, solve

Standing = tuple[int | None, int, bool, int]
"""(best treasure, how many hold it (2 = a tie), the observer holds it, throw limit)."""


def after_turn(standing: Standing, treasure: int | None, throws: int, own: bool) -> Standing:
    """The standing once a player ends his turn on `treasure` after `throws` throws, as seen
    by an observer who is that player (`own`) or someone who played before."""
    best, holders, holds, limit = standing
    if treasure is not None and (best is None or treasure > best):
        return (treasure, 1, own, throws)
    if treasure is not None and treasure == best:
        return (best, 2, holds or own, min(throws, limit))
    return (best, holders, holds and not own, limit)


@cache
def share(later: int, standing: Standing, replay: float) -> float:
    """The observer's expected payoff with `later` players still to play."""
    best, holders, holds, limit = standing
    if later == 0:
        if holders == 1:
            return 1.0 if holds else 0.0
        return replay
    total = 0.0
    for (treasure, throws), p in plays(later, best, holders, limit, replay).items():
        total += p * share(later - 1, after_turn(standing, treasure, throws, False), replay)
    return total


@cache
def policy(later: int, best: int | None, holders: int, limit: int, replay: float) -> ShipSolution:
    """The turn of a player with `later` players after him, for his own payoff."""

    def utility(treasure: int | None, throws: int) -> float:
        mine = after_turn((best, holders, False, limit), treasure, throws, True)
        return share(later, mine, replay)

    return solve(utility, limit, singles=False)


@cache
def plays(
    later: int, best: int | None, holders: int, limit: int, replay: float
) -> dict[tuple[int | None, int], float]:
    """How the turn of the next player (with `later` - 1 after him) ends."""
    return outcome_distribution(policy(later - 1, best, holders, limit, replay))


def situation(state: NavioState) -> tuple[int, int | None, int, int, float]:
    """(players after the mover, best treasure, its holders, limit, replay share)."""
    best = state.best
    holders = min(len(state.leaders), 2)
    later = len(state.playing) - state.turn - 1
    return later, best, holders, state.throws_allowed, 1 / len(state.playing)


class NavioCoach(Coach):
    game_id = "navio"
    thresholds: ClassVar[dict[Unit, Thresholds]] = {Unit.WIN_PROBABILITY: WIN_THRESHOLDS}

    def prepare(self, state: NavioState) -> None:
        if state.hand is not None:
            policy(*situation(state))
        else:
            players = len(state.playing) or len(state.players)
            policy(players - 1, None, 0, THROWS, 1 / players)

    def unit(self, state: NavioState) -> Unit:
        return Unit.WIN_PROBABILITY

    def values(self, state: NavioState) -> list[tuple[Any, float]]:
        assert state.hand is not None
        solution = policy(*situation(state))
        legal = self.game.legal_actions(state)
        return [(a, float(v)) for a, v in hand_values(state.hand, legal, solution)]

    def decision(self, state: NavioState, action: Any) -> Hashable:
        assert state.hand is not None
        return hand_decision(state.hand, action)


class NavioMedium(Bot):
    """A casual player: stops once his treasure beats the best so far (or is 8 or more when
    he is the first to qualify), else throws the treasure again."""

    game_id = "navio"
    level = "medium"

    def _choose(self, state: NavioState, legal: Sequence[Any]) -> Any:
        hand = state.hand
        assert hand is not None
        if len(legal) == 1:
            return legal[0]
        best = state.best
        if (best is None and hand.score >= 8) or (best is not None and hand.score > best):
            return Stop()
        return Reroll(dice=(0, 1))


def round_win(players: int) -> tuple[tuple[float, ...], float]:
    """From the opening of a round of `players`, every player optimal: each seat's chance to
    win it outright (in playing order), and the chance that it is replayed."""
    replay = 1 / players
    # (best treasure, holders, the seat holding it alone, limit) -> probability
    standings: dict[tuple[int | None, int, int | None, int], float] = {(None, 0, None, THROWS): 1}
    for seat in range(players):
        later = players - seat - 1
        after: dict[tuple[int | None, int, int | None, int], float] = {}
        for (best, holders, leader, limit), weight in standings.items():
            solution = policy(later, best, holders, limit, replay)
            for (treasure, throws), p in outcome_distribution(solution).items():
                b, h, own, lim = after_turn((best, holders, False, limit), treasure, throws, True)
                key = (b, h, seat if own and h == 1 else (leader if h == 1 else None), lim)
                after[key] = after.get(key, 0.0) + weight * p
        standings = after
    wins = [0.0] * players
    replayed = 0.0
    for (_, holders, leader, _), p in standings.items():
        if holders == 1 and leader is not None:
            wins[leader] += p
        else:
            replayed += p
    return tuple(wins), replayed
