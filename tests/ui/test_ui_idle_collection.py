"""The garbage collector runs between keys, not in the middle of one (`app/quiet/collector.py`).

A key's paint allocates thousands of objects; CPython's collector, run by allocation counts,
collected the young generations inside the answer to a key every few keys (3–6 ms under load)
and now and then everything (17–74 ms): the slowest keys of a game (docs/performance.md)."""

from __future__ import annotations

import gc

from generala_script import TURNS, Turn, loaded_faces
from uihelpers import start_game, until

from app.dice import LoadedDice
from app.main import CubileteApp
from app.quiet.collector import COLLECTOR, FULL_AFTER, SAFETY_THRESHOLD, IdleCollector
from app.screens.lobby import LobbyScreen


def keys_of(turn: Turn) -> list[str]:
    keys = ["space"]
    if turn.hold:
        keys += [str(position + 1) for position in turn.hold] + ["r"]
    return [*keys, "enter", *(["y"] if turn.zero else [])]


async def test_a_game_played_key_by_key_is_collected_only_between_the_keys():
    """Each key is answered (and painted) with no collection of the older generations in
    between; they are collected once the screen is quiet. Generala's first eight turns of the
    scripted game, Ana's poker with its holds included."""
    automatic: list[int] = []
    quiet: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] >= 1:
            (quiet if COLLECTOR.collecting else automatic).append(info["generation"])

    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot)
        await until(pilot, lambda: not COLLECTOR.pending, "the collection after F2")
        gc.callbacks.append(watch)
        try:
            for turn in TURNS[:16]:
                for key in keys_of(turn):
                    await pilot.press(key)
                    await until(pilot, lambda: not COLLECTOR.pending, f"quiet after {key}")
        finally:
            gc.callbacks.remove(watch)
    assert automatic == []
    assert quiet  # (the young generations, at least: every key's paint leaves objects behind)


async def test_a_game_gives_the_collector_back_as_it_found_it():
    """Only a game's screen changes the collector's thresholds: the lobby keeps CPython's (with
    the idle collector, a browser tab's lobby kept 0.2 MiB more memory of its own)."""
    before = gc.get_threshold()
    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert gc.get_threshold() == before  # the lobby
        await start_game(pilot)
        assert gc.get_threshold()[0] == SAFETY_THRESHOLD
        await pilot.press("space")
        await until(pilot, lambda: not COLLECTOR.pending, "the collection after the throw")
        await pilot.press("escape")  # back to the lobby
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert gc.get_threshold() == before
        assert not COLLECTOR.installed and not COLLECTOR.pending
    assert gc.get_threshold() == before


def test_everything_is_collected_after_ten_young_collections():
    """As CPython counts for a full collection, but at a quiet moment."""
    gc.collect()
    collector = IdleCollector()
    collector.install()
    try:
        for _ in range(FULL_AFTER - 1):
            gc.collect(1)
        collector.collect()  # (the young ones, if any: the ninth or the tenth)
        assert collector.made[2] == 0
        gc.collect(1)
        collector.collect()
        assert collector.made[2] == 1
        assert gc.get_count()[2] == 0  # counted from here again
    finally:
        collector.uninstall()
