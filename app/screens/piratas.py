"""Batalla de Piratas at the table: the ring with the dice in its middle, and the two crews.

After a throw, every piece of the side to move shows where it would land (on the board and in
the roster); the player picks one by clicking it (on the board, its landing mark, or its roster
row), by its key (its letter: `c e p s m` in English, each language its own), or by moving the
highlight with the arrows and pressing enter. In the opening only the next piece in order may
move, so it is highlighted and enter moves it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import PurePath
from typing import ClassVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from rules import C_, N_, Text
from rules.piratas import (
    BLUE,
    FORMULAS,
    PIECE_NAMES,
    PIECES,
    RED,
    SIDE_NAMES,
    SQUARES,
    Move,
    MovePreview,
    Piece,
    Piratas,
    PiratasState,
    Roll,
    offset,
    piece_name,
    side_name,
)

from ..host import Moved
from ..i18n import _, current_language, render, tr
from ..table import Table
from ..widgets import words
from ..widgets.piratas.board import (
    ELIMINATES,
    HARBOUR_MARK,
    LANDS,
    PIECE_LETTERS,
    STRIKES,
    Board,
    BoardView,
    Landing,
    LegendRow,
    SquareView,
    letters,
)
from ..widgets.piratas.roster import Roster, RosterMove, RosterRow, RosterSide, RosterView
from .game import GameScreen

DICE = (0, 1)
SIDE_AND_PLAYER = N_("{side} · {player}")
WIDE_ENOUGH_FOR_NAMES = 80
"""Narrower screens leave the pieces' names out of the roster to give the board room."""


class PiratasScreen(GameScreen):
    CSS_PATH: ClassVar[list[str | PurePath]] = ["game.tcss", "piratas.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "throw", C_("verb", "Throw"), id="throw"),
        Binding("r", "throw", C_("verb", "Throw"), show=False, id="throw-r"),
        # the key bar shows the pieces' letters of the language in use (`piece_key`'s second
        # parameter); each letter of any language is bound, and works in its own language
        *(
            Binding(
                keys[PIECES[0]],
                f"piece_key('{keys[PIECES[0]]}', '{code}')",
                N_("Piece"),
                key_display=" ".join(keys[piece] for piece in PIECES),
                id="move-piece" if code == "en" else f"move-piece-{code}",
            )
            for code, keys in PIECE_LETTERS.items()
        ),
        *(
            Binding(key, f"piece_key('{key}')", N_("Piece"), show=False)
            for key in sorted({keys[piece] for keys in PIECE_LETTERS.values() for piece in PIECES})
        ),
        Binding("up", "cursor(-1)", N_("Previous piece"), show=False, id="piece-up"),
        Binding("down", "cursor(1)", N_("Next piece"), show=False, id="piece-down"),
        Binding("enter", "move_highlighted", C_("verb", "Move"), id="move-highlighted"),
    ]
    PLAY_KEYS: ClassVar[tuple[str, ...]] = (
        "throw",
        *(f"move-piece-{code}" if code != "en" else "move-piece" for code in PIECE_LETTERS),
        "move-highlighted",
    )
    COACH_PLACE: ClassVar[str] = "own"  # in the crews' place beside the board

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.chosen: dict[int, Piece] = {}
        """Each side's piece last chosen after the opening: the highlight starts there."""

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
            yield Board(animate=self.cubilete.animate_dice, id="board")
            with Vertical(id="crews"):
                yield words(Roster(id="roster"), N_("Crews"))
                yield Static(self.key_text(), id="key")
            # the board leaves no rows for the coach under it: it opens in the crews' place
            # (the board marks every landing, and the coach lists every move in words)
            yield self.new_coach_panel()

    def retranslate(self) -> None:
        super().retranslate()
        self.query_one("#key", Static).update(self.key_text())

    @staticmethod
    def key_text() -> Content:
        """What the letters and marks on the board mean (⌂: squares 15 and 0)."""
        return Content.from_markup(
            _(
                "[b $text-primary]C3[/] blue, [b $text-error]c3[/] red: 3 lives\n"
                "◇ lands · [b $text-warning]⚔[/] strikes\n"
                "[b $text-warning]☠[/] eliminates"
            )
        ) + Content(f" · {HARBOUR_MARK} " + _("harbours"))

    # -- words ----------------------------------------------------------------------------
    def side_and_player(self, side: int) -> str:
        return tr(SIDE_AND_PLAYER, side=side_name(side), player=self.state.players[side])

    def extra_throw(self) -> bool:
        """The side to move struck with its last move and has yet to throw again."""
        return self.state.throws_again and self.state.stage == "roll"

    def prompt(self) -> str:
        state = self.state
        if state.winner is not None:
            return _("The game is over")
        side = self.side_and_player(state.side)
        if state.stage == "roll":
            if self.extra_throw():
                return _("Strike! {side} throws again: space or r").format(side=side)
            return _("{side}: throw with space, r or Throw").format(side=side)
        piece = self.cursor
        if piece is None:
            return ""
        move = render(self.game.describe_action(state, Move(piece=piece)))
        # (what enter does: the highlighted piece's move, which its letter also makes at
        # once; one line at 80 columns, so that the log keeps its lines)
        if state.in_opening:
            return _("{side}, opening: {move} · enter or its letter moves it").format(
                side=side, move=move
            )
        return _("{side}: {move} · enter moves it").format(side=side, move=move)

    def bot_doing(self, bot: str) -> str:
        state = self.state
        side = _(SIDE_NAMES[state.side])
        if state.stage == "roll":
            return _("{side} · {player} (bot) is throwing").format(side=side, player=bot)
        return _("{side} · {player} (bot) is choosing a piece to move").format(
            side=side, player=bot
        )

    # -- the keys that work now -----------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Space shows (and works) in a person's turn before the throw; the pieces' keys
        and enter after it."""
        if action == "throw":
            return self.persons_turn() and self.state.stage == "roll"
        if action == "piece_key":
            key, *language = parameters
            if language and language[0] != current_language():
                return False  # (another language's letters on the key bar)
            if key not in letters().values():
                return False  # (a letter of another language: nothing here)
        if action in ("move", "move_highlighted", "cursor", "piece_key"):
            return self.persons_turn() and self.state.stage == "move"
        return super().check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        """A play key pressed while its binding is off: its action says why it does
        nothing."""
        key = event.key
        pieces = {letter: piece for piece, letter in letters().items()}
        if key in ("space", "r") and not self.check_action("throw", ()):
            event.stop()
            self.throw()
        elif key in (*pieces, "enter", "up", "down") and not self.check_action("move", ()):
            event.stop()
            if not self.human_turn():
                return
            if key in pieces:
                self.move(pieces[key])
            elif key == "enter":
                self.action_move_highlighted()
            else:
                self.action_cursor(-1 if key == "up" else 1)

    def caption(self, short: bool = False) -> str:
        """The line over the dice: whose turn it is and what happens now (`short`: naming
        the side, not the player)."""
        state = self.state
        who = _(SIDE_NAMES[state.side]) if short else self.side_and_player(state.side)
        if state.winner is not None:
            winner = _(SIDE_NAMES[state.winner]) if short else self.side_and_player(state.winner)
            return _("{side} wins").format(side=winner)
        if state.stage == "roll" and state.opening_moves == 0:
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
        board = board_view(state, previews, cursor, self.caption(), self.hint())
        board = replace(board, short_caption=self.caption(short=True))
        self.query_one(Board).show(board, bool(rolled))
        titles = (self.side_and_player(BLUE), self.side_and_player(RED))
        self.query_one(Roster).show(roster_view(state, previews, cursor, titles))

    def on_resize(self, event: events.Resize) -> None:  # GameScreen.on_resize runs too
        if self.opening_as_the_app_exits:
            return
        self.query_one(Roster).compact = event.size.width < WIDE_ENOUGH_FOR_NAMES

    def focus_default(self) -> None:
        self.query_one(Roster).focus()

    def final_notes(self) -> list[str]:
        return [_("Score: enemy pieces eliminated")]

    def final_board(self) -> Board:
        """The board as the game ended: the last move's square and the winner's words."""
        return FinalBoard(board_view(self.state, {}, None, self.caption(), ""))

    # -- input ----------------------------------------------------------------------------
    def action_throw(self) -> None:
        self.throw()

    @on(Board.ThrowRequested)
    def on_throw_requested(self) -> None:
        self.throw()

    def throw(self) -> None:
        self.query_one(Board).finish_animation()
        self.play(Roll())

    def rolled(self, move: Moved) -> tuple[int, ...]:
        """A person's throw tumbles both dice; a bot's land still."""
        return DICE if not move.by_bot and isinstance(move.action, Roll) else ()

    def action_piece_key(self, key: str, language: str = "") -> None:
        """A piece's letter in the language in use: that piece moves."""
        pieces = {letter: piece for piece, letter in letters().items()}
        if key in pieces:
            self.move(pieces[key])

    def action_move_highlighted(self) -> None:
        piece = self.cursor
        if piece is None:
            if self.state.winner is None:
                self.say(Text(N_("Throw the dice first: space or r")), error=True)
            return
        self.move(piece)

    def action_cursor(self, step: int) -> None:
        movable = list(self.previews)
        if not movable:
            if self.state.winner is None:
                self.say(Text(N_("Throw the dice first: space or r")), error=True)
            return
        if len(movable) == 1:
            only = N_("Opening: only the {piece} may move now")
            self.say(Text(only, {"piece": piece_name(movable[0])}))
            return
        cursor = self.cursor
        assert cursor is not None  # a piece may move, so one is highlighted
        index = movable.index(cursor)
        self.chosen[self.state.side] = movable[(index + step) % len(movable)]
        self.refresh_view()
        self.say_status()

    @on(Board.PieceClicked)
    @on(Roster.PieceClicked)
    def on_piece_clicked(self, event: Board.PieceClicked | Roster.PieceClicked) -> None:
        state = self.state
        if state.winner is None and event.side != state.side:
            turn = Text(
                SIDE_AND_PLAYER,
                {"side": side_name(state.side), "player": self.state.players[state.side]},
            )
            other = Text(
                N_("{turn} moves now, not {side}"), {"side": side_name(event.side), "turn": turn}
            )
            self.say(other, error=True)
            return
        self.move(event.piece)

    def move(self, piece: Piece) -> None:
        self.query_one(Board).finish_animation()
        side, opening = self.state.side, self.state.in_opening
        if self.play(Move(piece=piece)) and not opening:
            self.chosen[side] = piece


def landing_mark(move: MovePreview) -> str:
    if move.eliminates:
        return ELIMINATES
    return STRIKES if move.strikes else LANDS


def board_view(
    state: PiratasState,
    previews: dict[Piece, MovePreview],
    cursor: Piece | None,
    caption: str,
    hint: str,
) -> BoardView:
    """The board for `state`: after a throw, where each piece that may move would land (the
    highlighted one, `cursor`, on a heavy square); with no throw on the table, the last move's
    square and its strike."""
    side = state.side
    landings: dict[int, list[Landing]] = {}
    for piece, move in previews.items():
        landings.setdefault(move.destination, []).append(Landing((side, piece), landing_mark(move)))
    last = None if previews else state.last_move
    struck = None
    if last is not None and last.target is not None:
        struck = (ELIMINATES if last.eliminates else STRIKES, (1 - last.side, last.target))
    squares = tuple(
        SquareView(
            pieces=tuple(
                ((owner, piece), state.token(owner, piece).lives)
                for owner, piece in state.pieces_on(square)
            ),
            landings=tuple(landings.get(square, ())),
            struck=struck if last is not None and last.destination == square else None,
        )
        for square in SQUARES
    )
    heavy: int | None
    if cursor is not None and cursor in previews:
        heavy = previews[cursor].destination
    else:
        heavy = last.destination if last is not None else None
    return BoardView(
        caption=caption,
        hint=hint,
        side=side,
        dice=state.dice or (None, None),
        can_throw=state.winner is None and state.stage == "roll",
        squares=squares,
        cursor=(side, cursor) if cursor is not None and previews else None,
        heavy=heavy,
        legend=tuple(
            LegendRow(
                piece,
                FORMULAS[piece].text,
                None if state.dice is None else offset(piece, *state.dice),
            )
            for piece in PIECES
        ),
    )


def roster_view(
    state: PiratasState,
    previews: dict[Piece, MovePreview],
    cursor: Piece | None,
    titles: tuple[str, str],
) -> RosterView:
    """Both crews, and for the side to move after a throw, where each piece would go."""

    def row(side: int, piece: Piece) -> RosterRow:
        token = state.token(side, piece)
        moving = side == state.side and bool(previews)
        move = previews.get(piece) if side == state.side else None
        shown = None
        if move is not None:
            strike = None
            if move.target is not None:
                mark = ELIMINATES if move.eliminates else STRIKES
                strike = (mark, (1 - side, move.target))
            shown = RosterMove(None if move.offset == 0 else move.destination, strike)
        return RosterRow(
            piece=piece,
            name=_(PIECE_NAMES[piece]),
            lives=token.lives,
            square=token.square,
            move=shown,
            idle=moving and piece not in previews,
            highlighted=moving and piece == cursor,
        )

    return RosterView(
        tuple(
            RosterSide(
                title=titles[side],
                to_move=state.winner is None and side == state.side,
                rows=tuple(row(side, piece) for piece in PIECES),
            )
            for side in (BLUE, RED)
        )
    )


class FinalBoard(Board):
    """The board of a finished game, for the game-over screen: drawn once mounted."""

    def __init__(self, view: BoardView) -> None:
        super().__init__(animate=False, id="board")
        self.final = view

    def on_mount(self) -> None:
        self.show(self.final)
