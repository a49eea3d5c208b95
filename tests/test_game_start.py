"""What the app sets and a game's start loads before its first frame (docs/performance.md)."""

from __future__ import annotations

import os
import subprocess
import sys


def run_python(code: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_game_start_reads_no_installed_packages_metadata_for_pydantic_plugins():
    """pydantic, building its first model, looked for plugins in the metadata of every
    installed package (`importlib.metadata.entry_points`, parsed with `email.parser`): the app
    runs none. A user's own PYDANTIC_DISABLE_PLUGINS wins."""
    code = (
        "import os, app, rules.generala, app.table, pydantic.plugin._loader as loader; "
        "print(loader._plugins is None, os.environ['PYDANTIC_DISABLE_PLUGINS'])"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    assert run_python(code, env) == "True __all__"  # (None: never looked for)
    assert run_python(code, env | {"PYDANTIC_DISABLE_PLUGINS": "logfire"}) == "False logfire"


def test_textual_paints_on_the_next_quarter_frame_not_the_next_frame():
    """Textual paints a change on the next 1/MAX_FPS s boundary: the app asks for 240 (a key's
    paint waited up to 17 ms at Textual's 60), and a user's own TEXTUAL_FPS wins."""
    code = "import app.cli, app.main, textual.constants as c; print(c.MAX_FPS)"
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    assert run_python(code, env) == "240"
    assert run_python(code, env | {"TEXTUAL_FPS": "30"}) == "30"


def test_opening_a_game_loads_no_pretty_printer():
    """The log writes text only: no `rich.pretty` (and the `attrs` it imports) as `RichLog`
    brought in, 9 ms of CPU and 0.6 MiB when a game opened."""
    code = (
        "import sys, app.main, app.screens.generala, app.screens.ship, app.screens.game_over; "
        "print(sorted({'rich.pretty', 'attr'} & set(sys.modules)))"
    )
    assert run_python(code, dict(os.environ)) == "[]"
