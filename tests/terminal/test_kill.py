"""SIGKILL during play: a real `cubilete` in a pty, killed at random moments, many times.

Each round starts the app on the same data dir, resumes the newest unfinished game (F3) or
starts one (F2; the lobby offers a random game with two people at the table), plays random keys
of the games, and is killed with SIGKILL at a random moment: while starting, reading the saves,
playing, or writing a save. Meanwhile the test reads every save as often as it can.

After every kill:
- every save reads (`app.saves.read`: a well-formed save the rules accept), so the next start
  can resume it;
- nothing that was saved is lost: each save's log still begins with the log of the last
  version of it read before the kill (the kill may take at most the action being written:
  a save is replaced whole, never written in place);
- and the next round resumes it in the real app.

`CUBILETE_KILLS=N` sets the number of kills (40 by default, about a minute here).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from ptyapp import F2, F3, GAME, LOBBY, App

from app import saves
from app.i18n import text_to_data

KILLS = int(os.environ.get("CUBILETE_KILLS", "40"))
SEED = int(os.environ.get("CUBILETE_KILL_SEED", "20261201"))
GAMES = ["generala", "barco", "navio", "multiplicacion", "piratas"]

KEYS = [b" ", b" ", b"r", b"s", b"1", b"2", b"3", b"k", b"t", b"a", b"p", b"\r", b"\x1b[B", b"y"]
"""Keys of the five games (throw, stop, hold or pick, keep, accept, move, a box, yes)."""


def writing_now(directory: Path, left: set[Path], within: float = 0.1) -> bool:
    """Whether the app starts writing a save (a new temp file shows: not one an earlier kill
    `left`) within `within` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        with contextlib.suppress(OSError):
            for name in os.listdir(directory):
                if name.startswith(".tmp-") and directory / name not in left:
                    return True
    return False


def read_saves(directory: Path) -> dict[Path, list[Any]]:
    """Every save's log, as the app would read it (each line as it is stored: a message's
    template and values); a save that cannot be read fails the test."""
    logs = {}
    for path in sorted(directory.glob("game-*.json")):
        try:
            logs[path] = [text_to_data(line) for line in saves.read(path).log]
        except saves.SaveError as error:
            if not path.exists():  # a finished game's save, removed as it was read
                continue
            pytest.fail(f"a kill left a save that cannot be read: {error}")
    return logs


def seen_saves(directory: Path, seen: dict[Path, list[Any]]) -> None:
    """Note the newest version of every save that can be read now (one being replaced at
    this moment may be skipped: it is read again next time)."""
    for path in directory.glob("game-*.json"):
        try:
            seen[path] = json.loads(path.read_bytes())["log"]
        except (OSError, ValueError, KeyError):
            continue


def test_sigkill_at_random_moments_loses_at_most_the_action_being_written(tmp_path):
    rng = random.Random(SEED)
    data = tmp_path / "data"
    directory = data / "saves"
    seen: dict[Path, list[Any]] = {}
    resumed = started = finished = shown = writing = 0
    left: set[Path] = set()
    start = time.monotonic()
    for kill in range(KILLS):
        had_saves = bool(list(directory.glob("game-*.json")))
        app = App(data, rng.choice(GAMES), rng.randrange(1 << 30))
        deadline = time.monotonic() + rng.uniform(0.05, 2.5)
        snipe = rng.random() < 0.5  # this round, kill as soon as a save is being written
        pressed = False
        try:
            while time.monotonic() < deadline:
                app.read(0.02)
                seen_saves(directory, seen)
                if not pressed and app.shows(LOBBY):
                    app.press(F3 if had_saves else F2)
                    resumed += had_saves
                    started += not had_saves
                    pressed = True
                elif pressed and app.shows(GAME):
                    app.press(rng.choice(KEYS))
                    if snipe and writing_now(directory, left):
                        break
                assert app.process.poll() is None, app.output[-2000:].decode(errors="replace")
        finally:
            app.kill()
        writing += len(set(directory.glob(".tmp-*")) - left)
        left = set(directory.glob(".tmp-*"))
        logs = read_saves(directory)
        for path, before in seen.items():
            if path not in logs:
                finished += 1  # a game that ended is removed (F2 starts the next one)
                continue
            after = logs[path]
            assert after[: len(before)] == before, f"kill {kill}: {path.name} lost saved moves"
        seen = dict(logs)
        shown += pressed and app.shows(GAME)
    elapsed = time.monotonic() - start
    print(
        f"{KILLS} kills in {elapsed:.0f} s: {resumed} resumes and {started} new games asked for, "
        f"{shown} rounds reached play, {writing} kills while a save was being written, "
        f"{finished} games finished, {len(seen)} saves"
    )
    assert shown, "no round reached a game: the kills test nothing"

    # the last word: a start after all that shows no save it cannot read, and resumes
    app = App(data, "generala", 1)
    try:
        for _ in range(200):
            app.read(0.05)
            if app.shows(LOBBY):
                break
        assert app.shows(LOBBY)
        assert not app.shows(b"Cannot read save")
        if seen:
            app.press(F3)
            assert app.wait_for(GAME), app.output[-3000:].decode(errors="replace")
    finally:
        app.kill()
