"""Whole Multiplicación games driven through the real app: by keyboard only and by mouse only.

Both games are the same twenty turns on loaded dice (`multiplicacion_script`), starting from the
lobby, and end on the game-over screen with Ana 372, Bruno 292.
"""

from __future__ import annotations

from multiplicacion_script import ANA_TOTAL, BRUNO_TOTAL, TURNS, loaded_faces, moves
from uihelpers import click, click_button, log_text, screen_text, start_game

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.game_over import GameOverScreen
from app.screens.lobby import LobbyScreen
from app.screens.multiplicacion import MultiplicacionScreen
from app.table import Seat, Table

KEYS = {"throw": "space", "keep": "k", "rethrow": "t", "accept": "a", "penalty": "p"}


def new_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="multiplicacion")


def flat(text: str) -> str:
    return " ".join(text.split())


def check_the_end(app: CubileteApp) -> None:
    assert isinstance(app.screen, GameOverScreen)
    text = flat(screen_text(app))
    assert "Ana wins!" in text
    assert f"Total {ANA_TOTAL} {BRUNO_TOTAL}" in text  # the final sheet
    ranking = app.screen.query_one("#ranking")
    assert [str(cell) for cell in ranking.get_row_at(0)] == ["1", "Ana ★", str(ANA_TOTAL)]
    assert [str(cell) for cell in ranking.get_row_at(1)] == ["2", "Bruno", str(BRUNO_TOTAL)]


async def test_the_script_is_the_game_the_rules_play():
    table = Table.new(
        "multiplicacion", [Seat(name="Ana"), Seat(name="Bruno")], dice=LoadedDice(loaded_faces())
    )
    for move in moves():
        table.act(move.action)
    assert table.over
    assert table.game.scores(table.state) == (ANA_TOTAL, BRUNO_TOTAL)
    assert [turn.score for turn in table.state.sheets[0]] == [s for p, _, s in TURNS if p == "Ana"]


async def test_a_whole_game_by_keyboard_only():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert app.screen.game_id == "multiplicacion"
        await start_game(pilot, "multiplicacion")
        for player, turn_moves, score in TURNS:
            assert app.screen.state.players[app.screen.state.current] == player
            for move in turn_moves:
                key = KEYS[move.name]
                if move.name == "throw" and player == "Bruno":
                    key = "r"  # the other throw key
                await pilot.press(key)
            await pilot.pause()
            if isinstance(app.screen, MultiplicacionScreen):
                offer = str(app.screen.query_one("#offer").render())
                assert offer.startswith(f"{player} scored (") and offer.endswith(f" = {score}")
        check_the_end(app)




async def test_a_whole_game_by_mouse_only():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen.game_id == "multiplicacion"
        await click_button(pilot, "start")
        assert isinstance(app.screen, MultiplicacionScreen)
        for _player, turn_moves, _score in TURNS:
            for move in turn_moves:
                await click(pilot, f"#{move.name}")
        check_the_end(app)




def status(screen: MultiplicacionScreen) -> str:
    return flat(str(screen.query_one("#status").render()))


def shown(screen: MultiplicacionScreen) -> set[str]:
    return {button.id for button in screen.query("#decisions Button") if button.display}


async def test_only_the_legal_decisions_are_offered_with_their_keys():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "multiplicacion", ["Ana", "Bruno"])
        assert shown(screen) == {"throw"}
        assert "Throw three dice (space)" in screen_text(app)
        await pilot.press("space", "space", "space")  # Ana: 1 4 5, 2 3, then the multiplier 5
        await pilot.pause()
        assert shown(screen) == {"accept", "penalty"}
        text = screen_text(app)
        assert "(5 + 3) × 5 = 40" in text
        assert "Re-throw costs 3: (8 − 3) × ?" in text
        assert "Accept: (5 + 3) × 5 = 40 (a)" in text
        assert "a Accept" in text and "p Penalty re-throw" in text
        assert "space Throw" not in text
        await pilot.press("a", "space")  # Bruno throws a triple
        await pilot.pause()
        assert shown(screen) == {"keep", "rethrow"}
        text = screen_text(app)
        assert "triple" in text
        assert "Keep a 6 (k)" in text and "Throw the triple again (t)" in text


async def test_a_decision_key_out_of_turn_is_explained_and_changes_nothing():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "multiplicacion", ["Ana", "Bruno"])
        before = screen.table.state
        await pilot.press("k")
        await pilot.pause()
        assert "Only a triple on the first throw or a pair" in status(screen)
        assert screen.table.state == before
        await pilot.press("space", "space", "space", "space")  # the last one is refused
        await pilot.pause()
        assert "accept it or refuse it" in status(screen)
        assert screen.table.state.turn.multiplier == 5


async def test_the_penalty_offer_and_the_refusal_as_the_issue_tells_them():
    """Bruno: 6 6 6 kept, 2 2 thrown again as 5 4, multiplier 1: (11 − 4) × ?"""
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "multiplicacion", ["Ana", "Bruno"])
        await pilot.press("space", "space", "space", "a")  # Ana scores 40
        await pilot.press("space", "k", "space", "t", "space")
        await pilot.pause()
        text = screen_text(app)
        assert "(6 + 5) × 1 = 11" in text
        assert "Re-throw costs 4: (11 − 4) × ?" in text
        assert "Refuse the 1: −4 and throw it again (p)" in text
        await pilot.press("p")
        await pilot.pause()
        assert "Bruno scored (6 + 5 − 4) × 4 = 28" in flat(screen_text(app))
        await app.workers.wait_for_complete()  # the narration comes with the coach's rating
        await pilot.pause()
        assert "Bruno refuses the 1: penalty 4" in log_text(app)


async def test_three_players_at_80x24_get_small_dice_and_every_slot_stays_in_view():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, "multiplicacion", ["Ana", "Bruno", "Carla"])
        await pilot.pause()
        tray = screen.query_one("#tray").content_region
        slots = screen.query_one("#slots")
        assert slots.compact
        assert tray.contains_region(slots.region)
        assert " A     B     × " in screen_text(app)  # the labels move under the small dice
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not slots.compact
        assert "─ × ─" in screen_text(app)
