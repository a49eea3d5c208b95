"""In a real terminal, a player's name never sends the terminal a control sequence.

A game's record (or an old JSON save, imported at the start) can name a player with escape
sequences: one that would set the window's title (OSC 0), one that would turn the text red and
reversed (SGR). The bytes `cubilete` writes to its pty while the lobby offers that game, while
the game is resumed and played, and on the way out must hold neither sequence, and show each
name with ESC as the symbol ␛.

Wide characters take the cells the terminal gives them: in tmux, a Chinese name and a heart
asked for as an emoji (VS16, which Textual counts as two cells and tmux draws in one) leave
every row of the screen exactly as wide as the terminal, and the sheet's heading on its row.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ptyapp import F3, GAME, LOBBY, App
from rich.cells import cell_len
from termhelpers import Pane, cubilete, needs_tmux

from app.dice import RandomDice
from app.i18n import text_to_data
from app.records.recorder import StoreRecorder
from app.records.sqlite import SQLiteStore
from app.table import Seat, Table

TITLE = "\x1b]0;PWNED\x07"
RED = "\x1b[7;31mZQ"


def write_record(data: Path, game: str, seats: list[Seat], options: dict[str, int]) -> None:
    """A game just started with these seats, in the data dir's records."""
    data.mkdir(parents=True, exist_ok=True)
    store = SQLiteStore(data / "records.db")
    try:
        Table.new(game, seats, options, dice=RandomDice(1), recorder=StoreRecorder(store))
    finally:
        store.close()


def write_save(data: Path, game: str, seats: list[Seat], options: dict[str, int]) -> None:
    """A JSON save of an earlier version of a game just started, written by hand (as anyone
    can) with these seats."""
    (data / "saves").mkdir(parents=True)
    table = Table.new(game, seats, options, dice=RandomDice(1))
    save = {
        "format": 1,
        "game": game,
        "save_id": "names",
        "seats": [seat.model_dump() for seat in table.seats],
        "state": table.state.model_dump(mode="json"),
        "log": [text_to_data(line) for line in table.log],
    }
    (data / "saves" / "game-names.json").write_text(json.dumps(save), encoding="utf-8")


@pytest.mark.parametrize("write", [write_record, write_save], ids=["record", "old save"])
def test_escape_sequences_in_names_reach_the_terminal_as_symbols(tmp_path, write):
    data = tmp_path / "data"
    write(data, "barco", [Seat(name=f"Ana{TITLE}"), Seat(name=RED)], {"rounds": 1})
    app = App(data, "barco", 1)
    try:
        assert app.wait_for(LOBBY), app.output[-2000:]
        # the lobby's list of unfinished games names the first player (the row clips the rest)
        assert app.wait_for("Ana␛]0;PWNE".encode()), app.output[-2000:]
        app.press(F3)
        assert app.wait_for(GAME), app.output[-2000:]
        assert app.wait_for("␛[7;31mZQ".encode()), app.output[-2000:]  # the sheet's heading
        for key in (b" ", b" ", b"s", b" "):
            app.press(key)
            app.read(0.3)
        assert app.process.poll() is None
        app.press(b"\x11")  # ctrl+q
        app.process.wait(timeout=10)
        app.read()
    finally:
        app.kill()
    shown = app.output
    assert "Ana␛]0;PWNED␇".encode() in shown
    assert TITLE.encode() not in shown
    assert RED.encode() not in shown
    assert b"PWNED\x07" not in shown


@needs_tmux
def test_wide_names_take_the_cells_the_terminal_gives_them(tmp_path):
    data = tmp_path / "data"
    names = ["王小明", "x\u2764\ufe0fy", f"Ana{RED}"]
    write_record(data, "generala", [Seat(name=name, kind="medium") for name in names], {})
    with Pane(100, 30) as pane:
        pane.start(cubilete("--no-animation", "--bot-pace", "60"), {"CUBILETE_DATA_DIR": str(data)})
        pane.wait_for(r"Start \(F2\)")
        pane.keys("F3")
        pane.wait_for("Table talk")
        screen = pane.settled()
        rows = pane.tmux("capture-pane", "-p", "-N", "-t", "0").split("\n")[: pane.height]
        widths = {cell_len(row) for row in rows}
        assert widths == {pane.width}, screen  # Textual's cells are the terminal's
        heading = next(row for row in rows if " Box " in row)
        assert "王小明" in heading and "x\u2764y" in heading and "Ana␛[7;3" in heading, screen
        assert "\x1b[7;31m" not in pane.capture(escapes=True)
