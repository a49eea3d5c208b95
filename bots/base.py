"""What every bot and every coach is: pure functions of a rules state.

A `Coach` values every legal action of the decision on the table (`hint`), gathers the actions
that make the same decision into one option (keeping the 5 of die 1 or the 5 of die 3 is one
decision), ranks the options, and rates a decision by what it lost against the best
(`review`). A `Bot` picks one legal action. The `expert` bot of a game is its coach's first
option, so the two can never disagree.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
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
    LIVES_AHEAD = "lives ahead"
    """Piratas' search: lives ahead of the enemy two decisions on, averaged over the dice (a
    piece still on the board counts 3 lives more, the chance to strike next up to 2 more); a
    won game is worth `WIN_SCORE`."""


WIN_SCORE = 1000.0
"""What piratas' search gives a won game, in `Unit.LIVES_AHEAD` (far above any material)."""


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
    """One decision: every legal action that makes it, and what it is worth."""

    action: BaseModel
    """The first of `actions` in the rules' order (what the expert plays)."""
    label: Text
    value: float
    loss: float
    """How much less than the best option this one is worth (0 for the best)."""
    best: bool
    actions: tuple[BaseModel, ...] = ()
    """Every legal action that makes this decision (e.g. keeping either of two 5s)."""


@dataclass(frozen=True)
class Hint:
    """Every option of the decision on the table, best first, and what their values mean."""

    unit: Unit
    options: tuple[OptionValue, ...]

    @property
    def best(self) -> OptionValue:
        return self.options[0]

    @property
    def forced(self) -> bool:
        """Only one decision is possible (a throw that must be made, equal moves): nothing
        to rate and nothing to count."""
        return len(self.options) == 1

    def option(self, action: BaseModel | dict[str, Any]) -> OptionValue:
        """The decision `action` makes (any of its legal actions)."""
        for option in self.options:
            if action == option.action or action in option.actions:
                return option
        raise KeyError(f"{action!r} is not a legal action here")


@dataclass(frozen=True)
class Review:
    """How good a decision was: its loss against the best option, and the rating of it."""

    action: BaseModel
    """The action played."""
    loss: float
    rating: Rating
    hint: Hint = field(repr=False)
    option: OptionValue | None = field(default=None, repr=False)
    """The decision the action made (its row of `hint`)."""

    @property
    def forced(self) -> bool:
        """There was no choice: such a move is neither rated nor counted."""
        return self.hint.forced

    @property
    def label(self) -> Text:
        return (self.option or self.hint.option(self.action)).label


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

    def decision(self, state: Any, action: Any) -> Hashable:
        """What a player decides by taking `action` in `state`: legal actions with the same
        decision are one option of the hint, and one choice for the review. By default every
        action is a decision of its own; a game whose rules name equal choices differently
        (dice positions, crew dice showing the same face, pieces that all stay) says so."""
        return action  # frozen models hash

    def describe(self, state: Any, actions: Sequence[Any]) -> Text:
        """The label of the decision made by any of `actions` (in the rules' order)."""
        return self.game.describe_action(state, actions[0])

    def hint(self, state: Any) -> Hint | None:
        """Every distinct decision ranked best first; None when no player has to decide."""
        if self.game.current_player(state) is None:
            return None
        groups: dict[Hashable, list[tuple[Any, float]]] = {}
        for action, value in self.values(state):
            groups.setdefault(self.decision(state, action), []).append((action, value))
        decisions = [(tuple(a for a, _ in members), members[0][1]) for members in groups.values()]
        best = max(value for _, value in decisions)
        ranked = sorted(decisions, key=lambda item: -item[1])  # stable: ties keep the rules' order
        return Hint(
            unit=self.unit(state),
            options=tuple(
                OptionValue(
                    action=actions[0],
                    label=self.describe(state, actions),
                    value=value,
                    loss=max(0.0, best - value),
                    best=best - value <= EPSILON,
                    actions=actions,
                )
                for actions, value in ranked
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

    def review(
        self, state: Any, action: BaseModel | dict[str, Any], hint: Hint | None = None
    ) -> Review:
        """Rate `action` taken in `state` (before it was applied): the loss of the decision
        it made, however the action spells it (holding dice 1, 2, 3 or 1, 3, 5 keeps the
        same faces). `review.forced` tells a move without a choice. KeyError if `action`
        makes no decision of the hint. `hint`: `hint(state)` if it was worked out already
        (the rating is then a lookup)."""
        if hint is None:
            hint = self.hint(state)
        if hint is None:
            raise ValueError("nobody has to decide in this state")
        played = self.game.parse_action(action)
        made = self.decision(state, played)
        for chosen in hint.options:
            if self.decision(state, chosen.action) == made:
                return Review(
                    action=played,
                    loss=chosen.loss,
                    rating=self.rate(chosen.loss, hint.unit),
                    hint=hint,
                    option=chosen,
                )
        raise KeyError(f"{played!r} is not a legal action here")


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
