"""Batalla de Piratas through the real app: whole games by keyboard and by mouse, and refusals.

Both games are the same short game on loaded dice (`piratas_script`): one life per piece (set
in the lobby), the roll-off, the ten opening moves, then five blue strikes in a row.
"""

from __future__ import annotations

from piratas_script import LIVES, Turn, loaded_faces, turns
from textual.pilot import Pilot
from uihelpers import click, click_button, click_row, screen_text, sheet_to, start_game

from app.dice import LoadedDice
from app.i18n import render_all
from app.main import CubileteApp
from app.screens.game_over import GameOverScreen
from app.screens.lobby import LobbyScreen
from app.screens.piratas import PiratasScreen
from app.table import Seat, Table
from app.widgets.piratas.board import ELIMINATES, Board, letters
from app.widgets.piratas.roster import Roster
from rules.piratas import BLUE, RED, Move, Piece, Roll


def new_app(faces: list[int] | None = None) -> CubileteApp:
    return CubileteApp(dice=LoadedDice(faces or loaded_faces()), animate=False, game="piratas")


def flat(text: str) -> str:
    return " ".join(text.split())


def check_the_end(app: CubileteApp) -> None:
    assert isinstance(app.screen, GameOverScreen)
    assert "Ana wins!" in screen_text(app)
    ranking = app.screen.query_one("#ranking")
    assert [str(cell) for cell in ranking.get_row_at(0)] == ["1", "Ana ★", "5"]
    assert [str(cell) for cell in ranking.get_row_at(1)] == ["2", "Bruno", "0"]


def check_turn_done(screen: PiratasScreen, turn: Turn, log_before: int) -> None:
    """The move was made and, for a strike, announced in the log and marked on the board."""
    lines = render_all(screen.table.log[log_before:])
    mover = f"{('Blue', 'Red')[turn.side]} {turn.piece.value} "
    assert any(line.startswith(mover) for line in lines), lines
    if turn.strikes:
        assert any("eliminates" in line for line in lines), lines
        if not screen.table.over:
            assert any("Blue throws again" in line for line in lines)
            last = screen.state.last_move
            assert last is not None and last.eliminates and screen.state.throws_again
            square = screen.query_one(Board).view.squares[last.destination]
            assert square.struck == (ELIMINATES, (RED, last.target))
            assert "⚔ Blue · Ana throws again" in flat(screen_text(screen.app))


async def test_the_script_is_the_game_the_rules_play():
    table = Table.new(
        "piratas",
        [Seat(name="Ana"), Seat(name="Bruno")],
        {"lives": LIVES},
        dice=LoadedDice(loaded_faces()),
    )
    for turn in turns():
        assert table.state.side == turn.side
        table.act(Roll())
        assert table.state.dice == turn.dice
        table.act(Move(piece=turn.piece))
    assert table.over
    assert table.game.winners(table.state) == (BLUE,)
    assert len(turns()) == 15


async def set_one_life_by_keyboard(pilot: Pilot) -> None:
    app = pilot.app
    assert isinstance(app.screen, LobbyScreen)
    sheet = await sheet_to(pilot, "lives")
    await pilot.press(str(LIVES))  # the first key typed replaces the default
    assert sheet.values()["lives"] == str(LIVES)


async def highlight(pilot: Pilot, screen: PiratasScreen, piece: Piece) -> None:
    for _ in range(5):
        if screen.cursor == piece:
            return
        await pilot.press("down")
    assert screen.cursor == piece


async def test_a_whole_game_by_keyboard_only():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert app.screen.game_id == "piratas"
        await set_one_life_by_keyboard(pilot)
        screen = await start_game(pilot, "piratas")  # F2, with the sheet as set
        assert screen.state.options.lives == LIVES
        assert "Roll-off 6–1: Blue starts" in screen_text(app)
        for number, turn in enumerate(turns()):
            assert screen.state.side == turn.side
            await pilot.press("space" if turn.side == BLUE else "r")
            await pilot.pause()
            assert screen.state.dice == turn.dice
            log_before = len(screen.table.log)
            if screen.state.in_opening:
                # the only legal move is highlighted, and enter makes it
                assert screen.cursor == turn.piece
                await pilot.press("enter")
            elif number % 2:
                await highlight(pilot, screen, turn.piece)
                await pilot.press("enter")
            else:
                await pilot.press(letters()[turn.piece])
            await pilot.pause()
            if not isinstance(app.screen, PiratasScreen):
                break
            check_turn_done(screen, turn, log_before)
        check_the_end(app)


async def test_a_whole_game_by_mouse_only():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await click_row(pilot, "lives")
        await pilot.press(str(LIVES))  # typing the number is the keyboard's
        await click_button(pilot, "start")
        screen = app.screen
        assert isinstance(screen, PiratasScreen)
        assert screen.state.options.lives == LIVES
        board = screen.query_one(Board)
        roster = screen.query_one(Roster)
        for number, turn in enumerate(turns()):
            await click(pilot, "#d1" if number % 3 == 2 else "#throw")
            assert screen.state.dice == turn.dice
            log_before = len(screen.table.log)
            if number % 3 == 0:  # the piece on the board
                offset = board.offset_of(turn.side, turn.piece)
                assert offset is not None
                await click(pilot, "#board", tuple(offset))
            elif number % 3 == 1:  # its row in the roster
                await click(pilot, "#roster", roster.offset_of(turn.side, turn.piece))
            else:  # its landing mark on the board
                offset = board.offset_of(turn.side, turn.piece, landing=True)
                assert offset is not None
                await click(pilot, "#board", tuple(offset))
            if not isinstance(app.screen, PiratasScreen):
                break
            check_turn_done(screen, turn, log_before)
        check_the_end(app)




async def test_in_the_opening_another_piece_is_refused_and_changes_nothing():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "piratas")
        await pilot.press("space")
        await pilot.pause()
        assert screen.cursor is Piece.CAPTAIN
        assert "Blue · Ana, opening: The captain: 0 → 14 · enter or its letter moves it" in flat(
            screen_text(app)
        )
        before = screen.table.state
        await pilot.press("e")
        await pilot.pause()
        assert "In the opening the captain moves now" in screen_text(app)
        assert screen.table.state == before
        await pilot.press("down")
        await pilot.pause()
        assert screen.cursor is Piece.CAPTAIN
        assert "Opening: only the captain may move now" in screen_text(app)


async def test_moving_before_the_throw_and_clicking_an_enemy_are_explained():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "piratas")
        before = screen.table.state
        await pilot.press("enter")
        await pilot.pause()
        assert "Throw the dice first" in screen_text(app)
        await pilot.press("c")
        await pilot.pause()
        assert "Throw the dice before moving a piece" in screen_text(app)
        await pilot.press("space")
        thrown = screen.table.state
        await click(pilot, "#roster", screen.query_one(Roster).offset_of(RED, Piece.CAPTAIN))
        assert "Blue · Ana moves now, not Red" in screen_text(app)
        assert screen.table.state == thrown != before
        await pilot.press("space")
        await pilot.pause()
        assert "The dice are on the table: move a piece" in screen_text(app)
        assert screen.table.state == thrown


async def test_every_piece_shows_where_it_would_land_after_the_opening():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "piratas")
        await pilot.press(*["space", "enter"] * 10)
        await pilot.press("space")
        await pilot.pause()
        state = screen.state
        assert not state.in_opening and state.dice == turns()[10].dice
        board, roster = screen.query_one(Board), screen.query_one(Roster)
        previews = screen.previews
        assert set(previews) == set(state.living(BLUE))
        landings = {landing.key for square in board.view.squares for landing in square.landings}
        moves = {row.piece for row in roster.view.sides[BLUE].rows if row.move is not None}
        assert landings == {(BLUE, piece) for piece in previews} and moves == set(previews)
        for piece in previews:
            assert board.offset_of(BLUE, piece, landing=True) is not None
        # the captain would strike the red parrot on 15 (3 lives here): the roster says so
        assert previews[Piece.CAPTAIN].target is Piece.PARROT
        assert "C captain ♥3 14 →15 ⚔p" in flat(screen_text(app))
        assert screen.cursor is Piece.CAPTAIN
        await pilot.press("down")
        assert screen.cursor is Piece.EXPLORER
        assert "The explorer:" in screen_text(app)


def labels(rows) -> list[str]:  # type: ignore[no-untyped-def]
    return ["".join(chunk.text for chunk in row) for row in rows]


def test_stacked_pieces_stay_readable_in_a_small_square():
    from rich.style import Style

    from app.widgets.piratas.board import Chunk, pack

    def crew(text: str) -> list[Chunk]:
        return [Chunk(label, Style()) for label in text.split()]

    blue, red = crew("C3 E3 P3 S3 M3"), crew("c3")
    assert labels(pack([crew("S3"), red], 7, 2)) == ["S3", "c3"]  # a side to a line
    assert labels(pack([blue[:4], []], 7, 2)) == ["C3 E3", "P3 S3"]
    assert labels(pack([blue, red], 7, 2)) == ["C3E3P3", "S3M3c3"]
    assert labels(pack([crew("C12 E10 P3 S3 M3"), red], 7, 2)) == ["C E P S", "M c"]


async def test_a_resumed_game_still_shows_that_the_side_to_move_throws_again():
    caption = "⚔ Blue · Ana throws again"
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "piratas")
        await pilot.press(*["space", "enter"] * 10, "space", "c")  # the captain strikes
        await pilot.pause()
        assert screen.state.throws_again
        assert caption in flat(screen_text(app))
        state = screen.state
    # A new session on the same data dir resumes that very state, and says the same.
    again = new_app()
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(again.screen, PiratasScreen)
        assert again.screen.state == state
        assert caption in flat(screen_text(again))
        assert "Strike! Blue · Ana throws again" in flat(screen_text(again))
