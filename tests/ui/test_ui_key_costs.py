"""What a key costs: the work between a key and the paint that answers it.

Every millisecond here is a millisecond a player waits for the screen to answer (the bench's
`key_latency_p99_s`, docs/performance.md). Restyling a widget means matching it against every
style rule and repainting all of it; a move's paint should not wait for the coach either.
"""

from __future__ import annotations

from generala_script import loaded_faces
from textual.app import App
from textual.dom import DOMNode

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.generala import GeneralaScreen
from app.widgets.die import Die


async def test_a_throw_restyles_no_die(monkeypatch):
    """A die's face changes its rows only; Generala's tray has no CSS for a die not yet
    thrown, so no class change (a restyle and a full repaint of each die) at every throw."""
    restyled: list[DOMNode] = []
    update_styles = App.update_styles

    def spy(app: App, node: DOMNode, animate: bool = True) -> None:
        restyled.append(node)
        update_styles(app, node, animate=animate)

    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=True, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, GeneralaScreen)
        monkeypatch.setattr(App, "update_styles", spy)
        await pilot.press("space")  # a throw: the dice tumble, then show their faces
        await pilot.pause(0.5)
        await pilot.press("enter")  # a box filled: the dice go back to "?"
        await pilot.pause(0.5)
        assert [node for node in restyled if isinstance(node, Die)] == []


def run_python(code: str, env: dict[str, str]) -> str:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_textual_paints_on_the_next_quarter_frame_not_the_next_frame():
    """Textual paints a change on the next 1/MAX_FPS s boundary: the app asks for 240 (a key's
    paint waited up to 17 ms at Textual's 60), and a user's own TEXTUAL_FPS wins."""
    import os

    code = "import app.cli, app.main, textual.constants as c; print(c.MAX_FPS)"
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    assert run_python(code, env) == "240"
    assert run_python(code, env | {"TEXTUAL_FPS": "30"}) == "30"


def test_opening_a_game_loads_no_pretty_printer():
    """The log writes text only: no `rich.pretty` (and the `attrs` it imports) as `RichLog`
    brought in, 9 ms of CPU and 0.6 MiB when a game opened."""
    import os

    code = (
        "import sys, app.main, app.screens.generala, app.screens.ship, app.screens.game_over; "
        "print(sorted({'rich.pretty', 'attr'} & set(sys.modules)))"
    )
    assert run_python(code, dict(os.environ)) == "[]"


async def test_the_log_writes_and_draws_its_lines_as_textual_richlog_does():
    """`TableTalk` has RichLog's code for text: the same lines for the same writes (wrapped,
    trimmed to `max_lines`, scrolled to the end), drawn the same. The one difference: a
    string's control characters are shown, not sent (`visible`: the log names players), so
    RichLog is given the string as `visible` makes it."""
    from textual.app import ComposeResult
    from textual.containers import Horizontal
    from textual.widgets import RichLog

    from app.quiet.table_talk import TableTalk
    from app.widgets.plain import visible

    words = "Ana throws 3 3 3 4 5 (throw 1 of 3); the coach rates it: best move. " * 3
    writes = [f"{n}. {words[: 7 * n]}" for n in range(1, 16)] + ["", "\ttabbed", words]

    class Two(App[None]):
        def compose(self) -> ComposeResult:
            with Horizontal():
                yield TableTalk(id="talk", max_lines=12, wrap=True, min_width=0)
                yield RichLog(id="rich", max_lines=12, wrap=True, min_width=0)

    app = Two()
    async with app.run_test(size=(80, 10)) as pilot:
        talk, rich = app.query_one(TableTalk), app.query_one(RichLog)
        for text in writes[:3]:  # before the size is known: held back, then written
            talk.write(text)
            rich.write(visible(text))
        await pilot.pause()
        for text in writes[3:]:
            talk.write(text)
            rich.write(visible(text))
        await pilot.pause()
        await pilot.pause()
        assert [list(line) for line in talk.lines] == [list(line) for line in rich.lines]
        assert "␉tabbed" in [line.text for line in talk.lines]
        assert talk.virtual_size == rich.virtual_size
        assert talk.scroll_offset == rich.scroll_offset
        height = talk.scrollable_content_region.height
        assert [talk.render_line(y).text for y in range(height)] == [
            rich.render_line(y).text for y in range(height)
        ]
