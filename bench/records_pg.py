"""The records on PostgreSQL against SQLite, in one run (a script, not a test; also run by
bench/run.py): appending an event (commit included), and how much each database grows per
1,000 games.

  .venv/bin/python bench/records_pg.py               # 1,000 games (≈ 5 min)
  .venv/bin/python bench/records_pg.py --games 100   # a quicker look
  .venv/bin/python bench/records_pg.py --json

The games are played once, by bots through the real record code (`Table` with a
`StoreRecorder`), and every write goes to both stores: a fresh SQLite file with the app's
settings (WAL, synchronous=NORMAL) and a fresh database of a private PostgreSQL cluster started
here with PostgreSQL's defaults (fsync on, synchronous_commit on: each commit waits for its
WAL to reach the disk), on a Unix socket. Both are in the same temp dir on the same disk; each
write is timed on each store, the order of the two alternating from one write to the next, so
both see the same load. Each finished game's reviews are cached in both, as the app does.

Growth per 1,000 games: each database's size after the games less its size before, scaled.
SQLite's is the file with its WAL checkpointed; PostgreSQL's is `pg_database_size` after a
plain VACUUM (what autovacuum keeps it at: space freed by the packed events is reused, not
returned), so the figure is what a long-running server's database grows by.

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

ROWS: tuple[tuple[str, str, str, str | None], ...] = (
    ("pg_append_p99_s", "PostgreSQL append p99 (commit incl.)", "s", "sqlite_append_p99_s"),
    ("pg_append_ratio", "PostgreSQL/SQLite append p99", "×", None),
    ("pg_mb_per_1000_games", "PostgreSQL growth per 1,000 games", "MB", None),
    ("sqlite_mb_per_1000_games", "SQLite growth per 1,000 games", "MB", None),
)
"""Rows of the summary: key, label, unit, and the SQLite figure shown beside it (in the hello
column, with the ratio). No targets: they say what switching to PostgreSQL costs."""


class Both:
    """A store that writes to two: each write timed on each, their order alternating."""

    def __init__(self, first: Any, second: Any) -> None:
        self.stores = (first, second)
        self.times: tuple[list[float], list[float]] = ([], [])
        self._turn = 0

    def _each(self, name: str, *args: Any) -> None:
        self._turn ^= 1
        for index in (0, 1) if self._turn else (1, 0):
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


def play(store: Both, seed: int) -> int:
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


def measure(games: int = GAMES, log: Callable[[str], None] = lambda text: None) -> dict[str, float]:
    from pgcluster import PrivateCluster

    from app.records.postgres import PostgresStore
    from app.records.sqlite import SQLiteStore

    with PrivateCluster.start(durable=True) as cluster:
        if cluster is None:
            log("records on PostgreSQL: PostgreSQL is not installed (no initdb): skipped")
            return {}
        url = cluster.new_database()
        with tempfile.TemporaryDirectory(prefix="cubilete-bench-pg-") as scratch:
            path = Path(scratch) / "records.db"
            sqlite, postgres = SQLiteStore(path), PostgresStore(url)
            sizes = (sqlite_size(path), postgres_size(url))
            both = Both(sqlite, postgres)
            log(f"records on PostgreSQL: {games} games into both stores ...")
            events = 0
            for seed in range(games):
                events += play(both, seed)
                if (seed + 1) % 50 == 0:
                    log(f"records on PostgreSQL: {seed + 1} of {games} games")
            sqlite.close()
            postgres.close()
            grown = (sqlite_size(path) - sizes[0], postgres_size(url) - sizes[1])
    per_1000 = [size / 1e6 * 1000 / games for size in grown]
    sqlite_times, pg_times = both.times
    return {
        "pg_append_p99_s": p99(pg_times),
        "sqlite_append_p99_s": p99(sqlite_times),
        "pg_append_ratio": p99(pg_times) / p99(sqlite_times),
        "pg_append_p50_s": statistics.median(pg_times),
        "sqlite_append_p50_s": statistics.median(sqlite_times),
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
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    results = measure(args.games, lambda text: print(text, file=sys.stderr, flush=True))
    if args.json:
        print(json.dumps({"summary": summary_rows(results), "records_pg": results}, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:28} {value:12.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
