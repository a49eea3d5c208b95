"""The README names the games' dice as the games do."""

from __future__ import annotations

import re
from pathlib import Path

from rules.barco import BARCO_TURN
from rules.navio import NAVIO_TURN

ROOT = Path(__file__).resolve().parent.parent


def section(title: str) -> str:
    """The README's bullet that starts with `- **title**`, as one line of text."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"^- \*\*{re.escape(title)}\*\*(.*?)(?=^- |^$)", readme, re.M | re.S)
    assert found is not None, f"no README bullet for {title}"
    return " ".join(found.group(1).split())


def test_the_readme_calls_barco_s_4_the_pilot_and_navio_s_the_crew() -> None:
    # the games' own words: Barco sets aside ship, captain and pilot; Navio ship, captain, crew
    assert "ship, captain and pilot" in BARCO_TURN.not_ready.lower()
    assert "ship, captain and crew" in NAVIO_TURN.not_ready.lower()
    ships = section("Barco and Navio")
    assert "captain and crew are set aside" not in ships
    assert "Barco's pilot" in ships and "Navio's crew" in ships
