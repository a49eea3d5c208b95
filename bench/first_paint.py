"""CPU time to the first full paint: hello-world next to one or more copies of Cubilete.

With `--f2`, the CPU time from F2 in the lobby (Generala, the lobby's defaults) to the game
screen's first full paint instead (`start_game_cpu_s`, measured inside the process).

For comparing variants of the app (a lobby with or without a widget, say) on a noisy machine:
every run of every variant is interleaved with the others and with hello, each in its own pty
(80x24), and the figure is the process's own CPU clock (`time.process_time()`) at the end of
the first full paint, read inside the process — steadier than wall time, and finer than the
10 ms ticks of /proc. A variant is a directory holding `app/`, `rules/`, `bots/`, `assets/`
and `seeds/` (e.g. `git archive HEAD app rules bots assets seeds | tar -x -C /tmp/a`), put
first on `sys.path` (an editable install ignores PYTHONPATH). Without variants: this checkout.

With `--instructions`, each run counts the instructions the process executes in that span
instead (callgrind, from valgrind: the child tells it when to start and stop counting, through
a small helper compiled with `cc` against valgrind's `callgrind.h`). Run under valgrind a
start is ≈ 50 times slower, but the count repeats to ±0.1 % where the CPU time of this shared
machine swings by a third: for telling variants apart by a few per cent. It counts user-space
instructions only (system time — creating a file, say — is not in it); at F2 here, ≈ 5 million
instructions to a millisecond of CPU. Needs `valgrind` (Debian's package has the header).

Usage: .venv/bin/python bench/first_paint.py [--runs 9] [--f2] [--instructions] [VARIANT_DIR ...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as harness  # bench/run.py: the pty session and the environment

CHILD = """
import os, sys, time
if os.environ.get("BENCH_VARIANT"):
    sys.path.insert(0, os.environ["BENCH_VARIANT"])
if os.environ.get("BENCH_CALLGRIND"):  # --instructions: count from start() to stop()
    import ctypes
    callgrind = ctypes.CDLL(os.environ["BENCH_CALLGRIND"])
    start_counting, stop_counting = callgrind.bench_start, callgrind.bench_stop
    if not os.environ.get("BENCH_F2"):
        start_counting()
else:
    start_counting = stop_counting = lambda: None
from textual._compositor import LayoutUpdate
from textual.app import App

paint = App._display
f2 = []  # with --f2: the CPU time when F2 was pressed

def display(self, screen, renderable):
    paint(self, screen, renderable)
    if isinstance(renderable, LayoutUpdate) and (not os.environ.get("BENCH_F2") or f2):
        stop_counting()
        with open(os.environ["BENCH_OUT"], "w") as out:
            out.write(repr(time.process_time() - (f2[0] if f2 else 0.0)))
        os._exit(0)

App._display = display
if sys.argv[1] == "hello":
    sys.path.insert(0, os.environ["BENCH_DIR"])
    from hello_app import HelloApp
    HelloApp().run()
else:
    from app.cli import main
    if os.environ.get("BENCH_F2"):
        from app.screens.lobby import LobbyScreen

        start = LobbyScreen.action_start

        def action_start(self):
            f2.append(time.process_time())
            start_counting()
            return start(self)

        LobbyScreen.action_start = action_start
        sys.argv = ["cubilete", "--local", "--game", "generala", "--dice", "6,2,3,3,3,4,5"]
    else:
        sys.argv = ["cubilete", "--local", "--dice", "6,2,3"]
    main()
"""


CALLGRIND_HELPER = """
#include <valgrind/callgrind.h>
void bench_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS;
                         CALLGRIND_TOGGLE_COLLECT; }
void bench_stop(void) { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_DUMP_STATS; }
"""
UNDER_VALGRIND = 60  # times slower: the deadlines under callgrind


def callgrind_helper(directory: Path) -> Path:
    """The helper library the child calls to start and stop counting (compiled here)."""
    source, library = directory / "callgrind_helper.c", directory / "callgrind_helper.so"
    source.write_text(CALLGRIND_HELPER)
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or shutil.which("valgrind") is None:
        raise harness.BenchError("--instructions needs valgrind and a C compiler")
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", library, source], check=True)
    return library


def one_run(
    which: str, env: dict[str, str], f2: bool = False, helper: Path | None = None
) -> float:
    """The CPU seconds of the span (with `helper`: the instructions counted instead)."""
    out = Path(tempfile.mkdtemp(prefix="cubilete-paint-")) / "cpu"
    child_env = env | {
        "BENCH_OUT": str(out),
        "BENCH_DIR": str(Path(__file__).resolve().parent),
        "CUBILETE_DATA_DIR": str(out.parent),
    }
    if which not in ("hello", "."):
        child_env["BENCH_VARIANT"] = which
    if f2:
        child_env["BENCH_F2"] = "1"
    argv = [sys.executable, "-c", CHILD, "hello" if which == "hello" else "app"]
    slower = 1
    if helper is not None:
        counts = out.parent / "callgrind.out"
        argv = [
            shutil.which("valgrind") or "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            "--collect-atstart=no",
            f"--callgrind-out-file={counts}",
            *argv,
        ]
        child_env |= {"BENCH_CALLGRIND": str(helper), "PYTHONHASHSEED": "0"}
        slower = UNDER_VALGRIND
    session = harness.Session(argv, child_env)
    session.spawn()
    deadline = time.monotonic() + harness.FRAME_TIMEOUT * slower
    try:
        if f2:
            harness.FRAME_TIMEOUT *= slower
            try:
                session.wait_frame(harness.APP_MARKER)
            finally:
                harness.FRAME_TIMEOUT /= slower
            session.settle(harness.QUIET * (4 if helper else 1))
            os.write(session.fd, harness.KEY_F2)
        while not out.exists() or not out.read_text():
            if session.eof or time.monotonic() > deadline:
                raise harness.BenchError(f"{which}: no full paint")
            session.read_once(0.05)
        if helper is None:
            return float(out.read_text())
        dumps = sorted(out.parent.glob("callgrind.out.*"))  # (the dump stop_counting asked)
        for line in dumps[0].read_text().splitlines() if dumps else []:
            if line.startswith("totals:"):
                return float(line.split()[1])
        raise harness.BenchError(f"{which}: callgrind wrote no count")
    finally:
        session.kill()
        session.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=["."])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument(
        "--f2", action="store_true", help="from F2 to the game's first paint (no hello)"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count the instructions of the span under callgrind instead of its CPU time",
    )
    args = parser.parse_args()
    env = harness.child_env(False, tempfile.mkdtemp(prefix="cubilete-pycache-"))
    helper = None
    if args.instructions:
        helper = callgrind_helper(Path(tempfile.mkdtemp(prefix="cubilete-callgrind-")))
    names = args.variants if args.f2 else ["hello", *args.variants]
    times: dict[str, list[float]] = {name: [] for name in names}
    for run in range(args.runs + 1):  # run 0 warms the bytecode cache and is discarded
        for name in names if run % 2 else reversed(names):
            seconds = one_run(name, env, args.f2, helper)
            if run:
                times[name].append(seconds)
    hello = None if args.f2 else statistics.median(times["hello"])
    for name in names:
        value = statistics.median(times[name])
        versus = f"{value / hello:5.2f}x hello" if hello else "from F2"
        if helper is not None:
            spread = f"{min(times[name]) / 1e6:.1f}-{max(times[name]) / 1e6:.1f}"
            print(f"{name:40} {value / 1e6:8.1f} M instructions  {versus}  (runs {spread})")
        else:
            spread = f"{min(times[name]):.3f}-{max(times[name]):.3f}"
            print(f"{name:40} {value:.4f} s  {versus}  (runs {spread})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
