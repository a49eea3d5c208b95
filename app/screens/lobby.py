"""The lobby: choose a game, seat the players, set the options, start or resume."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Footer, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from rules import N_, InvalidOptions

from .. import saves
from ..catalog import game_info
from ..games import SEAT_KINDS, SeatKind, playable
from ..i18n import _
from ..widgets.choice import Choice
from ..widgets.options_form import OptionsForm, SteadyInput
from .quiet import QuietScreen
from .rules import rule_card

if TYPE_CHECKING:
    from ..main import CubileteApp
    from ..table import Seat

DEFAULT_NAMES = ("Ana", "Bruno", "Carla", "Diego", "Elena", "Facundo", "Gabriela", "Hugo")
MAX_SEATS = 8
KIND_LABELS: dict[str, str] = {
    "human": N_("Human"),
    "easy": N_("Easy bot"),
    "medium": N_("Medium bot"),
    "expert": N_("Expert bot"),
}


def blurb(game_id: str) -> str:
    """The first paragraph of a game's rule card."""
    paragraphs = [p for p in rule_card(game_id).split("\n\n") if not p.startswith("#")]
    return " ".join(paragraphs[0].split()).replace("**", "") if paragraphs else ""


class LobbyScreen(QuietScreen[None]):
    """The app's first screen. It is drawn from plain data (the catalogue, the rule cards):
    no game's rules are loaded until a game starts or a save is read.

    Its style sheet is the app's (`CubileteApp.CSS_PATH`), so it is in place before the first
    paint when the lobby is the app's default screen.
    """

    AUTO_FOCUS = "#game-list"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "start", _("Start"), id="start"),
        Binding("f3", "resume", _("Resume"), id="resume"),
        Binding("ctrl+q", "app.quit", _("Quit"), id="quit"),
    ]

    def __init__(self, game_id: str | None = None) -> None:
        super().__init__()
        self.sub_title = _("Lobby")
        self.game_ids = playable()
        self.first_game = self.game_ids.index(game_id) if game_id in self.game_ids else 0
        self.resumable: list[saves.SavedGame] = []
        self.save_errors: list[saves.SaveError] = []
        self.shown_game: str | None = None
        self.shown_before = False
        self.rebuilding = 0
        """Rebuilds of the seats or the options form under way (they await their widgets)."""
        self.rebuilt = asyncio.Event()
        self.rebuilt.set()
        self.names = list(DEFAULT_NAMES)
        self.kinds: list[SeatKind] = ["human"] * MAX_SEATS

    @property
    def cubilete(self) -> CubileteApp:
        return cast("CubileteApp", self.app)

    @property
    def game_id(self) -> str:
        index = self.query_one("#game-list", OptionList).highlighted or 0
        return self.game_ids[index]

    def compose(self) -> ComposeResult:
        first = self.game_ids[self.first_game]
        choices = self.player_choices(first)
        count = min(max(2, choices[0]), choices[-1])
        self.shown_game = first
        yield Header()
        with Horizontal(id="lobby-area"):
            with Vertical(id="games"):
                yield Label(_("Game"), classes="section")
                yield OptionList(
                    *(Option(game_info(g).name, id=g) for g in self.game_ids), id="game-list"
                )
                yield Static(blurb(first), id="game-blurb")
            with VerticalScroll(id="setup", can_focus=False):
                yield Label(_("Players"), classes="section")
                with Horizontal(classes="option-row"):
                    yield Label(_("How many"), classes="option-label")
                    yield Choice([(str(n), n) for n in choices], value=count, id="player-count")
                with Vertical(id="seats"):
                    yield from self.seat_inputs(0, count)
                yield Static(id="lobby-error", classes="-empty")
                yield Label(_("Options"), classes="section")
                with Vertical(id="options"):
                    yield OptionsForm(game_info(first).options, id="options-form")
        notices = self.notices()
        yield Static(notices, id="notices", classes="-error" if self.save_errors else "")
        with Horizontal(id="lobby-buttons"):
            yield Button(_("Start (F2)"), id="start", variant="primary", compact=True)
            yield Button(_("Resume (F3)"), id="resume", compact=True, disabled=not self.resumable)
            yield Button(_("Rules (F1)"), id="rules", compact=True)
            yield Button(_("Quit"), id="quit", compact=True)
        yield Footer()

    def seat_inputs(self, start: int, stop: int) -> list[Horizontal]:
        """A row per seat: the player's name, and who plays it (a person or a bot)."""
        return [
            Horizontal(
                SteadyInput(
                    self.names[seat],
                    id=f"seat-{seat + 1}",
                    compact=True,
                    placeholder=_("Name of player {n}").format(n=seat + 1),
                    max_length=16,
                ),
                Choice(
                    [(_(KIND_LABELS[kind]), kind) for kind in SEAT_KINDS],
                    value=self.kinds[seat],
                    id=f"kind-{seat + 1}",
                ),
                classes="seat-row",
            )
            for seat in range(start, stop)
        ]

    @staticmethod
    def player_choices(game_id: str) -> list[int]:
        game = game_info(game_id)
        return list(range(game.min_players, min(game.max_players, MAX_SEATS) + 1))

    def on_mount(self) -> None:
        self.query_one("#game-list", OptionList).highlighted = self.first_game

    def on_screen_resume(self) -> None:
        """Back from a game: offer that game again, and read the saves again (the game just
        left can be resumed; a finished one is gone)."""
        if not self.shown_before:
            self.shown_before = True
            return  # the first showing: compose() has just read them
        self.show_notices()
        game_id = self.cubilete.last_game
        if game_id in self.game_ids:
            self.query_one("#game-list", OptionList).highlighted = self.game_ids.index(game_id)

    # -- saves ----------------------------------------------------------------------------
    def show_notices(self) -> None:
        notices = self.query_one("#notices", Static)
        notices.update(self.notices())
        notices.set_class(bool(self.save_errors), "-error")
        self.query_one("#resume", Button).disabled = not self.resumable

    def notices(self) -> str:
        """Read the saves: what can be resumed, and what cannot be read."""
        self.resumable, self.save_errors = saves.scan()
        lines = []
        if self.resumable:
            lines.append(_("Unfinished: {game}").format(game=self.resumable[0].summary()))
        for error in self.save_errors:
            lines.append(
                _("⚠ Cannot read save {path}: {reason}. It was left as it is.").format(
                    path=error.path, reason=error.reason
                )
            )
        return "\n".join(lines)

    # -- game choice ----------------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#game-list")
    async def on_game_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            await self.show_game(event.option.id)

    @on(OptionList.OptionSelected, "#game-list")
    def on_game_selected(self) -> None:
        self.query_one("#seat-1", Input).focus()

    async def show_game(self, game_id: str) -> None:
        with self.rebuild():
            await self._show_game(game_id)

    @contextlib.contextmanager
    def rebuild(self) -> Iterator[None]:
        """Counts a rebuild of the seats or the form while it awaits its widgets."""
        self.rebuilding += 1
        self.rebuilt.clear()
        try:
            yield
        finally:
            self.rebuilding -= 1
            if not self.rebuilding:
                self.rebuilt.set()

    async def _show_game(self, game_id: str) -> None:
        if game_id == self.shown_game:
            return
        self.shown_game = game_id
        self.query_one("#game-blurb", Static).update(blurb(game_id))
        count: Choice[int] = self.query_one("#player-count", Choice)
        current = count.value
        choices = self.player_choices(game_id)
        count.set_options([(str(n), n) for n in choices])
        count.value = min(max(current, choices[0]), choices[-1])
        await self.show_seats(count.value)
        options = self.query_one("#options", Vertical)
        await options.remove_children()
        await options.mount(OptionsForm(game_info(game_id).options, id="options-form"))
        self.show_error("")

    @on(Choice.Changed, "#player-count")
    async def on_count_changed(self, event: Choice.Changed[Any]) -> None:
        if isinstance(event.value, int):
            with self.rebuild():
                await self.show_seats(event.value)

    @on(Choice.Changed, "#seats Choice")
    def on_kind_changed(self, event: Choice.Changed[Any]) -> None:
        seat = int((event.choice.id or "kind-1").removeprefix("kind-")) - 1
        if event.value in SEAT_KINDS:
            self.kinds[seat] = cast(SeatKind, event.value)

    @on(Input.Changed, "#seats Input")
    def on_name_changed(self, event: Input.Changed) -> None:
        seat = int((event.input.id or "seat-1").removeprefix("seat-")) - 1
        self.names[seat] = event.value

    async def show_seats(self, count: int) -> None:
        """One name input per seat; names typed and then hidden come back with their seat."""
        rows = list(self.query("#seats .seat-row").results(Horizontal))
        if len(rows) < count:
            await self.query_one("#seats").mount_all(self.seat_inputs(len(rows), count))
        for extra in rows[count:]:
            await extra.remove()

    # -- actions --------------------------------------------------------------------------
    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "start": self.action_start,
            "resume": self.action_resume,
            "rules": self.cubilete.action_rules,
            "quit": self.cubilete.exit,
        }
        actions[event.button.id or "start"]()

    @on(Input.Submitted)
    def on_name_submitted(self) -> None:
        self.action_start()

    def seats(self) -> list[Seat]:
        from ..table import Seat

        count = cast(int, self.query_one("#player-count", Choice).value)
        return [
            Seat(name=self.query_one(f"#seat-{n + 1}", Input).value.strip(), kind=self.kinds[n])
            for n in range(count)
        ]

    def action_start(self) -> None:
        if self.rebuilding or self.game_id != self.shown_game:
            # keys typed ahead (end, f2 in one burst): start in the lobby's own turn, after the
            # rebuild it is doing or has queued, with the chosen game's form on the screen
            self.call_later(self.start_when_shown)
        else:
            self.start()

    async def start_when_shown(self) -> None:
        await self.rebuilt.wait()
        await self.show_game(self.game_id)
        self.start()

    def start(self) -> None:
        form = self.query_one(OptionsForm)
        game_id = self.shown_game or self.game_id  # the game whose form is on the screen
        try:
            self.cubilete.start_game(game_id, self.seats(), form.values())
        except InvalidOptions as problem:
            form.show_errors(problem.problems)
            seat_problems = [why for name, why in problem.problems if name == "players"]
            self.show_error(
                "\n".join(f"⚠ {why}" for why in seat_problems) or _("⚠ Check the options below")
            )

    def show_error(self, text: str) -> None:
        error = self.query_one("#lobby-error", Static)
        error.update(text)
        error.set_class(not text, "-empty")

    def action_resume(self) -> None:
        if self.resumable:
            self.cubilete.resume_game(self.resumable[0])
