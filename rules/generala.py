"""Generala (seed 004): thirteen rounds, three throws a turn, one box filled per turn.

Presets (`GeneralaOptions.preset`): the seed's thirteen boxes (the default), and the game as
played at home in Argentina and Uruguay — Uno…Seis, Escalera, Full, Póker, Generala and
Generala doble, eleven rounds — with the values of the Argentine rule sheets ("argentina") or
of gerlero/generala ("familia"). House options change any preset: the servido bonus, a
generala servida that wins at once, the escalera al as, the Generala doble, and "obligada"
(the boxes filled in their order, top to bottom)."""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from functools import cache
from itertools import combinations
from typing import Annotated, ClassVar, Literal

from pydantic import (
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
    model_validator,
)

from .dice import PendingThrow
from .errors import N_, IllegalAction, Text
from .game import Event, game_over_line
from .model import Frozen, not_in_lobby_yet
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
    ESCALERA = "escalera"
    GENERALA_DOBLE = "generala_doble"


BOXES: tuple[Box, ...] = tuple(Box)[:13]
"""The seed's thirteen boxes, in the order of its sheet (the default preset's sheet)."""
HOME_BOXES: tuple[Box, ...] = (
    Box.ONES,
    Box.TWOS,
    Box.THREES,
    Box.FOURS,
    Box.FIVES,
    Box.SIXES,
    Box.ESCALERA,
    Box.FULL,
    Box.POKER,
    Box.GENERALA,
    Box.GENERALA_DOBLE,
)
"""The Argentine sheet (presets "argentina" and "familia"), top to bottom."""
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
    Box.ESCALERA: "Escalera",
    Box.GENERALA_DOBLE: "Generala doble",
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


Preset = Literal["seed", "argentina", "familia"]
Servido = Literal[0, 5, 10]


class HomeValues(Frozen):
    """What the made hands score on the Argentine sheet (before any servido bonus)."""

    escalera: int
    full: int
    poker: int
    generala: int


HOME_VALUES: dict[str, HomeValues] = {
    "argentina": HomeValues(escalera=20, full=30, poker=40, generala=50),
    "familia": HomeValues(escalera=30, full=50, poker=80, generala=100),
}
"""The presets' values; a Generala doble is worth twice the Generala."""

SEED_GENERALA = 50

PRESET_OPTIONS: dict[str, dict[str, object]] = {
    "seed": {
        "servido": 0,
        "servida_wins": False,
        "escalera_al_as": False,
        "generala_doble": False,
        "obligada": False,
    },
    "argentina": {
        "servido": 5,
        "servida_wins": True,
        "escalera_al_as": False,
        "generala_doble": True,
        "obligada": False,
    },
    "familia": {
        "servido": 10,
        "servida_wins": True,
        "escalera_al_as": False,
        "generala_doble": True,
        "obligada": False,
    },
}
"""Each preset's house options: an option left out takes its preset's value."""

SERVIDO_BOXES = frozenset(
    {Box.ESCALERA, Box.FULL, Box.POKER, Box.ESCALERA_LARGA, Box.ESCALERA_ESCASA}
)
"""The boxes a servido bonus goes to (a straight, a full or a póker; not the Generala)."""


class GeneralaOptions(Frozen):
    """The preset (the seed's sheet by default) and the house options.

    An option not given takes its preset's value (`PRESET_OPTIONS`): `preset="argentina"`
    alone is the Argentine game (servido +5, a servida wins, Generala doble). A state's
    options are written with only what differs from its preset, so the seed's game is
    written `{}`, as before the presets."""

    preset: Preset = Field(
        "seed",
        title="Rules",
        description="The seed's thirteen boxes, or the Argentine sheet with its values",
        json_schema_extra=not_in_lobby_yet(),
    )
    servido: Servido = Field(
        0,
        title="Servido bonus",
        description="Points added to a straight, full or póker written after the first throw",
        json_schema_extra=not_in_lobby_yet(),
    )
    servida_wins: bool = Field(
        False,
        title="Generala servida wins",
        description="Five of a kind on the turn's first throw wins the game at once",
        json_schema_extra=not_in_lobby_yet(),
    )
    escalera_al_as: bool = Field(
        False,
        title="Escalera al as",
        description="3-4-5-6-1 is a straight too",
        json_schema_extra=not_in_lobby_yet(),
    )
    generala_doble: bool = Field(
        False,
        title="Generala doble",
        description="A second generala scores double, once the Generala box holds its points",
        json_schema_extra=not_in_lobby_yet(),
    )
    obligada: bool = Field(
        False,
        title="Obligada",
        description="The boxes are filled in their order, top to bottom",
        json_schema_extra=not_in_lobby_yet(),
    )

    @model_validator(mode="before")
    @classmethod
    def _preset_fills_the_rest(cls, data: object) -> object:
        if isinstance(data, dict) and data.get("preset") in PRESET_OPTIONS:
            return {**PRESET_OPTIONS[data["preset"]], **data}
        return data

    @model_serializer(mode="wrap")
    def _only_what_differs(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        data: dict[str, object] = handler(self)
        preset = PRESET_OPTIONS[self.preset]
        kept: dict[str, object] = {"preset": self.preset} if self.preset != "seed" else {}
        kept.update(
            (name, value) for name, value in data.items() if preset.get(name, value) != value
        )
        return kept

    @property
    def home(self) -> HomeValues | None:
        """The Argentine sheet's values, or None on the seed's sheet."""
        return HOME_VALUES.get(self.preset)

    @property
    def generala_points(self) -> int:
        return self.home.generala if self.home else SEED_GENERALA


def sheet_boxes(options: GeneralaOptions) -> tuple[Box, ...]:
    """The boxes of the sheet, top to bottom (a player's turns: one box each)."""
    return _sheet(options.preset != "seed", options.generala_doble)


@cache
def _sheet(home: bool, doble: bool) -> tuple[Box, ...]:
    if home:
        return HOME_BOXES if doble else HOME_BOXES[:-1]
    if not doble:
        return BOXES
    at = BOXES.index(Box.GENERALA) + 1
    return (*BOXES[:at], Box.GENERALA_DOBLE, *BOXES[at:])


def is_escalera(dice: tuple[int, ...] | list[int], al_as: bool) -> bool:
    """1-2-3-4-5 or 2-3-4-5-6, and 3-4-5-6-1 with the escalera al as."""
    faces = sorted(dice)
    return faces in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) or (al_as and faces == [1, 3, 4, 5, 6])


def points(
    options: GeneralaOptions,
    box: Box,
    dice: tuple[int, ...] | list[int],
    *,
    first_throw: bool = False,
    generala_held: bool = False,
) -> int:
    """What `dice` score in `box` under `options`: `first_throw` when the dice are the turn's
    first throw (a servido), `generala_held` when the sheet's Generala holds its points (a
    Generala doble scores only then)."""
    counts = sorted(Counter(dice).values(), reverse=True)
    home = options.home
    if box is Box.GENERALA_DOBLE:
        return 2 * options.generala_points if counts[0] == 5 and generala_held else 0
    if home is None:
        value = score(box, dice)
        if box is Box.ESCALERA_LARGA and options.escalera_al_as and sorted(dice) == [1, 3, 4, 5, 6]:
            value = 30
    elif box in FACE_OF_BOX:
        value = score(box, dice)
    elif box is Box.ESCALERA:
        value = home.escalera if is_escalera(dice, options.escalera_al_as) else 0
    elif box is Box.FULL:
        value = home.full if counts == [3, 2] else 0
    elif box is Box.POKER:
        value = home.poker if counts[0] >= 4 else 0
    elif box is Box.GENERALA:
        value = home.generala if counts[0] == 5 else 0
    else:
        raise ValueError(f"{box} is not on the Argentine sheet")
    if value and first_throw and box in SERVIDO_BOXES:
        value += options.servido
    return value


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
        boxes = len(self.boxes)
        if len(self.sheets) != seats or any(len(sheet) != boxes for sheet in self.sheets):
            problems.append(f"one sheet of {boxes} boxes per player")
        if not 0 <= self.turn < seats or not 1 <= self.round <= boxes:
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

    @property
    def boxes(self) -> tuple[Box, ...]:
        """The sheet's boxes, top to bottom: as many rounds as boxes."""
        return sheet_boxes(self.options)

    @property
    def servida(self) -> bool:
        """The game ended at once on a generala servida, thrown by the current player (a
        game that ends by its rounds ends with every sheet full)."""
        return self.over and any(value is None for value in self.sheets[self.current])

    def generala_held(self, seat: int) -> bool:
        """Whether the seat's Generala box holds its points (a Generala doble then scores)."""
        if Box.GENERALA not in self.boxes:
            return False
        return bool(self.sheets[seat][self.boxes.index(Box.GENERALA)])

    def box_points(self, box: Box) -> int:
        """What the dice on the table score in `box` for the current player."""
        return points(
            self.options,
            box,
            self.dice,
            first_throw=self.throws == 1,
            generala_held=self.generala_held(self.current),
        )

    def next_box(self, seat: int) -> Box | None:
        """The seat's first unused box, top to bottom (the only one with "obligada")."""
        for box, value in zip(self.boxes, self.sheets[seat], strict=True):
            if value is None:
                return box
        return None

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
            sheets=tuple((None,) * len(sheet_boxes(options)) for _ in players),
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
        servida = state.options.servida_wins and state.throws == 1 and len(set(dice)) == 1
        return state.model_copy(update={"dice": tuple(dice), "rolling": None, "over": servida})

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
        if state.options.obligada:
            box = state.next_box(state.current)
            actions.extend([Fill(box=box)] if box is not None else [])
            return actions
        actions.extend(
            Fill(box=box) for box, value in zip(state.boxes, sheet, strict=True) if value is None
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
        if action.box not in state.boxes:
            raise IllegalAction(
                N_("There is no box '{box}' on this sheet"), box=box_name(action.box)
            )
        box_index = state.boxes.index(action.box)
        if state.sheets[seat][box_index] is not None:
            raise IllegalAction(N_("Box '{box}' is already filled"), box=box_name(action.box))
        due = state.next_box(seat)
        if state.options.obligada and due is not None and action.box is not due:
            raise IllegalAction(
                N_("The boxes are filled in order: the next is '{box}'"), box=box_name(due)
            )
        sheet = list(state.sheets[seat])
        sheet[box_index] = state.box_points(action.box)
        sheets = (*state.sheets[:seat], tuple(sheet), *state.sheets[seat + 1 :])
        turn, round_ = state.turn + 1, state.round
        if turn == len(state.players):
            turn, round_ = 0, round_ + 1
        rounds = len(state.boxes)
        return state.model_copy(
            update={
                "sheets": sheets,
                "turn": turn,
                "round": min(round_, rounds),
                "over": round_ > rounds,
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

    def winners(self, state: GeneralaState) -> tuple[int, ...]:
        """The highest total (a tie shared), or alone the thrower of a generala servida."""
        if state.servida:
            return (state.current,)
        return super().winners(state)

    # -- narration ----------------------------------------------------------------------
    def describe_action(self, state: GeneralaState, action: Roll | Fill) -> Text:
        if isinstance(action, Fill):
            value = state.box_points(action.box) if state.dice else 0
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
            if after.over:
                lines.append(self._game_over(after))
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
                lines.append(self._game_over(after))
            elif after.round != before.round:
                rounds = len(after.boxes)
                if rounds == ROUNDS:
                    lines.append(Text(N_("Round {round} of 13"), {"round": after.round}))
                else:
                    lines.append(
                        Text(
                            N_("Round {round} of {rounds}"),
                            {"round": after.round, "rounds": rounds},
                        )
                    )
        return lines

    def _game_over(self, after: GeneralaState) -> Text:
        winners = self.winners(after)
        if after.servida:
            return Text(
                N_("Game over: {player} wins with a generala servida"),
                {"player": after.players[winners[0]]},
            )
        return game_over_line(after.players, winners, after.total(winners[0]))


def _faces(faces: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces)
