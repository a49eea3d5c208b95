"""The replay: a game's record stepped through event by event, on the game's own screen.

The tray, sheet or board is the game's screen itself (`screen_class(game)`), shown read-only:
`replay_screen` makes a class of `ReplayScreen` and that screen, whose table holds the state
after the event shown (`ReplayTable`, which refuses every move). ← → step, home and end go to
the start and the end, `m` jumps to the next mistake (a person's decision the coach rates a
mistake or a blunder), `x` exports the record to a file. At a decision the status line says
what was played and the coach's rating and loss; the coach panel (`h`) ranks the options that
were open. The table talk is narrated afresh, in the viewer's language, up to the event shown,
with the coach's ratings in it; at the end, each person's count (average loss, worst decision).

The record is replayed and reviewed in worker threads: a long game takes a moment.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar, cast

from pydantic import BaseModel, ValidationError
from textual.binding import Binding, BindingType

from bots import Rating
from rules import N_, IllegalAction, Text, game_name

from .. import strategy_tables
from ..coach_words import coach_notes, rating_line, talk_with_ratings
from ..dice import LoadedDice
from ..i18n import _, render, tr
from ..quiet.button_row import ButtonRow, RowButton
from ..quiet.table_talk import TableTalk
from ..records.events import Record, RecordError
from ..table import CannotUndo, Seat, Table
from .game import GameScreen

if TYPE_CHECKING:
    from ..records.replay import Step
    from ..records.reviews import ReviewedDecision

REPLAY_ONLY = N_("This is a replay: nothing can be played here")
MISTAKES = (Rating.MISTAKE, Rating.BLUNDER)
LOG_TAIL = 300
"""Lines of table talk written when the replay jumps (the log shows the newest ones)."""
_classes: dict[type[GameScreen], type[ReplayScreen]] = {}


class ReplayTable(Table):
    """A record's table at one event of it, for looking only: every move is refused."""

    @classmethod
    def of(cls, record: Record) -> ReplayTable:
        """The table at the record's first settled state (the roll-off thrown: a game's screen
        shows no state that waits for dice, as the table settles every throw at once).
        RecordError if the record has no valid game."""
        from ..records.replay import game_of, start_state, steps

        try:
            seats = [Seat.model_validate(seat._asdict()) for seat in record.header.seats]
        except ValidationError as error:
            reason = str(error).splitlines()[0]
            raise RecordError(
                N_("the record's seats are not valid ({reason})"), reason=reason
            ) from None
        game = game_of(record.header)
        state = start_state(record.header)
        if game.pending_throw(state) is not None:
            for step in steps(record, state):
                state = step.after
                if game.pending_throw(state) is None:
                    break
            else:
                raise RecordError(N_("the record ends before its game begins"))
        return cls(game, seats, state, LoadedDice(()), header=record.header)

    def act(self, action: BaseModel | Any) -> list[Text | str]:
        raise IllegalAction(REPLAY_ONLY)

    def undo(self) -> list[Text | str]:
        raise CannotUndo(REPLAY_ONLY)

    def undo_target(self) -> int | str:
        return REPLAY_ONLY


def replay_screen(record: Record, source: Path | None = None) -> ReplayScreen:
    """The replay of `record` on its game's screen. RecordError if it has no valid game
    (every event is checked as the replay goes: a bad one is said on the status line)."""
    from ..games import screen_class

    table = ReplayTable.of(record)
    return replay_class(screen_class(record.header.game_id))(table, record, source)


def replay_class(base: type[GameScreen]) -> type[ReplayScreen]:
    """The replay screen of the game whose screen is `base`: `Replay<base>`, made once.

    Textual's type selectors see only the first base (`ReplayScreen`, then `GameScreen`): the
    game's own style sheet names its replay's class beside its screen's
    (`PiratasScreen #side, ReplayPiratasScreen #side`)."""
    cls = _classes.get(base)
    if cls is None:
        css = base.CSS_PATH if isinstance(base.CSS_PATH, list) else [base.CSS_PATH]
        cls = _classes[base] = cast(
            "type[ReplayScreen]",
            type(
                f"Replay{base.__name__}",
                (ReplayScreen, base),
                {"CSS_PATH": [*css, "replay.tcss"], "__module__": __name__},
            ),
        )
    return cls


def export_folder() -> Path:
    """Where exported records go: the Downloads folder if the player has one, else the data
    dir's `exports/`."""
    from platformdirs import user_downloads_path

    from ..locations import data_dir

    downloads = user_downloads_path()
    if downloads.is_dir():
        return downloads
    folder = data_dir() / "exports"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def home_short(path: Path) -> str:
    """A folder as a player reads it: under their home folder, written from ~ ("~/Downloads")."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except (ValueError, RuntimeError):  # (not under home; or no home to be under)
        return str(path)


def export_name(record: Record) -> str:
    header = record.header
    moment = time.strftime("%Y%m%d-%H%M", time.localtime(header.updated))
    return f"{header.game_id}-{moment}-{header.record_id[:8]}.cubilete.json"


def replayed(
    record: Record,
) -> tuple[list[Step], list[list[Text | str]], RecordError | None]:
    """Every step of the record and its table talk (in a thread); and, if an event does not
    replay, why (the steps before it are kept)."""
    from ..records.replay import game_of, narrate, steps

    game = game_of(record.header)
    names = record.header.players
    done: list[Step] = []
    talk: list[list[Text | str]] = []
    try:
        for step in steps(record):
            done.append(step)
            talk.append(narrate(game, step, names))
    except RecordError as error:
        return done, talk, error
    return done, talk, None


class ReplayScreen(GameScreen):
    """The game's own screen, stepping through a record (see the module's doc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Back"), id="close"),
        Binding("left", "step(-1)", N_("Back a move"), key_display="←", id="step-back"),
        Binding("right", "step(1)", N_("Next move"), key_display="→", id="step-on"),
        Binding("home", "go('start')", N_("Start"), id="go-start"),
        Binding("end", "go('end')", N_("End"), id="go-end"),
        Binding("m", "mistake(1)", N_("Next mistake"), id="next-mistake"),
        Binding("M", "mistake(-1)", N_("Previous mistake"), show=False, id="previous-mistake"),
        Binding("x", "export", N_("Export"), id="export"),
    ]
    REPLAY_KEYS: ClassVar[tuple[str, ...]] = (
        "step-on",
        "step-back",
        "next-mistake",
        "go-start",
        "go-end",
        "coach",
        "export",
        "close",
    )
    CSS_PATH: ClassVar[str | list[str | PurePath]] = ["game.tcss", "replay.tcss"]

    def __init__(self, table: Table, record: Record, source: Path | None = None) -> None:
        super().__init__(table)
        self.record = record
        self.source = source
        """The file the record was read from (`cubilete replay FILE`), if any."""
        self.start = table.state
        self.steps: list[Step] | None = None
        self.talk: list[list[Text | str]] = []
        self.problem: RecordError | None = None
        """Why the record stops before its end, if it does (said in the reader's words)."""
        self.decisions: dict[int, ReviewedDecision] | None = None
        """The coach's review of each person's decision, by event number (None: not yet)."""
        self.position = 0
        """Events applied: 0 is the start, len(steps) the end."""
        self.stops: list[int] = []
        """The positions shown: those whose state waits for a decision or is over (a decision
        and the throws it causes are one move, as at the table)."""
        self._written = 0
        """The position the log is written up to."""
        self._talk_shown: list[Text | str] = []
        """The table talk on show, as messages (written again in another language)."""

    # -- set-up -----------------------------------------------------------------------------
    def on_mount(self) -> None:  # GameScreen.on_mount runs too (Textual calls each class's)
        self.call_after_refresh(self.take_the_keys)
        controls = ButtonRow(
            [
                RowButton("go-start", N_("|◂")),
                RowButton("step-back", N_("◂ Back")),
                RowButton("step-on", N_("Next ▸")),
                RowButton("go-end", N_("▸|")),
                RowButton("next-mistake", N_("Mistake (m)")),
                RowButton("export", N_("Export (x)")),
            ],
            id="replay-controls",
        )
        controls.can_focus = False
        self.mount(controls, after="#table-area")
        self.run_worker(self.load(), group="replay")

    def take_the_keys(self) -> None:
        """Every key is the replay's (← → are not the sheet's nor the side panel's), once
        the game screen's own mounting is done; and the title says it is a replay."""
        for widget in self.query("*"):
            widget.can_focus = False
        self.set_focus(None)
        self.sub_title = tr(N_("Replay of {game}"), game=game_name(self.game_id))
        self.refresh_bindings()

    async def load(self) -> None:
        from ..records.replay import start_state

        steps, self.talk, self.problem = await asyncio.to_thread(replayed, self.record)
        game = self.table.game
        self.stops = [0] if game.pending_throw(start_state(self.record.header)) is None else []
        self.stops += [
            number for number, step in enumerate(steps, 1) if game.pending_throw(step.after) is None
        ]
        if not self.stops or (self.problem is not None and self.stops[-1] != len(steps)):
            self.stops.append(len(steps))  # (a bad event: the last good one is shown)
        self.steps = steps
        self.goto(self.stops[0])
        self.run_worker(self.review_all(), group="replay-coach")

    async def review_all(self) -> None:
        from ..records.reviews import reviewed_decisions

        def review(record: Record) -> list[ReviewedDecision]:
            strategy_tables.prepare(self.game_id)  # (the shipped tables, for the coach)
            return reviewed_decisions(record)

        try:
            found = await asyncio.to_thread(review, self.record)
        except (RecordError, KeyError, ValueError):
            found = []  # a record the coach cannot review: the replay goes on without
        self.decisions = {one.seq: one for one in found}
        self.goto(self.position, rewrite=True)

    def coach_notes(self) -> list[Text]:
        """The coach's count of each person's choices over the whole record."""
        decisions = sorted((self.decisions or {}).values(), key=lambda one: one.seq)
        return coach_notes(self.table.players, [(one.seat, one.review) for one in decisions])

    def rated(self, one: ReviewedDecision) -> Text:
        return rating_line(self.table.seats[one.seat].name, one.review)

    # -- what the game screen must not do in a replay ---------------------------------------
    def play(self, action: Any, rolled: tuple[int, ...] = (), by_bot: bool = False) -> bool:
        self.say(Text(REPLAY_ONLY), error=True)
        return False

    def human_turn(self) -> bool:
        self.say(Text(REPLAY_ONLY), error=True)
        return False

    def persons_turn(self) -> bool:
        return False

    def start_play(self) -> None:
        """No bot moves, and the coach is not asked live: the record says what happened."""

    def show_game_over(self) -> None:
        pass

    def focus_default(self) -> None:
        self.set_focus(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("leave", "hurry"):
            return False
        if action == "step":
            step = parameters[0] if parameters else 1
            return bool(self.stops) and (
                self.position > self.stops[0] if step == -1 else self.position < self.stops[-1]
            )
        if action in ("go", "mistake"):
            return self.steps is not None
        if action in ("close", "export", "toggle_coach"):
            return True
        return super().check_action(action, parameters)

    def key_rank(self, binding_id: str | None) -> int:
        keys = self.REPLAY_KEYS
        return keys.index(binding_id) if binding_id in keys else 300

    # -- moving -----------------------------------------------------------------------------
    def goto(self, position: int, rewrite: bool = False) -> None:
        """Show the game after `position` events."""
        if self.steps is None or not self.is_attached:
            return
        position = max(0, min(position, len(self.steps)))
        position = max([stop for stop in self.stops if stop <= position] or self.stops[:1])
        before = self.position
        self.position = position
        self.table.state = self.steps[position - 1].after if position else self.start
        self.table.events = list(self.record.events[:position])
        self.replay_screen_state()
        self.refresh_view()
        if rewrite or position != self.next_stop(before) or self._written != before:
            self.write_talk(max(0, position - LOG_TAIL), position, clear=True)
        else:
            self.write_talk(before, position)
        self.say_status()
        self.refresh_bindings()
        self.update_buttons()
        panel = self.coach_panel()
        if panel is not None and not panel.has_class("-hidden"):
            self.run_worker(self.update_coach(), group="coach-panel", exclusive=True)

    def replay_screen_state(self) -> None:
        """What a game's screen keeps of the moves before (it learns it live, move by move):
        Generala's held dice, each ship player's last turn."""
        state: Any = self.table.state
        if hasattr(self, "hold"):
            self.hold = set(getattr(state, "held", ()))
        if hasattr(self, "last_hands"):
            self.last_hands = {}
            for step in (self.steps or [])[: self.position]:
                last = getattr(step.after, "last_turn", None)
                if last is not None:
                    self.last_hands[last.seat] = last

    @property
    def stop_index(self) -> int:
        return self.stops.index(self.position) if self.position in self.stops else 0

    def next_stop(self, position: int) -> int:
        return next((stop for stop in self.stops if stop > position), position)

    def decision_here(self) -> ReviewedDecision | None:
        """The coach's review of the person's decision that led to the position shown."""
        if not self.decisions:
            return None
        index = self.stop_index
        previous = self.stops[index - 1] if index else 0
        found = [
            self.decisions[seq]
            for seq in range(previous + 1, self.position + 1)
            if seq in self.decisions
        ]
        return found[-1] if found else None

    def update_buttons(self) -> None:
        row = self.query_one("#replay-controls", ButtonRow)
        first, last = (self.stops[0], self.stops[-1]) if self.stops else (0, 0)
        row.set_disabled("go-start", self.position <= first)
        row.set_disabled("step-back", self.position <= first)
        row.set_disabled("step-on", self.position >= last)
        row.set_disabled("go-end", self.position >= last)

    def action_step(self, step: int) -> None:
        if self.stops:
            index = max(0, min(self.stop_index + step, len(self.stops) - 1))
            self.goto(self.stops[index])

    def action_go(self, where: str) -> None:
        if self.stops:
            self.goto(self.stops[0] if where == "start" else self.stops[-1])

    def action_mistake(self, direction: int) -> None:
        """The next (or the previous) person's decision rated a mistake or a blunder."""
        if self.decisions is None:
            self.say(Text(N_("The coach is still reviewing the game…")))
            return
        seqs = sorted(seq for seq, one in self.decisions.items() if one.review.rating in MISTAKES)
        # a decision is shown at the stop it leads to (with the throws it caused)
        shown_at = [min((stop for stop in self.stops if stop >= seq), default=seq) for seq in seqs]
        if direction > 0:
            found = next((stop for stop in shown_at if stop > self.position), None)
        else:
            found = next((stop for stop in reversed(shown_at) if stop < self.position), None)
        if found is None:
            none = (
                N_("No mistake after this move")
                if direction > 0
                else N_("No mistake before this move")
            )
            self.say(Text(none))
            return
        self.goto(found)

    def action_close(self) -> None:
        self.app.pop_screen()

    def action_leave(self) -> None:
        self.action_close()

    def on_button_row_pressed(self, event: ButtonRow.Pressed) -> None:
        if event.row.id != "replay-controls":
            return
        event.stop()
        actions = {
            "go-start": lambda: self.action_go("start"),
            "step-back": lambda: self.action_step(-1),
            "step-on": lambda: self.action_step(1),
            "go-end": lambda: self.action_go("end"),
            "next-mistake": lambda: self.action_mistake(1),
            "export": self.action_export,
        }
        actions[event.button_id]()

    # -- words ------------------------------------------------------------------------------
    def talk_of(self, start: int, end: int) -> list[Text | str]:
        """The table talk of events start+1 to end, with the coach's ratings after the moves
        they rate, as during play."""
        assert self.steps is not None
        events = [
            (step.event.seq, not isinstance(step.move, tuple), self.talk[index])
            for index, step in enumerate(self.steps[start:end], start)
        ]
        ratings = {seq: self.rated(one) for seq, one in (self.decisions or {}).items()}
        return talk_with_ratings(events, ratings)

    def write_talk(self, start: int, end: int, clear: bool = False) -> None:
        lines = self.talk_of(start, end)
        if self.steps is not None and end == len(self.steps) and self.decisions is not None:
            lines += self.coach_notes()
        log = self.query_one("#log", TableTalk)
        if clear:
            log.clear()
            self._talk_shown = []
        self._talk_shown += lines
        for line in lines:
            log.write(render(line))
        self._written = end

    def rewrite_log(self) -> None:
        """The talk shown, written again (in the language now in use)."""
        for log in self.query("#log").results(TableTalk):
            log.clear()
            for line in self._talk_shown:
                log.write(render(line))

    def status(self) -> str:
        if self.steps is None:
            return _("Replaying the record…")
        total = len(self.stops) - 1
        index = self.stop_index
        if index == 0:
            where = tr(N_("The start · {total} moves · → steps on"), total=total)
        else:
            # what happened, as the table talk told it: the move's first narrated line (a
            # decision to throw is told by its throw), never the game's word for the decision
            # to make ("Throw three dice", a button's label and the coach's option, issue 27)
            first = self.stops[index - 1] + 1
            talk = [line for lines in self.talk[first - 1 : self.position] for line in lines]
            what = render(talk[0]) if talk else self.describe(self.steps[first - 1])
            where = tr(N_("Move {n} of {total}: {what}"), n=index, total=total, what=what)
        lines = [where]
        if index:
            one = self.decision_here()
            if one is not None:
                lines.append(render(self.rated(one)))
            elif self.decisions is None:
                lines.append(_("The coach is still reviewing the game…"))
        if self.problem is not None and self.position == self.stops[-1]:
            lines.append(tr(N_("⚠ The record stops here: {problem}"), problem=str(self.problem)))
        return "\n".join(lines)

    def describe(self, step: Step) -> str:
        """An event the table talk says nothing of, in a few words."""
        seat = step.event.seat
        who = self.table.seats[seat].name if seat is not None else "?"
        if isinstance(step.move, tuple):
            faces = " ".join(str(face) for face in step.move)
            return tr(N_("{player} throws {faces}"), player=who, faces=faces)
        action = self.table.game.describe_action(step.before, step.move)
        return tr(N_("{player}: {action}"), player=who, action=action)

    def retranslate(self) -> None:
        super().retranslate()
        self.sub_title = tr(N_("Replay of {game}"), game=game_name(self.game_id))

    # -- the coach --------------------------------------------------------------------------
    async def update_coach(self) -> None:
        """The options open at the decision just shown (its rating is on the status line);
        at any other event, those of the decision to come."""
        panel = self.coach_panel()
        if panel is None or self.steps is None:
            return
        one = self.decision_here()
        if one is not None:
            panel.show_hint(one.review.hint, self.table.seats[one.seat].name)
            return
        await super().update_coach()

    # -- export -----------------------------------------------------------------------------
    def action_export(self) -> None:
        self.run_worker(self.export(), group="export")

    async def export(self) -> Path | None:
        from ..records.files import export_record

        try:
            folder = export_folder()
            path = await asyncio.to_thread(
                export_record, self.record, folder / export_name(self.record)
            )
        except OSError as error:
            self.notify(
                _("Could not export the record: {reason}").format(reason=error.strerror or error),
                severity="error",
                markup=False,
            )
            return None
        self.notify(
            tr(
                N_("Record saved in {folder}:\n{name}"),
                folder=home_short(path.parent),
                name=path.name,
            ),
            markup=False,
            timeout=8,
        )
        return path
