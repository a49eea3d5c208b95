"""Batalla de Piratas at the table: the ring with the dice in its middle, and the two crews.

After a throw, every piece of the side to move shows where it would land (on the board and in
the roster); the player picks one by clicking it (on the board, its landing mark, or its roster
row), by its key (`c e p s m`), or by moving the highlight with the arrows and pressing enter.
In the opening only the next piece in order may move, so it is highlighted and enter moves it.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import ClassVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from rules.piratas import (
    BLUE,
    PIECE_NAMES,
    PIECES,
    RED,
    SIDE_NAMES,
    Move,
    MovePreview,
    Piece,
    Piratas,
    PiratasState,
    Roll,
)

from ..i18n import _, render
from ..widgets.board import LETTERS, Board
from ..widgets.roster import Roster
from .game import GameScreen

DICE = (0, 1)
WIDE_ENOUGH_FOR_NAMES = 80
"""Narrower screens leave the pieces' names out of the roster to give the board room."""


class PiratasScreen(GameScreen):
    CSS_PATH: ClassVar[list[str | PurePath]] = ["game.tcss", "piratas.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "throw", _("Throw"), id="throw"),
        Binding("r", "throw", _("Throw"), show=False, id="throw-r"),
        Binding("c", "move('captain')", _("Piece"), key_display="c e p s m", id="move-piece"),
        *(
            Binding(LETTERS[piece], f"move('{piece.value}')", _("Piece"), show=False)
            for piece in PIECES[1:]
        ),
        Binding("up", "cursor(-1)", _("Previous piece"), show=False, id="piece-up"),
        Binding("down", "cursor(1)", _("Next piece"), show=False, id="piece-down"),
        Binding("enter", "move_highlighted", _("Move"), id="move-highlighted"),
    ]

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.chosen: dict[int, Piece] = {}
        """Each side's piece last chosen after the opening: the highlight starts there."""
        self.last: MovePreview | None = None
        """The move made last on this screen, kept on the board until the next throw."""

    @property
    def state(self) -> PiratasState:
        return cast(PiratasState, self.table.state)

    @property
    def game(self) -> Piratas:
        return cast(Piratas, self.table.game)

    @property
    def previews(self) -> dict[Piece, MovePreview]:
        """What each piece the side may move would do on the throw on the table."""
        return self.game.preview(self.state)

    @property
    def cursor(self) -> Piece | None:
        """The highlighted piece: the side's last choice while it may move, else the first
        piece that may (in the opening, the only one). None before the throw."""
        previews = self.previews
        chosen = self.chosen.get(self.state.side)
        if chosen in previews:
            return chosen
        return next(iter(previews), None)

    def compose_play(self) -> ComposeResult:
        """The board and the crews side by side, so the status line and the log under them
        have the whole width; the side panel stays empty."""
        with Horizontal(id="board-row"):
            yield Board(animate=self.cubilete.animate, id="board")
            with Vertical(id="crews"):
                roster = Roster(id="roster")
                roster.border_title = _("Crews")
                yield roster
                yield Static(self.key_text(), id="key")

    @staticmethod
    def key_text() -> Content:
        """What the letters and marks on the board mean."""
        return Content.from_markup(
            _(
                "[b $text-primary]C3[/] blue, [b $text-error]c3[/] red: 3 lives\n"
                "◇ lands · [b $text-warning]⚔[/] strikes\n"
                "[b $text-warning]☠[/] eliminates"
            )
        )

    # -- words ----------------------------------------------------------------------------
    def side_and_player(self, side: int) -> str:
        return _("{side} · {player}").format(
            side=_(SIDE_NAMES[side]), player=self.state.players[side]
        )

    def extra_throw(self) -> bool:
        """The side to move struck with its last move and throws again."""
        last, state = self.last, self.state
        return (
            last is not None and last.strikes and last.side == state.side and state.stage == "roll"
        )

    def prompt(self) -> str:
        state = self.state
        if state.winner is not None:
            return _("The game is over")
        if state.stage == "roll":
            if self.extra_throw():
                return _("Strike! {side} throws again: space or r").format(
                    side=self.side_and_player(state.side)
                )
            return _("{side}: throw with space, r or Throw").format(
                side=self.side_and_player(state.side)
            )
        piece = self.cursor
        if piece is None:
            return ""
        move = render(self.game.describe_action(state, Move(piece=piece)))
        if state.in_opening:
            return _("Opening · {move} · enter").format(move=move)
        return move

    def caption(self) -> str:
        """The line over the dice: whose turn it is and what happens now."""
        state = self.state
        who = self.side_and_player(state.side)
        if state.winner is not None:
            return _("{side} wins").format(side=self.side_and_player(state.winner))
        if state.stage == "roll" and state.opening_moves == 0 and self.last is None:
            throws = state.rolloff.rounds[-1]
            faces = {t.player: t.faces[0] for t in throws}
            return _("Roll-off {blue}–{red}: {side} starts").format(
                blue=faces.get(BLUE, "?"), red=faces.get(RED, "?"), side=_(SIDE_NAMES[state.side])
            )
        if state.stage == "roll":
            if self.extra_throw():
                return _("⚔ {side} throws again").format(side=who)
            return _("▸ {side}: throw").format(side=who)
        if state.opening_piece is not None:
            return _("▸ {side}: the {piece}").format(
                side=who, piece=_(PIECE_NAMES[state.opening_piece])
            )
        return _("▸ {side}: choose").format(side=who)

    def hint(self) -> str:
        state = self.state
        if state.winner is not None:
            return ""
        if state.stage == "roll":
            return _("space · r")
        if state.in_opening:
            return _("enter moves it")
        return _("c e p s m · ↑↓ enter")

    # -- drawing --------------------------------------------------------------------------
    def refresh_view(self, rolled: tuple[int, ...] = ()) -> None:
        state, previews, cursor = self.state, self.previews, self.cursor
        self.query_one(Board).show(
            state, previews, cursor, self.last, self.caption(), self.hint(), bool(rolled)
        )
        self.query_one(Roster).show(state, previews, cursor)

    def on_resize(self, event: events.Resize) -> None:  # GameScreen.on_resize runs too
        self.query_one(Roster).compact = event.size.width < WIDE_ENOUGH_FOR_NAMES

    def focus_default(self) -> None:
        self.query_one(Roster).focus()

    def final_notes(self) -> list[str]:
        return [_("Score: enemy pieces eliminated")]

    def final_board(self) -> Board:
        """The board as the game ended: the last move's square and the winner's words."""
        return FinalBoard(self.state, self.last, self.caption())

    # -- input ----------------------------------------------------------------------------
    def action_throw(self) -> None:
        self.throw()

    @on(Board.ThrowRequested)
    def on_throw_requested(self) -> None:
        self.throw()

    def throw(self) -> None:
        self.query_one(Board).finish_animation()
        self.play(Roll(), DICE)

    def action_move(self, name: str) -> None:
        self.move(Piece(name))

    def action_move_highlighted(self) -> None:
        piece = self.cursor
        if piece is None:
            if self.state.winner is None:
                self.say(_("Throw the dice first: space or r"), error=True)
            return
        self.move(piece)

    def action_cursor(self, step: int) -> None:
        movable = list(self.previews)
        if not movable:
            if self.state.winner is None:
                self.say(_("Throw the dice first: space or r"), error=True)
            return
        if len(movable) == 1:
            self.say(
                _("Opening: only the {piece} may move now").format(piece=_(PIECE_NAMES[movable[0]]))
            )
            return
        index = movable.index(self.cursor)  # type: ignore[arg-type]
        self.chosen[self.state.side] = movable[(index + step) % len(movable)]
        self.refresh_view()
        self.say(self.prompt())

    @on(Board.PieceClicked)
    @on(Roster.PieceClicked)
    def on_piece_clicked(self, event: Board.PieceClicked | Roster.PieceClicked) -> None:
        state = self.state
        if state.winner is None and event.side != state.side:
            self.say(
                _("{turn} moves now, not {side}").format(
                    side=_(SIDE_NAMES[event.side]), turn=self.side_and_player(state.side)
                ),
                error=True,
            )
            return
        self.move(event.piece)

    def move(self, piece: Piece) -> None:
        self.query_one(Board).finish_animation()
        side, opening = self.state.side, self.state.in_opening
        if self.play(Move(piece=piece)) and not opening:
            self.chosen[side] = piece

    def play(self, action, *args, **kwargs) -> bool:  # type: ignore[no-untyped-def]
        """The base's play, remembering a move (a person's or a bot's) to show on the board."""
        previous = self.last
        if isinstance(action, Move):
            self.last = self.previews.get(action.piece)
        played = super().play(action, *args, **kwargs)
        if not played:
            self.last = previous
        return bool(played)


class FinalBoard(Board):
    """The board of a finished game, for the game-over screen: drawn once mounted."""

    def __init__(self, state: PiratasState, last: MovePreview | None, caption: str) -> None:
        super().__init__(animate=False, id="board")
        self.final = (state, last, caption)

    def on_mount(self) -> None:
        state, last, caption = self.final
        self.show(state, {}, None, last, caption, "")
