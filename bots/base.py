"""What every bot and every coach is: pure functions of a rules state.

A `Coach` values every legal action of the decision on the table (`hint`), ranks them, and
rates a decision by what it lost against the best (`review`). A `Bot` picks one legal action.
The `expert` bot of a game is its coach's first option, so the two can never disagree.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from pydantic import BaseModel

import rules
from rules import Text

EPSILON = 1e-9
"""Values closer than this are equal: floating-point sums of the same numbers in another order
differ by far less, and a real difference in these games is far more."""


class Unit(StrEnum):
    """What a coach's values measure."""

    FINAL_SCORE = "expected final score"
    """The player's expected total at the end of the game, playing optimally from here on."""
    ROUND_SCORE = "expected round score"
    """The player's expected score for this turn (the round), playing optimally."""
    WIN_PROBABILITY = "win probability"
    """The chance to win (a tie shared by k players counts as 1/k), every player optimal."""
    SEARCH_SCORE = "search score"
    """A search's estimate of the position (piratas): higher is better, no unit."""


class Rating(StrEnum):
    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


@dataclass(frozen=True)
class Thresholds:
    """A loss below `good` is good, below `inaccuracy` an inaccuracy, and so on; from
    `mistake` up it is a blunder. A loss within EPSILON of zero is the best move."""

    good: float
    inaccuracy: float
    mistake: float

    def rate(self, loss: float) -> Rating:
        if loss <= EPSILON:
            return Rating.BEST
        if loss < self.good:
            return Rating.GOOD
        if loss < self.inaccuracy:
            return Rating.INACCURACY
        if loss < self.mistake:
            return Rating.MISTAKE
        return Rating.BLUNDER


WIN_THRESHOLDS = Thresholds(good=0.01, inaccuracy=0.04, mistake=0.10)
"""For win probabilities: 1, 4 and 10 percentage points."""


@dataclass(frozen=True)
class OptionValue:
    action: BaseModel
    label: Text
    value: float
    loss: float
    """How much less than the best option this one is worth (0 for the best)."""
    best: bool


@dataclass(frozen=True)
class Hint:
    """Every option of the decision on the table, best first, and what their values mean."""

    unit: Unit
    options: tuple[OptionValue, ...]

    @property
    def best(self) -> OptionValue:
        return self.options[0]

    def option(self, action: BaseModel | dict[str, Any]) -> OptionValue:
        for option in self.options:
            if option.action == action:
                return option
        raise KeyError(f"{action!r} is not a legal action here")


@dataclass(frozen=True)
class Review:
    """How good a decision was: its loss against the best option, and the rating of it."""

    action: BaseModel
    loss: float
    rating: Rating
    hint: Hint = field(repr=False)


class Coach(ABC):
    """Values every option of a game's decisions. Subclasses implement `values`."""

    game_id: ClassVar[str]
    thresholds: ClassVar[dict[Unit, Thresholds]]

    @property
    def game(self) -> rules.Game[Any, Any, Any]:
        return rules.get_game(self.game_id)

    def prepare(self, state: Any) -> None:
        """Compute ahead what the hints from `state` on will need (the generala table at the
        start of a game, navio's round for its number of players, a last-round turn's
        utilities), so that the first hint is as quick as the others. Optional: for an app to
        call when a game or a turn begins, e.g. in a worker thread."""
        return None

    @abstractmethod
    def unit(self, state: Any) -> Unit:
        """What the values of `hint(state)` measure (it may change with the state)."""

    @abstractmethod
    def values(self, state: Any) -> list[tuple[Any, float]]:
        """Each legal action with its value, in the order of `legal_actions`."""

    def hint(self, state: Any) -> Hint | None:
        """Every option ranked best first; None when no player has to decide."""
        if self.game.current_player(state) is None:
            return None
        valued = self.values(state)
        best = max(value for _, value in valued)
        ranked = sorted(valued, key=lambda item: -item[1])  # stable: ties keep the rules' order
        return Hint(
            unit=self.unit(state),
            options=tuple(
                OptionValue(
                    action=action,
                    label=self.game.describe_action(state, action),
                    value=value,
                    loss=max(0.0, best - value),
                    best=best - value <= EPSILON,
                )
                for action, value in ranked
            ),
        )

    def options(self, state: Any) -> list[OptionValue]:
        hint = self.hint(state)
        return list(hint.options) if hint is not None else []

    def best_action(self, state: Any) -> Any:
        """The first legal action of the highest value: what the expert plays, and the first
        option of `hint`."""
        action, _ = max(self.values(state), key=lambda item: item[1])  # the first of the best
        return action

    def rate(self, loss: float, unit: Unit) -> Rating:
        return self.thresholds[unit].rate(loss)

    def review(self, state: Any, action: BaseModel | dict[str, Any]) -> Review:
        """Rate `action` taken in `state` (before it was applied)."""
        hint = self.hint(state)
        if hint is None:
            raise ValueError("nobody has to decide in this state")
        chosen = hint.option(self.game.parse_action(action))
        return Review(
            action=chosen.action,
            loss=chosen.loss,
            rating=self.rate(chosen.loss, hint.unit),
            hint=hint,
        )


class Bot(ABC):
    """A seat played by the computer: `choose` returns one of the state's legal actions."""

    game_id: str
    level: str

    @property
    def game(self) -> rules.Game[Any, Any, Any]:
        return rules.get_game(self.game_id)

    def choose(self, state: Any) -> Any:
        if self.game.current_player(state) is None:
            raise ValueError("nobody has to decide in this state")
        return self._choose(state, self.game.legal_actions(state))

    @abstractmethod
    def _choose(self, state: Any, legal: Sequence[Any]) -> Any: ...


def state_hash(state: BaseModel, salt: str | int = 0) -> int:
    """A number fixed by the state and the salt: the bots' only source of variety."""
    digest = hashlib.blake2b(
        state.model_dump_json().encode(), digest_size=8, person=str(salt).encode()[:16]
    )
    return int.from_bytes(digest.digest(), "big")


@dataclass
class EasyBot(Bot):
    """Legal moves with little sense: any legal action, picked by a hash of the state.

    `seed` varies the picks between two easy bots (and between games of the same bot).
    """

    game_id: str
    seed: int = 0
    level: str = "easy"

    def _choose(self, state: Any, legal: Sequence[Any]) -> Any:
        return legal[state_hash(state, self.seed) % len(legal)]


@dataclass
class ExpertBot(Bot):
    """Plays the coach's best option."""

    game_id: str
    coach: Coach
    level: str = "expert"

    def _choose(self, state: Any, legal: Sequence[Any]) -> Any:
        return self.coach.best_action(state)
