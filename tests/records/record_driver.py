"""A small player for the reliability tests: real processes playing through the real `Table`,
`StoreRecorder` and `SQLiteStore`, as the app does, but without a screen.

    python record_driver.py play DB SEED [GAMES]   play GAMES new games (two of these at once
                                                   each play their own)
    python record_driver.py zygote DB              read seeds on stdin; for each, fork a child
                                                   that plays forever; print its pid

Each child prints `committed RECORD SEQ` after every action the store took, and `resumed
RECORD SEQ` when it goes on with a record (stdout, flushed), so a test that kills it knows
what the store had promised by then.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

from app import strategy_tables
from app.dice import RandomDice
from app.records.recorder import StoreRecorder
from app.records.sqlite import SQLiteStore
from app.table import Seat, Table
from bots import get_bot

GAMES = ("generala", "barco", "multiplicacion", "navio", "piratas")


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def play(path: Path, seed: int, games: int | None, resume: bool = True) -> None:
    """Play games; with `resume`, half of them go on with the newest unfinished game."""
    rng = random.Random(seed)
    store = SQLiteStore(path)
    played = 0
    while games is None or played < games:
        unfinished = store.unfinished()
        recorder = StoreRecorder(store, retry_after=0)
        if resume and unfinished and rng.random() < 0.5:
            table = Table.from_record(
                store.load(unfinished[0].record_id), RandomDice(rng.random()), recorder=recorder
            )
            say(f"resumed {table.save_id} {len(table.events)}")
        else:
            game_id = rng.choice(GAMES)
            seats = [Seat(name="Ana"), Seat(name="Bruno", kind="easy")]
            table = Table.new(game_id, seats, None, RandomDice(rng.random()), recorder=recorder)
        strategy_tables.prepare(table.game.id)
        while not table.over:
            seat = table.current_player()
            assert seat is not None
            if not table.seats[seat].bot and table.can_undo() and rng.random() < 0.2:
                table.undo()
            else:
                kind = table.seats[seat].kind
                bot = get_bot(table.game.id, "medium" if kind == "human" else kind, seed=seat)
                table.act(bot.choose(table.state))
            if recorder.problem is not None:
                raise SystemExit(f"not recorded: {recorder.problem}")
            say(f"committed {table.save_id} {len(table.events)}")
            if resume and rng.random() < 0.02:
                break  # leave it unfinished: another game (or this one resumed) comes next
        played += 1
    store.close()


def zygote(path: Path) -> None:
    """Fork a player for every seed read (the imports are paid once; SQLite is opened only
    in the children)."""
    say("ready")
    for line in sys.stdin:
        seed = int(line)
        pid = os.fork()
        if pid == 0:
            try:
                play(path, seed, None)
            finally:
                os._exit(0)
        say(f"child {pid}")
        os.waitpid(pid, 0)
        say(f"reaped {pid}")


if __name__ == "__main__":
    command, db = sys.argv[1], Path(sys.argv[2])
    if command == "zygote":
        zygote(db)
    else:
        play(db, int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 1, resume=False)
