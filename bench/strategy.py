"""The bots' numbers (a script, not a test): solver times, hint and decision times, the optimal
opening values, and piratas' expert against the other levels.

  .venv/bin/python bench/strategy.py                 # everything, 500 piratas games a match
  .venv/bin/python bench/strategy.py --games 50      # a quicker piratas check
  .venv/bin/python bench/strategy.py --only hints   # one part: table, values, hints, piratas

Times are wall-clock medians on this machine (shared, 2 cores: expect noise). Hints are timed on the
states of games between medium bots as they arise, so the first hint of a situation pays for
the tables it needs (the generala table is solved beforehand, as the app would at start).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots
import rules

HINT_BUDGET_MS = 2.0
DECISION_BUDGET_MS = {"piratas": 500.0}
DEFAULT_DECISION_BUDGET_MS = 50.0


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def cpu_timed(call: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall-clock and CPU seconds of a call (CPU time ignores the waits of a busy machine)."""
    cpu = time.process_time()
    wall = time.perf_counter()
    result = call()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def throw(game: rules.Game, state: Any, rng: random.Random) -> Any:
    pending = game.pending_throw(state)
    return game.apply_chance(state, tuple(rng.randint(1, 6) for _ in range(pending.count)))


def play_game(
    game_id: str, seats: list[bots.Bot], seed: int, options: dict[str, Any] | None = None
) -> tuple[Any, list[Any]]:
    """A whole game between bots on seeded dice; also every decision state met."""
    game = rules.get_game(game_id)
    rng = random.Random(seed)
    state = game.new_game([f"P{i}" for i in range(len(seats))], options or {})
    decisions = []
    while not game.is_over(state):
        if game.pending_throw(state) is not None:
            state = throw(game, state, rng)
            continue
        decisions.append(state)
        state = game.apply(state, seats[game.current_player(state)].choose(state))
    return state, decisions


# -- generala's table ------------------------------------------------------------------------


def generala_table(repeats: int) -> dict[str, Any]:
    from bots.generala import Table

    times = []
    cpu = []
    value = 0.0
    for _ in range(repeats):
        table = Table()
        start = time.process_time()
        seconds, _ = timed(table.solve_all)
        cpu.append(time.process_time() - start)
        times.append(seconds)
        value = table.value(0)
    from app import strategy_tables
    from kits import kit

    shipped = strategy_tables.table_files(kit("generala").tables[0])
    loads = []
    for _ in range(repeats):
        table = Table()
        seconds, _ = timed(lambda: table.load(strategy_tables.read_table(*shipped)))  # noqa: B023
        loads.append(seconds)
    return {
        "seconds_median": statistics.median(times),
        "cpu_seconds_median": statistics.median(cpu),
        "seconds_all": times,
        "shipped_load_seconds_median": statistics.median(loads),
        "value": value,
    }


# -- hints and decisions ---------------------------------------------------------------------

SITUATIONS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "generala": [(1, {}), (3, {})],
    "multiplicacion": [(1, {}), (2, {}), (4, {})],
    "barco": [(1, {}), (2, {"rounds": 3}), (4, {"rounds": 2}), (3, {"end": "race", "target": 30})],
    "navio": [(2, {"mode": "points"}), (4, {"mode": "points"}), (8, {"rounds": 2})],
    "piratas": [(2, {"lives": 2})],
}


def hint_times(game_id: str, games: int) -> dict[str, Any]:
    """Hints and expert decisions on the decision states of games between medium bots, in
    the order they arise (so a state's first hint pays for what its situation needs)."""
    if game_id == "generala":
        from bots.generala import TABLE

        TABLE.solve_all()  # as the app would at start; timed by generala_table()
    coach = bots.coach(game_id)
    expert = bots.get_bot(game_id, "expert")
    wall: list[float] = []
    cpu: list[float] = []
    prepared: list[float] = []
    prepare: list[float] = []
    decide: list[float] = []
    units: set[str] = set()
    for seats, options in SITUATIONS[game_id]:
        for seed in range(games):
            players = [bots.get_bot(game_id, "medium")] * seats
            _, decisions = play_game(game_id, players, 1000 * seats + seed, options)
            for state in decisions:
                # As the app does: the coach prepares when a decision comes up (in a worker
                # thread), and the hint the player asks for comes after. Without that, the
                # first hint of a situation costs both: prepare + hint.
                _, before, _ = cpu_timed(lambda s=state: coach.prepare(s))
                prepare.append(before * 1000)
                seconds, used, hint = cpu_timed(lambda s=state: coach.hint(s))
                prepared.append(used * 1000)
                cpu.append((before + used) * 1000)
                wall.append(seconds * 1000)
                units.add(str(hint.unit))
                _, used, _ = cpu_timed(lambda s=state: expert.choose(s))
                decide.append(used * 1000)
    return {
        "states": len(wall),
        "units": sorted(units),
        "hint_ms_median": statistics.median(wall),
        "hint_ms_max": max(wall),
        "hint_cpu_ms_max": max(cpu),
        "hint_cpu_ms_over_budget": sum(1 for t in cpu if t > HINT_BUDGET_MS),
        "prepared_hint_cpu_ms_max": max(prepared),
        "prepared_hint_cpu_ms_over_budget": sum(1 for t in prepared if t > HINT_BUDGET_MS),
        "prepare_cpu_ms_max": max(prepare),
        "decision_cpu_ms_median": statistics.median(decide),
        "decision_cpu_ms_max": max(decide),
        "decision_budget_ms": DECISION_BUDGET_MS.get(game_id, DEFAULT_DECISION_BUDGET_MS),
    }


# -- the opening values ----------------------------------------------------------------------


def opening_values() -> dict[str, Any]:
    from bots.barco import expected_round_score
    from bots.generala import TABLE
    from bots.multiplicacion import expected_turn_score
    from bots.navio import round_win
    from bots.ship import expected_score

    barco = expected_round_score()
    multiplicacion = expected_turn_score()
    navio_treasure = expected_score(singles=False).value
    navio = {}
    for players in (2, 3, 4, 8):
        wins, replayed = round_win(players)
        navio[players] = {"wins": wins, "replayed": replayed}
    return {
        "generala_expected_final_score": TABLE.value(0),
        "barco_expected_round_score": str(barco),
        "barco_expected_round_score_float": float(barco),
        "barco_expected_10_rounds": 10 * float(barco),
        "multiplicacion_expected_turn_score": str(multiplicacion),
        "multiplicacion_expected_turn_score_float": float(multiplicacion),
        "multiplicacion_expected_10_rounds": 10 * float(multiplicacion),
        "navio_expected_treasure_if_maximised": float(navio_treasure),
        "navio_round_win": navio,
    }


# -- piratas matches -------------------------------------------------------------------------


def piratas_game(job: tuple[str, str, int, int]) -> tuple[float, int, float, float]:
    """One game of `level` against `other`, the expert's side alternating; returns the expert
    level's result (1 win, 0 loss), the moves, and its slowest decision in wall-clock and in
    CPU seconds (the CPU time ignores the waits of a busy shared machine)."""
    level, other, seed, lives = job
    game = rules.get_game("piratas")
    ours = seed % 2
    seats = [bots.get_bot("piratas", other, seed=seed), bots.get_bot("piratas", other, seed=seed)]
    seats[ours] = bots.get_bot("piratas", level, seed=seed)
    rng = random.Random(seed)
    state = game.new_game(["Blue", "Red"], {"lives": lives})
    slowest = slowest_cpu = 0.0
    moves = 0
    while not game.is_over(state):
        if game.pending_throw(state) is not None:
            state = throw(game, state, rng)
            continue
        side = game.current_player(state)
        cpu = time.process_time()
        seconds, action = timed(lambda s=state, b=seats[side]: b.choose(s))
        if side == ours:
            slowest = max(slowest, seconds)
            slowest_cpu = max(slowest_cpu, time.process_time() - cpu)
        moves += 1
        state = game.apply(state, action)
    return (1.0 if game.winners(state) == (ours,) else 0.0), moves, slowest, slowest_cpu


def piratas_match(other: str, games: int, lives: int, workers: int) -> dict[str, Any]:
    jobs = [("expert", other, seed, lives) for seed in range(games)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(piratas_game, jobs, chunksize=4))
    wins = sum(r[0] for r in results)
    return {
        "against": other,
        "games": games,
        "lives": lives,
        "expert_wins": wins,
        "expert_win_rate": wins / games,
        "moves_median": statistics.median(r[1] for r in results),
        "expert_decision_ms_max": 1000 * max(r[2] for r in results),
        "expert_decision_cpu_ms_max": 1000 * max(r[3] for r in results),
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="piratas games per match")
    parser.add_argument("--lives", type=int, default=3, help="piratas lives (lobby default 3)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hint-games", type=int, default=3, help="games per situation")
    parser.add_argument("--table-repeats", type=int, default=3)
    parser.add_argument(
        "--only",
        choices=("table", "values", "hints", "piratas"),
        action="append",
        help="run only these parts (repeatable); default: all",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    parts = set(args.only or ("table", "values", "hints", "piratas"))

    report: dict[str, Any] = {}
    if "table" in parts:
        report["generala_table"] = generala_table(args.table_repeats)
    if "values" in parts:
        report["opening_values"] = opening_values()
    if "hints" in parts:
        report["hints"] = {game_id: hint_times(game_id, args.hint_games) for game_id in SITUATIONS}
    if "piratas" in parts:
        report["piratas"] = [
            piratas_match(other, args.games, args.lives, args.workers)
            for other in ("medium", "easy")
        ]
    if args.json:
        print(json.dumps(report, indent=2, default=str))
        return
    table = report.get("generala_table")
    if table:
        print(
            f"generala table: {table['seconds_median']:.2f} s wall, "
            f"{table['cpu_seconds_median']:.2f} s CPU (median of {args.table_repeats}); "
            f"the shipped table in assets/ reads in {table['shipped_load_seconds_median']:.3f} s"
        )
    for name, value in report.get("opening_values", {}).items():
        print(f"{name}: {value}")
    for game_id, row in report.get("hints", {}).items():
        print(
            f"{game_id:15} {row['states']:5} states  hint {row['hint_ms_median']:.3f} ms median, "
            f"max {row['hint_ms_max']:.1f} ms wall / {row['hint_cpu_ms_max']:.1f} ms CPU "
            f"({row['hint_cpu_ms_over_budget']} over {HINT_BUDGET_MS} ms CPU); after the app's "
            f"prepare ({row['prepare_cpu_ms_max']:.1f} ms max CPU): "
            f"max {row['prepared_hint_cpu_ms_max']:.2f} ms "
            f"({row['prepared_hint_cpu_ms_over_budget']} over)  expert decision "
            f"{row['decision_cpu_ms_median']:.3f} ms median, {row['decision_cpu_ms_max']:.1f} ms "
            f"max CPU (budget {row['decision_budget_ms']:.0f})  units {', '.join(row['units'])}"
        )
    for match in report.get("piratas", []):
        print(
            f"piratas expert vs {match['against']}: {match['expert_win_rate']:.1%} of "
            f"{match['games']} games (lives {match['lives']}), median {match['moves_median']} "
            f"moves, slowest expert decision {match['expert_decision_ms_max']:.0f} ms "
            f"({match['expert_decision_cpu_ms_max']:.0f} ms CPU), "
            f"{match['seconds']:.0f} s"
        )


if __name__ == "__main__":
    main()
