"""The last round: how much a turn score is worth when only the win counts.

In the last round of barco and multiplicación the totals of the players who have finished are
known and the players still to play have one turn each. The mover's turn score x is worth the
probability of winning with total + x, assuming every later player in turn plays to maximise
his own chance in the same way (backward induction over the players still to come). A tie
for the best total shared by c players is worth 1/c to each (multiplicación shares the win;
barco's tied leaders play on, an even contest).

A game supplies its turn as a `TurnModel`: the scores a turn can end with and, for any
utility over them, the distribution of the score under the policy that maximises the
expected utility.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Protocol


class TurnModel(Protocol):
    scores: tuple[int, ...]
    """Every score a turn can end with."""

    def distribution(self, utility: tuple[float, ...]) -> Mapping[int, float]:
        """The score's distribution when the player maximises the expected `utility`
        (aligned with `scores`)."""


@lru_cache(maxsize=256)
def win_utility(
    model: TurnModel, total: int, finished: tuple[int, ...], later: tuple[int, ...]
) -> dict[int, float]:
    """For each turn score of the mover, his probability of winning (ties shared).

    `total`: the mover's total before his turn; `finished`: every other player's final total;
    `later`: the totals of the players still to play after him, in playing order.
    """

    @cache
    def stays(j: int, bar: int, count: int) -> float:
        """A player's share if he holds the best total `bar` with `count` players, and
        later[j:] are still to play."""
        if j == len(later):
            return 1 / count
        share = 0.0
        for x, p in plays(j, bar, count).items():
            y = later[j] + x
            if y < bar:
                share += p * stays(j + 1, bar, count)
            elif y == bar:
                share += p * stays(j + 1, bar, count + 1)
        return share

    @cache
    def plays(j: int, bar: int, count: int) -> Mapping[int, float]:
        """How later[j]'s turn ends when he plays for his own share."""
        utility = tuple(worth(later[j] + x, j + 1, bar, count) for x in model.scores)
        return model.distribution(utility)

    def worth(y: int, j: int, bar: int | None, count: int) -> float:
        """The share of a player who ends on `y`, against the best `bar` of `count`."""
        if bar is None or y > bar:
            return stays(j, y, 1)
        if y == bar:
            return stays(j, bar, count + 1)
        return 0.0

    bar = max(finished) if finished else None
    count = finished.count(bar) if bar is not None else 0
    return {x: worth(total + x, 0, bar, count) for x in model.scores}
