"""Every action is recorded, games resume, and old saves that cannot be read are reported and
never touched."""

from __future__ import annotations

import json

from generala_script import loaded_faces
from uihelpers import screen_text

from app import saves
from app.dice import LoadedDice, RandomDice
from app.i18n import render_all
from app.main import CubileteApp
from app.quiet.button_row import ButtonRow
from app.records.sqlite import SQLiteStore
from app.screens.generala import GeneralaScreen
from app.screens.lobby import LobbyScreen
from app.table import Seat, Table
from rules.generala import Roll


def unfinished_games(data_dir) -> list[str]:
    store = SQLiteStore(data_dir / "records.db")
    try:
        return [game.summary() for game in store.unfinished()]
    finally:
        store.close()


def unfinished_shown(app: CubileteApp) -> list[tuple[str, ...]]:
    """The lobby's list of unfinished games as shown: (game, players) a line."""
    assert "Unfinished games" in screen_text(app)
    return [line[:2] for line in app.screen.query_one("#unfinished").lines]


def new_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")


async def test_a_corrupt_save_is_reported_and_left_byte_for_byte(private_data_dir):
    saves = private_data_dir / "saves"
    saves.mkdir(parents=True)
    corrupt = saves / "game-broken.json"
    content = b'{"format": 1, "game": "generala", "state": {"round": "thirteen"'
    corrupt.write_bytes(content)
    app = new_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "Cannot read save" in screen_text(app)
        notice = str(app.screen.query_one("#notices").render())
        assert f"Cannot read save {corrupt}:" in notice
        await pilot.press("f2")  # a new game is recorded, the save stays as it was
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, GeneralaScreen)
    assert corrupt.read_bytes() == content
    assert list(saves.glob("game-*.json")) == [corrupt]
    assert unfinished_games(private_data_dir) == ["Generala with Ana, Bruno"]


async def test_a_save_from_another_version_is_reported_with_its_path(private_data_dir):
    saves = private_data_dir / "saves"
    saves.mkdir(parents=True)
    old = saves / "game-old.json"
    old.write_text(json.dumps({"format": 99, "game": "generala"}))
    before = old.read_bytes()
    app = new_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "format 99" in text
        assert isinstance(app.screen, LobbyScreen)
        assert app.screen.query_one(ButtonRow).button("resume").hidden
    assert old.read_bytes() == before


async def test_every_action_is_saved_and_the_game_resumes_where_it_was():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("space", "enter")  # Ana throws and writes in Ones
        await pilot.press("space")  # Bruno throws
        await pilot.pause()
        state = app.screen.table.state
        assert state.throws == 1
    # A new session on the same data dir offers to resume, and resumes that very state.
    again = CubileteApp(dice=LoadedDice([1, 2, 3, 4, 5]), animate=False, game="generala")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert unfinished_shown(again) == [("Generala", "Ana, Bruno")]
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(again.screen, GeneralaScreen)
        assert again.screen.table.state == state
        assert "Bruno throws" in screen_text(again)


async def test_a_resumed_game_keeps_the_coachs_ratings_of_the_decisions_before_it():
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("space", "enter")  # Ana throws and writes in Ones
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        rated = app.screen.reviews
        assert [seat for seat, _review in rated] == [0]
    again = CubileteApp(dice=LoadedDice([1, 2, 3, 4, 5]), animate=False, game="generala")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f3")
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = again.screen
        assert isinstance(screen, GeneralaScreen)
        assert [(seat, review.action, review.loss) for seat, review in screen.reviews] == [
            (seat, review.action, review.loss) for seat, review in rated
        ]
        assert render_all(screen.coach_notes())[0].startswith("Ana: 1 choice")


async def test_a_json_save_of_an_earlier_version_is_imported_at_the_first_start_and_resumes(
    private_data_dir,
):
    saves_dir = private_data_dir / "saves"
    saves_dir.mkdir(parents=True)
    table = Table.new("generala", [Seat(name="Ana"), Seat(name="Bruno")], dice=RandomDice(4))
    table.act(Roll())
    saved = saves.write(table, saves_dir)
    data = json.loads(saved.read_text())
    data["log"] = render_all(table.log)  # (earlier versions kept the log as rendered text)
    saved.write_text(json.dumps(data))
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert unfinished_shown(app) == [("Generala", "Ana, Bruno")]
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, GeneralaScreen)
        assert app.screen.table.state == table.state
        assert app.screen.table.save_id == table.save_id
    assert not saved.exists() and (saves_dir / "imported" / saved.name).exists()
    assert unfinished_games(private_data_dir) == ["Generala with Ana, Bruno"]
