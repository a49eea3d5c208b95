"""Barco, Capitán y Tripulación at the table: pick crew dice to throw again, points by round."""

from __future__ import annotations

from typing import ClassVar, cast

from textual import events
from textual.binding import Binding, BindingType

from rules import C_, N_, NP_, Text
from rules.barco import BarcoState
from rules.ship import Hand

from ..i18n import _
from ..widgets.scoresheet import Cell, SheetRow, SheetView
from ..widgets.ship.ship_tray import ShipTray
from .ship import BackWords, ShipScreen, chips


class BarcoScreen(ShipScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick(0)", N_("Pick"), key_display="1-2", id="pick"),
        Binding("2", "pick(1)", N_("Pick"), show=False, id="pick-2"),
    ]
    pickable: ClassVar[bool] = True
    back_words: ClassVar[BackWords] = BackWords(
        needs_ship=C_("barco", "a 5 needs the ship first"),
        needs_captain=C_("barco", "a 4 needs the captain first"),
        four_needs_ship=C_("barco", "a 4 needs the ship first"),
        one_ship=C_("barco", "one ship is enough: the other 6 goes back"),
        one_captain=C_("barco", "one captain is enough: the other 5 goes back"),
    )
    throwing_for: ClassVar[str] = N_("{player} (bot) is throwing for ship, captain and pilot")

    @property
    def state(self) -> BarcoState:
        return cast(BarcoState, self.table.state)

    # -- words ----------------------------------------------------------------------------
    def place_labels(self) -> tuple[str, str, str]:
        return C_("barco", "Ship"), C_("barco", "Captain"), C_("barco", "Pilot")

    def scoring_label(self) -> str:
        return C_("barco", "Crew")

    def caption(self, hand: Hand) -> str:
        state = self.state
        player = state.players[hand.seat]
        if state.in_extra_round:
            where = _("extra round {n}").format(n=state.extra_rounds)
        elif state.options.end == "rounds":
            where = _("round {round} of {rounds}").format(
                round=state.round, rounds=state.options.rounds
            )
        else:
            where = _("round {round}, to {target}").format(
                round=state.round, target=state.options.target
            )
        parts = [player, where]
        if hand.throws:
            parts.append(_("throw {n} of {limit}").format(n=hand.throws, limit=hand.limit))
        if state.pot:
            parts.append(_("pot {chips}").format(chips=state.pot))
        return " · ".join(parts)

    def qualified_prompt(self, hand: Hand) -> str:
        player = self.state.players[hand.seat]
        if self.picked:
            text = _("{player}: throw the picked crew dice again (space), or stop with {score} (s)")
        else:
            text = _("{player}: stop with {score} (s), or pick crew dice to throw (1, 2, a click)")
        return text.format(player=player, score=hand.score)

    def nothing_picked(self) -> str:
        return N_("Pick the crew dice to throw again first: 1, 2 or a click (or stop: s)")

    def turn_summary(self, hand: Hand) -> str:
        player = self.state.players[hand.seat]
        if hand.qualified:
            return _("{player} scores {score} (crew {a} + {b})").format(
                player=player, score=hand.score, a=hand.scoring[0], b=hand.scoring[1]
            )
        return _("{player}: no ship, captain and pilot: 0 this round").format(player=player)

    # -- picking crew dice ----------------------------------------------------------------
    def action_pick(self, position: int) -> None:
        self.pick(position)

    def on_key(self, event: events.Key) -> None:  # ShipScreen.on_key runs after this one
        """1 or 2 pressed while picking is off (its key hidden): say why."""
        if event.key in ("1", "2") and not self.check_action("pick", ()):
            event.stop()
            event.prevent_default()
            self.pick(int(event.key) - 1)

    def pick(self, position: int) -> None:
        hand = self.state.hand
        if hand is None or not self.human_turn():
            return
        if not hand.qualified:
            self.say(Text(N_("No crew yet: ship, captain and pilot come first")), error=True)
            return
        self.picked ^= {position}
        self.query_one(ShipTray).finish_animation()
        self.refresh_view()
        if self.picked:
            faces = " ".join(str(hand.scoring[i]) for i in sorted(self.picked))
            picked = NP_(
                "Picked {faces}: space throws it again, s stops with {score}",
                "Picked {faces}: space throws them again, s stops with {score}",
            )
            self.say(Text(picked, {"faces": faces, "score": hand.score, "n": len(self.picked)}))
        else:
            self.say_status()

    # -- the sheet and the end ------------------------------------------------------------
    def sheet_view(self) -> SheetView:
        return sheet_view(self.state)

    def final_notes(self) -> list[str]:
        return final_notes(self.state)


def sheet_view(state: BarcoState) -> SheetView:
    """One row per round (extra rounds marked), one column per player, the total, the chips."""
    seats = range(len(state.players))
    current = state.hand.seat if state.hand is not None and not state.over else None
    rows = []
    for index, row in enumerate(state.sheet):
        last = index == len(state.sheet) - 1
        cells = []
        for seat in seats:
            value = row[seat]
            if value is not None:
                cells.append(Cell(str(value)))
            elif last and not state.over and seat in state.playing:
                cells.append(Cell("·", "empty"))
            else:
                cells.append(Cell("–", "empty"))  # not in this extra round
        extra = index - state.regular_rounds
        label = _("Extra {n}").format(n=extra + 1) if extra >= 0 else str(index + 1)
        rows.append(SheetRow(f"round-{index + 1}", label, tuple(cells)))
    totals = tuple(Cell(str(state.total(seat))) for seat in seats)
    rows.append(SheetRow("total", _("Total"), totals, total=True))
    if state.options.stakes:
        won = tuple(Cell(signed(state.chips[seat])) for seat in seats)
        rows.append(SheetRow("chips", _("Chips"), won))
    return SheetView(state.players, current, tuple(rows), _("Round"))


def final_notes(state: BarcoState) -> list[str]:
    """How the game was decided and settled: extra rounds, the pot or who pays whom."""
    lines = []
    if state.extra_rounds:
        lines.append(_("Decided in extra rounds: {n}").format(n=state.extra_rounds))
    for payment in state.settlement:
        payee = state.players[payment.payee]
        if payment.payer is None:
            lines.append(
                _("{player} takes the pot of {chips}").format(
                    player=payee, chips=chips(payment.chips)
                )
            )
        else:
            lines.append(
                _("{payer} pays {payee} {chips}").format(
                    payer=state.players[payment.payer], payee=payee, chips=chips(payment.chips)
                )
            )
    if state.options.stakes:
        net = ", ".join(
            f"{name} {signed(won)}" for name, won in zip(state.players, state.chips, strict=True)
        )
        lines.append(_("Chips won or lost: {net}").format(net=net))
    return lines


def signed(count: int) -> str:
    return f"{count:+d}" if count else "0"
