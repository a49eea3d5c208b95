"""Generala (seed 004): thirteen rounds, three throws a turn, one box filled per turn."""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from itertools import combinations
from typing import Annotated, ClassVar, Literal

from pydantic import Field, TypeAdapter, model_validator

from .dice import PendingThrow
from .errors import N_, IllegalAction, Text
from .game import Event, game_over_line
from .model import Frozen
from .rolloff import OpensWithRollOff, RollOff, RollOffState

DICE = 5
THROWS_PER_TURN = 3
ROUNDS = 13


class Box(StrEnum):
    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    TRIO = "trio"
    POKER = "poker"
    FULL = "full"
    ESCALERA_LARGA = "escalera_larga"
    ESCALERA_ESCASA = "escalera_escasa"
    GENERALA = "generala"
    LIBRE = "libre"


BOXES: tuple[Box, ...] = tuple(Box)
BOX_NAMES: dict[Box, str] = {
    Box.ONES: N_("Ones"),
    Box.TWOS: N_("Twos"),
    Box.THREES: N_("Threes"),
    Box.FOURS: N_("Fours"),
    Box.FIVES: N_("Fives"),
    Box.SIXES: N_("Sixes"),
    Box.TRIO: "Trío",
    Box.POKER: "Poker",
    Box.FULL: "Full",
    Box.ESCALERA_LARGA: "Escalera larga",
    Box.ESCALERA_ESCASA: "Escalera escasa",
    Box.GENERALA: "Generala",
    Box.LIBRE: "Libre",
}


def box_name(box: Box) -> Text:
    """A box's name for a message: Ones to Sixes are translated, the others keep the
    Spanish names players use everywhere (a catalogue has no entry for them)."""
    return Text(BOX_NAMES[box])


FACE_OF_BOX = {Box.ONES: 1, Box.TWOS: 2, Box.THREES: 3, Box.FOURS: 4, Box.FIVES: 5, Box.SIXES: 6}


def score(box: Box, dice: tuple[int, ...] | list[int]) -> int:
    """What `dice` (five faces) score in `box`; 0 when they do not qualify."""
    counts = sorted(Counter(dice).values(), reverse=True)
    if box in FACE_OF_BOX:
        face = FACE_OF_BOX[box]
        return face * sum(1 for d in dice if d == face)
    if box is Box.TRIO:
        return 20 if counts[0] >= 3 else 0
    if box is Box.POKER:
        return 30 if counts[0] >= 4 else 0
    if box is Box.FULL:
        return 25 if counts == [3, 2] else 0
    if box is Box.ESCALERA_LARGA:
        return 30 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    if box is Box.ESCALERA_ESCASA:
        return 40 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    if box is Box.GENERALA:
        return 50 if counts[0] == 5 else 0
    return sum(dice)  # Libre


class GeneralaOptions(Frozen):
    """Generala has no options: the seed's thirteen boxes, three throws, no bonuses."""


class Roll(Frozen):
    """Throw every die not in `hold` (dice positions 0-4). The first throw holds nothing."""

    kind: Literal["roll"] = "roll"
    hold: tuple[int, ...] = ()


class Fill(Frozen):
    """End the turn by writing the dice's score (maybe 0) into an unused box."""

    kind: Literal["fill"] = "fill"
    box: Box


GeneralaAction = Annotated[Roll | Fill, Field(discriminator="kind")]

Sheet = tuple[int | None, ...]


class GeneralaState(RollOffState):
    game: Literal["generala"] = "generala"
    options: GeneralaOptions = GeneralaOptions()
    round: int = 1
    turn: int = 0
    """How many players have already played in this round."""
    dice: tuple[int, ...] = ()
    """The faces on the table; empty before the first throw of a turn."""
    held: tuple[int, ...] = ()
    """Positions kept on the table during the last throw."""
    throws: int = 0
    rolling: tuple[int, ...] | None = None
    """Positions in the air: a chance throw of these dice is pending."""
    sheets: tuple[Sheet, ...]
    over: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> GeneralaState:
        """A state read from a file must make sense as a whole, not just field by field."""
        seats = len(self.players)
        problems = []
        if len(self.sheets) != seats or any(len(sheet) != len(BOXES) for sheet in self.sheets):
            problems.append("one sheet of 13 boxes per player")
        if not 0 <= self.turn < seats or not 1 <= self.round <= ROUNDS:
            problems.append("a turn and round inside the game")
        if not 0 <= self.throws <= THROWS_PER_TURN:
            problems.append("0 to 3 throws")
        if len(self.dice) not in (0, DICE) or any(d not in range(1, 7) for d in self.dice):
            problems.append("no dice or five faces 1 to 6")
        positions = (*self.held, *(self.rolling or ()))
        if any(not 0 <= p < DICE for p in positions):
            problems.append("dice positions 0 to 4")
        if any(p not in range(seats) for p in self.rolloff.contenders) or (
            self.rolloff.winner is not None and self.rolloff.winner not in range(seats)
        ):
            problems.append("a roll-off among the players")
        if problems:
            raise ValueError("a Generala state needs " + ", ".join(problems))
        return self

    @property
    def current(self) -> int:
        return (self.first + self.turn) % len(self.players)

    def total(self, seat: int) -> int:
        return sum(v for v in self.sheets[seat] if v is not None)


class Generala(OpensWithRollOff[GeneralaOptions, GeneralaState, Roll | Fill]):
    id: ClassVar[str] = "generala"
    options_model = GeneralaOptions
    state_model = GeneralaState
    action_adapter: ClassVar[TypeAdapter[Roll | Fill]] = TypeAdapter(GeneralaAction)

    def _seat(
        self, players: tuple[str, ...], options: GeneralaOptions, rolloff: RollOff
    ) -> GeneralaState:
        return GeneralaState(
            players=players,
            options=options,
            rolloff=rolloff,
            sheets=tuple((None,) * len(BOXES) for _ in players),
        )

    # -- chance -------------------------------------------------------------------------
    def _pending_play_throw(self, state: GeneralaState) -> PendingThrow | None:
        if state.rolling is not None:
            return PendingThrow(player=state.current, count=len(state.rolling))
        return None

    def _apply_play_chance(self, state: GeneralaState, faces: tuple[int, ...]) -> GeneralaState:
        assert state.rolling is not None
        dice = list(state.dice) if state.dice else [0] * DICE
        for position, face in zip(state.rolling, faces, strict=True):
            dice[position] = face
        return state.model_copy(update={"dice": tuple(dice), "rolling": None})

    # -- decisions ----------------------------------------------------------------------
    def current_player(self, state: GeneralaState) -> int | None:
        if state.over or self.pending_throw(state) is not None:
            return None
        return state.current

    def legal_actions(self, state: GeneralaState) -> list[Roll | Fill]:
        if self.current_player(state) is None:
            return []
        if state.throws == 0:
            return [Roll()]
        actions: list[Roll | Fill] = []
        if state.throws < THROWS_PER_TURN:
            for size in range(DICE):
                actions.extend(Roll(hold=hold) for hold in combinations(range(DICE), size))
        sheet = state.sheets[state.current]
        actions.extend(
            Fill(box=box) for box, value in zip(BOXES, sheet, strict=True) if value is None
        )
        return actions

    def _apply(self, state: GeneralaState, action: Roll | Fill) -> GeneralaState:
        if isinstance(action, Roll):
            return self._roll(state, action)
        return self._fill(state, action)

    def _roll(self, state: GeneralaState, action: Roll) -> GeneralaState:
        hold = tuple(sorted(set(action.hold)))
        if len(hold) != len(action.hold):
            raise IllegalAction(N_("A die can be held only once"))
        if any(not 0 <= p < DICE for p in hold):
            raise IllegalAction(N_("There are only five dice"))
        if state.throws >= THROWS_PER_TURN:
            raise IllegalAction(N_("No throws left: choose a box"))
        if state.throws == 0 and hold:
            raise IllegalAction(N_("The first throw is always with all five dice"))
        if len(hold) == DICE:
            raise IllegalAction(N_("Every die is held: release one to throw"))
        rolling = tuple(p for p in range(DICE) if p not in hold)
        return state.model_copy(
            update={"held": hold, "rolling": rolling, "throws": state.throws + 1}
        )

    def _fill(self, state: GeneralaState, action: Fill) -> GeneralaState:
        if state.throws == 0:
            raise IllegalAction(N_("Throw the dice before choosing a box"))
        seat = state.current
        box_index = BOXES.index(action.box)
        if state.sheets[seat][box_index] is not None:
            raise IllegalAction(N_("Box '{box}' is already filled"), box=box_name(action.box))
        sheet = list(state.sheets[seat])
        sheet[box_index] = score(action.box, state.dice)
        sheets = (*state.sheets[:seat], tuple(sheet), *state.sheets[seat + 1 :])
        turn, round_ = state.turn + 1, state.round
        if turn == len(state.players):
            turn, round_ = 0, round_ + 1
        return state.model_copy(
            update={
                "sheets": sheets,
                "turn": turn,
                "round": min(round_, ROUNDS),
                "over": round_ > ROUNDS,
                "dice": (),
                "held": (),
                "throws": 0,
            }
        )

    # -- the end ------------------------------------------------------------------------
    def is_over(self, state: GeneralaState) -> bool:
        return state.over

    def scores(self, state: GeneralaState) -> tuple[int, ...]:
        return tuple(state.total(seat) for seat in range(len(state.players)))

    # -- narration ----------------------------------------------------------------------
    def describe_action(self, state: GeneralaState, action: Roll | Fill) -> Text:
        if isinstance(action, Fill):
            value = score(action.box, state.dice) if state.dice else 0
            return Text(N_("{box}: {points}"), {"box": box_name(action.box), "points": value})
        if state.throws == 0:
            return Text(N_("Throw all five dice"))
        if not action.hold:
            return Text(N_("Throw all five dice again"))
        held = set(action.hold)
        kept = " ".join(str(face) for face in sorted((state.dice[p] for p in held), reverse=True))
        return Text(N_("Keep {kept}, throw {count}"), {"kept": kept, "count": DICE - len(held)})

    def _narrate_play(
        self, before: GeneralaState, event: Event, after: GeneralaState
    ) -> list[Text]:
        lines: list[Text] = []
        if isinstance(event, tuple):
            lines.append(
                Text(
                    N_("{player} throws {faces} (throw {n} of 3)"),
                    {
                        "player": before.players[before.current],
                        "faces": _faces(after.dice),
                        "n": after.throws,
                    },
                )
            )
            return lines
        if isinstance(event, Fill):
            value = after.sheets[before.current][BOXES.index(event.box)]
            lines.append(
                Text(
                    N_("{player} writes {points} in {box}"),
                    {
                        "player": before.players[before.current],
                        "points": value,
                        "box": box_name(event.box),
                    },
                )
            )
            if after.over:
                winners = self.winners(after)
                lines.append(game_over_line(after.players, winners, after.total(winners[0])))
            elif after.round != before.round:
                lines.append(Text(N_("Round {round} of 13"), {"round": after.round}))
        return lines


def _faces(faces: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces)
