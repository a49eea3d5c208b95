"""Shared tables under load (a script, not a test; also run by bench/run.py): a real
`cubilete server` process, and 200 simulated people at 50 four-seat Generala tables, each a
client of its own (`app.server.client.ServerClient`, over TCP as a front end's user) that
rebuilds its table's game from the events it is sent (through `rules`) and, when its turn
comes, thinks for a while (0.2-0.8 s, as a quick person) and then acts.

Measured:
  shared_event_p50_s / p99_s   from a person's `Act` leaving their client to the moment the
                               last of the four clients at that table has the event of that
                               decision (all clients live in this one process: one clock)
  shared_events_lost           events a client never got, of those its table sent it
  shared_events_duplicated     events a client got twice
  shared_events_out_of_order   events that came after a later one
  shared_rss_per_table_mib     the server's RSS with the 50 tables playing, minus its RSS
                               before any table, over 50
  shared_cpu_per_table_s       the server's CPU seconds (user + system) per table per minute
                               of play
The bench process and the server share this machine's 2 cores (the clients' own decoding
and replaying runs beside the server): the latency includes that.

  .venv/bin/python bench/shared_tables.py [--tables 50] [--seconds 30] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SECRET = "a-secret-for-the-bench-only-0123456789"
SEATS = 4
TARGETS = {
    "shared_event_p99_s": ("shared: act to every client, p99", "s", 0.05),
    "shared_events_lost": ("shared: events lost", "events", 0),
    "shared_events_duplicated": ("shared: events duplicated", "events", 0),
    "shared_events_out_of_order": ("shared: events out of order", "events", 0),
}


class BenchError(RuntimeError):
    pass


# -- the server process --------------------------------------------------------------------------
class ServerProcess:
    """A `cubilete server` process on a socket in `where` and on TCP (its port in `tcp` once
    it listens), with `options` of its own."""

    def __init__(self, where: Path, options: Sequence[str] = ()) -> None:
        self.where = where
        self.log_path = where / "server.log"
        env = os.environ | {"CUBILETE_SERVER_SECRET": SECRET}
        command = [
            sys.executable,
            *("-m", "app", "server", "--socket", str(where / "s.sock")),
            *("--data-dir", str(where / "data"), "--listen", "127.0.0.1:0"),
            *options,
        ]
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env
            )
        deadline = time.monotonic() + 30
        while True:
            found = re.search(r"on TCP (\S+):(\d+)", self.log())
            if found:
                self.tcp = (found.group(1), int(found.group(2)))
                return
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise BenchError(f"the server did not start: {self.log()[-500:]}")
            time.sleep(0.05)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def rss_mib(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        (kib,) = re.findall(r"VmRSS:\s+(\d+) kB", status)
        return int(kib) / 1024

    def cpu_s(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)


# -- a simulated person -----------------------------------------------------------------------
class Person:
    """A client at one table: its view of the game, rebuilt from the events."""

    def __init__(self, client: Any, name: str, rng: random.Random, stamps: dict) -> None:
        from rules import get_game

        self.client = client
        self.name = name
        self.rng = rng
        self.stamps = stamps
        """(table, record seq) -> {person name: when it arrived}."""
        self.game = get_game("generala")
        self.table = ""
        self.seat: int | None = None
        self.names: dict[int, str] = {}
        self.state: Any = None
        self.record = 0
        self.last_seq = 0
        self.received = 0
        self.duplicated = 0
        self.out_of_order = 0
        self.turn = asyncio.Event()
        self.think = (0.2, 0.8)
        """Seconds a person thinks before acting, at least and at most."""

    def joined(self, answer: Any) -> None:
        self.seat = answer.seat

    async def listen(self) -> None:
        from app.server.protocol import GameEvent, Seated, TableEvent

        while True:
            message = await self.client.inbox.get()
            now = time.perf_counter()
            if not isinstance(message, TableEvent):
                continue
            if message.seq <= self.last_seq:
                self.duplicated += 1
                continue
            if message.seq != self.last_seq + 1:
                self.out_of_order += 1
            self.last_seq = message.seq
            self.received += 1
            self.table = message.table
            body = message.body
            if isinstance(body, Seated):
                self.names[body.seat] = body.name
            elif isinstance(body, GameEvent):
                seq, kind, _seat, data = body.record
                self.stamps.setdefault((self.table, seq), {})[self.name] = now
                if self.state is None:
                    names = [self.names.get(seat, "?") for seat in range(SEATS)]
                    self.state = self.game.new_game(names, None)
                if kind == "action":
                    self.state = self.game.apply(self.state, data)  # type: ignore[arg-type]  # an action's JSON
                elif kind == "chance":
                    self.state = self.game.apply_chance(self.state, tuple(data))  # type: ignore[arg-type]  # faces
                self.record = seq
                if self.my_turn():
                    self.turn.set()

    def my_turn(self) -> bool:
        game, state = self.game, self.state
        return (
            state is not None
            and not game.is_over(state)
            and game.pending_throw(state) is None
            and game.current_player(state) == self.seat
        )

    async def play(self, until: float, sent: list[tuple[str, int, float]]) -> None:
        from app.server.client import ServerError
        from app.server.protocol import Act

        while time.perf_counter() < until:
            try:
                await asyncio.wait_for(self.turn.wait(), max(0.01, until - time.perf_counter()))
            except TimeoutError:
                return
            self.turn.clear()
            if not self.my_turn():
                continue
            await asyncio.sleep(self.rng.uniform(*self.think))  # a person thinks
            action = self.rng.choice(self.game.legal_actions(self.state))
            assert self.seat is not None
            request = Act(table=self.table, seat=self.seat, action=action.model_dump(mode="json"))
            seq = self.record + 1
            start = time.perf_counter()
            try:
                await self.client.request(request)
            except ServerError as error:
                raise BenchError(f"{self.name}: refused: {error}") from None
            sent.append((self.table, seq, start))



async def play_for(
    people: list[Person], listeners: list[asyncio.Task[None]], seconds: float
) -> tuple[list[tuple[str, int, float]], float]:
    """Every person plays their turns for `seconds` (those whose turn it is first): the actions
    sent (table, event number, when) and the wall time it took. BenchError if a client's
    listener failed."""
    start = time.perf_counter()
    sent: list[tuple[str, int, float]] = []
    for person in people:
        if person.my_turn():
            person.turn.set()
    await asyncio.gather(*(person.play(start + seconds, sent) for person in people))
    for task in listeners:
        if task.done() and task.exception() is not None:
            raise BenchError(f"a client failed: {task.exception()!r}")
    return sent, time.perf_counter() - start

async def _run(tables: int, seconds: float, log: Callable[[str], None]) -> dict[str, float]:
    from app.server.client import ServerClient
    from app.server.protocol import Join, ListTables, OpenTable, SeatSpec, Tables

    where = Path(tempfile.mkdtemp(prefix="cs-bench-", dir="/tmp"))
    server = ServerProcess(where)
    people: list[Person] = []
    listeners: list[asyncio.Task[None]] = []
    try:
        await asyncio.sleep(1.0)
        rss_before = server.rss_mib()
        stamps: dict[tuple[str, int], dict[str, float]] = {}
        rng = random.Random(2026)
        host, port = server.tcp
        for number in range(tables * SEATS):
            name = f"p{number:03d}"
            client = await ServerClient.connect_tcp(host, port, secret=SECRET, user=name)
            people.append(Person(client, name, random.Random(rng.random()), stamps))
        listeners = [asyncio.create_task(person.listen()) for person in people]
        log(f"shared tables: {len(people)} clients connected; opening {tables} tables")
        for index in range(tables):
            four = people[index * SEATS : (index + 1) * SEATS]
            opened = await four[0].client.request(
                OpenTable(game="generala", seats=[SeatSpec()] * SEATS, sit=0)
            )
            four[0].joined(opened)
            for person in four[1:]:
                person.joined(await person.client.request(Join(table=opened.table.id)))  # type: ignore[union-attr]  # an Opened
        cpu_start = server.cpu_s()
        sent, wall = await play_for(people, listeners, seconds)
        cpu = server.cpu_s() - cpu_start
        rss_playing = server.rss_mib()
        # every client must end with every event its table sent
        answer = await people[0].client.request(ListTables())
        assert isinstance(answer, Tables)
        events = {entry.id: entry.events for entry in answer.tables}
        deadline = time.perf_counter() + 10
        while any(p.record < events[p.table] for p in people) and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        lost = sum(max(0, events[p.table] - p.record) for p in people)
        latencies = []
        for table, seq, start in sent:
            arrived = stamps.get((table, seq), {})
            at_table = [p.name for p in people if p.table == table]
            if len(arrived) < len(at_table):
                continue  # counted as lost
            latencies.append(max(arrived.values()) - start)
        if not latencies:
            raise BenchError("no action was measured")
        quantiles = statistics.quantiles(latencies, n=100)
        results = {
            "shared_tables": float(tables),
            "shared_clients": float(len(people)),
            "shared_actions": float(len(sent)),
            "shared_seconds": wall,
            "shared_event_p50_s": statistics.median(latencies),
            "shared_event_p99_s": quantiles[98],
            "shared_event_max_s": max(latencies),
            "shared_events_delivered": float(sum(p.received for p in people)),
            "shared_events_lost": float(lost),
            "shared_events_duplicated": float(sum(p.duplicated for p in people)),
            "shared_events_out_of_order": float(sum(p.out_of_order for p in people)),
            "shared_rss_before_mib": rss_before,
            "shared_rss_playing_mib": rss_playing,
            "shared_rss_per_table_mib": (rss_playing - rss_before) / tables,
            "shared_cpu_s": cpu,
            "shared_cpu_per_table_s": cpu / tables * 60 / wall,
        }
        log(
            "shared tables: "
            + ", ".join(f"{key}={value:.4g}" for key, value in results.items())
        )
        return results
    finally:
        for task in listeners:
            task.cancel()
        for person in people:
            with contextlib.suppress(Exception):
                await person.client.close()
        server.stop()
        shutil.rmtree(where, ignore_errors=True)


def measure(
    tables: int = 50, seconds: float = 30.0, log: Callable[[str], None] = lambda text: None
) -> dict[str, float]:
    return asyncio.run(_run(tables, seconds, log))


def summary_rows(results: dict[str, float]) -> list[dict[str, Any]]:
    """Rows in bench/run.py's summary form (absolute targets: no hello column)."""
    rows = []
    for key, (label, unit, target) in TARGETS.items():
        value = results.get(key)
        rows.append(
            dict(key=key, label=label, unit=unit, app=value, hello=None, ratio=None)
            | dict(
                target=f"≤ {target:g} {unit}" if unit != "events" else f"{target:g}",
                passed=None if value is None else value <= target,
            )
        )
    for key, label in (
        ("shared_rss_per_table_mib", "shared: server RSS a table"),
        ("shared_cpu_per_table_s", "shared: server CPU a table-minute"),
    ):
        unit = "MiB" if key.endswith("mib") else "s"
        value = results.get(key)
        rows.append(
            dict(key=key, label=label, unit=unit, app=value, hello=None, ratio=None)
            | dict(target="", passed=None)
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="four-seat tables (50)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of play (30)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    results = measure(args.tables, args.seconds, lambda text: print(text, file=sys.stderr))
    rows = summary_rows(results)
    if args.json:
        print(json.dumps({"summary": rows, "shared": results}, indent=2))
    else:
        for row in rows:
            value = row["app"]
            shown = "-" if value is None else f"{value:.4g} {row['unit']}"
            verdict = {True: "PASS", False: "FAIL", None: ""}[row["passed"]]
            print(f"{row['label']:45} {shown:>14}  {row['target']:12} {verdict}")
    failed = any(row["passed"] is False for row in rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
