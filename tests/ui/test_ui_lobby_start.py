"""The lobby is drawn from plain data: no game's rules (and no pydantic) until a game starts,
and the rules and too-small screens load when first shown."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROBE = """
import asyncio, json, sys
from app.main import CubileteApp

def loaded():
    later = ("rules.", "bots", "app.screens.rules", "app.screens.too_small", "markdown_it")
    return sorted(m for m in sys.modules if m == "pydantic" or m.startswith(later))

async def main():
    app = CubileteApp(animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        in_lobby = loaded()
        await pilot.press("end", "f2")  # Generala, the last game in the list
        await pilot.pause()
        in_game = loaded()
        screen = type(app.screen).__name__
    print(json.dumps({"lobby": in_lobby, "game": in_game, "screen": screen}))

asyncio.run(main())
"""


def test_the_lobby_loads_no_rules_and_a_game_loads_its_own(tmp_path):
    env = {"CUBILETE_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, **env},
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["screen"] == "GeneralaScreen"
    assert seen["lobby"] == ["rules.errors"]
    assert "pydantic" in seen["game"] and "rules.generala" in seen["game"]
    assert "rules.barco" not in seen["game"]  # only the game being played
