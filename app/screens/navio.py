"""Navio, Capitão & Tripulação at the table: the treasure as a pair, the leader's roll limit."""

from __future__ import annotations

from typing import ClassVar, cast

from rules import C_, N_, Text
from rules.navio import NavioState, RoundOutcome
from rules.ship import Hand

from ..i18n import _
from ..widgets.scoresheet import Cell, SheetRow, SheetView
from .ship import BackWords, ShipScreen, chips, throws_left


class NavioScreen(ShipScreen):
    back_words: ClassVar[BackWords] = BackWords(
        needs_ship=C_("navio", "a 5 needs the ship first"),
        needs_captain=C_("navio", "a 4 needs the captain first"),
        four_needs_ship=C_("navio", "a 4 needs the ship first"),
        one_ship=C_("navio", "one ship is enough: the other 6 goes back"),
        one_captain=C_("navio", "one captain is enough: the other 5 goes back"),
    )
    throwing_for: ClassVar[str] = N_("{player} (bot) is throwing for ship, captain and crew")

    @property
    def state(self) -> NavioState:
        return cast(NavioState, self.table.state)

    # -- words ----------------------------------------------------------------------------
    def place_labels(self) -> tuple[str, str, str]:
        return C_("navio", "Ship"), C_("navio", "Captain"), C_("navio", "Crew")

    def scoring_label(self) -> str:
        return C_("navio", "Treasure")

    def caption(self, hand: Hand) -> str:
        state = self.state
        where = _("round {round} of {rounds}").format(
            round=state.round, rounds=state.options.rounds
        )
        if state.replays:
            where = _("{round}, replayed").format(round=where)
        parts = [state.players[hand.seat], where]
        if hand.throws:
            parts.append(_("throw {n} of {limit}").format(n=hand.throws, limit=hand.limit))
        if state.options.mode == "stakes":
            parts.append(_("pot {chips}").format(chips=state.pot))
        return " · ".join(parts)

    def qualified_prompt(self, hand: Hand) -> str:
        return _("{player}: stop with {score} (s), or throw the treasure again (space)").format(
            player=self.state.players[hand.seat], score=hand.score
        )

    def turn_result(self, hand: Hand) -> str:
        return str(hand.score) if hand.qualified else _("out")

    def turn_summary(self, hand: Hand) -> str:
        player = self.state.players[hand.seat]
        if hand.qualified:
            return _("{player}'s treasure: {score} ({a} + {b}) in {throws}").format(
                player=player,
                score=hand.score,
                a=hand.scoring[0],
                b=hand.scoring[1],
                throws=throws_left(hand.throws),
            )
        return _("{player}: no ship, captain and crew: out of the round").format(player=player)

    def table_notes(self) -> list[str]:
        """The roll limit the round's leader set, and who sits the round out."""
        state = self.state
        hand = state.hand
        lines = []
        if state.limit is not None and hand is not None:
            # the leader's throws are the limit: "in 2" would say it twice
            lines.append(
                _("{player} may use {allowed}: {leader} leads with {treasure}").format(
                    player=state.players[hand.seat],
                    allowed=throws_left(hand.limit),
                    leader=state.players[state.limit.seat],
                    treasure=state.limit.treasure,
                )
            )
        if state.sitting_out:
            lines.append(
                _("Sitting out (no chips for the ante): {players}").format(
                    players=", ".join(state.players[seat] for seat in state.sitting_out)
                )
            )
        return lines

    def pick(self, position: int) -> None:
        if self.state.hand is None:
            return
        pair = N_("The treasure is always thrown as a pair: space (or Throw) throws both")
        self.say(Text(pair), error=True)

    # -- the sheet and the end ------------------------------------------------------------
    def sheet_view(self) -> SheetView:
        return sheet_view(self.state)

    def final_notes(self) -> list[str]:
        return final_notes(self.state)


def sheet_view(state: NavioState) -> SheetView:
    """One row per playing of a round: every treasure (★ the winner's, ✗ out of the round,
    – sitting out, · not played), the pot; then each bankroll.

    The round being played shows every finished turn's treasure, and the treasure of the
    turn being played in brackets (it may still change).
    """
    stakes = state.options.mode == "stakes"
    seats = range(len(state.players))
    columns = (*state.players, _("Pot")) if stakes else state.players
    rows = [outcome_row(index, outcome, state) for index, outcome in enumerate(state.outcomes)]
    hand = state.hand
    if not state.over and hand is not None:
        treasures = {result.seat: result.treasure for result in state.results}
        cells = []
        for seat in seats:
            if seat in treasures:
                treasure = treasures[seat]
                cells.append(Cell("✗" if treasure is None else str(treasure)))
            elif seat == hand.seat and hand.qualified:
                cells.append(Cell(str(hand.score), "potential"))
            elif seat in state.sitting_out:
                cells.append(Cell("–", "empty"))
            else:
                cells.append(Cell("·", "empty"))
        if stakes:
            cells.append(Cell(str(state.pot)))
        label = str(state.round)
        if state.replays:
            label = _("{round} again").format(round=label)
        rows.append(SheetRow("now", label, tuple(cells)))
    if stakes:
        bankrolls = (*(Cell(str(count)) for count in state.chips), Cell(""))
        rows.append(SheetRow("chips", _("Chips"), bankrolls, total=True))
    else:
        points = tuple(Cell(str(points)) for points in state.points)
        rows.append(SheetRow("points", _("Points"), points, total=True))
    current = hand.seat if hand is not None and not state.over else None
    return SheetView(columns, current, tuple(rows), _("Round"), value_width=4)  # ★12, (12)


def outcome_row(index: int, outcome: RoundOutcome, state: NavioState) -> SheetRow:
    """A finished playing of a round: every treasure (★ the winner's, ✗ out, – sitting out),
    the pot it was for. A game saved before the turns were kept shows the winner's only."""
    suffix = {
        "won": "",
        "tie": _("tie"),
        "no_qualifier": _("none"),
        "walkover": _("w/o"),
    }[outcome.result]
    label = f"{outcome.round} {suffix}".strip()
    treasures = {result.seat: result.treasure for result in outcome.results}
    cells = []
    for seat in range(len(state.players)):
        if seat == outcome.winner:
            treasure = "" if outcome.treasure is None else str(outcome.treasure)
            cells.append(Cell("★" + treasure))
        elif seat in treasures:
            kept = treasures[seat]
            cells.append(Cell("✗" if kept is None else str(kept)))
        elif outcome.results:
            cells.append(Cell("–", "empty"))  # sat the round out
        else:
            cells.append(Cell("·", "empty"))
    if state.options.mode == "stakes":
        carried = outcome.result in ("tie", "no_qualifier")
        cells.append(Cell(f"{outcome.pot}→" if carried else str(outcome.pot)))
    return SheetRow(f"playing-{index + 1}", label, tuple(cells))


def final_notes(state: NavioState) -> list[str]:
    """Rounds won, replays, and in stakes mode what each bankroll won or lost."""
    names = state.players
    lines = [
        _("Rounds won: {wins}").format(
            wins=", ".join(f"{name} {won}" for name, won in zip(names, state.points, strict=True))
        )
    ]
    replays = sum(outcome.result in ("tie", "no_qualifier") for outcome in state.outcomes)
    if replays:
        lines.append(_("Rounds played again: {n}").format(n=replays))
    for outcome in state.outcomes:
        if outcome.result == "walkover" and outcome.winner is not None:
            lines.append(
                _("{player} was the last able to ante and took the pot of {pot}").format(
                    player=names[outcome.winner], pot=chips(outcome.pot)
                )
            )
    if state.options.mode == "stakes":
        bankroll = state.options.bankroll
        net = ", ".join(
            f"{name} {count - bankroll:+d}" for name, count in zip(names, state.chips, strict=True)
        )
        lines.append(
            _("Against the bankroll of {bankroll}: {net}").format(bankroll=bankroll, net=net)
        )
    return lines
