"""Ship, Captain and Crew: the turn that `barco` and `navio` share, and the plumbing around it.

A turn is at most three throws of five dice. The ship (6), the captain (5) and the third man
(4: the pilot in barco, the crew in navio) are set aside automatically, in that order; once all
three are aside the two other dice score (barco's crew, navio's treasure) and the player may
stop or throw scoring dice again. The games differ only by configuration (`TurnRules`: which
scoring dice may be thrown again, what things are called) and by what happens between turns
(hooks of `ShipGame`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, Field, TypeAdapter

from .dice import PendingThrow
from .errors import N_, IllegalAction, Text
from .game import Event
from .model import Frozen
from .rolloff import OpensWithRollOff, RollOffState

DICE = 5
THROWS = 3
SCORING_DICE = 2


class Slot(StrEnum):
    """The three places on the tray, filled in this order."""

    SHIP = "ship"
    CAPTAIN = "captain"
    CREW = "crew"


SLOTS: tuple[Slot, ...] = tuple(Slot)
FACE_OF_SLOT: dict[Slot, int] = {Slot.SHIP: 6, Slot.CAPTAIN: 5, Slot.CREW: 4}


class Reason(StrEnum):
    """Why a thrown die went back into the cup."""

    NEEDS_SHIP = "needs_ship"
    """A 5 thrown while the ship is missing: no captain without a ship."""
    NEEDS_CAPTAIN = "needs_captain"
    """A 4 thrown while the captain is missing."""
    DUPLICATE = "duplicate"
    """A second 6 or 5: that place is already taken."""
    NOT_NEEDED = "not_needed"
    """Any other face while the three are still being collected."""


class ThrownDie(Frozen):
    """One die of a throw and what became of it: exactly one of the three fields is set."""

    face: int
    slot: Slot | None = None
    """Set aside as the ship, the captain or the crew."""
    scoring: int | None = None
    """Became scoring die 0 or 1 (barco's crew, navio's treasure)."""
    reason: Reason | None = None
    """Went back into the cup, and why."""

    @property
    def kept(self) -> bool:
        return self.reason is None


def collect(
    filled: int, faces: Sequence[int]
) -> tuple[int, tuple[int, ...], tuple[ThrownDie, ...]]:
    """Set aside what one collecting throw allows, given `filled` places already taken.

    At most one 6 if the ship is missing; then, in the same throw, one 5 if the captain is
    missing and the ship is there; then one 4 likewise. Returns the places now filled, the two
    scoring dice when all three places are filled (else ()), and each die's fate.
    """
    taken: dict[int, Slot] = {}
    for slot in SLOTS[filled:]:
        index = next(
            (i for i, face in enumerate(faces) if face == FACE_OF_SLOT[slot] and i not in taken),
            None,
        )
        if index is None:
            break
        taken[index] = slot
    now = filled + len(taken)
    complete = now == len(SLOTS)
    dice: list[ThrownDie] = []
    scoring: list[int] = []
    for i, face in enumerate(faces):
        if i in taken:
            dice.append(ThrownDie(face=face, slot=taken[i]))
        elif complete:
            dice.append(ThrownDie(face=face, scoring=len(scoring)))
            scoring.append(face)
        else:
            dice.append(ThrownDie(face=face, reason=_reason(face, now)))
    return now, tuple(scoring), tuple(dice)


def _reason(face: int, filled: int) -> Reason:
    if face == FACE_OF_SLOT[Slot.SHIP]:
        return Reason.DUPLICATE
    if face == FACE_OF_SLOT[Slot.CAPTAIN]:
        return Reason.DUPLICATE if filled > SLOTS.index(Slot.SHIP) else Reason.NEEDS_SHIP
    if face == FACE_OF_SLOT[Slot.CREW]:
        return Reason.NEEDS_CAPTAIN
    return Reason.NOT_NEEDED


# -- actions ---------------------------------------------------------------------------------
class Roll(Frozen):
    """Throw every die not set aside: the first throw, or another try at ship, captain, crew."""

    kind: Literal["roll"] = "roll"


class Stop(Frozen):
    """Keep the scoring dice as they are and end the turn."""

    kind: Literal["stop"] = "stop"


class Reroll(Frozen):
    """Throw scoring dice again: `dice` are their positions, 0 and/or 1. The new throw counts."""

    kind: Literal["reroll"] = "reroll"
    dice: tuple[int, ...] = (0, 1)


ShipAction = Roll | Stop | Reroll
ShipActionField = Annotated[ShipAction, Field(discriminator="kind")]


@dataclass(frozen=True)
class TurnRules:
    """What one game makes of the shared turn: which re-throws it allows and its words."""

    rethrows: tuple[tuple[int, ...], ...]
    """The sets of scoring-dice positions a player may throw again together."""
    has_ship: str
    has_captain: str
    has_all: str
    """Narration once all three are aside: {player}, {dice}, {score}."""
    rethrown: str
    """Narration of a re-throw of scoring dice: {player}, {dice}, {score}."""
    scores: str
    misses: str
    not_ready: str
    """Refusal of Stop/Reroll before the three are aside."""
    complete: str
    """Refusal of Roll once the three are aside."""
    which_dice: str
    """Refusal of a Reroll of dice the game does not allow together."""
    describe_stop: str
    describe_rethrow_both: str
    """The label of a re-throw of both scoring dice."""
    describe_rethrow_one: str = ""
    """A re-throw of one scoring die (barco): {kept} the face kept, {thrown} the face thrown."""
    describe_rethrow_twin: str = ""
    """The same when both scoring dice show one face: either die is the same decision."""
    five_early: str = N_("A 5 does not count before the ship")
    """A 5 thrown before the ship (each game says it with its own word for the ship)."""
    four_early: str = N_("A 4 does not count before the captain")


class Hand(Frozen):
    """One player's turn: what is set aside, the scoring dice, and every throw so far."""

    seat: int
    limit: int = THROWS
    """Throws this player may use (navio's leader may have lowered it)."""
    throws: int = 0
    filled: int = 0
    """How many of ship, captain and crew are aside (they fill in order)."""
    scoring: tuple[int, ...] = ()
    """The two scoring dice once all three places are filled."""
    history: tuple[tuple[ThrownDie, ...], ...] = ()
    """Each throw of this turn, die by die, with what became of it."""
    rolling: bool = False
    """A throw is in the air: the dice in the cup, or the scoring dice in `rethrow`."""
    rethrow: tuple[int, ...] = ()
    """Positions of the scoring dice thrown again in the pending or last throw."""
    stopped: bool = False

    @property
    def qualified(self) -> bool:
        return self.filled == len(SLOTS)

    @property
    def score(self) -> int:
        return sum(self.scoring) if self.qualified else 0

    @property
    def slots(self) -> dict[Slot, bool]:
        """Which places of the tray are filled."""
        return {slot: i < self.filled for i, slot in enumerate(SLOTS)}

    @property
    def last(self) -> tuple[ThrownDie, ...]:
        """The dice of the last throw, each with its fate (empty before the first throw)."""
        return self.history[-1] if self.history else ()

    @property
    def throws_left(self) -> int:
        return max(0, self.limit - self.throws)

    @property
    def in_cup(self) -> int:
        """How many dice a Roll throws: every die not set aside."""
        return DICE - self.filled

    @property
    def finished(self) -> bool:
        """The turn is over: the player stopped, or used every allowed throw."""
        return not self.rolling and (self.stopped or self.throws >= self.limit)

    def pending(self) -> PendingThrow | None:
        if not self.rolling:
            return None
        count = len(self.rethrow) if self.qualified else self.in_cup
        return PendingThrow(player=self.seat, count=count)

    def legal(self, rules: TurnRules) -> list[ShipAction]:
        if self.rolling or self.finished:
            return []
        if not self.qualified:
            return [Roll()]
        return [Stop(), *(Reroll(dice=dice) for dice in rules.rethrows)]

    def take(self, action: ShipAction, rules: TurnRules) -> Hand:
        """The player's decision; IllegalAction if the turn does not allow it."""
        if self.rolling:
            raise IllegalAction(N_("The dice are still rolling"))
        if self.finished:
            raise IllegalAction(N_("This turn is over"))
        if isinstance(action, Roll):
            if self.qualified:
                raise IllegalAction(rules.complete)
            return self.model_copy(
                update={"rolling": True, "rethrow": (), "throws": self.throws + 1}
            )
        if not self.qualified:
            raise IllegalAction(rules.not_ready)
        if isinstance(action, Stop):
            return self.model_copy(update={"stopped": True})
        dice = tuple(sorted(set(action.dice)))
        if len(dice) != len(action.dice) or dice not in rules.rethrows:
            raise IllegalAction(rules.which_dice)
        return self.model_copy(update={"rolling": True, "rethrow": dice, "throws": self.throws + 1})

    def land(self, faces: tuple[int, ...]) -> Hand:
        """The pending throw came up `faces`."""
        assert self.rolling, "no throw is pending"
        if self.qualified:
            scoring = list(self.scoring)
            for position, face in zip(self.rethrow, faces, strict=True):
                scoring[position] = face
            thrown = tuple(
                ThrownDie(face=face, scoring=position)
                for position, face in zip(self.rethrow, faces, strict=True)
            )
            update: dict[str, Any] = {"scoring": tuple(scoring)}
        else:
            filled, new_scoring, thrown = collect(self.filled, faces)
            update = {"filled": filled, "scoring": new_scoring}
        return self.model_copy(
            update={**update, "history": (*self.history, thrown), "rolling": False}
        )


# -- the game plumbing -----------------------------------------------------------------------
class ShipState(RollOffState):
    """What every Ship-Captain-Crew table has; each game adds its own fields."""

    game: str
    hand: Hand | None = None
    """The turn being played; None before the roll-off is over and once the game is."""
    last_turn: Hand | None = None
    """The turn finished just before (the next one may already have begun)."""
    turns_played: int = 0
    over: bool = False

    def clockwise(self, start: int) -> tuple[int, ...]:
        """Every seat in playing order, beginning with `start`."""
        n = len(self.players)
        return tuple((start + i) % n for i in range(n))


OptionsT = TypeVar("OptionsT", bound=BaseModel)
StateT = TypeVar("StateT", bound=ShipState)


class ShipGame(OpensWithRollOff[OptionsT, StateT, ShipAction]):
    """The turn loop both games share; subclasses decide what a finished turn leads to."""

    turn_rules: ClassVar[TurnRules]
    action_adapter: ClassVar[TypeAdapter[ShipAction]] = TypeAdapter(ShipActionField)

    @abstractmethod
    def _rolloff_decided(self, state: StateT) -> StateT:
        """The roll-off is decided: open the first round and its first turn."""

    @abstractmethod
    def _turn_over(self, state: StateT, hand: Hand) -> StateT:
        """`hand` is finished (already in `state.last_turn`): score it, go on or end the game."""

    @abstractmethod
    def _narrate_table(self, before: StateT, after: StateT) -> list[Text]:
        """What changed at the table beyond the dice: rounds, limits, pots, the end."""

    def _narrate_after_rolloff(self, before: StateT, after: StateT) -> list[Text]:
        return self._narrate_table(before, after)  # the first round opens

    # -- chance -------------------------------------------------------------------------
    def _pending_play_throw(self, state: StateT) -> PendingThrow | None:
        if state.hand is not None:
            return state.hand.pending()
        return None

    def _apply_play_chance(self, state: StateT, faces: tuple[int, ...]) -> StateT:
        assert state.hand is not None
        return self._with_hand(state, state.hand.land(faces))

    def _with_hand(self, state: StateT, hand: Hand) -> StateT:
        if not hand.finished:
            return state.model_copy(update={"hand": hand})
        closed = state.model_copy(
            update={"hand": None, "last_turn": hand, "turns_played": state.turns_played + 1}
        )
        return self._turn_over(closed, hand)

    # -- decisions ----------------------------------------------------------------------
    def current_player(self, state: StateT) -> int | None:
        if state.over or state.hand is None or self.pending_throw(state) is not None:
            return None
        return state.hand.seat

    def legal_actions(self, state: StateT) -> list[ShipAction]:
        if self.current_player(state) is None:
            return []
        assert state.hand is not None
        return state.hand.legal(self.turn_rules)

    def _apply(self, state: StateT, action: ShipAction) -> StateT:
        assert state.hand is not None
        return self._with_hand(state, state.hand.take(action, self.turn_rules))

    def is_over(self, state: StateT) -> bool:
        return state.over

    # -- narration ----------------------------------------------------------------------
    def describe_action(self, state: StateT, action: ShipAction) -> Text:
        hand = state.hand
        if isinstance(action, Roll):
            if hand is None or hand.throws == 0:
                return Text(N_("Throw all five dice"))
            if hand.in_cup == DICE:
                return Text(N_("Throw all five dice again"))
            return Text(N_("Throw the {count} dice in the cup"), {"count": hand.in_cup})
        if isinstance(action, Stop):
            score = hand.score if hand is not None else 0
            return Text(self.turn_rules.describe_stop, {"score": score})
        rules = self.turn_rules
        dice = tuple(sorted(set(action.dice)))
        if hand is None or not hand.qualified or dice not in rules.rethrows:
            return Text(rules.which_dice)
        if len(dice) == len(hand.scoring):
            return Text(rules.describe_rethrow_both)
        thrown = hand.scoring[dice[0]]
        kept = hand.scoring[1 - dice[0]]
        template = rules.describe_rethrow_twin if thrown == kept else rules.describe_rethrow_one
        return Text(template, {"kept": kept, "thrown": thrown})

    def _narrate_play(self, before: StateT, event: Event, after: StateT) -> list[Text]:
        lines: list[Text] = []
        if isinstance(event, tuple) and before.hand is not None:
            lines.extend(self._narrate_throw(before, event, after))
        if after.turns_played > before.turns_played and after.last_turn is not None:
            hand = after.last_turn
            template = self.turn_rules.scores if hand.qualified else self.turn_rules.misses
            lines.append(Text(template, {"player": after.players[hand.seat], "score": hand.score}))
        lines.extend(self._narrate_table(before, after))
        return lines

    def _narrate_throw(self, before: StateT, faces: tuple[int, ...], after: StateT) -> list[Text]:
        hand = before.hand
        assert hand is not None
        turn_ended = after.turns_played > before.turns_played
        landed = after.last_turn if turn_ended else after.hand
        assert landed is not None
        player = after.players[hand.seat]
        rules = self.turn_rules
        lines = [
            Text(
                N_("{player} throws {faces} (throw {n} of {limit})"),
                {"player": player, "faces": _faces(faces), "n": landed.throws, "limit": hand.limit},
            )
        ]
        params = {"player": player, "dice": _faces(landed.scoring), "score": landed.score}
        if hand.qualified:
            lines.append(Text(rules.rethrown, params))
        elif landed.filled > hand.filled:
            template = (rules.has_ship, rules.has_captain, rules.has_all)[landed.filled - 1]
            lines.append(Text(template, params))
        reasons = {die.reason for die in landed.last}
        if Reason.NEEDS_SHIP in reasons:
            lines.append(Text(rules.five_early))
        if Reason.NEEDS_CAPTAIN in reasons:
            lines.append(Text(rules.four_early))
        return lines


def _faces(faces: Sequence[int]) -> str:
    return " ".join(str(f) for f in faces)


def names(state: ShipState, seats: Sequence[int]) -> str:
    return ", ".join(state.players[seat] for seat in seats)
