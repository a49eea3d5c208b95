"""The Piratas board and crews draw views the screen builds from the rules' state.

`board_view` and `roster_view` turn a state into what the two widgets show; the widgets draw a
view and nothing else, so they can be shown any position without a game behind them.
"""

from __future__ import annotations

from rich.style import Style
from textual.app import App, ComposeResult
from uihelpers import screen_text

from app.screens.piratas import board_view, roster_view
from app.widgets.piratas.board import (
    ELIMINATES,
    LANDS,
    STRIKES,
    Board,
    BoardView,
    Chunk,
    LegendRow,
    SquareView,
    fitted_hint,
    number_line,
)
from app.widgets.piratas.roster import Roster, RosterRow, RosterSide, RosterView
from rules.piratas import BLUE, PIECES, RED, Move, Piece, Piratas, PiratasState, Roll, Token

game = Piratas()
CAPTAIN, EXPLORER, PARROT, SAILOR, MONKEY = PIECES
TITLES = ("Blue · Ana", "Red · Beto")


def position(
    blue: dict[Piece, tuple[int, int]], red: dict[Piece, tuple[int, int]], dice=None
) -> PiratasState:
    """After the opening, blue to move: piece -> (square, lives); unlisted pieces are out."""

    def crew(pieces: dict[Piece, tuple[int, int]]) -> tuple[Token, ...]:
        return tuple(
            Token(square=pieces[p][0], lives=pieces[p][1])
            if p in pieces
            else Token(square=None, lives=0)
            for p in PIECES
        )

    state = game.new_game(["Ana", "Beto"])
    state = game.apply_chance(game.apply_chance(state, [6]), [1])
    return state.model_copy(
        update={
            "crews": (crew(blue), crew(red)),
            "opening_moves": 10,
            "dice": dice,
            "stage": "roll" if dice is None else "move",
        }
    )


def test_after_a_throw_the_board_marks_every_landing_and_the_highlighted_one_is_heavy():
    state = position({SAILOR: (13, 3), MONKEY: (1, 3)}, {PARROT: (4, 1)}, dice=(6, 2))
    view = board_view(state, game.preview(state), SAILOR, "caption", "hint")
    assert view.squares[4].landings[0].key == (BLUE, SAILOR)
    assert view.squares[4].landings[0].mark == ELIMINATES  # the parrot's last life
    assert view.squares[5].landings[0].mark == LANDS  # the monkey, 1 + |6 - 2|
    assert (view.heavy, view.cursor) == (4, (BLUE, SAILOR))
    assert [(row.formula, row.move) for row in view.legend][3:] == [("→d1", 6), ("→|d1−d2|", 4)]
    assert not view.can_throw


def test_with_no_throw_on_the_table_the_board_shows_the_last_move_and_its_strike():
    state = position({SAILOR: (13, 3)}, {PARROT: (4, 3), CAPTAIN: (9, 3)}, dice=(6, 2))
    struck = game.apply(state, Move(piece=SAILOR))
    view = board_view(struck, game.preview(struck), None, "", "")
    assert view.heavy == 4 and view.cursor is None
    assert view.squares[4].struck == (STRIKES, (RED, PARROT))
    assert view.squares[4].pieces == (((BLUE, SAILOR), 4), ((RED, PARROT), 2))
    assert view.can_throw and view.dice == (6, 2)  # the last throw stays on the table
    thrown = game.apply_chance(game.apply(struck, Roll()), [1, 1])
    assert board_view(thrown, game.preview(thrown), SAILOR, "", "").squares[4].struck is None


def test_the_crews_show_lives_squares_where_each_piece_would_go_and_who_is_out():
    state = position({SAILOR: (13, 3), CAPTAIN: (8, 3)}, {PARROT: (4, 3)}, dice=(2, 2))
    view = roster_view(state, game.preview(state), SAILOR, TITLES)
    blue, red = view.sides
    assert (blue.title, blue.to_move, red.to_move) == ("Blue · Ana", True, False)
    sailor = blue.rows[PIECES.index(SAILOR)]
    assert (sailor.lives, sailor.square, sailor.highlighted) == (3, 13, True)
    assert sailor.move is not None and sailor.move.destination == 15
    assert blue.rows[0].move is not None and blue.rows[0].move.destination is None  # stays: 2 - 2
    assert blue.rows[PIECES.index(EXPLORER)].square is None  # out of the game
    assert all(row.move is None for row in red.rows)


class Widgets(App[None]):
    def compose(self) -> ComposeResult:
        yield Board(animate=False)
        yield Roster()


async def test_the_widgets_draw_a_view_with_no_game_behind_it():
    squares = [SquareView() for _ in range(16)]
    squares[7] = SquareView(pieces=(((BLUE, CAPTAIN), 5), ((RED, MONKEY), 2)))
    board = BoardView(
        caption="Somebody's turn",
        squares=tuple(squares),
        legend=(LegendRow(CAPTAIN, "d2−d1"),),
    )
    rows = (RosterRow(CAPTAIN, "captain", 5, 7),)
    roster = RosterView((RosterSide("Blue · X", True, rows), RosterSide("Red · Y", False, ())))
    app = Widgets()
    async with app.run_test(size=(100, 40)) as pilot:
        app.query_one(Board).show(board)
        app.query_one(Roster).show(roster)
        await pilot.pause()
        drawn = screen_text(app)
        assert "C5" in drawn and "m2" in drawn
        assert "Somebody's turn" in drawn
        assert "▸ Blue · X" in drawn and "C captain ♥5   7" in drawn


def test_a_squares_marks_are_never_cut_on_a_narrow_board():
    number = Chunk("5", Style())
    marks = [Chunk(LANDS, Style()), Chunk("S", Style()), Chunk(LANDS, Style()), Chunk("M", Style())]
    texts = lambda lines: ["".join(chunk.text for chunk in line) for line in lines]  # noqa: E731
    assert texts(number_line(number, marks, 7)) == ["5 ◇S◇M"]
    assert texts(number_line(number, marks, 5)) == ["5◇S◇M"]
    assert texts(number_line(Chunk("12", Style()), marks, 5)) == ["12", "◇S◇M"]
    assert texts(number_line(number, [], 5)) == ["5"]


def test_the_hint_beside_throw_shortens_to_its_first_part_rather_than_being_cut():
    assert fitted_hint("c e p s m · ↑↓ enter", 30) == "c e p s m · ↑↓ enter"
    assert fitted_hint("c e p s m · ↑↓ enter", 13) == "c e p s m"
    assert fitted_hint("c e p s m · ↑↓ enter", 5) == ""


async def test_with_the_coach_open_at_80x24_the_narrow_board_cuts_no_mark_and_no_hint():
    """The coach takes the crews' place and the board narrows to five-column squares: the
    monkey's and sailor's landing marks on square 5 and the keys' hint stay whole."""
    from piratas_script import loaded_faces

    from app.dice import LoadedDice
    from app.main import CubileteApp

    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="piratas")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key in ["f2", *["space", "enter"] * 10, "space", "h"]:
            await pilot.press(key)
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        drawn = screen_text(app)
        assert "Coach · Ana" in drawn
        assert "5◇S◇M" in drawn
        assert "c e p s m" in drawn and "· ↑" not in drawn
