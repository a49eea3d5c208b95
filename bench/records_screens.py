"""The records' screens on a database of finished games (a script, not a test; bench/records.py
runs it on its 10,000 games): the history screen opened and drawn with its first page, the next
page, and the statistics screen, each in the real app (headless, `App.run_test`), timed from
the key to the screen drawn with its rows. The statistics screen is timed twice: to its first
paint, the figures on top (`stats_screen_open_s`), and to the paint of its first plot, drawn
after that (`stats_screen_plot_s`).

  .venv/bin/python bench/records_screens.py DATABASE
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


async def _until(pilot: Any, condition: Any) -> None:
    while not condition():
        await pilot.pause(0.001)


async def _measure_once(data_dir: Path) -> dict[str, float]:
    from app.main import CubileteApp
    from app.screens import statistics
    from app.screens.history import HistoryScreen
    from app.screens.statistics import StatisticsScreen

    # the coach's reviews of games not reviewed yet (none in normal use: each game is
    # reviewed as it ends) run in threads after the first paint: not part of opening
    statistics.REVIEWS_PER_VISIT = 0

    app = CubileteApp(animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        start = time.perf_counter()
        await pilot.press("f5")
        await _until(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.items)
        await pilot.pause()  # drawn
        opened = time.perf_counter() - start
        screen = app.screen
        first = screen.items[0]
        start = time.perf_counter()
        await pilot.press("right")
        await _until(pilot, lambda: screen.items[0] != first)
        await pilot.pause()
        paged = time.perf_counter() - start
        start = time.perf_counter()
        await pilot.press("escape", "f6")
        await _until(pilot, lambda: isinstance(app.screen, StatisticsScreen))
        await pilot.pause()  # the first paint: the figures
        stats = time.perf_counter() - start
        await _until(pilot, lambda: app.screen.view in app.screen.drawn)
        await pilot.pause()  # the plot painted
        plot = time.perf_counter() - start
        for worker in list(app.workers):
            worker.cancel()  # (the coach's reviews of unreviewed games: not part of opening)
    return {"history_screen_open_s": opened, "history_screen_page_s": paged,
            "stats_screen_open_s": stats, "stats_screen_plot_s": plot}


def measure(database: Path, runs: int = 5) -> dict[str, float]:
    """Medians of `runs`, each in a fresh data dir holding a copy of `database`."""
    results: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="cubilete-bench-screens-") as scratch:
        data = Path(scratch)
        shutil.copyfile(database, data / "records.db")
        os.environ["CUBILETE_DATA_DIR"] = str(data)
        for _ in range(runs):
            results.append(asyncio.run(_measure_once(data)))
    return {key: statistics.median(r[key] for r in results) for key in results[0]}


if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1])), indent=2))
