"""Snapshots of the Batalla de Piratas board at 80×24 and 120×40 (three lives per piece).

- the first throw: both crews stacked on their harbours, the captain's opening move marked;
- after the opening: every blue piece's landing marked, the captain's strike highlighted, a
  blue and a red piece sharing square 4;
- after that strike: captain and parrot share square 15, the strike is marked on the board and
  blue throws again;
- the end of the one-life game of `piratas_script`: the final board beside the ranking, and the
  game's table talk under it.
"""

from __future__ import annotations

import pytest
from piratas_script import LIVES, loaded_faces, turns
from uihelpers import sheet_to

from app.dice import LoadedDice
from app.main import CubileteApp
from app.widgets.piratas.board import letters

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
OPENING = ["space", "enter"] * 10


def snapshot_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="piratas")


def pressing(*keys: str):  # type: ignore[no-untyped-def]
    """Start from the lobby and press `keys` one at a time, letting every worker (such as a
    review of the move) finish in between, so the log reads the same on every run."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        for key in ("f2", *keys):
            await pilot.press(key)
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_piratas_first_throw_with_the_crews_stacked(snap_compare, size):
    assert snap_compare(snapshot_app(), terminal_size=size, run_before=pressing("space"))


@pytest.mark.parametrize("size", SIZES)
def test_piratas_every_landing_shown_after_the_opening(snap_compare, size):
    run_before = pressing(*OPENING, "space")
    assert snap_compare(snapshot_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_piratas_a_strike_and_the_extra_throw(snap_compare, size):
    run_before = pressing(*OPENING, "space", "c")
    assert snap_compare(snapshot_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_piratas_with_the_coach_open(snap_compare, size):
    """The coach in the crews' place beside the board; the status line and the log's last
    lines stay under it."""
    run_before = pressing(*OPENING, "space", "h")
    assert snap_compare(snapshot_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_piratas_game_over_shows_the_final_board(snap_compare, size):
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        await sheet_to(pilot, "lives")
        await pilot.press(str(LIVES))
        keys = [*OPENING]
        for turn in turns()[len(OPENING) // 2 :]:
            keys += ["space", letters()[turn.piece]]
        await pressing(*keys)(pilot)
        assert type(pilot.app.screen).__name__ == "GameOverScreen"

    assert snap_compare(snapshot_app(), terminal_size=size, run_before=run_before)
