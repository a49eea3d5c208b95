"""Who starts: every contender throws, the best sum starts, tied players throw again."""

from __future__ import annotations

from .dice import PendingThrow
from .model import Frozen


class RollOffThrow(Frozen):
    player: int
    faces: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.faces)


class RollOff(Frozen):
    """The opening roll-off, one throw at a time, so it can be shown and replayed.

    `rounds` holds every pass so far; the last one may be incomplete. A pass that ends in a
    tie for the best sum starts a new pass among the tied players only.
    """

    dice: int
    lowest_wins: bool = False
    contenders: tuple[int, ...]
    rounds: tuple[tuple[RollOffThrow, ...], ...] = ((),)
    winner: int | None = None

    @classmethod
    def start(cls, players: int, dice: int, lowest_wins: bool = False) -> RollOff:
        """A roll-off among `players` seats; a single seat starts without throwing."""
        if players == 1:
            return cls(dice=dice, lowest_wins=lowest_wins, contenders=(0,), winner=0)
        return cls(dice=dice, lowest_wins=lowest_wins, contenders=tuple(range(players)))

    @property
    def done(self) -> bool:
        return self.winner is not None

    def next_thrower(self) -> int | None:
        if self.done:
            return None
        return self.contenders[len(self.rounds[-1])]

    def pending(self) -> PendingThrow | None:
        thrower = self.next_thrower()
        if thrower is None:
            return None
        return PendingThrow(player=thrower, count=self.dice)

    def record(self, faces: tuple[int, ...]) -> RollOff:
        """The next contender threw `faces`; settle the pass when everybody has thrown."""
        thrower = self.next_thrower()
        assert thrower is not None, "the roll-off is over"
        current = (*self.rounds[-1], RollOffThrow(player=thrower, faces=faces))
        rounds = (*self.rounds[:-1], current)
        if len(current) < len(self.contenders):
            return self.model_copy(update={"rounds": rounds})
        totals = [t.total for t in current]
        best = min(totals) if self.lowest_wins else max(totals)
        tied = tuple(t.player for t in current if t.total == best)
        if len(tied) == 1:
            return self.model_copy(update={"rounds": rounds, "winner": tied[0]})
        return self.model_copy(update={"rounds": (*rounds, ()), "contenders": tied})
