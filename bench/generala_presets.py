"""Generala's presets and house options (issue 30): the time to solve each option set's table
on first use, and the expert's mean over many one-player games against the table's value.

  .venv/bin/python bench/generala_presets.py                      # both parts (≈ 20 min)
  .venv/bin/python bench/generala_presets.py --only tables        # the 72 tables (≈ 15 s)
  .venv/bin/python bench/generala_presets.py --only games --games 2000   # a quicker check
  .venv/bin/python bench/generala_presets.py --json

Tables: every option set the table depends on (3 presets × servido none/+5/+10 × escalera al
as × Generala doble × obligada: 72; the servida option does not change it) is solved from
scratch, a fresh `PresetTable` each, and its CPU time (`time.process_time`) taken around the
solve. The first solve of the process also pays for importing numpy and the solver's index
tables: that one-off cost is shown apart (`generala_preset_setup_cpu_s`).
`generala_preset_table_cpu_s` is the slowest option set (target ≤ 1 s); bench/run.py puts it
in its summary.

Games: for the four option sets of docs/strategy.md, `--games` one-player games of the expert
bot on seeded dice through the rules engine, a generala servida counted as its points (the
servida option off, as in the table). The mean passes when the table's value lies within its
99 % interval (mean ± 2.576 standard errors).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from itertools import product
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_S = 1.0
Z99 = 2.576

DOCUMENTED: dict[str, dict[str, Any]] = {
    "Argentina": {"preset": "argentina"},
    "Argentina + escalera al as": {"preset": "argentina", "escalera_al_as": True},
    "Argentina + servido +10": {"preset": "argentina", "servido": 10},
    "Familia": {"preset": "familia"},
}
"""The option sets whose optimal expected score docs/strategy.md gives."""

TABLE_OPTIONS = ("preset", "servido", "escalera_al_as", "generala_doble", "obligada")
TABLE_CHOICES = (
    ("seed", "argentina", "familia"),
    (0, 5, 10),
    (False, True),
    (False, True),
    (False, True),
)


def option_sets() -> list[dict[str, Any]]:
    return [dict(zip(TABLE_OPTIONS, values, strict=True)) for values in product(*TABLE_CHOICES)]


def measure_tables(log: Callable[[str], None] = lambda text: None) -> dict[str, Any]:
    """CPU seconds to solve each option set's table from scratch."""
    start = time.process_time()
    from bots import generala_solver
    from rules.generala import GeneralaOptions

    generala_solver._tables()
    setup = time.process_time() - start
    times: dict[str, float] = {}
    for options in option_sets():
        chosen = GeneralaOptions(**options)
        cpu = time.process_time()
        generala_solver.PresetTable(chosen).solve_all()
        times[generala_solver.table_key(chosen)] = time.process_time() - cpu
    slowest = max(times, key=times.__getitem__)
    log(
        f"generala tables: {len(times)} option sets, slowest {slowest} "
        f"{times[slowest]:.3f} s CPU, median {statistics.median(times.values()):.3f} s, "
        f"setup {setup:.3f} s"
    )
    return {
        "generala_preset_table_cpu_s": times[slowest],
        "generala_preset_table_median_cpu_s": statistics.median(times.values()),
        "generala_preset_setup_cpu_s": setup,
        "slowest": slowest,
        "tables": times,
    }


def summary_rows(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows in bench/run.py's summary form."""
    rows = []
    for key, label, target in (
        ("generala_preset_table_cpu_s", "generala: slowest preset table (CPU)", TARGET_S),
        ("generala_preset_table_median_cpu_s", "generala: median preset table (CPU)", None),
        ("generala_preset_setup_cpu_s", "generala: numpy + solver set-up (CPU)", None),
    ):
        value = results.get(key)
        rows.append(
            dict(key=key, label=label, unit="s", app=value, hello=None, ratio=None)
            | dict(
                target=f"≤ {target:g} s" if target else "",
                passed=None if value is None or target is None else value <= target,
            )
        )
    return rows


def play_expert(options: dict[str, Any], seed: int) -> int:
    import bots
    import rules

    game = rules.get_game("generala")
    bot = bots.get_bot("generala", "expert")
    rng = random.Random(seed)
    state = game.new_game(["Expert"], options)
    while not game.is_over(state):
        pending = game.pending_throw(state)
        if pending is not None:
            state = game.apply_chance(state, tuple(rng.randint(1, 6) for _ in range(pending.count)))
        else:
            state = game.apply(state, bot.choose(state))
    return int(game.scores(state)[0])


def measure_games(games: int, log: Callable[[str], None] = lambda text: None) -> dict[str, Any]:
    """The expert's mean over `games` one-player games of each documented option set."""
    from bots.generala import preset_table
    from rules.generala import GeneralaOptions

    results = {}
    for name, options in DOCUMENTED.items():
        chosen = {**options, "servida_wins": False}
        expected = preset_table(GeneralaOptions(**chosen)).value(0)
        wall = time.perf_counter()
        scores = [play_expert(chosen, seed) for seed in range(games)]
        mean = statistics.mean(scores)
        error = statistics.stdev(scores) / len(scores) ** 0.5
        low, high = mean - Z99 * error, mean + Z99 * error
        results[name] = dict(
            options=options,
            games=games,
            table=expected,
            mean=mean,
            stdev=statistics.stdev(scores),
            interval_99=[low, high],
            passed=low <= expected <= high,
            seconds=time.perf_counter() - wall,
        )
        log(
            f"{name}: table {expected:.4f}, expert {mean:.4f} over {games} games, 99 % "
            f"[{low:.4f}, {high:.4f}] {'ok' if low <= expected <= high else 'OUTSIDE'} "
            f"({results[name]['seconds']:.0f} s)"
        )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["tables", "games"], help="one part only")
    parser.add_argument("--games", type=int, default=20_000, help="games a preset (20,000)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    report: dict[str, Any] = {}
    if args.only in (None, "tables"):
        report["tables"] = measure_tables(log)
    if args.only in (None, "games"):
        report["games"] = measure_games(args.games, log)
    if args.json:
        print(json.dumps(report, indent=2))
    passed = all(
        [report.get("tables", {}).get("generala_preset_table_cpu_s", 0) <= TARGET_S]
        + [result["passed"] for result in report.get("games", {}).values()]
    )
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
