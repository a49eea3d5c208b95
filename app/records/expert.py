"""The expert's expected final score of a game, as docs/strategy.md gives it ("The optimal
opening values"), for the statistics to set a player's average beside.

The values are the solvers' own, written down here so that the statistics need no solver
(tests/records/test_records_expert.py checks them against `bots`):

- Generala: 215.2221 points (one sheet of 13 boxes, no bonus; players do not interact, so this
  is every seat's expectation).
- Multiplicación: 10 turns of 1472309/40512 = 36.342540 points: 363.43.
- Barco played for a number of rounds: that many rounds of 169123624727/39182082048 =
  4.316351 points (43.16 over the default 10). This counts every round played for its
  expected score, as the docs do; the last round, which the expert plays to win, and the
  extra rounds of a tie are left out.

The docs give none for Barco's race to a target, for Navío (its values are chances to win a
round) nor for Batalla de Piratas (a race on a board, rated in lives): for those there is
nothing to compare with (None).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

GENERALA = 215.2221348166
"""The expected final score of a Generala sheet (bots.generala.TABLE.value(0))."""
MULTIPLICACION_TURN = Fraction(1472309, 40512)
MULTIPLICACION_TURNS = 10
BARCO_ROUND = Fraction(169123624727, 39182082048)
BARCO_DEFAULT_ROUNDS = 10

WITHOUT_EXPECTATION = ("navio", "piratas")
"""Games the docs give no expected score for (Barco's race neither)."""


def depends_on_options(game_id: str) -> bool:
    """Whether the expected score of `game_id` depends on its options (Barco's rounds)."""
    return game_id == "barco"


def expected_score(game_id: str, options: Mapping[str, Any] | None = None) -> float | None:
    """The expert's expected final score in a game of `game_id` played with `options` (the
    record's options, defaults left out or not); None where the docs give none."""
    options = options or {}
    if game_id == "generala":
        return GENERALA
    if game_id == "multiplicacion":
        return float(MULTIPLICACION_TURN * MULTIPLICACION_TURNS)
    if game_id == "barco":
        if options.get("end", "rounds") != "rounds":
            return None
        rounds = options.get("rounds", BARCO_DEFAULT_ROUNDS)
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
            return None
        return float(BARCO_ROUND * rounds)
    return None
