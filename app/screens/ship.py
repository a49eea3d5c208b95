"""The table both Ship-Captain-Crew games are played at: the tray, the round-by-round sheet.

`BarcoScreen` and `NavioScreen` differ only by their words, whether crew dice can be picked one
at a time (barco) or are always thrown as a pair (navio), their caption and their sheet. The
turn itself, the refusals and the notes under the tray are shared here, as the rules share
`rules.ship`.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import ClassVar, NamedTuple, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from rules import C_, N_, NP_, Text
from rules.ship import FACE_OF_SLOT, SLOTS, Hand, Reason, Reroll, Roll, ShipState, Stop

from ..host import Moved
from ..i18n import Late, _, ntr, tr
from ..quiet.table_talk import TableTalk
from ..table import Table
from ..widgets import words
from ..widgets.plain import cells, pad, plain
from ..widgets.scoresheet import Scoresheet, SheetView
from ..widgets.ship.ship_tray import PLACES, SCORING, ShipTray, TrayView
from .game import GameScreen

ALL_DICE = tuple(range(PLACES + SCORING))


class ShipScreen(GameScreen):
    CSS_PATH: ClassVar[list[str | PurePath]] = ["game.tcss", "ship.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "throw", C_("verb", "Throw"), id="throw"),
        Binding("r", "throw", C_("verb", "Throw"), show=False, id="throw-r"),
        Binding("s", "stop", C_("verb", "Stop"), id="stop"),
    ]
    PLAY_KEYS: ClassVar[tuple[str, ...]] = ("throw", "stop", "pick")

    back_words: ClassVar[BackWords]
    """Why dice went back into the cup, in this game's words."""
    throwing_for: ClassVar[str]
    """What the status line says while a bot throws for the three places: {player}."""
    pickable: ClassVar[bool] = False
    """Barco: each crew die may be thrown again alone, so the player picks which."""

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.picked: set[int] = set()
        self._picks_for: tuple[int, int] | None = None
        self.last_hands: dict[int, Hand] = {}
        """Each player's last finished turn, shown beside the sheet until their next one (a
        resumed game's, from its record: as if the player had never left)."""
        if any(event.kind == "action" for event in table.events):
            from ..records.replay import last_turns

            self.last_hands = last_turns(table.record)

    @property
    def state(self) -> ShipState:
        return cast(ShipState, self.table.state)

    # -- what each game says --------------------------------------------------------------
    def place_labels(self) -> tuple[str, str, str]:
        """What the three places are called (marked words: shown in the player's language)."""
        raise NotImplementedError

    def scoring_label(self) -> str:
        """What the two scoring dice are called on the tray (Crew, Treasure), marked."""
        raise NotImplementedError

    def place_word(self, place: int) -> str:
        """A place's name inside a sentence ("the ship is a 6")."""
        return _(self.place_labels()[place]).lower()

    def caption(self, hand: Hand) -> str:
        """The tray's first line: whose turn, which round, which throw, the pot."""
        raise NotImplementedError

    def qualified_prompt(self, hand: Hand) -> str:
        raise NotImplementedError

    def turn_summary(self, hand: Hand) -> str:
        """One line about a finished turn, shown until the next player throws."""
        raise NotImplementedError

    def turn_result(self, hand: Hand) -> str:
        """A finished turn's outcome in a few characters (its score; navio: "out")."""
        return str(hand.score)

    def table_notes(self) -> list[str]:
        """Lines about the table under the tray (navio: the roll limit)."""
        return []

    def sheet_view(self) -> SheetView:
        raise NotImplementedError

    # -- layout -----------------------------------------------------------------------------
    def compose_play(self) -> ComposeResult:
        yield ShipTray(
            self.place_labels(),
            self.scoring_label(),
            numbered=self.pickable,
            animate=self.cubilete.animate_dice,
            id="tray",
        )

    def compose_side(self) -> ComposeResult:
        sheet = words(Scoresheet(id="sheet"), N_("Scoresheet"))
        sheet.can_focus = False  # nothing to choose on it: the keys act on the tray
        yield sheet
        last = words(Static(id="last-throws", markup=False), N_("Last throws"))
        last.add_class("-empty")
        yield last

    # -- drawing --------------------------------------------------------------------------
    def prompt(self) -> str:
        hand = self.state.hand
        if hand is None:
            return _("The game is over")
        player = self.state.players[hand.seat]
        if hand.throws == 0:
            return _("{player}: throw all five dice (space or Throw)").format(player=player)
        if not hand.qualified:
            left = NP_(
                "{player}: throw {count} dice (space) · {n} throw left",
                "{player}: throw {count} dice (space) · {n} throws left",
            )
            return ntr(left, hand.throws_left, player=player, count=hand.in_cup)
        return self.qualified_prompt(hand)

    def bot_doing(self, bot: str) -> str:
        hand = self.state.hand
        if hand is None or not hand.qualified:
            return tr(self.throwing_for, player=bot)
        return _("{player} (bot) has {score}: stop, or throw again?").format(
            player=bot, score=hand.score
        )

    # -- the keys that work now -----------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Space, s and the picks show (and work) only in a person's turn, and s and the
        picks once ship, captain and crew are aside."""
        hand = self.state.hand
        if action == "throw":
            return self.persons_turn()
        if action in ("stop", "pick"):
            return self.persons_turn() and hand is not None and hand.qualified
        return super().check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        """A play key pressed while its binding is off: say why it does nothing."""
        if event.key in ("space", "r", "s") and not self.persons_turn():
            event.stop()
            self.human_turn()
        elif event.key == "s" and self.state.hand is not None:
            event.stop()
            self.stop()

    def refresh_view(self, rolled: tuple[int, ...] = ()) -> None:
        state = self.state
        hand = state.hand
        picks_for = (state.turns_played, hand.throws) if hand is not None else None
        if picks_for != self._picks_for:
            self.picked = set()
            self._picks_for = picks_for
        tray = self.query_one(ShipTray)
        tray.show(self.tray_view(), self.just_thrown() if rolled else ())
        self.query_one(Scoresheet).show(self.sheet_view())
        if state.last_turn is not None:
            self.last_hands[state.last_turn.seat] = state.last_turn
        lines = self.last_throw_lines()
        last = self.query_one("#last-throws", Static)
        shown = plain(*lines)  # (each line names a player)
        if last.content != shown:
            last.update(shown)
        last.set_class(not lines, "-empty")
        # The notes under the tray grow and shrink the log: keep its newest lines in view.
        self.call_after_refresh(self.query_one("#log", TableTalk).scroll_end, animate=False)

    def tray_view(self) -> TrayView:
        state = self.state
        hand = state.hand
        if hand is None:
            last = state.last_turn
            return TrayView(
                caption=_("Game over"),
                places=places(last) if last else (None,) * PLACES,
                scoring=scoring(last) if last else (None,) * SCORING,
                notes=tuple(self.notes()),
            )
        return TrayView(
            caption=self.caption(hand),
            places=places(hand),
            scoring=scoring(hand),
            picked=tuple(sorted(self.picked)),
            can_throw=self.persons_turn(),
            can_stop=hand.qualified and self.persons_turn(),
            notes=tuple(self.notes()),
        )

    def last_throw_lines(self) -> list[str]:
        """Each player's last finished turn: ship, captain and third man, then the scoring
        dice and what they made ("Ana    6 5 4  3 3    6"), or, missing one of the three,
        the dice of the last throw that went back ("Bruno  6 5 ·  ↩ 3 2 1    0")."""
        names = self.state.players
        width = max(min(cells(name), 8) for name in names)  # (in cells: 王 takes two)
        parts = []
        for seat in sorted(self.last_hands):
            hand = self.last_hands[seat]
            aside = " ".join(str(face) if face else "·" for face in places(hand))
            if hand.qualified:
                rest = " ".join(str(face) for face in hand.scoring)
            else:
                rest = "↩ " + " ".join(str(die.face) for die in hand.last if die.slot is None)
            parts.append((pad(names[seat], width), aside, rest, self.turn_result(hand)))
        rest_width = max((len(rest) for _name, _aside, rest, _result in parts), default=0)
        return [
            f"{name}  {aside}  {rest.ljust(rest_width)}  {result:>3}"
            for name, aside, rest, result in parts
        ]

    def notes(self) -> list[str]:
        """What the tray says under its buttons: the roll-off, the last throw, the table.

        Why dice went back into the cup is said only under the throw it explains: once the
        next turn begins (or the game ends) that throw is no longer on the tray."""
        state = self.state
        hand = state.hand
        lines: list[str] = []
        if hand is not None and hand.throws:
            lines.append(self.throw_line(hand))
            lines.extend(reasons_line(hand, self.back_words))
        elif state.turns_played == 0:
            lines.extend(rolloff_lines(state))
        elif state.last_turn is not None:
            lines.append(self.turn_summary(state.last_turn))
        if hand is not None:
            lines.extend(self.table_notes())
        return lines

    def throw_line(self, hand: Hand) -> str:
        """The last throw: what was set aside (ship, captain, third man, in that order), what
        went back, what the scoring dice make."""
        thrown = hand.last
        kept = [str(die.face) for slot in SLOTS for die in thrown if die.slot is slot]
        back = [str(die.face) for die in thrown if die.reason is not None]
        parts = []
        if kept:
            parts.append(_("kept {faces}").format(faces=" ".join(kept)))
        if back:
            parts.append(_("back in the cup {faces}").format(faces=" ".join(back)))
        if any(die.scoring is not None for die in thrown):
            parts.append(
                _("{dice} {faces} = {score}").format(
                    dice=_(self.scoring_label()).lower(),
                    faces=" + ".join(str(face) for face in hand.scoring),
                    score=hand.score,
                )
            )
        return _("Throw {n}: {what}").format(n=hand.throws, what=" · ".join(parts))

    def just_thrown(self) -> tuple[int, ...]:
        """Tray positions filled by the last throw of the turn being played (to animate)."""
        hand = self.state.hand
        if hand is None or not hand.last:
            return ()
        positions = []
        for die in hand.last:
            if die.slot is not None:
                positions.append(SLOTS.index(die.slot))
            elif die.scoring is not None:
                positions.append(PLACES + die.scoring)
        return tuple(positions)

    def final_sheet(self) -> SheetView:
        return self.sheet_view()

    def rolled(self, move: Moved) -> tuple[int, ...]:
        """A person's throw tumbles the dice it filled (`just_thrown`); a bot's lands still."""
        return ALL_DICE if not move.by_bot and isinstance(move.action, Roll | Reroll) else ()

    # -- input ----------------------------------------------------------------------------
    def action_throw(self) -> None:
        self.throw()

    @on(ShipTray.ThrowRequested)
    def on_throw_requested(self) -> None:
        self.throw()

    def throw(self) -> None:
        hand = self.state.hand
        if hand is None or not self.human_turn():
            return
        self.query_one(ShipTray).finish_animation()
        if not hand.qualified:
            self.play(Roll())
        elif not self.pickable:
            self.play(Reroll(dice=(0, 1)))
        elif not self.picked:
            self.say(Text(self.nothing_picked()), error=True)
        else:
            self.play(Reroll(dice=tuple(sorted(self.picked))))

    def nothing_picked(self) -> str:
        """Why a throw needs crew dice picked first (marked words)."""
        return ""

    def action_stop(self) -> None:
        self.stop()

    @on(ShipTray.StopRequested)
    def on_stop_requested(self) -> None:
        self.stop()

    def stop(self) -> None:
        if self.state.hand is not None and self.human_turn():
            self.play(Stop())

    @on(ShipTray.ScoringDieClicked)
    def on_scoring_die_clicked(self, event: ShipTray.ScoringDieClicked) -> None:
        self.pick(event.position)

    def pick(self, position: int) -> None:
        """Barco picks crew dice one by one; navio explains that its treasure goes as a pair."""

    @on(ShipTray.PlaceClicked)
    def on_place_clicked(self, event: ShipTray.PlaceClicked) -> None:
        face = FACE_OF_SLOT[SLOTS[event.place]]
        aside = N_("The {place} is a {face}: the table sets it aside by itself")
        self.say(Text(aside, {"place": Late(self.place_word, event.place), "face": face}))


# -- helpers for both games ------------------------------------------------------------------
def places(hand: Hand) -> tuple[int | None, ...]:
    return tuple(FACE_OF_SLOT[slot] if filled else None for slot, filled in hand.slots.items())


def scoring(hand: Hand) -> tuple[int | None, ...]:
    return tuple(hand.scoring) if hand.qualified else (None,) * SCORING


def chips(count: int) -> str:
    return ntr(NP_("{n} chip", "{n} chips"), count)


def throws_left(count: int) -> str:
    return ntr(NP_("{n} throw", "{n} throws"), count)


class BackWords(NamedTuple):
    """Why a thrown die went back into the cup, in one game's words (marked messages)."""

    needs_ship: str
    needs_captain: str
    one_ship: str
    one_captain: str
    four_needs_ship: str
    """A 4 thrown with no ship yet: the first missing piece is named (issue 27)."""


def reasons_line(hand: Hand, words: BackWords) -> list[str]:
    """Why dice of the last throw went back into the cup (nothing for the plain misses)."""
    reasons = [
        why_back(die.face, die.reason, words, hand.filled)
        for die in hand.last
        if die.reason is not None
    ]
    unique = [reason for reason in dict.fromkeys(reasons) if reason]
    return [" · ".join("↩ " + reason for reason in unique)] if unique else []


def why_back(face: int, reason: Reason, words: BackWords, filled: int) -> str:
    """Why a thrown die went back into the cup, in the words of the tray: for a 4, the
    first place still empty once the throw is set aside (`filled` places taken)."""
    if reason is Reason.NEEDS_SHIP:
        return _(words.needs_ship)
    if reason is Reason.NEEDS_CAPTAIN:
        return _(words.four_needs_ship if filled == 0 else words.needs_captain)
    if reason is Reason.DUPLICATE:
        if face == FACE_OF_SLOT[SLOTS[0]]:
            return _(words.one_ship)
        return _(words.one_captain)
    return ""


def rolloff_lines(state: ShipState) -> list[str]:
    """The opening roll-off as one line per pass: "Roll-off: Ana 7, Bruno 12 → Ana starts"."""
    rolloff = state.rolloff
    passes = [throws for throws in rolloff.rounds if throws]
    if not passes or rolloff.winner is None:
        return []
    lines = []
    for index, throws in enumerate(passes):
        results = ", ".join(f"{state.players[t.player]} {t.total}" for t in throws)
        title = _("Roll-off") if index == 0 else _("Tie, again")
        lines.append(f"{title}: {results}")
    rule = _("lowest wins") if rolloff.lowest_wins else _("highest wins")
    winner = _("{player} starts").format(player=state.players[rolloff.winner])
    lines[-1] += f" → {winner} ({rule})"
    return lines
