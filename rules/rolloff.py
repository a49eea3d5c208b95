"""Who starts: every contender throws, the best sum starts, tied players throw again.

`RollOff` is the roll-off itself; `OpensWithRollOff` is the part of a game that plays and
tells it, shared by every game (each says it in its own `RollOffWords`).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar, NamedTuple, TypeVar

from pydantic import BaseModel

from .dice import PendingThrow
from .errors import N_, Text
from .game import Event, Game
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


class RollOffState(Frozen):
    """What every table that opens with a roll-off holds: its players and the roll-off."""

    players: tuple[str, ...]
    rolloff: RollOff

    @property
    def first(self) -> int:
        """The seat the roll-off named to start."""
        assert self.rolloff.winner is not None
        return self.rolloff.winner


class RollOffWords(NamedTuple):
    """How a game tells its roll-off in the log.

    A template may use {player} (who throws, or who starts), {side} (that seat's name, in a
    game whose seats have one), {faces} and their {total}; the tie, {players} (who throw
    again)."""

    throws: str = N_("{player} rolls {faces} for the start")
    starts: str = N_("{player} starts")
    tie: str = N_("Tie: {players} roll again")


OptionsT = TypeVar("OptionsT", bound=BaseModel)
StateT = TypeVar("StateT", bound=RollOffState)
ActionT = TypeVar("ActionT", bound=BaseModel)


class OpensWithRollOff(Game[OptionsT, StateT, ActionT]):
    """A game whose first throws are the roll-off for who starts.

    This class seats the players with a new roll-off, and while it lasts answers
    `pending_throw`, `apply_chance` and `narrate` for it; a game writes only what follows:
    `_seat` (the table before anyone has started), `_rolloff_decided` (the table once the
    starter is known), and its own throws and words (`_pending_play_throw`,
    `_apply_play_chance`, `_narrate_play`).
    """

    rolloff_dice: ClassVar[int] = 1
    rolloff_lowest: ClassVar[bool] = False
    """The lowest sum starts (Barco), not the highest."""
    rolloff_words: ClassVar[RollOffWords] = RollOffWords()
    rolloff_sides: ClassVar[tuple[str, ...]] = ()
    """Each seat's name ({side} in the words), in a game whose seats have one."""

    def _new_game(self, players: tuple[str, ...], options: OptionsT) -> StateT:
        rolloff = RollOff.start(
            len(players), dice=self.rolloff_dice, lowest_wins=self.rolloff_lowest
        )
        state = self._seat(players, options, rolloff)
        return self._rolloff_decided(state) if rolloff.done else state

    @abstractmethod
    def _seat(self, players: tuple[str, ...], options: OptionsT, rolloff: RollOff) -> StateT:
        """The table before the roll-off is decided."""

    def _rolloff_decided(self, state: StateT) -> StateT:
        """The roll-off has named `state.first`: set the table for play (by default, as is)."""
        return state

    # -- chance -------------------------------------------------------------------------
    def pending_throw(self, state: StateT) -> PendingThrow | None:
        if not state.rolloff.done:
            return state.rolloff.pending()
        return self._pending_play_throw(state)

    @abstractmethod
    def _pending_play_throw(self, state: StateT) -> PendingThrow | None:
        """The throw the game waits for once the roll-off is decided, if any."""

    def _apply_chance(self, state: StateT, faces: tuple[int, ...]) -> StateT:
        if state.rolloff.done:
            return self._apply_play_chance(state, faces)
        after = state.model_copy(update={"rolloff": state.rolloff.record(faces)})
        return self._rolloff_decided(after) if after.rolloff.done else after

    @abstractmethod
    def _apply_play_chance(self, state: StateT, faces: tuple[int, ...]) -> StateT:
        """The game's own pending throw came up `faces`."""

    # -- narration ----------------------------------------------------------------------
    def narrate(self, before: StateT, event: Event, after: StateT) -> list[Text]:
        if isinstance(event, tuple) and not before.rolloff.done:
            return [
                *self._narrate_rolloff(before, event, after),
                *self._narrate_after_rolloff(before, after),
            ]
        return self._narrate_play(before, event, after)

    def _narrate_rolloff(self, before: StateT, faces: tuple[int, ...], after: StateT) -> list[Text]:
        thrower = before.rolloff.next_thrower()
        assert thrower is not None
        words = self.rolloff_words
        throw = {"faces": " ".join(str(face) for face in faces), "total": sum(faces)}
        lines = [Text(words.throws, {**self._seat_words(before, thrower), **throw})]
        if after.rolloff.done:
            lines.append(Text(words.starts, self._seat_words(after, after.first)))
        elif len(after.rolloff.rounds) > len(before.rolloff.rounds):
            tied = ", ".join(after.players[seat] for seat in after.rolloff.contenders)
            lines.append(Text(words.tie, {"players": tied}))
        return lines

    def _seat_words(self, state: StateT, seat: int) -> dict[str, str | Text]:
        words: dict[str, str | Text] = {"player": state.players[seat]}
        if self.rolloff_sides:
            words["side"] = Text(self.rolloff_sides[seat])
        return words

    def _narrate_after_rolloff(self, before: StateT, after: StateT) -> list[Text]:
        """What else the table says after a roll-off throw (the first round opening once it
        is decided); nothing by default."""
        return []

    @abstractmethod
    def _narrate_play(self, before: StateT, event: Event, after: StateT) -> list[Text]:
        """What happened, once the roll-off is decided."""
