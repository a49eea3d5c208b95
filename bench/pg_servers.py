"""Several table servers on one PostgreSQL database (a script, not a test; also run by
bench/run.py): throughput and latency of actions with 1, 2 and 3 `cubilete server`
processes on one PostgreSQL (a private cluster, durable: PostgreSQL's defaults), as ratios
to one server on SQLite (its data dir's records.db) in the same run; and the failover time.

Each configuration plays the same load: `--tables` four-seat Generala tables, their people
spread over the servers (a table and its four people on one server: each table is played by
one server, the holder of its lease), each person acting as soon as their turn comes (after
0.06 s: a connection may send 20 messages a second), for `--seconds`. All clients live in
this one process (one clock), on the same 2 cores as the servers and PostgreSQL.

  pg_servers_throughput_ratio_N   actions a second with N servers on PostgreSQL, over one
                                  server on SQLite
  pg_servers_p99_ratio_N          p99 of act -> the four clients at the table have the event,
                                  with N servers on PostgreSQL, over one server on SQLite
  pg_servers_spread_*_ratio_N     the same with each table's four people at different servers
                                  (N = 2, 3): their moves validated and appended by their own
                                  server, told through the table's server
  pg_failover_s                   a server killed with -9 while a table of bots plays on it
                                  (a lease of 3 s): from the kill to another server holding
                                  the table's lease (it rebuilt it and plays it on)

  .venv/bin/python bench/pg_servers.py [--tables 8] [--seconds 10] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from shared_tables import SECRET, BenchError, Person, ServerProcess, play_for  # noqa: E402

SEATS = 4  # (shared_tables.Person's tables are four-seat Generala)
FAILOVER_LEASE = 3.0
THINK = 0.06
"""Seconds each person waits before acting: as fast as a connection may send (the server
takes 20 messages a second from one connection, `Limits`)."""


class Server(ServerProcess):
    """A `cubilete server` process on TCP, its records where `db` says (None: its data
    dir's SQLite file)."""

    def __init__(self, where: Path, db: str | None, lease: float = 10.0) -> None:
        options = ["--bot-pace", "0.05", "--lease", str(lease)]
        if db is not None:
            options += ["--db", db]
        super().__init__(where, options)


@contextlib.contextmanager
def servers(count: int, db: str | None, lease: float = 10.0) -> Iterator[list[Server]]:
    dirs = [Path(tempfile.mkdtemp(prefix="cs-pgb-", dir="/tmp")) for _ in range(count)]
    started: list[Server] = []
    try:
        for where in dirs:
            started.append(Server(where, db, lease))
        yield started
    finally:
        for server in started:
            server.stop()
        for where in dirs:
            shutil.rmtree(where, ignore_errors=True)


async def _listed(client: Any, table: str, timeout: float = 20.0) -> None:
    """Wait until `client`'s server lists `table` (another server's: it looks every second)."""
    from app.server.protocol import ListTables, Tables

    began = time.perf_counter()
    while True:
        answer = await client.request(ListTables())
        if isinstance(answer, Tables) and any(entry.id == table for entry in answer.tables):
            return
        if time.perf_counter() - began > timeout:
            raise BenchError(f"table {table} never listed at another server")
        await asyncio.sleep(0.1)


async def _load(
    running: list[Server], tables: int, seconds: float, spread: bool = False
) -> tuple[float, float, int]:
    """Actions a second, p99 seconds (act -> every client at the table has the event),
    actions. `spread`: each table's people are clients of different servers (seat i of
    table t at server t + i): the table is played by the server it was opened on, and the
    others' moves are validated and appended by their own servers."""
    from app.server.client import ServerClient
    from app.server.protocol import Join, OpenTable, SeatSpec

    stamps: dict[tuple[str, int], dict[str, float]] = {}
    rng = random.Random(2026)
    people: list[Person] = []
    listeners: list[asyncio.Task[None]] = []
    try:
        for index in range(tables):
            pair = []
            for seat in range(SEATS):
                server = running[(index + (seat if spread else 0)) % len(running)]
                name = f"p{index:03d}{seat}"
                client = await ServerClient.connect_tcp(*server.tcp, secret=SECRET, user=name)
                person = Person(client, name, random.Random(rng.random()), stamps)
                person.think = (THINK, THINK)
                pair.append(person)
            people += pair
            listeners += [asyncio.create_task(person.listen()) for person in pair]
            opened = await pair[0].client.request(
                OpenTable(game="generala", seats=[SeatSpec()] * SEATS, sit=0)
            )
            pair[0].joined(opened)
            for other in pair[1:]:
                if spread:
                    await _listed(other.client, opened.table.id)  # type: ignore[union-attr]  # an Opened
                other.joined(await other.client.request(Join(table=opened.table.id)))  # type: ignore[union-attr]  # an Opened
        await asyncio.sleep(0.5)
        sent, wall = await play_for(people, listeners, seconds)
        await asyncio.sleep(0.5)
        latencies = [
            max(arrived.values()) - at
            for table, seq, at in sent
            if len(arrived := stamps.get((table, seq), {})) == SEATS
        ]
        if len(latencies) < 100:
            raise BenchError(f"only {len(latencies)} actions measured")
        return len(sent) / wall, statistics.quantiles(latencies, n=100)[98], len(sent)
    finally:
        for task in listeners:
            task.cancel()
        for person in people:
            with contextlib.suppress(Exception):
                await person.client.close()


async def _failover(db: str, lease: float) -> float:
    """Seconds from a server's kill -9 to another one listing its table of bots."""
    from app.server.client import ServerClient
    from app.server.protocol import OpenTable, SeatSpec

    with servers(2, db, lease) as (a, b):
        client = await ServerClient.connect_tcp(*a.tcp, secret=SECRET, user="tv")
        opened = await client.request(
            OpenTable(
                game="generala", seats=[SeatSpec(kind="easy"), SeatSpec(kind="easy")], sit=None
            )
        )
        table = opened.table.id  # type: ignore[union-attr]  # an Opened
        await client.close()
        await asyncio.sleep(1.0)  # it plays on a
        os.kill(a.process.pid, signal.SIGKILL)
        killed = time.perf_counter()
        import psycopg

        name = f"{socket.gethostname()}:{(b.where / 's.sock').resolve()}"
        with psycopg.connect(db, autocommit=True) as conn:
            while time.perf_counter() - killed < 10 * lease:
                row = conn.execute(
                    "SELECT holder FROM server_leases WHERE table_id = %s AND expires >= now()",
                    (table,),
                ).fetchone()
                if row is not None and row[0] == name:
                    return time.perf_counter() - killed
                await asyncio.sleep(0.01)
        raise BenchError("no server took the table over")


def measure(
    tables: int = 8,
    seconds: float = 10.0,
    log: Callable[[str], None] = lambda text: None,
    failover_lease: float = FAILOVER_LEASE,
) -> dict[str, float]:
    from pgcluster import PrivateCluster

    results: dict[str, float] = {}
    with servers(1, None) as running:
        rate, p99, actions = asyncio.run(_load(running, tables, seconds))
    results["sqlite_actions"] = float(actions)
    log(f"pg servers: sqlite, 1 server: {rate:.1f} actions/s, p99 {p99 * 1000:.1f} ms")
    results |= {"sqlite_actions_per_s": rate, "sqlite_p99_s": p99}
    with PrivateCluster.start(durable=True) as cluster:
        if cluster is None:
            raise BenchError("PostgreSQL is not installed")
        for count in (1, 2, 3):
            url = cluster.new_database()
            with servers(count, url) as running:
                rate_n, p99_n, actions_n = asyncio.run(_load(running, tables, seconds))
            cluster.drop(url)
            log(
                f"pg servers: postgresql, {count} servers: {rate_n:.1f} actions/s, "
                f"p99 {p99_n * 1000:.1f} ms"
            )
            if count > 1:  # every table's people at different servers
                url = cluster.new_database()
                with servers(count, url) as running:
                    rate_m, p99_m, actions_m = asyncio.run(
                        _load(running, tables, seconds, spread=True)
                    )
                cluster.drop(url)
                log(
                    f"pg servers: postgresql, {count} servers, people spread: "
                    f"{rate_m:.1f} actions/s, p99 {p99_m * 1000:.1f} ms"
                )
                results |= {
                    f"pg_servers_spread_actions_per_s_{count}": rate_m,
                    f"pg_servers_spread_p99_s_{count}": p99_m,
                    f"pg_servers_spread_actions_{count}": float(actions_m),
                    f"pg_servers_spread_throughput_ratio_{count}": rate_m / rate,
                    f"pg_servers_spread_p99_ratio_{count}": p99_m / p99,
                }
            results |= {
                f"pg_servers_actions_per_s_{count}": rate_n,
                f"pg_servers_p99_s_{count}": p99_n,
                f"pg_servers_actions_{count}": float(actions_n),
                f"pg_servers_throughput_ratio_{count}": rate_n / rate,
                f"pg_servers_p99_ratio_{count}": p99_n / p99,
            }
        url = cluster.new_database()
        results["pg_failover_s"] = asyncio.run(_failover(url, failover_lease))
        results["pg_failover_lease_s"] = failover_lease
        log(f"pg servers: failover {results['pg_failover_s']:.2f} s (lease {failover_lease} s)")
    return results


def summary_rows(results: dict[str, float]) -> list[dict[str, Any]]:
    """Rows in bench/run.py's summary form (ratios to one server on SQLite)."""
    rows = []
    for count in (1, 2, 3):
        for key, label in (
            (f"pg_servers_throughput_ratio_{count}", f"pg: {count} servers, actions/s ÷ SQLite"),
            (f"pg_servers_p99_ratio_{count}", f"pg: {count} servers, p99 ÷ SQLite"),
        ):
            rows.append(
                dict(key=key, label=label, unit="×", app=results.get(key), hello=None)
                | dict(ratio=None, target="", passed=None)
            )
    for count in (2, 3):
        for key, label in (
            (
                f"pg_servers_spread_throughput_ratio_{count}",
                f"pg: {count} servers, each table's people spread, actions/s ÷ SQLite",
            ),
            (
                f"pg_servers_spread_p99_ratio_{count}",
                f"pg: {count} servers, each table's people spread, p99 ÷ SQLite",
            ),
        ):
            rows.append(
                dict(key=key, label=label, unit="×", app=results.get(key), hello=None)
                | dict(ratio=None, target="", passed=None)
            )
    lease = results.get("pg_failover_lease_s", FAILOVER_LEASE)
    rows.append(
        dict(key="pg_failover_s", label="pg: failover after kill -9", unit="s")
        | dict(app=results.get("pg_failover_s"), hello=None, ratio=None)
        | dict(target=f"≤ lease {lease:g} s + {lease / 3:g} s", passed=None)
    )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8, help="four-seat tables (8)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of play (10)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    results = measure(args.tables, args.seconds, lambda text: print(text, file=sys.stderr))
    if args.json:
        print(json.dumps({"summary": summary_rows(results), "pg_servers": results}, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:36} {value:.4g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
