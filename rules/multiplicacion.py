"""Multiplicación (seed 002): set two dice aside, throw the third as the multiplier; ten rounds.

A turn builds the formula (A + B) × M one throw at a time. The first throw of three dice sets
aside its highest die in slot A, the throw of the other two sets aside the higher in slot B, and
the last die is the multiplier M. Two decisions make it a game: a triple on the first throw (or a
pair on the second) may be thrown again instead of kept, and the multiplier may be refused once,
at a penalty of 3 (set-aside sum 9 or less) or 4 (10 or more) taken off A + B before the new die.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, ClassVar, Literal

from pydantic import Field, TypeAdapter

from .dice import PendingThrow
from .errors import N_, IllegalAction, Text
from .game import Event, game_over_line
from .model import Frozen
from .rolloff import OpensWithRollOff, RollOff, RollOffState, RollOffWords

ROUNDS = 10
ROLLOFF_DICE = 3


def penalty_for(kept_sum: int) -> int:
    """What refusing the multiplier costs: 3 off a set-aside sum of 9 or less, 4 off 10 or more."""
    return 3 if kept_sum <= 9 else 4


class Step(StrEnum):
    """Where a turn stands: a throw to make, a choice to take, or the turn is over."""

    THROW_THREE = "throw_three"
    """The player throws three dice; the highest goes to slot A."""
    TRIPLE = "triple"
    """The three dice show a triple: keep one in slot A, or throw all three again."""
    THROW_TWO = "throw_two"
    """The player throws the other two dice; the higher goes to slot B."""
    PAIR = "pair"
    """The two dice show a pair: keep one in slot B, or throw both again."""
    THROW_MULTIPLIER = "throw_multiplier"
    """The player throws the last die: the multiplier."""
    MULTIPLIER = "multiplier"
    """The multiplier is on the table: accept it, or refuse it once at a penalty."""
    DONE = "done"
    """The turn is scored (the turns in the score sheets)."""


DICE_THROWN = {Step.THROW_THREE: 3, Step.THROW_TWO: 2, Step.THROW_MULTIPLIER: 1}


class Turn(Frozen):
    """One player's turn: the formula (A + B − penalty) × multiplier as it builds up.

    A finished turn (step DONE) is kept in its player's score sheet, formula and all.
    """

    step: Step = Step.THROW_THREE
    rolling: bool = False
    """Dice are in the air: a chance throw for this step is pending."""
    thrown: tuple[int, ...] = ()
    """The faces of the last throw of this turn, as they fell."""
    first: int | None = None
    """Slot A: the die set aside from the throw of three."""
    second: int | None = None
    """Slot B: the die set aside from the throw of two."""
    multiplier: int | None = None
    """The multiplier slot; emptied again when the multiplier is refused."""
    penalty_taken: int = 0
    """Points taken off A + B by refusing the multiplier (0 while the refusal is unused)."""

    @property
    def penalty_used(self) -> bool:
        return self.penalty_taken > 0

    def penalty(self) -> int | None:
        """The penalty a refusal of the multiplier costs (3 or 4); None until A and B are set."""
        if self.first is None or self.second is None:
            return None
        return penalty_for(self.first + self.second)

    @property
    def kept_sum(self) -> int:
        """The set-aside sum so far, penalty included (it can go below zero)."""
        return (self.first or 0) + (self.second or 0) - self.penalty_taken

    @property
    def score(self) -> int | None:
        """What the turn scores with the multiplier now on the table; None without one."""
        if self.multiplier is None or self.first is None or self.second is None:
            return None
        return self.kept_sum * self.multiplier

    def formula(self) -> str:
        """The running formula in figures, `?` for the slots still empty: "(5 + 2) × 5 = 35"."""
        return formula(self.first, self.second, self.penalty_taken, self.multiplier)

    def preview(self) -> Text | None:
        """What the choice on the table would leave, before it is made: keeping the triple's
        (or the pair's) die, "Keep: (5 + 2) × ?"; refusing the multiplier, "Re-throw costs 4:
        (11 − 4) × ?". None when the turn offers no such choice."""
        if self.step is Step.TRIPLE:
            kept = formula(self.thrown[0], self.second, self.penalty_taken, self.multiplier)
            return Text(N_("Keep: {formula}"), {"formula": kept})
        if self.step is Step.PAIR:
            kept = formula(self.first, self.thrown[0], self.penalty_taken, self.multiplier)
            return Text(N_("Keep: {formula}"), {"formula": kept})
        if self.step is Step.MULTIPLIER and not self.penalty_used:
            return Text(
                N_("Re-throw costs {penalty}: ({kept} − {penalty}) × ?"),
                {"penalty": penalty_for(self.kept_sum), "kept": self.kept_sum},
            )
        return None


def formula(first: int | None, second: int | None, penalty: int, multiplier: int | None) -> str:
    """(A + B) × M in figures, `?` for an empty slot, the penalty when one was taken, and the
    score once every slot is filled: "(6 + 5 − 4) × 3 = 21"."""
    a = "?" if first is None else str(first)
    b = "?" if second is None else str(second)
    kept = f"{a} + {b} − {penalty}" if penalty else f"{a} + {b}"
    result = f"({kept}) × {'?' if multiplier is None else multiplier}"
    if first is None or second is None or multiplier is None:
        return result
    return f"{result} = {(first + second - penalty) * multiplier}"


class MultiplicacionOptions(Frozen):
    """Multiplicación has no options: ten rounds, as the source plays it."""


class Throw(Frozen):
    """Throw the dice this step calls for: three, then two, then the multiplier."""

    kind: Literal["throw"] = "throw"


class Keep(Frozen):
    """On a triple (or pair), set one of its dice aside as it is."""

    kind: Literal["keep"] = "keep"


class Rethrow(Frozen):
    """On a triple (or pair), throw all those dice again instead of keeping one."""

    kind: Literal["rethrow"] = "rethrow"


class Accept(Frozen):
    """Take the multiplier on the table and score the turn."""

    kind: Literal["accept"] = "accept"


class PenaltyRethrow(Frozen):
    """Refuse the multiplier: the penalty comes off A + B, the new die must be accepted."""

    kind: Literal["penalty_rethrow"] = "penalty_rethrow"


MultiplicacionAction = Throw | Keep | Rethrow | Accept | PenaltyRethrow
ACTION_ADAPTER: TypeAdapter[MultiplicacionAction] = TypeAdapter(
    Annotated[MultiplicacionAction, Field(discriminator="kind")]
)


class MultiplicacionState(RollOffState):
    game: Literal["multiplicacion"] = "multiplicacion"
    options: MultiplicacionOptions = MultiplicacionOptions()
    turn: Turn = Turn()
    """The turn being played."""
    sheets: tuple[tuple[Turn, ...], ...]
    """Each seat's finished turns, in order: the score sheet."""

    @property
    def played(self) -> int:
        """How many turns have been scored, all seats together."""
        return sum(len(sheet) for sheet in self.sheets)

    @property
    def over(self) -> bool:
        return self.played == ROUNDS * len(self.players)

    @property
    def current(self) -> int:
        return (self.first + self.played) % len(self.players)

    @property
    def round(self) -> int:
        return min(self.played // len(self.players) + 1, ROUNDS)

    @property
    def last_turn(self) -> tuple[int, Turn] | None:
        """The seat that played the last finished turn, and that turn."""
        if not self.played:
            return None
        seat = (self.first + self.played - 1) % len(self.players)
        return seat, self.sheets[seat][-1]

    def total(self, seat: int) -> int:
        return sum(turn.score or 0 for turn in self.sheets[seat])


class Multiplicacion(
    OpensWithRollOff[MultiplicacionOptions, MultiplicacionState, MultiplicacionAction]
):
    id: ClassVar[str] = "multiplicacion"
    options_model = MultiplicacionOptions
    state_model = MultiplicacionState
    action_adapter: ClassVar[TypeAdapter[MultiplicacionAction]] = ACTION_ADAPTER
    rolloff_dice: ClassVar[int] = ROLLOFF_DICE
    rolloff_words: ClassVar[RollOffWords] = RollOffWords(
        throws=N_("{player} rolls {faces} ({total}) for the start")
    )

    def _seat(
        self, players: tuple[str, ...], options: MultiplicacionOptions, rolloff: RollOff
    ) -> MultiplicacionState:
        return MultiplicacionState(
            players=players,
            options=options,
            rolloff=rolloff,
            sheets=tuple(() for _ in players),
        )

    # -- chance -------------------------------------------------------------------------
    def _pending_play_throw(self, state: MultiplicacionState) -> PendingThrow | None:
        if state.turn.rolling:
            return PendingThrow(player=state.current, count=DICE_THROWN[state.turn.step])
        return None

    def _apply_play_chance(
        self, state: MultiplicacionState, faces: tuple[int, ...]
    ) -> MultiplicacionState:
        turn = state.turn.model_copy(update={"rolling": False, "thrown": faces})
        if turn.step is Step.THROW_THREE:
            if len(set(faces)) == 1:
                turn = turn.model_copy(update={"step": Step.TRIPLE})
            else:
                turn = turn.model_copy(update={"step": Step.THROW_TWO, "first": max(faces)})
        elif turn.step is Step.THROW_TWO:
            if len(set(faces)) == 1:
                turn = turn.model_copy(update={"step": Step.PAIR})
            else:
                turn = turn.model_copy(update={"step": Step.THROW_MULTIPLIER, "second": max(faces)})
        else:
            turn = turn.model_copy(update={"step": Step.MULTIPLIER, "multiplier": faces[0]})
            if turn.penalty_used:
                return self._score(state, turn)
        return state.model_copy(update={"turn": turn})

    # -- decisions ----------------------------------------------------------------------
    def current_player(self, state: MultiplicacionState) -> int | None:
        if state.over or self.pending_throw(state) is not None:
            return None
        return state.current

    def legal_actions(self, state: MultiplicacionState) -> list[MultiplicacionAction]:
        if self.current_player(state) is None:
            return []
        step = state.turn.step
        if step in (Step.TRIPLE, Step.PAIR):
            return [Keep(), Rethrow()]
        if step is Step.MULTIPLIER:
            return [Accept(), PenaltyRethrow()]
        return [Throw()]

    def _apply(
        self, state: MultiplicacionState, action: MultiplicacionAction
    ) -> MultiplicacionState:
        turn = state.turn
        step = turn.step
        if isinstance(action, Throw):
            if step not in DICE_THROWN:
                raise IllegalAction(_WHAT_NOW[step])
            return _with_turn(state, rolling=True)
        if isinstance(action, Keep | Rethrow):
            if step not in (Step.TRIPLE, Step.PAIR):
                raise IllegalAction(
                    N_("Only a triple on the first throw or a pair on the second can be kept")
                    if isinstance(action, Keep)
                    else N_(
                        "Only a triple on the first throw or a pair on the second can be "
                        "thrown again"
                    )
                )
            if isinstance(action, Rethrow):
                again = Step.THROW_THREE if step is Step.TRIPLE else Step.THROW_TWO
                return _with_turn(state, step=again, rolling=True)
            face = turn.thrown[0]
            if step is Step.TRIPLE:
                return _with_turn(state, step=Step.THROW_TWO, first=face)
            return _with_turn(state, step=Step.THROW_MULTIPLIER, second=face)
        if step is not Step.MULTIPLIER:
            raise IllegalAction(N_("There is no multiplier on the table yet"))
        if isinstance(action, Accept):
            return self._score(state, turn)
        penalty = turn.penalty()
        if penalty is None or turn.penalty_used:
            raise IllegalAction(N_("The multiplier can be refused only once"))
        return _with_turn(
            state,
            step=Step.THROW_MULTIPLIER,
            rolling=True,
            multiplier=None,
            penalty_taken=penalty,
        )

    def _score(self, state: MultiplicacionState, turn: Turn) -> MultiplicacionState:
        """Write the finished turn on the current player's sheet; the cup passes on."""
        seat = state.current
        done = turn.model_copy(update={"step": Step.DONE})
        sheets = (*state.sheets[:seat], (*state.sheets[seat], done), *state.sheets[seat + 1 :])
        return state.model_copy(update={"sheets": sheets, "turn": Turn()})

    # -- the end ------------------------------------------------------------------------
    def is_over(self, state: MultiplicacionState) -> bool:
        return state.over

    def scores(self, state: MultiplicacionState) -> tuple[int, ...]:
        return tuple(state.total(seat) for seat in range(len(state.players)))

    # -- narration ----------------------------------------------------------------------
    def describe_action(self, state: MultiplicacionState, action: MultiplicacionAction) -> Text:
        turn = state.turn
        if isinstance(action, Throw):
            return {
                Step.THROW_TWO: Text(N_("Throw two dice")),
                Step.THROW_MULTIPLIER: Text(N_("Throw the multiplier")),
            }.get(turn.step, Text(N_("Throw three dice")))
        if isinstance(action, Keep):
            face = turn.thrown[0] if turn.thrown else "?"
            return Text(N_("Keep a {face}"), {"face": face})
        if isinstance(action, Rethrow):
            if turn.step is Step.PAIR:
                return Text(N_("Throw the pair again"))
            return Text(N_("Throw the triple again"))
        if isinstance(action, Accept):
            return Text(N_("Accept: {formula}"), {"formula": turn.formula()})
        return Text(
            N_("Refuse the {die}: −{penalty} and throw it again"),
            {
                "die": turn.multiplier if turn.multiplier is not None else "?",
                "penalty": turn.penalty() or 0,
            },
        )

    def _narrate_play(
        self, before: MultiplicacionState, event: Event, after: MultiplicacionState
    ) -> list[Text]:
        player = before.players[before.current]
        turn = before.turn
        lines: list[Text] = []
        if isinstance(event, tuple):
            lines.extend(self._narrate_throw(before, event, after))
        elif isinstance(event, Keep):
            lines.append(
                Text(N_("{player} keeps a {face}"), {"player": player, "face": turn.thrown[0]})
            )
        elif isinstance(event, Rethrow):
            template = (
                N_("{player} throws the pair again")
                if turn.step is Step.PAIR
                else N_("{player} throws the triple again")
            )
            lines.append(Text(template, {"player": player}))
        elif isinstance(event, PenaltyRethrow):
            lines.append(
                Text(
                    N_(
                        "{player} refuses the {die}: penalty {penalty}, the set-aside sum drops "
                        "from {kept} to {left}"
                    ),
                    {
                        "player": player,
                        "die": turn.multiplier,
                        "penalty": after.turn.penalty_taken,
                        "kept": turn.kept_sum,
                        "left": after.turn.kept_sum,
                    },
                )
            )
        if after.played > before.played:
            lines.extend(self._narrate_score(after))
        return lines

    def _narrate_throw(
        self, before: MultiplicacionState, faces: tuple[int, ...], after: MultiplicacionState
    ) -> list[Text]:
        player = before.players[before.current]
        step = before.turn.step
        if step is Step.THROW_MULTIPLIER:
            template = (
                N_("{player} throws a {die}: the new multiplier, taken as it falls")
                if before.turn.penalty_used
                else N_("{player} throws a {die} as the multiplier")
            )
            return [Text(template, {"player": player, "die": faces[0]})]
        lines = [Text(N_("{player} throws {faces}"), {"player": player, "faces": _faces(faces)})]
        if after.turn.step is Step.TRIPLE:
            lines.append(Text(N_("A triple: keep one, or throw all three again")))
        elif after.turn.step is Step.PAIR:
            lines.append(Text(N_("A pair: keep one, or throw both again")))
        else:
            lines.append(
                Text(N_("{player} sets aside the {face}"), {"player": player, "face": max(faces)})
            )
        return lines

    def _narrate_score(self, after: MultiplicacionState) -> list[Text]:
        last = after.last_turn
        assert last is not None
        seat, turn = last
        lines = [
            Text(
                N_("{player} scores {formula}"),
                {"player": after.players[seat], "formula": turn.formula()},
            )
        ]
        if after.over:
            winners = self.winners(after)
            lines.append(game_over_line(after.players, winners, after.total(winners[0])))
        elif after.played % len(after.players) == 0:
            lines.append(
                Text(N_("Round {round} of {rounds}"), {"round": after.round, "rounds": ROUNDS})
            )
        return lines


_WHAT_NOW: dict[Step, str] = {
    Step.TRIPLE: N_("A triple is on the table: keep one or throw all three again"),
    Step.PAIR: N_("A pair is on the table: keep one or throw both again"),
    Step.MULTIPLIER: N_("The multiplier is on the table: accept it or refuse it"),
}


def _with_turn(state: MultiplicacionState, **changes: object) -> MultiplicacionState:
    return state.model_copy(update={"turn": state.turn.model_copy(update=changes)})


def _faces(faces: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces)
