"""Navio, Capitão & Tripulação (seed 001): round by round for the pot, the leader sets the pace.

The turn is the shared Ship-Captain-Crew turn (rules.ship); the two scoring dice are the
treasure, thrown again only as a pair. Every round each player antes; whoever holds the best
treasure so far caps the throws of everyone after him at his own count. The best treasure
takes the pot; no qualifier or a tie for best replays the round with the pot carried over.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator

from .errors import C_, N_, NP_, Text
from .model import Frozen, applies_when
from .rolloff import RollOff
from .ship import THROWS, Hand, ShipGame, ShipState, TurnRules, names

NAVIO_TURN = TurnRules(
    rethrows=((0, 1),),
    has_ship=C_("navio", "{player} has the ship"),
    has_captain=C_("navio", "{player} has ship and captain"),
    has_all=N_("{player} has ship, captain and crew; the treasure is {dice}: {score}"),
    rethrown=N_("{player}'s treasure is now {dice}: {score}"),
    scores=N_("{player}'s treasure: {score}"),
    misses=N_("{player} has no ship, captain and crew: out of the round"),
    not_ready=N_("Ship, captain and crew come first: throw again"),
    complete=N_("Ship, captain and crew are aside: stop, or throw the treasure again"),
    which_dice=N_("The treasure dice are always thrown as a pair"),
    describe_stop=N_("Stop with a treasure of {score}"),
    describe_rethrow_both=N_("Throw the treasure again"),
    five_early=C_("navio", "A 5 does not count before the ship"),
    four_early=C_("navio", "A 4 does not count before the captain"),
)


class NavioOptions(Frozen):
    rounds: int = Field(5, ge=1, le=50, title=N_("Rounds"), description=N_("Rounds to play"))
    mode: Literal["stakes", "points"] = Field(
        "stakes",
        title=N_("Play for"),
        description=N_("Chips (ante into a pot each round) or points (1 per round won)"),
    )
    bankroll: int = Field(
        20,
        ge=1,
        le=10000,
        title=N_("Bankroll"),
        description=N_("Chips each player starts with"),
        json_schema_extra=applies_when(mode="stakes"),
    )
    ante: int = Field(
        1,
        ge=1,
        le=1000,
        title=N_("Ante"),
        description=N_("Chips each player puts in per round"),
        json_schema_extra=applies_when(mode="stakes"),
    )

    @field_validator("ante")
    @classmethod
    def _affordable(cls, ante: int, info: ValidationInfo) -> int:
        bankroll = info.data.get("bankroll")
        if info.data.get("mode") == "stakes" and bankroll is not None and ante > bankroll:
            raise ValueError(N_("the ante cannot be more than the bankroll"))
        return ante


class RollLimit(Frozen):
    """The round's cap on throws, and the turn that set it."""

    throws: int
    seat: int
    treasure: int


class TurnResult(Frozen):
    seat: int
    treasure: int | None
    """None: not qualified within the allowed throws, out of the round."""
    throws: int


class RoundOutcome(Frozen):
    """How one playing of a round ended (a replayed round has several)."""

    round: int
    result: Literal["won", "no_qualifier", "tie", "walkover"]
    winner: int | None = None
    treasure: int | None = None
    pot: int = 0
    """The chips the winner took (stakes), or carried over to the replay."""
    results: tuple[TurnResult, ...] = ()
    """Every turn of this playing, so the sheet can show each treasure and who was out
    (empty in games saved before it was kept, and for a walkover)."""


class NavioState(ShipState):
    game: Literal["navio"] = "navio"
    options: NavioOptions = NavioOptions()
    round: int = 0
    """The round being played, from 1; a replay keeps its number."""
    replays: int = 0
    """How many times the current round has been replayed."""
    starter: int = 0
    """Who opens the current playing of the round."""
    playing: tuple[int, ...] = ()
    """The seats in this playing of the round, in order (stakes: those who paid the ante)."""
    sitting_out: tuple[int, ...] = ()
    """Seats that could not pay the ante for this playing of the round."""
    turn: int = 0
    """How many of `playing` have finished their turn."""
    results: tuple[TurnResult, ...] = ()
    """The finished turns of this playing of the round."""
    limit: RollLimit | None = None
    """The round leader's cap on later players' throws; None: three throws each."""
    chips: tuple[int, ...]
    """Each seat's chips (stakes mode); all 0 in points mode."""
    points: tuple[int, ...]
    """Rounds won by each seat (points mode; counted in stakes mode too)."""
    pot: int = 0
    anted: int = 0
    """What each player in `playing` paid in to this playing of the round (0: points mode, or
    an all-in replay)."""
    outcomes: tuple[RoundOutcome, ...] = ()

    @property
    def throws_allowed(self) -> int:
        return self.limit.throws if self.limit is not None else THROWS

    @property
    def best(self) -> int | None:
        treasures = [r.treasure for r in self.results if r.treasure is not None]
        return max(treasures, default=None)

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats holding the best treasure so far this playing of the round."""
        best = self.best
        return tuple(r.seat for r in self.results if best is not None and r.treasure == best)


class Navio(ShipGame[NavioOptions, NavioState]):
    id: ClassVar[str] = "navio"
    min_players: ClassVar[int] = 2
    options_model = NavioOptions
    state_model = NavioState
    turn_rules: ClassVar[TurnRules] = NAVIO_TURN
    rolloff_dice: ClassVar[int] = 1
    rolloff_lowest: ClassVar[bool] = False

    def _seat(
        self, players: tuple[str, ...], options: NavioOptions, rolloff: RollOff
    ) -> NavioState:
        bankroll = options.bankroll if options.mode == "stakes" else 0
        n = len(players)
        return NavioState(
            players=players,
            options=options,
            rolloff=rolloff,
            chips=(bankroll,) * n,
            points=(0,) * n,
        )

    def _rolloff_decided(self, state: NavioState) -> NavioState:
        return self._open(state.model_copy(update={"round": 1}), state.first)

    def _open(self, state: NavioState, starter: int) -> NavioState:
        """Start a playing of the round from `starter` (or the next seat able to ante)."""
        order = state.clockwise(starter)
        fresh = {"turn": 0, "results": (), "limit": None, "sitting_out": (), "anted": 0}
        if state.options.mode == "points":
            return state.model_copy(
                update={**fresh, "starter": starter, "playing": order, "hand": Hand(seat=starter)}
            )
        ante = state.options.ante
        payers = tuple(seat for seat in order if state.chips[seat] >= ante)
        if not payers:
            # Everybody of the last playing is all in: they replay for the pot as it stands.
            assert state.pot > 0, "chips are conserved, so someone can always pay a first ante"
            playing = tuple(seat for seat in order if seat in state.playing)
            return state.model_copy(
                update={
                    **fresh,
                    "starter": playing[0],
                    "playing": playing,
                    "sitting_out": tuple(s for s in order if s not in playing),
                    "hand": Hand(seat=playing[0]),
                }
            )
        if len(payers) == 1:
            return self._last_solvent(state, payers[0])
        chips = tuple(c - ante if seat in payers else c for seat, c in enumerate(state.chips))
        return state.model_copy(
            update={
                **fresh,
                "starter": payers[0],
                "playing": payers,
                "sitting_out": tuple(seat for seat in order if seat not in payers),
                "chips": chips,
                "pot": state.pot + ante * len(payers),
                "anted": ante,
                "hand": Hand(seat=payers[0]),
            }
        )

    def _last_solvent(self, state: NavioState, seat: int) -> NavioState:
        """Only `seat` can still ante: he takes whatever is in the pot and wins the game."""
        chips = list(state.chips)
        chips[seat] += state.pot
        outcomes = state.outcomes
        if state.pot:
            walkover = RoundOutcome(
                round=state.round, result="walkover", winner=seat, pot=state.pot
            )
            outcomes = (*outcomes, walkover)
        return state.model_copy(
            update={
                "chips": tuple(chips),
                "pot": 0,
                "outcomes": outcomes,
                "playing": (),
                "hand": None,
                "over": True,
            }
        )

    def _turn_over(self, state: NavioState, hand: Hand) -> NavioState:
        treasure = hand.score if hand.qualified else None
        result = TurnResult(seat=hand.seat, treasure=treasure, throws=hand.throws)
        best = state.best
        limit = state.limit
        leads = treasure is not None and (best is None or treasure > best)
        ties_in_fewer = treasure == best and hand.throws < state.throws_allowed
        if treasure is not None and (leads or ties_in_fewer):
            limit = RollLimit(throws=hand.throws, seat=hand.seat, treasure=treasure)
        state = state.model_copy(
            update={"results": (*state.results, result), "limit": limit, "turn": state.turn + 1}
        )
        if state.turn < len(state.playing):
            seat = state.playing[state.turn]
            return state.model_copy(update={"hand": Hand(seat=seat, limit=state.throws_allowed)})
        return self._round_end(state)

    def _round_end(self, state: NavioState) -> NavioState:
        leaders = state.leaders
        if len(leaders) != 1:
            outcome = RoundOutcome(
                round=state.round,
                result="tie" if leaders else "no_qualifier",
                treasure=state.best,
                pot=state.pot,
                results=state.results,
            )
            replay = state.model_copy(
                update={"outcomes": (*state.outcomes, outcome), "replays": state.replays + 1}
            )
            return self._open(replay, (state.starter + 1) % len(state.players))
        winner = leaders[0]
        chips = list(state.chips)
        chips[winner] += state.pot
        points = list(state.points)
        points[winner] += 1
        outcome = RoundOutcome(
            round=state.round,
            result="won",
            winner=winner,
            treasure=state.best,
            pot=state.pot,
            results=state.results,
        )
        state = state.model_copy(
            update={
                "chips": tuple(chips),
                "points": tuple(points),
                "pot": 0,
                "outcomes": (*state.outcomes, outcome),
                "replays": 0,
            }
        )
        if state.round >= state.options.rounds:
            return state.model_copy(update={"hand": None, "over": True})
        return self._open(state.model_copy(update={"round": state.round + 1}), winner)

    def scores(self, state: NavioState) -> tuple[int, ...]:
        return state.chips if state.options.mode == "stakes" else state.points

    # -- narration ----------------------------------------------------------------------
    def _narrate_table(self, before: NavioState, after: NavioState) -> list[Text]:
        lines: list[Text] = []
        if after.limit != before.limit and after.limit is not None:
            lines.append(self._limit_line(after, after.limit))
        for outcome in after.outcomes[len(before.outcomes) :]:
            lines.append(self._outcome_line(after, outcome))
        opened = after.playing and (
            after.round != before.round or after.replays != before.replays or before.playing == ()
        )
        if opened and not after.over:
            lines.extend(self._opening_lines(after))
        if after.over and not before.over:
            winners = self.winners(after)
            over = NP_("Game over: {players} wins", "Game over: {players} win")
            lines.append(Text(over, {"players": names(after, winners), "n": len(winners)}))
        return lines

    def _limit_line(self, state: NavioState, limit: RollLimit) -> Text:
        params = {
            "player": state.players[limit.seat],
            "treasure": limit.treasure,
            "throws": limit.throws,
        }
        if limit.throws == THROWS:
            return Text(N_("{player} leads with {treasure}"), params)
        if limit.throws == 1:
            return Text(
                N_("{player} leads with {treasure} in one throw: one throw each now"), params
            )
        return Text(
            NP_(
                "{player} leads with {treasure} in {throws} throw: {throws} throw each now",
                "{player} leads with {treasure} in {throws} throws: {throws} throws each now",
            ),
            params,
            count="throws",
        )

    def _outcome_line(self, state: NavioState, outcome: RoundOutcome) -> Text:
        params: dict[str, object] = {"round": outcome.round, "pot": outcome.pot}
        if outcome.winner is not None:
            params["player"] = state.players[outcome.winner]
            params["treasure"] = outcome.treasure
        if outcome.result == "walkover":
            return Text(
                N_("{player} is the only one able to ante and takes the pot of {pot}"), params
            )
        if outcome.result == "no_qualifier":
            return Text(
                N_("Nobody has ship, captain and crew: round {round} is played again"), params
            )
        if outcome.result == "tie":
            return Text(N_("The best treasures tie: round {round} is played again"), params)
        if state.options.mode == "stakes":
            return Text(N_("{player} wins round {round} and the pot of {pot}"), params)
        return Text(N_("{player} wins round {round}"), params)

    def _opening_lines(self, state: NavioState) -> list[Text]:
        lines = [
            Text(
                N_("Round {round} of {rounds}: {player} starts"),
                {
                    "round": state.round,
                    "rounds": state.options.rounds,
                    "player": state.players[state.starter],
                },
            )
        ]
        if state.anted:
            lines.append(
                Text(
                    N_("{players} ante {ante} each: the pot holds {pot}"),
                    {"players": names(state, state.playing), "ante": state.anted, "pot": state.pot},
                )
            )
        elif state.options.mode == "stakes":
            lines.append(
                Text(
                    N_("Nobody can ante again: {players} replay for the pot of {pot}"),
                    {"players": names(state, state.playing), "pot": state.pot},
                )
            )
        for seat in state.sitting_out:
            lines.append(
                Text(
                    N_("{player} cannot pay the ante and sits this round out"),
                    {"player": state.players[seat]},
                )
            )
        return lines
