"""Batalla de Piratas (seed 003): two crews of five on a ring of squares 0-15.

Each piece moves by its own formula of two distinguishable dice d1 and d2. The ring is the
source's, taken literally: moving right, q = p + n and then minus 15 past 15; moving left,
q = p - n and then plus 15 below 0. So 0 and 15 are one crossing point seen from two sides:
only a left move lands on 0 and only a right move lands on 15.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, ClassVar, Literal, NamedTuple

from pydantic import Field, TypeAdapter

from .dice import PendingThrow
from .errors import N_, IllegalAction, Text
from .game import Event
from .model import Frozen
from .rolloff import OpensWithRollOff, RollOff, RollOffState, RollOffWords

FIRST_SQUARE = 0
LAST_SQUARE = 15
SQUARES = tuple(range(FIRST_SQUARE, LAST_SQUARE + 1))
BLUE, RED = 0, 1
HOME = (FIRST_SQUARE, LAST_SQUARE)
"""Where each side's crew starts: blue on 0, red on 15."""
SIDE_NAMES = (N_("Blue"), N_("Red"))


class Piece(StrEnum):
    CAPTAIN = "captain"
    EXPLORER = "explorer"
    PARROT = "parrot"
    SAILOR = "sailor"
    MONKEY = "monkey"


PIECES: tuple[Piece, ...] = tuple(Piece)
"""The fixed order: the opening moves the pieces in it, and ties between targets follow it."""
PIECE_NAMES: dict[Piece, str] = {
    Piece.CAPTAIN: N_("captain"),
    Piece.EXPLORER: N_("explorer"),
    Piece.PARROT: N_("parrot"),
    Piece.SAILOR: N_("sailor"),
    Piece.MONKEY: N_("monkey"),
}
OPENING_MOVES = 2 * len(PIECES)


def side_name(side: int) -> Text:
    """A side's name for a message (translated when the message is read)."""
    return Text(SIDE_NAMES[side])


def piece_name(piece: Piece) -> Text:
    return Text(PIECE_NAMES[piece])


class Formula(NamedTuple):
    """How far a piece moves on the throw (d1, d2), and which way."""

    direction: int
    """1 right, -1 left, 0 as the sign of the amount says (the captain's d2 - d1)."""
    amount: Callable[[int, int], int]
    figures: str
    """The amount in figures, as the board's legend writes it: d1, |d1−d2|, d2−d1."""

    def of(self, d1: int, d2: int) -> int:
        """The signed move: positive is right, negative is left."""
        amount = self.amount(d1, d2)
        return amount if self.direction == 0 else self.direction * amount

    @property
    def text(self) -> str:
        """The formula with its way: d2−d1, ←d1, ←|d1−d2|, →d1, →|d1−d2|."""
        return {1: "→", -1: "←", 0: ""}[self.direction] + self.figures


FORMULAS: dict[Piece, Formula] = {
    Piece.CAPTAIN: Formula(0, lambda d1, d2: d2 - d1, "d2−d1"),
    Piece.EXPLORER: Formula(-1, lambda d1, d2: d1, "d1"),
    Piece.PARROT: Formula(-1, lambda d1, d2: abs(d1 - d2), "|d1−d2|"),
    Piece.SAILOR: Formula(1, lambda d1, d2: d1, "d1"),
    Piece.MONKEY: Formula(1, lambda d1, d2: abs(d1 - d2), "|d1−d2|"),
}
"""Each piece's move: the one place the rules, the bots and the board's legend read it."""


def offset(piece: Piece, d1: int, d2: int) -> int:
    """How far `piece` moves on the throw (d1, d2): positive is right, negative is left."""
    return FORMULAS[piece].of(d1, d2)


def ring(square: int, offset: int) -> int:
    """The square `offset` away on the ring: 13 + 6 → 4 and, the other way, 4 - 6 → 13."""
    target = square + offset
    if offset > 0 and target > LAST_SQUARE:
        return target - LAST_SQUARE
    if offset < 0 and target < FIRST_SQUARE:
        return target + LAST_SQUARE
    return target


def destination(start: int, offset: int, teammates: set[int] | frozenset[int]) -> int:
    """Where a move of `offset` from `start` ends, stepping past squares held by teammates.

    A piece that would end on a teammate keeps going one square at a time in its direction of
    travel (same ring arithmetic) to the first square free of teammates. A zero move stays put.
    """
    if offset == 0:
        return start
    square = ring(start, offset)
    step = 1 if offset > 0 else -1
    while square in teammates:
        square = ring(square, step)
    return square


class PiratasOptions(Frozen):
    lives: int = Field(
        3,
        ge=1,
        le=9,
        title=N_("Lives"),
        description=N_("How many lives every piece starts with"),
    )


class Roll(Frozen):
    """The side to move throws the two dice."""

    kind: Literal["roll"] = "roll"


class Move(Frozen):
    """Move `piece` of the side to move by its formula on the dice just thrown."""

    kind: Literal["move"] = "move"
    piece: Piece


PiratasAction = Annotated[Roll | Move, Field(discriminator="kind")]


class Token(Frozen):
    """One piece on the board: its square and lives, or `square` None once eliminated."""

    square: int | None
    lives: int

    @property
    def alive(self) -> bool:
        return self.square is not None


Crew = tuple[Token, ...]
"""A side's five pieces, in the order of PIECES."""


class MovePreview(Frozen):
    """What moving one piece on the current throw would do, known before choosing it."""

    side: int
    piece: Piece
    start: int
    offset: int
    """Signed distance from the dice: positive right, negative left, 0 stays."""
    landing: int
    """The square the formula reaches, before stepping past teammates."""
    destination: int
    target: Piece | None = None
    """The enemy piece struck on arrival (None in the opening or with no enemy there)."""
    target_lives: int | None = None
    """The target's lives after the strike (0 means eliminated)."""
    gain: int = 0
    """Lives the mover gains: 1 for a strike, 2 for an elimination."""

    @property
    def strikes(self) -> bool:
        return self.target is not None

    @property
    def eliminates(self) -> bool:
        return self.target_lives == 0


class PiratasState(RollOffState):
    """A game of two sides: players[0] sails blue, players[1] red."""

    game: Literal["piratas"] = "piratas"
    options: PiratasOptions = PiratasOptions()
    crews: tuple[Crew, Crew]
    side: int = BLUE
    """The side to move (set by the roll-off)."""
    stage: Literal["roll", "throwing", "move"] = "roll"
    """The side must press Roll, then the dice are in the air, then it must move a piece."""
    dice: tuple[int, int] | None = None
    """The last throw (d1, d2); the one to move by while `stage` is "move"."""
    opening_moves: int = 0
    """Opening moves made so far; the opening lasts until all ten pieces have moved once."""
    winner: int | None = None
    last_move: MovePreview | None = None
    """The move made last, by either side; None before the first (and in games saved before
    moves were kept)."""

    @property
    def throws_again(self) -> bool:
        """The side to move struck with the last move: this turn is the extra throw it won."""
        last = self.last_move
        return self.winner is None and last is not None and last.strikes and last.side == self.side

    @property
    def in_opening(self) -> bool:
        return self.opening_moves < OPENING_MOVES

    @property
    def opening_piece(self) -> Piece | None:
        """The piece the side to move must move in the opening (None after it)."""
        if not self.in_opening:
            return None
        return PIECES[self.opening_moves // 2]

    def token(self, side: int, piece: Piece) -> Token:
        return self.crews[side][PIECES.index(piece)]

    def living(self, side: int) -> tuple[Piece, ...]:
        return tuple(p for p, t in zip(PIECES, self.crews[side], strict=True) if t.alive)

    def pieces_on(self, square: int) -> tuple[tuple[int, Piece], ...]:
        """Every living piece on `square` as (side, piece), blue first, in piece order."""
        return tuple(
            (side, piece)
            for side in (BLUE, RED)
            for piece, token in zip(PIECES, self.crews[side], strict=True)
            if token.square == square
        )

    def eliminated(self, side: int) -> int:
        """How many of `side`'s pieces are out of the game."""
        return sum(1 for t in self.crews[side] if not t.alive)


def _preview(state: PiratasState, piece: Piece) -> MovePreview:
    assert state.dice is not None
    side, enemy = state.side, 1 - state.side
    token = state.token(side, piece)
    assert token.square is not None
    move = offset(piece, *state.dice)
    teammates = frozenset(
        t.square
        for p, t in zip(PIECES, state.crews[side], strict=True)
        if p is not piece and t.square is not None
    )
    end = destination(token.square, move, teammates)
    preview = MovePreview(
        side=side,
        piece=piece,
        start=token.square,
        offset=move,
        landing=ring(token.square, move),
        destination=end,
    )
    if state.in_opening or move == 0:
        return preview
    enemies = [
        (t.lives, i) for i, t in enumerate(state.crews[enemy]) if t.alive and t.square == end
    ]
    if not enemies:
        return preview
    lives, index = min(enemies)
    return preview.model_copy(
        update={
            "target": PIECES[index],
            "target_lives": lives - 1,
            "gain": 2 if lives == 1 else 1,
        }
    )


class Piratas(OpensWithRollOff[PiratasOptions, PiratasState, Roll | Move]):
    id: ClassVar[str] = "piratas"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_model = PiratasOptions
    state_model = PiratasState
    action_adapter: ClassVar[TypeAdapter[Roll | Move]] = TypeAdapter(PiratasAction)
    rolloff_words: ClassVar[RollOffWords] = RollOffWords(
        throws=N_("{player} ({side}) rolls {faces} for the start"),
        starts=N_("{player} ({side}) starts"),
        tie=N_("Tie: both sides roll again"),
    )
    rolloff_sides: ClassVar[tuple[str, ...]] = SIDE_NAMES

    def _seat(
        self, players: tuple[str, ...], options: PiratasOptions, rolloff: RollOff
    ) -> PiratasState:
        def crew(side: int) -> Crew:
            return tuple(Token(square=HOME[side], lives=options.lives) for _ in PIECES)

        return PiratasState(
            players=players, options=options, rolloff=rolloff, crews=(crew(BLUE), crew(RED))
        )

    def _rolloff_decided(self, state: PiratasState) -> PiratasState:
        return state.model_copy(update={"side": state.first})

    # -- chance -------------------------------------------------------------------------
    def _pending_play_throw(self, state: PiratasState) -> PendingThrow | None:
        if state.stage == "throwing":
            return PendingThrow(player=state.side, count=2, ordered=True)
        return None

    def _apply_play_chance(self, state: PiratasState, faces: tuple[int, ...]) -> PiratasState:
        d1, d2 = faces
        return state.model_copy(update={"dice": (d1, d2), "stage": "move"})

    # -- decisions ----------------------------------------------------------------------
    def current_player(self, state: PiratasState) -> int | None:
        if state.winner is not None or self.pending_throw(state) is not None:
            return None
        return state.side

    def movable(self, state: PiratasState) -> tuple[Piece, ...]:
        """The pieces the side may move on the throw on the table (none before the throw)."""
        if self.current_player(state) is None or state.stage != "move":
            return ()
        if state.opening_piece is not None:
            return (state.opening_piece,)
        return state.living(state.side)

    def preview(self, state: PiratasState) -> dict[Piece, MovePreview]:
        """Each legal move's outcome on the throw on the table, for the board and the bots."""
        return {piece: _preview(state, piece) for piece in self.movable(state)}

    def legal_actions(self, state: PiratasState) -> list[Roll | Move]:
        if self.current_player(state) is None:
            return []
        if state.stage == "roll":
            return [Roll()]
        return [Move(piece=piece) for piece in self.movable(state)]

    def _apply(self, state: PiratasState, action: Roll | Move) -> PiratasState:
        if isinstance(action, Roll):
            if state.stage != "roll":
                raise IllegalAction(N_("The dice are on the table: move a piece"))
            return state.model_copy(update={"stage": "throwing", "dice": None})
        return self._move(state, action.piece)

    def _move(self, state: PiratasState, piece: Piece) -> PiratasState:
        if state.stage != "move":
            raise IllegalAction(N_("Throw the dice before moving a piece"))
        if not state.token(state.side, piece).alive:
            raise IllegalAction(N_("The {piece} is out of the game"), piece=piece_name(piece))
        if state.opening_piece not in (None, piece):
            raise IllegalAction(
                N_("In the opening the {piece} moves now"),
                piece=piece_name(state.opening_piece),
            )
        move = _preview(state, piece)
        side, enemy = state.side, 1 - state.side
        crews = [list(state.crews[BLUE]), list(state.crews[RED])]
        mover = PIECES.index(piece)
        crews[side][mover] = Token(
            square=move.destination, lives=crews[side][mover].lives + move.gain
        )
        winner = None
        if move.target is not None:
            assert move.target_lives is not None
            struck = PIECES.index(move.target)
            crews[enemy][struck] = Token(
                square=move.destination if move.target_lives else None, lives=move.target_lives
            )
            if all(not t.alive for t in crews[enemy]):
                winner = side
        return state.model_copy(
            update={
                "crews": (tuple(crews[BLUE]), tuple(crews[RED])),
                "side": side if move.strikes else enemy,
                "stage": "roll",
                "opening_moves": min(state.opening_moves + 1, OPENING_MOVES),
                "winner": winner,
                "last_move": move,
            }
        )

    # -- the end ------------------------------------------------------------------------
    def is_over(self, state: PiratasState) -> bool:
        return state.winner is not None

    def scores(self, state: PiratasState) -> tuple[int, ...]:
        """Enemy pieces each side has eliminated."""
        return (state.eliminated(RED), state.eliminated(BLUE))

    def winners(self, state: PiratasState) -> tuple[int, ...]:
        """The side that eliminated the whole enemy crew."""
        return () if state.winner is None else (state.winner,)

    # -- narration ----------------------------------------------------------------------
    def describe_action(self, state: PiratasState, action: Roll | Move) -> Text:
        if isinstance(action, Roll):
            return Text(N_("Throw the dice"))
        name = piece_name(action.piece)
        if state.stage != "move" or not state.token(state.side, action.piece).alive:
            return Text(N_("Move the {piece}"), {"piece": name})
        move = _preview(state, action.piece)
        params = {"piece": name, "start": move.start, "end": move.destination}
        if move.offset == 0:
            return Text(N_("The {piece} stays on {start}"), params)
        if move.target is None:
            return Text(N_("The {piece}: {start} → {end}"), params)
        params["enemy"] = side_name(1 - move.side)
        params["target"] = piece_name(move.target)
        if move.eliminates:
            return Text(N_("The {piece}: {start} → {end}, eliminates {enemy} {target}"), params)
        return Text(N_("The {piece}: {start} → {end}, strikes {enemy} {target}"), params)

    def _narrate_play(self, before: PiratasState, event: Event, after: PiratasState) -> list[Text]:
        if isinstance(event, tuple):
            params = {"side": side_name(before.side), "d1": event[0], "d2": event[1]}
            return [Text(N_("{side} throws d1 = {d1}, d2 = {d2}"), params)]
        if isinstance(event, Move):
            return self._narrate_move(before, event, after)
        return []

    def _narrate_move(self, before: PiratasState, event: Move, after: PiratasState) -> list[Text]:
        move = _preview(before, event.piece)
        params: dict[str, object] = {
            "side": side_name(move.side),
            "piece": piece_name(move.piece),
            "start": move.start,
            "end": move.destination,
        }
        if move.offset == 0:
            line = N_("{side} {piece} stays on {start}")
        elif move.target is None:
            line = N_("{side} {piece} moves {start} → {end}")
        else:
            params["enemy"] = side_name(1 - move.side)
            params["target"] = piece_name(move.target)
            params["lives"] = move.target_lives
            if after.winner is not None:
                line = N_("{side} {piece} moves {start} → {end} and eliminates {enemy} {target}")
            elif move.eliminates:
                line = N_(
                    "{side} {piece} moves {start} → {end} and eliminates {enemy} {target}; "
                    "{side} throws again"
                )
            else:
                line = N_(
                    "{side} {piece} moves {start} → {end} and strikes {enemy} {target} "
                    "(lives left: {lives}); {side} throws again"
                )
        lines = [Text(line, params)]
        if after.winner is not None:
            lines.append(
                Text(
                    N_("Game over: {player} ({side}) wins"),
                    {"player": after.players[after.winner], "side": side_name(after.winner)},
                )
            )
        elif before.in_opening and not after.in_opening:
            lines.append(Text(N_("The opening is over: now each throw moves any living piece")))
        return lines
