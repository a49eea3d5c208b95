"""Where a key's time goes: the bench's scripted Generala game, traced inside the app.

`bench/run.py` measures each key of the scripted game from outside (the pty); this script
plays the same keys in the same kind of pty, but runs the app under a tracer (measurement
only: it wraps a few of Textual's methods with timers in the child process, the app itself is
unchanged) and prints, for each kind of key, its median latency, and for the slowest keys
their timeline: the key read by the driver, every message handled in more than 0.3 ms, every
layout (with what asked for it) and paint of the screen (wall and CPU time, and the widgets
repainted), the coach's worker jobs, garbage collections, and the bytes the writer thread
flushed. Times are milliseconds from the key being written.

Usage: .venv/bin/python bench/key_trace.py [--slowest 5] [--keys 91,100] [--runs 1]
(run from the project's root; `--keys`: places in the game, 0-based, as in
`key_latency_slowest`). docs/performance.md ("Key latency") says what it found.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TRACE_ENV = "CUBILETE_KEY_TRACE"


# -- the child: the app under the tracer ------------------------------------------------------
def child(argv: list[str]) -> int:  # pragma: no cover - runs in the pty
    import atexit
    import gc
    import traceback

    os.environ.setdefault("TEXTUAL_FPS", "240")  # (as `app` sets it, before Textual loads)
    import textual.message_pump as message_pump
    import textual.screen as screen_module
    import textual.widget as widget_module
    import textual.worker as worker_module
    from textual.drivers import _writer_thread, linux_driver

    trace: list[list[Any]] = []
    clock = time.perf_counter

    def note(*fields: Any) -> None:
        trace.append([clock(), *fields])

    read = linux_driver.LinuxDriver.process_message

    def process_message(self: Any, message: Any) -> None:
        note("key", type(message).__name__, getattr(message, "key", ""))
        read(self, message)

    linux_driver.LinuxDriver.process_message = process_message  # type: ignore[method-assign]  # a timer

    run_writer = _writer_thread.WriterThread.run

    def writer_run(self: Any) -> None:
        file = self._file

        class Counted:
            pending = 0

            def write(self, text: str) -> None:
                Counted.pending += len(text.encode())
                file.write(text)

            def flush(self) -> None:
                file.flush()
                note("flush", Counted.pending)
                Counted.pending = 0

        self._file = Counted()
        run_writer(self)

    _writer_thread.WriterThread.run = writer_run  # type: ignore[method-assign]  # a timer

    dispatch = message_pump.MessagePump._dispatch_message

    async def timed_dispatch(self: Any, message: Any) -> None:
        start, cpu = clock(), time.thread_time()
        try:
            await dispatch(self, message)
        finally:
            if clock() - start > 0.0003:
                name = f"{type(self).__name__}#{getattr(self, 'id', None)}"
                spent = (clock() - start, time.thread_time() - cpu)
                trace.append([start, "handle", name, type(message).__name__, *spent])

    message_pump.MessagePump._dispatch_message = timed_dispatch  # type: ignore[method-assign]  # a timer

    paint = screen_module.Screen._compositor_refresh

    def timed_paint(self: Any) -> None:
        start, cpu = clock(), time.thread_time()
        dirty = sorted(f"{type(w).__name__}#{w.id}" for w in self._dirty_widgets)
        paint(self)
        spent = (clock() - start, time.thread_time() - cpu)
        trace.append([start, "paint", " ".join(dirty), *spent])

    screen_module.Screen._compositor_refresh = timed_paint  # type: ignore[method-assign]  # a timer

    layout = screen_module.Screen._refresh_layout

    def timed_layout(self: Any, size: Any = None, scroll: bool = False) -> None:
        start, cpu = clock(), time.thread_time()
        layout(self, size, scroll)
        spent = (clock() - start, time.thread_time() - cpu)
        trace.append([start, "layout", "scroll" if scroll else "", *spent])

    screen_module.Screen._refresh_layout = timed_layout  # type: ignore[method-assign]  # a timer

    refresh = widget_module.Widget.refresh

    def noted_refresh(self: Any, *regions: Any, **options: Any) -> Any:
        if options.get("layout"):
            frames = traceback.extract_stack(limit=4)[:-1]
            where = " < ".join(
                f"{f.name}:{Path(f.filename).name}:{f.lineno}" for f in frames[::-1]
            )
            note("layout asked", f"{type(self).__name__}#{self.id}", where)
        return refresh(self, *regions, **options)

    widget_module.Widget.refresh = noted_refresh  # type: ignore[method-assign]  # a timer

    work = worker_module.Worker._run

    async def timed_work(self: Any, app: Any) -> None:
        start = clock()
        try:
            await work(self, app)
        finally:
            trace.append([start, "worker", self.group, clock() - start])

    worker_module.Worker._run = timed_work  # type: ignore[method-assign]  # a timer

    started: dict[str, float] = {}

    def collected(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started["t"] = clock()
        else:
            trace.append([started["t"], "gc", info["generation"], clock() - started["t"]])

    gc.callbacks.append(collected)

    def dump() -> None:
        with open(os.environ[TRACE_ENV], "w", encoding="utf-8") as out:
            json.dump(trace, out)

    atexit.register(dump)
    from app.cli import main

    return main(argv)


# -- the parent: the keys, then the report ------------------------------------------------------
def play(runs: int) -> list[tuple[list[dict[str, Any]], list[list[Any]]]]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import run as bench

    faces, keys = bench.play_keys()
    played = []
    for _ in range(runs):
        data_dir = tempfile.mkdtemp(prefix="cubilete-trace-")
        trace_file = Path(data_dir) / "trace.json"
        argv = [sys.executable, str(Path(__file__).resolve()), "--child", "--local"]
        argv += ["--game", "generala"]
        argv += ["--dice", ",".join(map(str, faces))]
        env = bench.child_env(False, None) | {
            "CUBILETE_DATA_DIR": data_dir,
            TRACE_ENV: str(trace_file),
        }
        session = bench.Session(argv, env)
        rows = []
        try:
            session.spawn()
            session.wait_frame(bench.APP_MARKER)
            session.settle()
            session.key_frame(bench.KEY_F2, bench.GAME_FRAME_MARKER)
            for place, (data, expect) in enumerate(keys):
                sent = time.perf_counter()
                latency = session.key_latency(data, expect)
                kind = bench.KEY_KINDS.get(data, "hold")
                rows.append({"place": place, "kind": kind, "sent": sent, "latency": latency})
            session.quit()
            played.append((rows, json.loads(trace_file.read_text(encoding="utf-8"))))
        finally:
            session.close()
            shutil.rmtree(data_dir, ignore_errors=True)
    return played


def timeline(trace: list[list[Any]], sent: float, span: float = 0.15) -> list[str]:
    lines = []
    for event in sorted(trace, key=lambda e: e[0]):
        at = event[0] - sent
        if not -0.002 <= at <= span:
            continue
        kind, rest = event[1], event[2:]
        if kind in ("paint", "layout"):
            what, wall, cpu = rest
            text = f"{kind} {wall * 1000:.1f} ms ({cpu * 1000:.1f} CPU) {what}"
        elif kind == "handle":
            pump, message, wall, cpu = rest
            text = f"{pump} handles {message}: {wall * 1000:.1f} ms ({cpu * 1000:.1f} CPU)"
        elif kind in ("worker", "gc"):
            text = f"{kind} {rest[0]} {rest[1] * 1000:.1f} ms"
        elif kind == "flush":
            text = f"{rest[0]:,} B reach the terminal"
        else:
            text = " ".join(map(str, [kind, *rest]))
        lines.append(f"  {at * 1000:7.1f}  {text}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--slowest", type=int, default=5, help="timelines of the N slowest")
    parser.add_argument("--keys", default="", help="timelines of these places (0-based)")
    args = parser.parse_args()
    wanted = {int(place) for place in args.keys.split(",") if place}
    for index, (rows, trace) in enumerate(play(args.runs)):
        latencies = [row["latency"] for row in rows]
        print(
            f"run {index + 1}: p50 {statistics.median(latencies) * 1000:.1f} ms, "
            f"p99 {statistics.quantiles(latencies, n=100)[98] * 1000:.1f} ms, "
            f"load {os.getloadavg()[0]:.2f}"
        )
        for kind in sorted({row["kind"] for row in rows}):
            of_kind = [row["latency"] for row in rows if row["kind"] == kind]
            median = statistics.median(of_kind) * 1000
            print(f"  {kind:7} {len(of_kind):3} keys, median {median:.1f} ms")
        slowest = sorted(rows, key=lambda row: -row["latency"])[: args.slowest]
        asked = [row for row in rows if row["place"] in wanted]
        shown = {row["place"]: row for row in [*slowest, *asked]}
        for row in sorted(shown.values(), key=lambda r: r["place"]):
            print(f"key {row['place']} ({row['kind']}): {row['latency'] * 1000:.1f} ms")
            print("\n".join(timeline(trace, row["sent"])))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        raise SystemExit(child(sys.argv[2:]))
    raise SystemExit(main())
