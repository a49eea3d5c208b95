"""What a browser tab costs under `cubilete web` (a script, not a test; `bench/run.py` runs it).

Each server runs as a real process on 127.0.0.1 with a fresh data dir, and its tabs are opened
by plain websocket clients speaking textual-serve's protocol (what textual.js does: connect to
`/ws?width=80&height=24`, read the terminal's bytes, send `["stdin", keys]`):

- **forked**: `cubilete web` as it runs by default, each tab forked from the fork server;
- **fresh**: `cubilete web --no-fork-server`, each tab a new process (how it was before);
- **hello**: bench/hello_app.py served by textual-serve's own Server, the yardstick.

Per tab (one at a time, after one discarded warm-up tab): CPU from opening the websocket to the
lobby drawn (`Start (F2)` in the terminal's text): the tab's utime+stime from /proc (a forked
tab's count starts at its fork) plus what the fork server spent meanwhile; the web server's own
CPU over the same time is reported apart. Then, once the output has been quiet for 0.5 s, the
tab's unique memory (USS: Private_Clean + Private_Dirty from /proc/PID/smaps_rollup); then F2
starts a Generala game (loaded dice), and once it is drawn and quiet, the USS again. Then 16
websocket clients opened at once: the time until every one shows the lobby.

Once more with headless Chromium (if playwright and /usr/bin/chromium are there), for the
record: from `page.goto` to the lobby drawn, the tab's CPU and USS.

Usage: .venv/bin/python bench/web.py [--runs 5] [--burst-runs 3] [--json] [--no-chromium]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
HELLO = Path(__file__).resolve().with_name("hello_app.py")
CLK_TCK = os.sysconf("SC_CLK_TCK")
DICE = ",".join(["6,2,3,3,3,4,5"] * 8)
GAME_FLAGS = ("--game", "generala", "--dice", DICE)
LOBBY = b"Start (F2)"
HELLO_MARKER = b"Hello, world!"
GAME = b"round 1 of 13"  # Generala's status line once the game is drawn
F2 = "\x1bOQ"
QUIET = 0.5
TIMEOUT = 30.0
BURST = 16
USER_HEADER = "X-Bench-User"
_users = iter(range(1, 1 << 30))

ANSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")

TARGETS = {
    "web_tab_cpu_s": 0.10,
    "web_tab_uss_mib": 15.0,
    "web_game_uss_mib": 25.0,
    "web_16_tabs_s": 2.0,
}


class BenchError(RuntimeError):
    pass


# -- processes -----------------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def uss_mib(pid: int) -> float:
    values = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        values[name] = int(rest.split()[0])
    return (values["Private_Clean"] + values["Private_Dirty"]) / 1024


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def is_fork_server(pid: int) -> bool:
    try:
        return b"app.web_zygote" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Served:
    """A web server process of ours, its port, and how to find its tabs."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    data_dir: Path
    seen: set[int] = field(default_factory=set)

    def fork_server(self) -> int | None:
        found = [pid for pid in children(self.process.pid) if is_fork_server(pid)]
        return found[0] if found else None

    def tabs(self) -> list[int]:
        pids = []
        for pid in children(self.process.pid):
            pids += children(pid) if is_fork_server(pid) else [pid]
        self.seen.update(pids)
        return pids


HELLO_SERVER = """
import sys
from textual_serve.server import Server
Server(sys.argv[1], host="127.0.0.1", port=int(sys.argv[2])).serve()
"""


@contextlib.contextmanager
def served(kind: str, users: bool = True, pycache: str | None = None) -> Iterator[Served]:
    """A server of `kind` (forked, fresh, hello), stopped (with its tabs) at the end. With
    `users`, each tab is a user of its own (`--user-header`); `pycache`: the bytecode cache
    to run with (see `bytecode_cache`)."""
    port = free_port()
    scratch = Path(tempfile.mkdtemp(prefix="cubilete-bench-web-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env["CUBILETE_DATA_DIR"] = str(scratch / "data")
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
    if kind == "hello":
        command = [sys.executable, "-c", HELLO_SERVER, f"{sys.executable} {HELLO}", str(port)]
    else:
        command = [sys.executable, "-m", "app", "web", "--port", str(port)]
        command += ["--max-sessions", str(BURST + 2), "--max-per-client", str(BURST + 2)]
        command += ["--starts-per-minute", "1000", *GAME_FLAGS]
        if users:  # each tab a new user: an empty data dir, a first visit's lobby
            command += ["--user-header", USER_HEADER]
        if kind == "fresh":
            command.append("--no-fork-server")
    log = scratch / "server.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=sink,
            start_new_session=True,
        )
    server = Served(process, port, log, scratch)
    try:
        deadline = time.monotonic() + TIMEOUT
        while not accepts(port) or (
            kind == "forked" and b"fork server ready" not in log.read_bytes()
        ):
            if process.poll() is not None or time.monotonic() > deadline:
                raise BenchError(f"{kind} server did not start: {log.read_text()[-500:]}")
            time.sleep(0.05)
        yield server
    finally:
        server.tabs()
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        for pid in server.seen:  # ours, by pid, if the server left any
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
        shutil.rmtree(scratch, ignore_errors=True)


def accepts(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


PRELOAD_ONCE = "import sys, app.web_zygote as z; z.preload(sys.argv[1:])"


@contextlib.contextmanager
def bytecode_cache() -> Iterator[str]:
    """A private bytecode cache holding, compiled, every module a server or tab loads (the
    project, and the standard library's, Textual's, pydantic's... whose installed copies have
    theirs in their own `__pycache__`, which a cache prefix hides).

    This environment sets PYTHONDONTWRITEBYTECODE: without a cache a fresh tab would compile
    the app's sources at every start, and with an empty one the fork server would compile
    them once and write them out, which leaves its memory laid out otherwise (measured: 0.6 MiB
    more per tab than with the cache it would have when installed). Hence the project compiled
    first, then the fork server's loading run once, which writes out whatever else it imports:
    with the project's alone, what only the fork server loads (after the fresh tabs had cached
    theirs) was compiled by the measured fork server, 0.2-0.4 MiB more per forked tab."""
    path = tempfile.mkdtemp(prefix="cubilete-bench-pyc-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = path
    try:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", "app", "rules", "bots", "bench"],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        data = tempfile.mkdtemp(prefix="cubilete-bench-data-")
        try:
            subprocess.run(
                [sys.executable, "-c", PRELOAD_ONCE, *GAME_FLAGS],
                cwd=ROOT,
                env=env | {"CUBILETE_DATA_DIR": data},
                check=True,
                stdout=subprocess.DEVNULL,
            )
        finally:
            shutil.rmtree(data, ignore_errors=True)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# -- one tab -------------------------------------------------------------------------------
class Tab:
    """A websocket client that speaks textual-serve's protocol, as textual.js does."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.output = b""

    @classmethod
    async def open(cls, client: aiohttp.ClientSession, port: int) -> Tab:
        """A new tab, of a new user (so it finds no saved game: a first visit's lobby)."""
        headers = {USER_HEADER: f"player{next(_users)}"}
        ws = await client.ws_connect(
            f"ws://127.0.0.1:{port}/ws?width=80&height=24", headers=headers
        )
        return cls(ws)

    def text(self, start: int = 0) -> bytes:
        return ANSI.sub(b"", self.output[start:])

    async def read(self, timeout: float) -> bool:
        """Read one message within `timeout`; False if none came."""
        try:
            message = await asyncio.wait_for(self.ws.receive(), timeout)
        except TimeoutError:
            return False
        if message.type == aiohttp.WSMsgType.BINARY:
            self.output += message.data
        elif message.type != aiohttp.WSMsgType.TEXT:
            raise BenchError(f"the tab was closed: {message}")
        return True

    async def wait_for(self, marker: bytes, start: int = 0) -> None:
        deadline = time.monotonic() + TIMEOUT
        while marker not in self.text(start):
            if time.monotonic() > deadline:
                raise BenchError(f"{marker!r} not drawn in {TIMEOUT:.0f} s")
            await self.read(deadline - time.monotonic())

    async def settle(self) -> None:
        deadline = time.monotonic() + TIMEOUT
        while await self.read(QUIET):
            if time.monotonic() > deadline:
                raise BenchError("the tab's output did not settle")

    async def press(self, keys: str) -> None:
        await self.ws.send_str(json.dumps(["stdin", keys]))

    async def close(self) -> None:
        await self.ws.close()


def new_tab(server: Served, before: set[int]) -> int:
    found = [pid for pid in server.tabs() if pid not in before]
    if len(found) != 1:
        raise BenchError(f"expected one new tab process, found {found}")
    pid = found[0]
    while Path(f"/proc/{pid}/comm").read_text().strip() in ("sh", "dash", "bash"):
        (pid,) = children(pid)  # textual-serve's own Server starts the app through a shell
    return pid


async def one_tab(server: Served, kind: str) -> dict[str, float]:
    """Open a tab, measure it in the lobby and (Cubilete) in a game, close it."""
    marker = HELLO_MARKER if kind == "hello" else LOBBY
    fork_server = server.fork_server()
    async with aiohttp.ClientSession() as client:
        before = set(server.tabs())
        zygote0 = cpu_seconds(fork_server) if fork_server else 0.0
        server0 = cpu_seconds(server.process.pid)
        started = time.perf_counter()
        tab = await Tab.open(client, server.port)
        await tab.wait_for(marker)
        wall = time.perf_counter() - started
        pid = new_tab(server, before)
        result = {
            "tab_cpu_s": cpu_seconds(pid)
            + (cpu_seconds(fork_server) - zygote0 if fork_server else 0.0),
            "server_cpu_s": cpu_seconds(server.process.pid) - server0,
            "tab_wall_s": wall,
        }
        await tab.settle()
        result["tab_uss_mib"] = uss_mib(pid)
        if kind != "hello":
            mark = len(tab.output)
            await tab.press(F2)
            await tab.wait_for(GAME, mark)
            await tab.settle()
            result["game_uss_mib"] = uss_mib(pid)
        await tab.close()
    deadline = time.monotonic() + TIMEOUT
    while pid in server.tabs():
        if time.monotonic() > deadline:
            raise BenchError(f"tab {pid} did not end")
        await asyncio.sleep(0.02)
    return result


async def burst(server: Served, count: int = BURST) -> float:
    """Seconds for `count` websocket clients opened at once to all show the lobby."""
    async with aiohttp.ClientSession() as client:

        async def one() -> Tab:
            tab = await Tab.open(client, server.port)
            await tab.wait_for(LOBBY)
            return tab

        started = time.perf_counter()
        tabs = await asyncio.gather(*(one() for _ in range(count)))
        took = time.perf_counter() - started
        for tab in tabs:
            await tab.close()
    deadline = time.monotonic() + TIMEOUT
    while server.tabs():
        if time.monotonic() > deadline:
            raise BenchError("the burst's tabs did not end")
        await asyncio.sleep(0.05)
    return took


# -- Chromium, for the record --------------------------------------------------------------
def chromium_tab(server: Served) -> dict[str, float] | None:
    """The lobby in headless Chromium: navigation to lobby drawn, the tab's CPU and USS."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if chromium is None:
        return None
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
    args += ["--disable-background-networking", "--disable-component-update", "--disable-sync"]
    frames: list[bytes] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=args)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 640})
            page.on(
                "websocket",
                lambda ws: ws.on(
                    "framereceived",
                    lambda data: frames.append(data) if isinstance(data, bytes) else None,
                ),
            )
            before = set(server.tabs())
            started = time.perf_counter()
            page.goto(f"http://127.0.0.1:{server.port}/", wait_until="commit")
            deadline = time.monotonic() + TIMEOUT
            while LOBBY not in ANSI.sub(b"", b"".join(frames)):
                if time.monotonic() > deadline:
                    raise BenchError("Chromium: the lobby was not drawn")
                page.wait_for_timeout(5)
            wall = time.perf_counter() - started
            pid = new_tab(server, before)
            cpu = cpu_seconds(pid)
            page.wait_for_timeout(1000)
            uss = uss_mib(pid)
            page.close()
        finally:
            browser.close()
    return {"chromium_wall_s": wall, "chromium_tab_cpu_s": cpu, "chromium_tab_uss_mib": uss}


# -- the report ----------------------------------------------------------------------------
def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


async def measure_kind(
    kind: str, runs: int, burst_runs: int, errors: list[str], pycache: str | None = None
) -> dict[str, Any]:
    result: dict[str, Any] = {"runs": [], "bursts": []}
    with served(kind, pycache=pycache) as server:
        with contextlib.suppress(BenchError):
            await one_tab(server, kind)  # warm-up, discarded
        for index in range(runs):
            try:
                result["runs"].append(await one_tab(server, kind))
            except (BenchError, OSError, aiohttp.ClientError) as error:
                errors.append(f"{kind} run {index + 1}: {error}")
        if kind != "hello":
            for index in range(burst_runs):
                try:
                    result["bursts"].append(await burst(server))
                except (BenchError, OSError, aiohttp.ClientError) as error:
                    errors.append(f"{kind} burst {index + 1}: {error}")
        if kind == "forked":
            result["fork_server_rss_mib"] = rss_mib(server.fork_server())
    return result


def rss_mib(pid: int | None) -> float | None:
    if pid is None:
        return None
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def summary_rows(measured: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in bench/run.py's summary format: `app` is the forked tab, `hello` the hello app
    served by textual-serve, `fresh` a Cubilete tab started afresh (--no-fork-server)."""

    def figure(kind: str, key: str) -> float | None:
        runs = measured.get(kind, {}).get("runs", [])
        if key == "16_tabs_s":
            return median(measured.get(kind, {}).get("bursts", []))
        return median([run[key] for run in runs if key in run])

    rows = []
    for key, source, label, unit in [
        ("web_tab_cpu_s", "tab_cpu_s", "web: CPU per tab, open to lobby", "s"),
        ("web_tab_uss_mib", "tab_uss_mib", "web: unique memory per tab, lobby", "MiB"),
        ("web_game_uss_mib", "game_uss_mib", "web: unique memory per tab, game", "MiB"),
        ("web_16_tabs_s", "16_tabs_s", "web: 16 tabs at once, all in lobby", "s"),
    ]:
        app, hello, fresh = (figure(kind, source) for kind in ("forked", "hello", "fresh"))
        target = TARGETS[key]
        rows.append(
            {
                "key": key,
                "label": label,
                "unit": unit,
                "app": app,
                "hello": hello,
                "ratio": app / hello if app is not None and hello else None,
                "fresh": fresh,
                "target": f"≤ {target:g} {unit}",
                "passed": None if app is None else app <= target,
            }
        )
    return rows


def measure(
    runs: int = 5, burst_runs: int = 3, chromium: bool = True, log: Any = None
) -> dict[str, Any]:
    """Everything above; `summary` holds the rows for bench/run.py."""
    errors: list[str] = []
    measured: dict[str, dict[str, Any]] = {}
    record = None
    with bytecode_cache() as pycache:
        for kind in ("hello", "fresh", "forked"):
            if log:
                log(f"web: {kind} tabs")
            try:
                measured[kind] = asyncio.run(measure_kind(kind, runs, burst_runs, errors, pycache))
            except (BenchError, OSError) as error:
                errors.append(f"{kind}: {error}")
        if chromium:
            if log:
                log("web: one tab in headless Chromium")
            try:  # the browser sends no user header
                with served("forked", users=False, pycache=pycache) as server:
                    record = chromium_tab(server)
            except Exception as error:  # for the record only: never fails the bench
                errors.append(f"chromium: {type(error).__name__}: {error}")
    return {
        "summary": summary_rows(measured),
        "measured": measured,
        "chromium": record,
        "errors": errors,
    }


def print_report(report: dict[str, Any]) -> None:
    header = f"{'measure':36} {'forked':>10} {'fresh':>10} {'hello':>10} {'target':>10}  result"
    print(header)
    print("-" * len(header))

    def fmt(value: float | None, unit: str) -> str:
        return "-" if value is None else (f"{value:.3f} s" if unit == "s" else f"{value:.1f} MiB")

    for row in report["summary"]:
        result = {True: "PASS", False: "FAIL", None: ""}[row["passed"]]
        print(
            f"{row['label']:36} {fmt(row['app'], row['unit']):>10} "
            f"{fmt(row['fresh'], row['unit']):>10} {fmt(row['hello'], row['unit']):>10} "
            f"{row['target']:>10}  {result}"
        )
    forked = report["measured"].get("forked", {})
    if forked.get("runs"):
        server_cpu = median([run["server_cpu_s"] for run in forked["runs"]])
        print(f"\nweb server's own CPU per tab (relay), forked: {server_cpu:.3f} s")
    if forked.get("fork_server_rss_mib"):
        print(f"fork server RSS (shared by every tab): {forked['fork_server_rss_mib']:.1f} MiB")
    if report["chromium"]:
        shown = ", ".join(f"{k}={v:.3f}" for k, v in report["chromium"].items())
        print(f"headless Chromium, one tab: {shown}")
    for error in report["errors"]:
        print(f"error: {error}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="tabs measured one by one (5)")
    parser.add_argument("--burst-runs", type=int, default=3, help="bursts of 16 tabs (3)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--no-chromium", action="store_true", help="skip the Chromium run")
    args = parser.parse_args(argv)
    report = measure(
        args.runs,
        args.burst_runs,
        not args.no_chromium,
        None if args.json else lambda text: print(text, file=sys.stderr, flush=True),
    )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 1 if any(row["passed"] is False for row in report["summary"]) else 0


if __name__ == "__main__":
    sys.exit(main())
