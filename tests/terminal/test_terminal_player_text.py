"""In a real terminal, a player's name never sends the terminal a control sequence.

A save written by hand can name a player with escape sequences: one that would set the
window's title (OSC 0), one that would turn the text red and reversed (SGR). The bytes `cubilete`
writes to its pty while the lobby lists that save, while the game is resumed and played, and on
the way out must hold neither sequence, and show each name with ESC as the symbol ␛.
"""

from __future__ import annotations

import json

from ptyapp import F3, GAME, LOBBY, App

from app.dice import RandomDice
from app.i18n import text_to_data
from app.table import Seat, Table

TITLE = "\x1b]0;PWNED\x07"
RED = "\x1b[7;31mZQ"


def test_escape_sequences_in_names_reach_the_terminal_as_symbols(tmp_path):
    data = tmp_path / "data"
    (data / "saves").mkdir(parents=True)
    seats = [Seat(name=f"Ana{TITLE}"), Seat(name=RED)]
    table = Table.new("barco", seats, {"rounds": 1}, dice=RandomDice(1))
    save = {
        "format": 1,
        "game": "barco",
        "save_id": "names",
        "seats": [seat.model_dump() for seat in table.seats],
        "state": table.state.model_dump(mode="json"),
        "log": [text_to_data(line) for line in table.log],
    }
    (data / "saves" / "game-names.json").write_text(json.dumps(save), encoding="utf-8")
    app = App(data, "barco", 1)
    try:
        assert app.wait_for(LOBBY), app.output[-2000:]
        assert app.wait_for("␛[7;31mZQ".encode())  # the lobby's notice of the unfinished game
        app.press(F3)
        assert app.wait_for(GAME), app.output[-2000:]
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
