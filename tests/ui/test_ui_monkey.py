"""A seeded monkey: random keys, clicks and resizes through the real app, for every game.

Each game gets `EVENTS` random events: 55 % keys of the game on screen, 25 % other keys (the
app's, and stray ones), 18 % clicks (on a random widget on show, or anywhere) and 2 % resizes
to sizes at, above and below the minimum. The players are people and bots (at pace 0) with
hostile names; quitting (ctrl+q, the Quit buttons, q) starts the app again on the same data
dir, so its recorded games are resumed too (F3).

It fails on:
- any exception in the app (the event that caused it and the ones before are in the message);
- a stuck app: an event or a pause not done within `ANSWER` seconds;
- a stuck game, found by a check every `CHECK_EVERY` events and at the end: with overlays
  closed (palette, rules, a question; history, statistics, replay) and the terminal at
  100×30, no too-small note may be left; a finished game must have left its game screen; a
  bot to move must move within `ANSWER` seconds; and a person to move must change the game's
  state with at most `NUDGES` random keys of that game;
- a record it cannot read back: at the end every game it played is in the data dir's
  database and replays (`Table.from_record`).

The five games run at once, each in a process of its own (`test_the_five_monkeys_at_once`).

The seed is fixed: the same events come in the same order (the bots' threads and the app's
timers may still interleave with them a little differently). `CUBILETE_MONKEY_SEED=N` tries
another seed. The run costs about 20-30 s of CPU per game.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from stored import stored_records
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen

from app.dice import RandomDice
from app.main import MIN_SIZE, CubileteApp, game_screen
from app.screens.game import GameScreen
from app.screens.game_over import GameOverScreen
from app.screens.history import HistoryScreen
from app.screens.lobby import LobbyScreen
from app.screens.replay import ReplayScreen
from app.screens.statistics import StatisticsScreen
from app.table import Seat, Table

EVENTS = 2000
CHECK_EVERY = 500
ANSWER = 10.0
NUDGES = 300
SEED = int(os.environ.get("CUBILETE_MONKEY_SEED", "20261201"))

SIZES = [
    (80, 24),
    (120, 40),
    (100, 30),
    MIN_SIZE,
    (MIN_SIZE[0] - 1, MIN_SIZE[1]),
    (MIN_SIZE[0], MIN_SIZE[1] - 1),
    (60, 18),
    (45, 15),
    (20, 6),
    (1, 1),
]
"""Terminal sizes tried: the usual ones, the minimum and one cell under it, far below it."""

GAME_KEYS = {
    "generala": ["space", "r", "1", "2", "3", "4", "5", "up", "down", "enter", "y", "n"],
    "barco": ["space", "r", "s", "1", "2"],
    "navio": ["space", "r", "s"],
    "multiplicacion": ["space", "r", "k", "t", "a", "p"],
    "piratas": ["space", "r", "c", "e", "p", "s", "m", "up", "down", "left", "right", "enter"],
}
APP_KEYS = [
    "escape", "tab", "shift+tab", "enter", "space", "up", "down", "left", "right", "home",
    "end", "pageup", "pagedown", "backspace", "delete", "f1", "question_mark", "f2", "f3", "h",
    "f", "l", "r", "y", "n", "ctrl+p", "ctrl+c", "x", "7", "[", "/", "]", "ñ", "🎲", "f5", "f6",
]  # fmt: skip
RECORD_SCREENS = (HistoryScreen, StatisticsScreen, ReplayScreen)
"""The lobby's screens of finished games (escape leads back)."""
QUIT_KEYS = ["ctrl+q", "q"]

NAMES = ["[/]", "\x1b[31mred", "[bold]x", "🎲 Ana", "مريم"]


def seats_for(game: str, rng: random.Random) -> list[Seat]:
    """People and easy or medium bots (the expert's first move can take seconds)."""
    count = 2 if game == "piratas" else rng.randint(2, 4)
    kinds = ["human", rng.choice(["easy", "medium"]), *rng.choices(["human", "easy"], k=2)]
    return [Seat(name=NAMES[i], kind=kinds[i]) for i in range(count)]  # type: ignore[arg-type]


@dataclass
class Monkey:
    game: str
    rng: random.Random
    pilot: Pilot[Any]
    done: int = 0
    history: deque[str] = field(default_factory=lambda: deque(maxlen=40))

    @property
    def app(self) -> CubileteApp:
        return self.pilot.app  # type: ignore[return-value]

    def fail(self, what: str) -> None:
        events = "\n  ".join(self.history)
        pytest.fail(
            f"{self.game}, seed {SEED}, event {self.done}: {what}\nlast events:\n  {events}",
            pytrace=False,
        )

    async def answered(self, step: Any, what: str) -> None:
        self.history.append(what)
        try:
            await asyncio.wait_for(step, ANSWER)
        except TimeoutError:
            self.fail(f"no answer within {ANSWER} s to {what}")
        self.check_alive()

    def check_alive(self) -> None:
        error = self.app._exception
        if error is not None:
            self.fail(f"the app raised {type(error).__name__}: {error}")

    def game_keys(self) -> list[str]:
        """The keys of the game on the screen (the lobby may have started another one)."""
        game = game_screen(self.app.screen)
        return GAME_KEYS[game.game_id if game is not None else self.game]

    # -- one random event -----------------------------------------------------------------
    async def event(self) -> None:
        rng, pilot = self.rng, self.pilot
        roll = rng.random()
        if isinstance(self.app.screen, LobbyScreen) and rng.random() < 0.1:
            key = rng.choice(["f3", "f2"])  # back to a game, sooner than by chance alone
            await self.answered(pilot.press(key), f"key {key}")
        elif roll < 0.55:
            key = rng.choice(self.game_keys())
            await self.answered(pilot.press(key), f"key {key}")
        elif roll < 0.80:
            key = rng.choice(QUIT_KEYS) if rng.random() < 0.01 else rng.choice(APP_KEYS)
            await self.answered(pilot.press(key), f"key {key}")
        elif roll < 0.98:
            x, y = self.click_target()
            times = 2 if rng.random() < 0.1 else 1
            await self.answered(pilot.click(offset=(x, y), times=times), f"click {x},{y} ×{times}")
        else:
            width, height = rng.choice(SIZES)
            await self.answered(pilot.resize_terminal(width, height), f"resize {width}×{height}")
        self.done += 1

    def click_target(self) -> tuple[int, int]:
        """A cell on a random widget on show (half the time), or anywhere on the screen."""
        width, height = self.app.size
        shown = [w for w in self.app.screen.query("*") if w.display and w.region.area]
        if shown and self.rng.random() < 0.5:
            region = self.rng.choice(shown).region.intersection(self.app.screen.region)
            if region.area:
                x = region.x + self.rng.randrange(region.width)
                return x, region.y + self.rng.randrange(region.height)
        return self.rng.randrange(max(width, 1)), self.rng.randrange(max(height, 1))

    # -- is anything stuck? ---------------------------------------------------------------
    async def check_not_stuck(self) -> None:
        pilot, app = self.pilot, self.app
        await self.answered(pilot.resize_terminal(100, 30), "check: resize 100×30")
        for _ in range(6):  # close the palette, the rules, a question, a record's screens
            on_top = app.screen
            if isinstance(on_top, (GameScreen, GameOverScreen, LobbyScreen)) and not isinstance(
                on_top, ReplayScreen
            ):
                break
            if not isinstance(on_top, (ModalScreen, *RECORD_SCREENS)) and not _is_rules(on_top):
                self.fail(f"an unexpected screen on top: {app.screen!r}")
            await self.answered(pilot.press("escape"), "check: key escape")
        screen = app.screen
        names = [type(s).__name__ for s in app.screen_stack]
        if "TooSmallScreen" in names:
            self.fail(f"the too-small note stays at 100×30: {names}")
        if not isinstance(screen, (GameScreen, GameOverScreen, LobbyScreen)) or isinstance(
            screen, ReplayScreen
        ):
            self.fail(f"escape does not lead back to a game or the lobby: {names}")
        if not isinstance(screen, GameScreen):
            return
        table = screen.table
        if table.over:
            await self.answered(pilot.pause(), "check: pause")
            if app.screen is screen:
                self.fail("the game is over but its screen stays")
            return
        before = table.state
        seat = table.current_player()
        if seat is not None and table.seats[seat].bot:
            end = time.monotonic() + ANSWER
            while table.state is before and time.monotonic() < end and app.screen is screen:
                await self.answered(pilot.pause(0.05), "check: a bot to move")
            if table.state is before and app.screen is screen:
                self.fail(f"the bot in seat {seat} does not move")
            return
        for _ in range(NUDGES):
            if table.state is not before or app.screen is not screen:
                return
            key = self.rng.choice(self.game_keys())
            await self.answered(pilot.press(key), f"check: key {key}")
        self.fail(f"{NUDGES} keys of the game do not move it on (seat {seat} to move)")


def _is_rules(screen: Screen[Any]) -> bool:
    return type(screen).__name__ == "RulesScreen"


ONE_GAME = "CUBILETE_MONKEY_ONE_GAME"
"""Set in the processes `test_the_five_monkeys_at_once` starts: each runs one game's monkey."""
ROOT = Path(__file__).resolve().parents[2]


def test_the_five_monkeys_at_once(tmp_path):
    """Each game's monkey in a process of its own, all at once. A monkey spends most of its
    time waiting for the app to be idle after each event (Pilot's 20 ms steps: about 28 s of
    CPU in 150 s), so five side by side take about the time of the slowest alone instead of
    five times it. A failure shows that game's own report."""
    if os.environ.get(ONE_GAME):
        pytest.skip("(this process runs one game's monkey)")
    name = "test_a_monkey_neither_crashes_nor_sticks_the_game"
    runs = {
        game: subprocess.Popen(
            [
                *(sys.executable, "-m", "pytest", "-p", "no:cacheprovider"),  # (-q: the config's)
                f"--basetemp={tmp_path / game}",
                f"{Path(__file__).resolve()}::{name}[{game}]",
            ],
            cwd=ROOT,
            env=os.environ | {ONE_GAME: game},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for game in GAME_KEYS
    }
    failed = []
    for game, run in runs.items():
        output, _ = run.communicate(timeout=1500)
        said = output.decode(errors="replace")
        if run.returncode != 0 or "1 passed" not in said:  # (a skip is no pass)
            failed.append(f"{game}:\n{said[-6000:]}")
    assert not failed, "\n\n".join(failed)


@pytest.mark.parametrize("game", list(GAME_KEYS))
async def test_a_monkey_neither_crashes_nor_sticks_the_game(game):
    if os.environ.get(ONE_GAME) != game:
        pytest.skip("run in a process of its own by test_the_five_monkeys_at_once")
    rng = random.Random(f"{SEED}-{game}")
    done, sessions, started = 0, 0, time.process_time()
    while done < EVENTS:
        sessions += 1
        app = CubileteApp(
            dice=RandomDice(rng.randrange(1 << 30)),
            animate=rng.random() < 0.5,
            game=game,
            bot_pace=0,
        )
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            monkey = Monkey(game, rng, pilot, done=done)
            await monkey.answered(pilot.pause(), "start")
            if sessions == 1:
                app.start_game(game, seats_for(game, rng), {})
                await monkey.answered(pilot.pause(), "start a game")
            while monkey.done < EVENTS and app.is_running:
                await monkey.event()
                if app.is_running and monkey.done % CHECK_EVERY == 0:
                    await monkey.check_not_stuck()
            if app.is_running:
                await monkey.answered(pilot.pause(), "the last pause")
            done = monkey.done
        assert app._exception is None
    cpu = time.process_time() - started
    records = stored_records()
    for record in records:  # every game played reads back and replays
        Table.from_record(record)
    moves = sum(event.kind == "action" for record in records for event in record.events)
    print(
        f"{game}: {done} events, {sessions} sessions, {len(records)} games recorded, "
        f"{moves} decisions, {cpu:.1f} s CPU"
    )
    assert moves > EVENTS // 100, "the monkey hardly played"
