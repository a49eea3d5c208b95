"""Barco, Capitán y Tripulación (seed 000): points add up over the rounds, optional stakes.

The turn is the shared Ship-Captain-Crew turn (rules.ship); here the third place is the pilot
and the two scoring dice are the crew, which may be thrown again one or both at a time. The
game ends after a number of rounds or when someone reaches a target (the round is finished
first); tied leaders play extra rounds among themselves until one leads.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil
from typing import ClassVar, Literal

from pydantic import Field

from .errors import C_, N_, NP_, Text
from .model import Frozen, applies_when
from .rolloff import RollOff
from .ship import DICE, Hand, ShipGame, ShipState, TurnRules, names

BARCO_TURN = TurnRules(
    rethrows=((0,), (1,), (0, 1)),
    has_ship=N_("{player} has the ship"),
    has_captain=N_("{player} has ship and captain"),
    has_all=N_("{player} has ship, captain and pilot; the crew is {dice}: {score}"),
    rethrown=N_("{player}'s crew is now {dice}: {score}"),
    scores=N_("{player} scores {score}"),
    misses=N_("{player} has no ship, captain and pilot: 0 this round"),
    not_ready=N_("Ship, captain and pilot come first: throw again"),
    complete=N_("Ship, captain and pilot are aside: stop, or throw crew dice again"),
    which_dice=N_("Throw crew die 1, crew die 2, or both"),
    describe_stop=N_("Stop with a crew of {score}"),
    describe_rethrow_both=N_("Throw both crew dice again"),
    describe_rethrow_one=N_("Keep the {kept}, throw the {thrown} again"),
    describe_rethrow_twin=N_("Keep a {kept}, throw the other {thrown} again"),
    five_early=C_("barco", "A 5 does not count before the ship"),
    four_early=C_("barco", "A 4 does not count before the captain"),
)


class BarcoOptions(Frozen):
    end: Literal["rounds", "race"] = Field(
        "rounds",
        title=N_("Game end"),
        description=N_("After a number of rounds, or a race to a target score"),
    )
    rounds: int = Field(
        10,
        ge=1,
        le=50,
        title=N_("Rounds"),
        description=N_("Rounds to play"),
        json_schema_extra=applies_when(end="rounds"),
    )
    target: int = Field(
        100,
        ge=1,
        le=1000,
        title=N_("Target"),
        description=N_("Points to reach; the round is always finished"),
        json_schema_extra=applies_when(end="race"),
    )
    stakes: bool = Field(False, title=N_("Play for chips"), description=N_("Settle in chips"))
    stake: int = Field(
        10,
        ge=1,
        le=1000,
        title=N_("Stake"),
        description=N_("Chips each player puts in the pot"),
        json_schema_extra=applies_when(stakes=True, settlement="pot"),
    )
    settlement: Literal["pot", "margin"] = Field(
        "pot",
        title=N_("Settlement"),
        description=N_("The winner takes the pot, or is paid by each player for the margin"),
        json_schema_extra=applies_when(stakes=True),
    )
    rate: float = Field(
        0.1,
        gt=0,
        le=10,
        title=N_("Rate"),
        description=N_("Chips per point of margin, rounded up"),
        json_schema_extra=applies_when(stakes=True, settlement="margin"),
    )


class Payment(Frozen):
    """Chips moved when the game is settled. `payer` None means the pot."""

    payer: int | None
    payee: int
    chips: int


class BarcoState(ShipState):
    game: Literal["barco"] = "barco"
    options: BarcoOptions = BarcoOptions()
    sheet: tuple[tuple[int | None, ...], ...] = ()
    """One row per round played or being played: each seat's points, None if not (yet) played."""
    extra_rounds: int = 0
    """How many of the last rows are extra rounds among tied leaders."""
    playing: tuple[int, ...] = ()
    """The seats in this round, in playing order (in an extra round, only the tied leaders)."""
    turn: int = 0
    """How many of `playing` have finished their turn this round."""
    chips: tuple[int, ...]
    """Each seat's chips won (+) or lost (-) so far; all 0 without stakes."""
    pot: int = 0
    settlement: tuple[Payment, ...] = ()
    """Who paid whom at the end of the game (stakes only)."""

    @property
    def round(self) -> int:
        return len(self.sheet)

    @property
    def regular_rounds(self) -> int:
        return len(self.sheet) - self.extra_rounds

    @property
    def in_extra_round(self) -> bool:
        return self.extra_rounds > 0

    def total(self, seat: int) -> int:
        return sum(row[seat] or 0 for row in self.sheet)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.total(seat) for seat in range(len(self.players)))

    @property
    def winner(self) -> int | None:
        if not self.over:
            return None
        return max(range(len(self.players)), key=self.total)


class Barco(ShipGame[BarcoOptions, BarcoState]):
    id: ClassVar[str] = "barco"
    options_model = BarcoOptions
    state_model = BarcoState
    turn_rules: ClassVar[TurnRules] = BARCO_TURN
    rolloff_dice: ClassVar[int] = DICE
    rolloff_lowest: ClassVar[bool] = True

    def _seat(
        self, players: tuple[str, ...], options: BarcoOptions, rolloff: RollOff
    ) -> BarcoState:
        n = len(players)
        in_pot = options.stakes and options.settlement == "pot"
        stake = options.stake if in_pot else 0
        return BarcoState(
            players=players, options=options, rolloff=rolloff, chips=(-stake,) * n, pot=stake * n
        )

    def _rolloff_decided(self, state: BarcoState) -> BarcoState:
        return self._open_round(state, range(len(state.players)), extra=False)

    def _open_round(
        self, state: BarcoState, seats: range | tuple[int, ...], extra: bool
    ) -> BarcoState:
        playing = tuple(seat for seat in state.clockwise(state.first) if seat in seats)
        return state.model_copy(
            update={
                "sheet": (*state.sheet, (None,) * len(state.players)),
                "extra_rounds": state.extra_rounds + extra,
                "playing": playing,
                "turn": 0,
                "hand": Hand(seat=playing[0]),
            }
        )

    def _turn_over(self, state: BarcoState, hand: Hand) -> BarcoState:
        row = list(state.sheet[-1])
        row[hand.seat] = hand.score
        state = state.model_copy(
            update={"sheet": (*state.sheet[:-1], tuple(row)), "turn": state.turn + 1}
        )
        if state.turn < len(state.playing):
            return state.model_copy(update={"hand": Hand(seat=state.playing[state.turn])})
        if not self._end_reached(state):
            return self._open_round(state, range(len(state.players)), extra=False)
        best = max(state.total(seat) for seat in state.playing)
        leaders = tuple(seat for seat in state.playing if state.total(seat) == best)
        if len(leaders) > 1:
            return self._open_round(state, leaders, extra=True)
        return self._settle(state, leaders[0])

    def _end_reached(self, state: BarcoState) -> bool:
        if state.in_extra_round:
            return True
        if state.options.end == "rounds":
            return state.regular_rounds >= state.options.rounds
        return max(state.totals) >= state.options.target

    def _settle(self, state: BarcoState, winner: int) -> BarcoState:
        chips = list(state.chips)
        payments: list[Payment] = []
        if state.pot:
            payments.append(Payment(payer=None, payee=winner, chips=state.pot))
        elif state.options.stakes:
            rate = Fraction(str(state.options.rate))
            for seat in range(len(state.players)):
                margin = state.total(winner) - state.total(seat)
                owed = ceil(margin * rate)
                if seat != winner and owed > 0:
                    payments.append(Payment(payer=seat, payee=winner, chips=owed))
        for payment in payments:
            if payment.payer is not None:
                chips[payment.payer] -= payment.chips
            chips[payment.payee] += payment.chips
        return state.model_copy(
            update={
                "over": True,
                "hand": None,
                "chips": tuple(chips),
                "pot": 0,
                "settlement": tuple(payments),
            }
        )

    def scores(self, state: BarcoState) -> tuple[int, ...]:
        return state.totals

    # -- narration ----------------------------------------------------------------------
    def _narrate_table(self, before: BarcoState, after: BarcoState) -> list[Text]:
        lines: list[Text] = []
        options = after.options
        if (
            options.end == "race"
            and not after.in_extra_round
            and before.sheet
            and max(before.totals) < options.target <= max(after.totals)
        ):
            reached = max(range(len(after.players)), key=after.total)
            lines.append(
                Text(
                    N_("{player} reaches {target}: the round is played to its end"),
                    {"player": after.players[reached], "target": options.target},
                )
            )
        if after.round > before.round:
            if after.extra_rounds > before.extra_rounds:
                lines.append(
                    Text(
                        N_("Extra round: {players} are tied at {total} and play on"),
                        {
                            "players": names(after, after.playing),
                            "total": after.total(after.playing[0]),
                        },
                    )
                )
            elif options.end == "rounds":
                lines.append(
                    Text(
                        N_("Round {round} of {rounds}"),
                        {"round": after.round, "rounds": options.rounds},
                    )
                )
            else:
                lines.append(
                    Text(
                        NP_(
                            "Round {round}, first to {target} point",
                            "Round {round}, first to {target} points",
                        ),
                        {"round": after.round, "target": options.target},
                        count="target",
                    )
                )
        if after.over and not before.over and after.winner is not None:
            lines.append(
                Text(
                    NP_(
                        "Game over: {player} wins with {total} point",
                        "Game over: {player} wins with {total} points",
                    ),
                    {"player": after.players[after.winner], "total": after.total(after.winner)},
                    count="total",
                )
            )
            for payment in after.settlement:
                if payment.payer is None:
                    lines.append(
                        Text(
                            NP_(
                                "{player} takes the pot of {chips} chip",
                                "{player} takes the pot of {chips} chips",
                            ),
                            {"player": after.players[payment.payee], "chips": payment.chips},
                            count="chips",
                        )
                    )
                else:
                    lines.append(
                        Text(
                            NP_(
                                "{payer} pays {payee} {chips} chip",
                                "{payer} pays {payee} {chips} chips",
                            ),
                            {
                                "payer": after.players[payment.payer],
                                "payee": after.players[payment.payee],
                                "chips": payment.chips,
                            },
                            count="chips",
                        )
                    )
        return lines
