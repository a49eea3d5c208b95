"""The table: the one place where actions are applied and dice are thrown.

Widgets post messages; the game screen hands the chosen action to the table; the table applies
it through `rules`, resolves any chance throw with its dice source, records what happened and
saves. It imports nothing from Textual, so a remote table can later stand in for this one.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from rules import Event, Game, IllegalAction, Text, get_game
from rules.model import Frozen

from .dice import DiceSource, SystemDice
from .games import SeatKind


class Seat(Frozen):
    """Who sits in a seat: a person, or a bot of a level (see `bots`)."""

    name: str
    kind: SeatKind = "human"

    @property
    def bot(self) -> bool:
        return self.kind != "human"


class Table:
    def __init__(
        self,
        game: Game[Any, Any, Any],
        seats: Sequence[Seat],
        state: BaseModel,
        dice: DiceSource,
        log: Sequence[Text | str] = (),
        save_id: str | None = None,
        on_change: Callable[[Table], None] | None = None,
    ) -> None:
        self.game = game
        self.seats = tuple(seats)
        self.state = state
        self.dice = dice
        self.log: list[Text | str] = list(log)
        """What happened, as messages (templates and values): each reader sees them in their
        own language. (Plain strings are lines of saves older than that.)"""
        self.save_id = save_id or uuid.uuid4().hex
        self.on_change = on_change

    @classmethod
    def new(
        cls,
        game_id: str,
        seats: Sequence[Seat],
        options: BaseModel | Mapping[str, Any] | None = None,
        dice: DiceSource | None = None,
        on_change: Callable[[Table], None] | None = None,
    ) -> Table:
        """Seat the players and play the opening roll-off. Raises InvalidOptions."""
        game = get_game(game_id)
        state = game.new_game([seat.name for seat in seats], options)
        table = cls(game, seats, state, dice or SystemDice(), on_change=on_change)
        table._commit(*table._settle(state, []))
        return table

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def current_player(self) -> int | None:
        return self.game.current_player(self.state)

    def act(self, action: BaseModel | Mapping[str, Any]) -> list[Text | str]:
        """Apply a player's action and throw whatever dice it calls for.

        Raises IllegalAction (or DiceExhausted with loaded dice) and then changes nothing.
        Returns the new lines of the event log.
        """
        before = self.state
        parsed = self.game.parse_action(action)
        after = self.game.apply(before, parsed)
        lines = self._narrate(before, parsed, after)
        state, lines = self._settle(after, lines)
        return self._commit(state, lines)

    def check(self, action: BaseModel | Mapping[str, Any]) -> None:
        """Raise IllegalAction if `action` is not legal now; change nothing."""
        self.game.apply(self.state, action)

    def _settle(
        self, state: BaseModel, lines: list[Text | str]
    ) -> tuple[BaseModel, list[Text | str]]:
        while (pending := self.game.pending_throw(state)) is not None:
            faces = self.dice.roll(pending.count)
            after = self.game.apply_chance(state, faces)
            lines = lines + self._narrate(state, faces, after)
            state = after
        return state, lines

    def _narrate(self, before: BaseModel, event: Event, after: BaseModel) -> list[Text | str]:
        return list(self.game.narrate(before, event, after))

    def _commit(self, state: BaseModel, lines: list[Text | str]) -> list[Text | str]:
        self.state = state
        self.log.extend(lines)
        if self.on_change is not None:
            self.on_change(self)
        return lines


__all__ = ["IllegalAction", "Seat", "Table"]
