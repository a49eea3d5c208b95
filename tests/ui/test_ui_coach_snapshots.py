"""Snapshots of the coach panel at 80×24 and 120×40.

- Generala, round 2: Ana has thrown 2 2 3 4 6; the coach lists each keep once, its faces
  highest first (2 2 3 4 6 holds "2 3" two ways: one row).
- Piratas, just after the opening: Ana's throw 1–2, each piece's move with its lives ahead,
  and the line that says what the unit is.
"""

from __future__ import annotations

import generala_script
import piratas_script
import pytest

from app.dice import LoadedDice
from app.main import CubileteApp

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def pressing(*keys: str):  # type: ignore[no-untyped-def]
    """Start from the lobby and press `keys` one at a time, letting every worker (the coach's
    review and hint) finish in between."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        for key in ("f2", *keys):
            await pilot.press(key)
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_generala_coach_lists_each_keep_once(snap_compare, size):
    faces = generala_script.loaded_faces()
    app = CubileteApp(dice=LoadedDice(faces), animate=False, game="generala")
    run_before = pressing("space", "enter", "space", "enter", "space", "h")
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_piratas_coach_in_lives_ahead(snap_compare, size):
    faces = piratas_script.loaded_faces()
    app = CubileteApp(dice=LoadedDice(faces), animate=False, game="piratas")
    run_before = pressing(*["space", "enter"] * 10, "space", "h")
    assert snap_compare(app, terminal_size=size, run_before=run_before)
