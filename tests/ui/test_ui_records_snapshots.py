"""Snapshots of the records' screens at 80×24 and 120×40: the lobby with unfinished games,
the history, a replay at a mistake with the coach open, the statistics."""

from __future__ import annotations

import pytest
from records_fixtures import START, finished, history, unfinished, utc, write
from uihelpers import settle, until

from app.main import CubileteApp
from app.screens.replay import ReplayScreen
from app.screens.statistics import StatisticsScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.fixture(autouse=True)
def in_utc(monkeypatch):
    utc(monkeypatch)


def new_app() -> CubileteApp:
    return CubileteApp(animate=False, game="generala")


@pytest.mark.parametrize("size", SIZES)
def test_lobby_with_unfinished_games(snap_compare, size, private_data_dir):
    unfinished(private_data_dir, "generala", 1, 7, START)
    unfinished(private_data_dir, "barco", 2, 5, START + 3600)
    unfinished(private_data_dir, "piratas", 3, 4, START + 7200)

    async def ready(pilot):
        records = await until(pilot, lambda: pilot.app.screen.query("#unfinished").first(), "list")
        await until(pilot, lambda: all("…" not in line for line in records.lines), "the rounds")
        await pilot.pause()

    assert snap_compare(new_app(), terminal_size=size, run_before=ready)


@pytest.mark.parametrize("size", SIZES)
def test_history(snap_compare, size, private_data_dir):
    history(private_data_dir, 60)

    async def ready(pilot):
        await pilot.pause()
        await pilot.press("f5", "down")
        await pilot.pause()

    assert snap_compare(new_app(), terminal_size=size, run_before=ready)


@pytest.mark.parametrize("size", SIZES)
def test_replay_at_a_mistake_with_the_coach(snap_compare, size, private_data_dir):
    record_id = write(private_data_dir, finished("generala", 1), START)

    async def ready(pilot):
        await pilot.pause()
        pilot.app.show_replay(record_id)
        screen = await until(
            pilot, lambda: isinstance(pilot.app.screen, ReplayScreen) and pilot.app.screen, "it"
        )
        await until(pilot, lambda: screen.decisions is not None, "the coach's reviews")
        await pilot.press("m", "h")
        await settle(pilot)

    assert snap_compare(new_app(), terminal_size=size, run_before=ready)


@pytest.mark.parametrize("size", SIZES)
def test_statistics(snap_compare, size, private_data_dir):
    history(private_data_dir, 9)

    async def ready(pilot):
        await pilot.pause()
        await pilot.press("f6")
        await until(pilot, lambda: isinstance(pilot.app.screen, StatisticsScreen), "it")
        await pilot.press("g")
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)

    assert snap_compare(new_app(), terminal_size=size, run_before=ready)
