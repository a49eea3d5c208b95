"""The records' numbers (a script, not a test; also run by bench/run.py): appending an event,
resuming the longest realistic game, and the history and statistics on 10,000 finished games.

  .venv/bin/python bench/records.py                 # everything (≈ 10-20 min the first time)
  .venv/bin/python bench/records.py --games 1000    # a smaller database
  .venv/bin/python bench/records.py --json          # the summary rows as JSON

The 10,000 games are played by bots at full speed through the real record code (`Table` with a
`StoreRecorder` on an `SQLiteStore`, two processes writing at once), and each finished game's
reviews are cached as the app caches them when a game ends. They are written with
synchronous=OFF (no fsync: on this shared disk an fsync can take 5-300 ms, which would make
hours of it; the data written is the same); the appends are timed apart, with the app's own
synchronous mode (and FULL beside it).
The database is kept in bench/out/cache/, named by the number of games and a hash of the code
that shapes it (the records' schema, events, store and reviews, app/table.py, rules, bots, and
`MAKING`), and reused while that code is unchanged.

Every time here is measured on this shared machine (2 cores): expect noise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CACHE = ROOT / "bench" / "out" / "cache"
GAMES = 10_000
PEOPLE = ("Ana", "Ana", "Ana", "Bruno", "Carla", "Diego")
"""The people at the bench's tables (Ana plays half the games)."""
GAME_MIX = (("generala", 3), ("barco", 2), ("multiplicacion", 2), ("navio", 2), ("piratas", 1))
"""Games in the database, with their weights."""
LONGEST = ("navio", 8, {"rounds": 50, "mode": "points"})
MAKING = (1, PEOPLE, GAME_MIX)
"""What decides the generated games besides the code (the first number: how `seats_for` and
`play_game` make them; raise it when they change)."""
"""The longest realistic game: 8 players, Navío at its most rounds."""

TARGETS: dict[str, tuple[str, str, float]] = {
    "record_append_p99_ms": ("appending an event (commit included), p99", "ms", 5.0),
    "record_resume_cpu_s": ("resume 8-player Navío, 50 rounds (CPU)", "s", 0.150),
    "history_first_page_s": ("history, first page (10k games)", "s", 0.200),
    "stats_s": ("statistics queries (10k games)", "s", 0.500),
    "db_mib_10k": ("database size (10k games)", "MiB", 50.0),
    "history_screen_open_s": ("history screen, key to first page drawn (10k)", "s", 0.200),
    "stats_screen_open_s": ("statistics screen, key to figures drawn (10k)", "s", 0.500),
    "stats_screen_plot_s": ("statistics screen, key to its plot drawn (10k)", "s", 0.500),
}
"""key -> (label, unit, target: the figure must be at most this)."""


# -- making games -------------------------------------------------------------------------------
def seats_for(game_id: str, rng: random.Random) -> list[Any]:
    from app.table import Seat

    count = 2 if game_id == "piratas" else rng.choice((2, 2, 3, 4))
    levels = ("easy", "medium") if game_id == "piratas" else ("easy", "medium", "expert")
    seats = [Seat(name=rng.choice(PEOPLE), kind="human")]
    for index in range(1, count):
        level = rng.choice(levels)
        seats.append(Seat(name=f"{level.title()} bot {index}", kind=level))
    return seats


def play_game(path: str, seed: int, game_id: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """One game between bots at full speed through the real record code; its reviews cached
    as the app caches them. Returns the record's id and its number of events."""
    from app import strategy_tables
    from app.dice import RandomDice
    from app.records.recorder import StoreRecorder
    from app.records.reviews import REVIEW_VERSION, review_rows
    from app.records.sqlite import SQLiteStore
    from app.table import Seat, Table
    from bots import get_bot

    rng = random.Random(seed)
    if game_id is None:
        game_id = rng.choices([g for g, _w in GAME_MIX], [w for _g, w in GAME_MIX])[0]
    seats = kwargs.get("seats") or seats_for(game_id, rng)
    if isinstance(seats, int):
        seats = [Seat(name=f"Player {i + 1}", kind="medium") for i in range(seats)]
    strategy_tables.prepare(game_id)
    store = _stores.get(path)
    if store is None:  # made with fsync off (the data is the same; appends are timed apart),
        # and patient: on this shared machine a worker holding the write lock can lose its
        # core for seconds, and the app's 2 s busy timeout would stop a batch job of an hour
        store = _stores[path] = SQLiteStore(
            Path(path), check=False, synchronous="OFF", busy_timeout=120
        )
    recorder = StoreRecorder(store)
    table = Table.new(game_id, seats, kwargs.get("options"), RandomDice(seed), recorder=recorder)
    bots = [
        get_bot(game_id, "medium" if seat.kind == "human" else seat.kind, seed=i)
        for i, seat in enumerate(seats)
    ]
    while not table.over:
        seat = table.current_player()
        assert seat is not None
        table.act(bots[seat].choose(table.state))
    if recorder.problem is not None:
        raise RuntimeError(str(recorder.problem))
    if kwargs.get("review", True):
        store.save_reviews(table.save_id, REVIEW_VERSION, review_rows(table.record))
    return {"record_id": table.save_id, "events": len(table.events)}


_stores: dict[str, Any] = {}
"""One store per database per process (each worker process opens its own)."""


def play_games(path: str, seeds: Sequence[int]) -> int:
    events = 0
    for seed in seeds:
        events += play_game(path, seed)["events"]
    return events


def code_key() -> str:
    """A hash of the code that shapes the generated database."""
    digest = hashlib.sha256()
    digest.update(repr(MAKING).encode())
    records = ROOT / "app" / "records"
    sources = [ROOT / "app" / "table.py"]
    sources += [records / f"{name}.py" for name in ("schema", "events", "sqlite", "reviews")]
    for folder in ("rules", "bots"):
        sources += sorted((ROOT / folder).glob("*.py"))
    for source in sources:
        digest.update(source.relative_to(ROOT).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


def database(games: int, log: Callable[[str], None], workers: int = 2) -> tuple[Path, float]:
    """The cached database of `games` finished games (made if missing); the seconds it took
    to make (0 when cached)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"records-{games}-{code_key()}.db"
    if path.exists():
        log(f"records: using the cached {path.relative_to(ROOT)}")
        return path, 0.0
    for old in CACHE.glob(f"records-{games}-*"):
        old.unlink()
    making = path.with_suffix(".making")
    for leftover in CACHE.glob(f"{making.name}*"):
        leftover.unlink()
    from app.records.sqlite import SQLiteStore

    SQLiteStore(making).close()  # the schema, before the workers race for it
    log(f"records: playing {games:,} games with bots into {making.relative_to(ROOT)} ...")
    started = time.perf_counter()
    seeds = [list(range(i, games, workers)) for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        futures = []
        for worker_seeds in seeds:
            for at in range(0, len(worker_seeds), 200):
                futures.append(pool.submit(play_games, str(making), worker_seeds[at : at + 200]))
        for done, future in enumerate(futures, 1):
            future.result()
            log(f"records: {min(done * 200, games):,} of {games:,} games made")
    store = SQLiteStore(making, check=False)
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    os.replace(making, path)
    for leftover in CACHE.glob(f"{making.name}*"):
        leftover.unlink()
    return path, time.perf_counter() - started


# -- measuring ------------------------------------------------------------------------------------
class TimedStore:
    """A store whose writes are timed (wall clock, commit included)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.times: list[float] = []

    def create(self, *args: Any) -> None:
        self._timed(self.store.create, *args)

    def append(self, *args: Any) -> None:
        self._timed(self.store.append, *args)

    def _timed(self, call: Callable[..., None], *args: Any) -> None:
        start = time.perf_counter()
        call(*args)
        self.times.append(time.perf_counter() - start)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def measure_appends(path: Path, games: int = 30) -> dict[str, float]:
    """Every write of `games` games played on a copy of the big database, timed with the
    app's synchronous mode (`SYNCHRONOUS`) and, game by game in turns (so that both see the
    same load on the shared disk), with FULL for comparison."""
    from app import strategy_tables
    from app.dice import RandomDice
    from app.records.recorder import StoreRecorder
    from app.records.sqlite import SYNCHRONOUS, SQLiteStore
    from app.table import Table
    from bots import get_bot

    modes = (SYNCHRONOUS, "FULL") if SYNCHRONOUS != "FULL" else ("FULL", "NORMAL")
    times: dict[str, list[float]] = {mode: [] for mode in modes}
    for seed in range(games):
        for mode in modes if seed % 2 == 0 else modes[::-1]:
            rng = random.Random(10**6 + seed)
            game_id = rng.choices([g for g, _w in GAME_MIX], [w for _g, w in GAME_MIX])[0]
            strategy_tables.prepare(game_id)
            store = TimedStore(SQLiteStore(path, check=False, synchronous=mode))
            seats = seats_for(game_id, rng)
            recorder = StoreRecorder(store)
            table = Table.new(game_id, seats, None, RandomDice(seed), recorder=recorder)
            bots = [get_bot(game_id, "medium" if s.kind == "human" else s.kind) for s in seats]
            while not table.over:
                seat = table.current_player()
                assert seat is not None
                table.act(bots[seat].choose(table.state))
            times[mode] += store.times
            store.close()
    results = {"record_appends": float(len(times[modes[0]]))}
    for mode in modes:
        key = "record_append" if mode == SYNCHRONOUS else f"record_append_{mode.lower()}"
        timed = sorted(times[mode])
        results[f"{key}_p99_ms"] = timed[int(len(timed) * 0.99)] * 1000
        results[f"{key}_p50_ms"] = statistics.median(timed) * 1000
        results[f"{key}_max_ms"] = timed[-1] * 1000
    return results


RESUME_PROBE = """
import json, sys, time
from pathlib import Path
import app.table, app.records.replay, rules  # what the app has loaded when it resumes
from app.records.book import RecordBook
from app.records.sqlite import SQLiteStore
store = SQLiteStore(Path(sys.argv[1]), check=False)
(game,) = store._db.execute(
    "SELECT game_id FROM records WHERE record_id = ?", (sys.argv[2],)
).fetchone()
rules.get_game(game)  # the game's rules: loaded with the game's screen
book = RecordBook(Path(sys.argv[1]))
book._store, book._opened = store, True
cpu, wall = time.process_time(), time.perf_counter()
table = book.resume(sys.argv[2])
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(json.dumps({"cpu": cpu, "wall": wall, "events": len(table.events), "lines": len(table.log)}))
"""


def resume_in_fresh_processes(path: Path, record_id: str, runs: int) -> list[dict[str, Any]]:
    results = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", RESUME_PROBE, str(path), record_id],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        results.append(json.loads(done.stdout))
    return results


def measure_resume(path: Path, runs: int = 5) -> dict[str, float]:
    """Resume the longest realistic game in fresh processes: load, replay, narrate the log.
    Also the longest game the database holds (a long Piratas, for information)."""
    from app.records.sqlite import SQLiteStore

    game_id, players, options = LONGEST
    longest = play_game(str(path), 7, game_id, seats=players, options=options, review=False)
    results = resume_in_fresh_processes(path, longest["record_id"], runs)
    store = SQLiteStore(path, check=False)
    (record_id, events, game) = store._db.execute(
        "SELECT record_id, last_seq, game_id FROM records ORDER BY last_seq DESC LIMIT 1"
    ).fetchone()
    store.close()
    biggest = resume_in_fresh_processes(path, record_id, runs)
    return {
        "record_resume_cpu_s": statistics.median(r["cpu"] for r in results),
        "record_resume_wall_s": statistics.median(r["wall"] for r in results),
        "record_resume_events": float(longest["events"]),
        "record_resume_lines": float(results[0]["lines"]),
        "record_resume_biggest_cpu_s": statistics.median(r["cpu"] for r in biggest),
        "record_resume_biggest_events": float(events),
        f"record_resume_biggest_is_{game}": 1.0,
    }


def measure_queries(path: Path, runs: int = 5) -> dict[str, float]:
    """The history's first page and the statistics, each on a freshly opened store (medians
    of `runs`); opening itself (with the integrity check) is timed too."""
    from app.records.sqlite import SQLiteStore

    opened, first_pages, stats = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        store = SQLiteStore(path)
        opened.append(time.perf_counter() - start)
        start = time.perf_counter()
        for game_id, player in ((None, None), ("generala", None), (None, "Ana")):
            page = store.history(game_id=game_id, player=player, limit=50)
            store.count_finished(game_id=game_id, player=player)
            assert len(page.items) == 50
        first_pages.append((time.perf_counter() - start) / 3)
        start = time.perf_counter()
        store.players()
        store.player_stats()
        for game_id in (None, "generala"):
            store.player_stats(game_id=game_id, player="Ana")
            store.loss_over_time(player="Ana", game_id=game_id)
            store.costliest_mistakes(player="Ana", game_id=game_id)
        store.score_distribution(game_id="generala", player="Ana")
        stats.append(time.perf_counter() - start)
        store.close()
    return {
        "history_first_page_s": statistics.median(first_pages),
        "stats_s": statistics.median(stats),
        "open_with_integrity_check_s": statistics.median(opened),
    }


def database_size(path: Path) -> dict[str, float]:
    from app.records.sqlite import SQLiteStore

    store = SQLiteStore(path, check=False)
    (games,) = store._db.execute("SELECT COUNT(*) FROM records WHERE status = 'over'").fetchone()
    (events,) = store._db.execute("SELECT SUM(last_seq) FROM records").fetchone()
    store.close()
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    return {"db_mib_10k": size / 2**20, "db_games": float(games), "db_events": float(events)}


def measure(games: int = GAMES, log: Callable[[str], None] = lambda text: None) -> dict[str, float]:
    source, made = database(games, log)
    results: dict[str, float] = {"db_make_s": made}
    results |= database_size(source)
    with tempfile.TemporaryDirectory(prefix="cubilete-bench-records-", dir=CACHE) as scratch:
        copy = Path(scratch) / "records.db"
        shutil.copyfile(source, copy)  # the appends and the long game go to a copy
        log("records: history and statistics queries")
        results |= measure_queries(copy)
        log("records: appends")
        results |= measure_appends(copy)
        log("records: resuming the longest game")
        results |= measure_resume(copy)
    log("records: the history and statistics screens")
    import records_screens  # (bench/ is on sys.path when run from there)

    results |= records_screens.measure(source)
    return results


def summary_rows(results: dict[str, float]) -> list[dict[str, Any]]:
    """Rows in bench/run.py's summary form (no hello column: these targets are absolute)."""
    rows = []
    for key, (label, unit, target) in TARGETS.items():
        value = results.get(key)
        rows.append(
            dict(key=key, label=label, unit=unit, app=value, hello=None, ratio=None)
            | dict(
                target=f"≤ {target:g} {unit}",
                passed=None if value is None else value <= target,
            )
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="finished games (10,000)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    results = measure(args.games, lambda text: print(text, file=sys.stderr, flush=True))
    rows = summary_rows(results)
    if args.json:
        print(json.dumps({"summary": rows, "records": results}, indent=2))
    else:
        for row in rows:
            value = row["app"]
            shown = "-" if value is None else f"{value:.3f} {row['unit']}"
            verdict = {True: "PASS", False: "FAIL", None: ""}[row["passed"]]
            print(f"{row['label']:45} {shown:>14}  {row['target']:12} {verdict}")
        for key, value in results.items():
            if key not in TARGETS:
                print(f"  {key:43} {value:14.4f}")
    return 1 if any(row["passed"] is False for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
