"""What a game's start does before its first frame (docs/performance.md, "Sixth pass")."""

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
