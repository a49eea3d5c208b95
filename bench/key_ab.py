"""Key latency of two or more copies of Cubilete, alternated run by run.

`bench/run.py` measures `key_latency_p99_s` on this checkout only; on a shared machine two
runs an hour apart differ more than most changes do. This script plays `run.py`'s play
session (F2, the rules opened and closed 5 times, the whole scripted Generala game of 105
keys, each key timed from the pty as `run.py` times it) with each variant in turn, ABBA, so
that both meet the same load, and prints per run and per variant: the p50 and p99 of the 105
keys, the median of each kind of key, the slowest keys, and the load average.

A variant is a directory holding `app/`, `rules/`, `bots/`, `assets/` and `seeds/` (e.g.
`git archive main app rules bots assets seeds | tar -x -C /tmp/main`), put first on
`sys.path`; "." is this checkout.

Usage: .venv/bin/python bench/key_ab.py [--runs 4] [--json FILE] VARIANT_DIR [VARIANT_DIR ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as harness  # bench/run.py: the pty session, the keys, the environment

CHILD = """
import os, sys
if os.environ.get("BENCH_VARIANT"):
    sys.path.insert(0, os.environ["BENCH_VARIANT"])
from app.cli import main
sys.exit(main(sys.argv[1:]))
"""


def play(variant: str, env: dict[str, str]) -> dict[str, Any]:
    child_env = dict(env)
    if variant != ".":
        child_env["BENCH_VARIANT"] = str(Path(variant).resolve())
    return harness.measure_play(child_env, command=[sys.executable, "-c", CHILD])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--runs", type=int, default=4, help="runs of each variant")
    parser.add_argument("--json", help="also write every run's figures to this file")
    args = parser.parse_args()
    env = harness.child_env(False, tempfile.mkdtemp(prefix="cubilete-pycache-"))
    for variant in args.variants:  # a discarded warm-up of each: the bytecode cache
        play(variant, env)
    results: dict[str, list[dict[str, Any]]] = {variant: [] for variant in args.variants}
    for run in range(args.runs):
        order = args.variants if run % 2 == 0 else list(reversed(args.variants))
        for variant in order:
            load = os.getloadavg()[0]
            result = play(variant, env) | {"load": load}
            results[variant].append(result)
            slowest = ", ".join(f"{k} {t * 1000:.0f}" for _, k, t in result["key_latency_slowest"])
            print(
                f"run {run + 1} {variant}: p50 {result['key_latency_p50_s'] * 1000:.1f} ms, "
                f"p99 {result['key_latency_p99_s'] * 1000:.1f} ms (load {load:.2f}; "
                f"slowest: {slowest})",
                flush=True,
            )
    kinds = sorted(k for k in results[args.variants[0]][0] if k.endswith("_p50_s") and "_" in k)
    for variant, runs in results.items():
        p99 = [r["key_latency_p99_s"] * 1000 for r in runs]
        line = [f"{variant}: p99 median {statistics.median(p99):.1f} ms"]
        line.append(f"(runs {', '.join(f'{x:.0f}' for x in p99)})")
        for kind in kinds:
            name = kind.removeprefix("key_latency_").removesuffix("_p50_s")
            line.append(f"{name} {statistics.median(r[kind] for r in runs) * 1000:.1f}")
        print(" ".join(line))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
