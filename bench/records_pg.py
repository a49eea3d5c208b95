"""The records on PostgreSQL against SQLite, in one run (a script, not a test; also run by
bench/run.py): appending an event (commit included), and how much each database grows per
1,000 games.

  .venv/bin/python bench/records_pg.py               # 1,000 games after 200 (≈ 10 min)
  .venv/bin/python bench/records_pg.py --games 50 --warm-up 0   # a quick look
  .venv/bin/python bench/records_pg.py --json

The games are played once, by bots through the real record code (`Table` with a
`StoreRecorder`), and every write goes to each store: a fresh SQLite file with the app's
settings (WAL, synchronous=NORMAL), a fresh database of a private PostgreSQL cluster started
here with PostgreSQL's defaults (fsync on, synchronous_commit on: each commit waits for its
WAL to reach the disk), on a Unix socket, and, for comparison, a second SQLite file with
synchronous=FULL (each commit waits for an fsync too: PostgreSQL's durability). All are in the
same temp dir on the same disk; each write is timed on each store, the order turning from one
write to the next, so all see the same load. Each finished game's reviews are cached in each,
as the app does.

Growth per 1,000 games: each database's size after the games less its size before them,
scaled, measured after a warm-up of `WARM_UP` games. A game also takes space only while it is
played: its events as rows (until they are packed when it ends), and in PostgreSQL the index
entries and old row versions of its record's updates (one per append). Both databases reuse
that space (SQLite's free pages; PostgreSQL's once VACUUMed, as autovacuum does), but neither
returns it: the warm-up makes it once, and the growth measured after it is what a
long-running database grows by. SQLite's size is the file with its WAL checkpointed;
PostgreSQL's `pg_database_size` after a plain VACUUM.

Without PostgreSQL installed (no initdb), it says so and measures nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "tests"))  # (after the project: tests/ has folders named like it)

GAMES = 1000
WARM_UP = 200
"""Games played first, not counted in the growth (see above)."""

ROWS: tuple[tuple[str, str, str, str | None], ...] = (
    ("pg_append_p99_s", "PostgreSQL append p99 (commit incl.)", "s", "sqlite_append_p99_s"),
    ("pg_append_ratio", "PostgreSQL/SQLite append p99", "×", None),
    ("pg_append_ratio_to_full", "PostgreSQL/SQLite FULL append p99", "×", None),
    ("pg_mb_per_1000_games", "PostgreSQL growth per 1,000 games", "MB", None),
    ("sqlite_mb_per_1000_games", "SQLite growth per 1,000 games", "MB", None),
)
"""Rows of the summary: key, label, unit, and the SQLite figure shown beside it (in the hello
column, with the ratio). No targets: they say what switching to PostgreSQL costs."""


class Each:
    """A store that writes to several: each write timed on each, in an order that turns
    from one write to the next (so that no store always goes first)."""

    def __init__(self, *stores: Any) -> None:
        self.stores = stores
        self.times: list[list[float]] = [[] for _ in stores]
        self._turn = 0

    def _each(self, name: str, *args: Any) -> None:
        count = len(self.stores)
        self._turn = (self._turn + 1) % count
        for step in range(count):
            index = (self._turn + step) % count
            start = time.perf_counter()
            getattr(self.stores[index], name)(*args)
            self.times[index].append(time.perf_counter() - start)

    def create(self, *args: Any) -> None:
        self._each("create", *args)

    def append(self, *args: Any) -> None:
        self._each("append", *args)

    def save_reviews(self, *args: Any) -> None:
        for store in self.stores:
            store.save_reviews(*args)


def sqlite_size(path: Path) -> int:
    from app.records.sqlite import SQLiteStore

    store = SQLiteStore(path, check=False)
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    store.close()
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def postgres_size(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM")
        (size,) = conn.execute("SELECT pg_database_size(current_database())").fetchone() or (0,)
    return int(size)


def play(store: Each, seed: int) -> int:
    """One game of the bench's mix (bench/records.py) between bots; its events."""
    from records import GAME_MIX, seats_for

    from app import strategy_tables
    from app.dice import RandomDice
    from app.records.recorder import StoreRecorder
    from app.records.reviews import REVIEW_VERSION, review_rows
    from app.table import Table
    from bots import get_bot

    rng = random.Random(2 * 10**6 + seed)
    game_id = rng.choices([g for g, _w in GAME_MIX], [w for _g, w in GAME_MIX])[0]
    strategy_tables.prepare(game_id)
    seats = seats_for(game_id, rng)
    recorder = StoreRecorder(store)  # (create and append are all a recorder calls)
    table = Table.new(game_id, seats, None, RandomDice(seed), recorder=recorder)
    bots = [get_bot(game_id, "medium" if s.kind == "human" else s.kind) for s in seats]
    while not table.over:
        seat = table.current_player()
        assert seat is not None
        table.act(bots[seat].choose(table.state))
    if recorder.problem is not None:
        raise RuntimeError(str(recorder.problem))
    store.save_reviews(table.save_id, REVIEW_VERSION, review_rows(table.record))
    return len(table.events)


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[int(len(ordered) * 0.99)]


def measure(
    games: int = GAMES, log: Callable[[str], None] = lambda text: None, warm_up: int = WARM_UP
) -> dict[str, float]:
    from pgcluster import PrivateCluster

    from app.records.postgres import PostgresStore
    from app.records.sqlite import SQLiteStore

    with PrivateCluster.start(durable=True) as cluster:
        if cluster is None:
            log("records on PostgreSQL: PostgreSQL is not installed (no initdb): skipped")
            return {}
        url = cluster.new_database()
        with tempfile.TemporaryDirectory(prefix="cubilete-bench-pg-") as scratch:
            path, full = Path(scratch) / "records.db", Path(scratch) / "full.db"
            sqlite, postgres = SQLiteStore(path), PostgresStore(url)
            sqlite_full = SQLiteStore(full, synchronous="FULL")
            each = Each(sqlite, postgres, sqlite_full)
            log(f"records on PostgreSQL: {warm_up} + {games} games into the stores ...")
            events = 0
            for seed in range(-warm_up, games):
                if seed == 0:  # (after the warm-up: the sizes grown from here are measured)
                    sizes = (sqlite_size(path), postgres_size(url))
                events += play(each, seed)
                if seed >= 0 and (seed + 1) % 100 == 0:
                    log(f"records on PostgreSQL: {seed + 1} of {games} games")
            for store in each.stores:
                store.close()
            grown = (sqlite_size(path) - sizes[0], postgres_size(url) - sizes[1])
    per_1000 = [size / 1e6 * 1000 / games for size in grown]
    sqlite_times, pg_times, full_times = each.times
    return {
        "pg_append_p99_s": p99(pg_times),
        "sqlite_append_p99_s": p99(sqlite_times),
        "pg_append_ratio": p99(pg_times) / p99(sqlite_times),
        "sqlite_full_append_p99_s": p99(full_times),
        "pg_append_ratio_to_full": p99(pg_times) / p99(full_times),
        "pg_append_p50_s": statistics.median(pg_times),
        "sqlite_append_p50_s": statistics.median(sqlite_times),
        "sqlite_full_append_p50_s": statistics.median(full_times),
        "pg_mb_per_1000_games": per_1000[1],
        "sqlite_mb_per_1000_games": per_1000[0],
        "pg_size_ratio": per_1000[1] / per_1000[0],
        "pg_bench_games": float(games),
        "pg_bench_events": float(events),
        "pg_bench_writes": float(len(pg_times)),
    }


def summary_rows(results: dict[str, float]) -> list[dict[str, Any]]:
    """Rows in bench/run.py's summary form."""
    rows = []
    for key, label, unit, beside in ROWS:
        value = results.get(key)
        other = results.get(beside) if beside is not None else None
        ratio = value / other if value is not None and other else None
        rows.append(
            dict(key=key, label=label, unit=unit, app=value, hello=other, ratio=ratio)
            | dict(target="", passed=None)
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help=f"games ({GAMES})")
    parser.add_argument(
        "--warm-up", type=int, default=WARM_UP, help=f"games before those measured ({WARM_UP})"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    results = measure(
        args.games, lambda text: print(text, file=sys.stderr, flush=True), args.warm_up
    )
    if args.json:
        print(json.dumps({"summary": summary_rows(results), "records_pg": results}, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:28} {value:12.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
