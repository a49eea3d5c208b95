"""The expert's expected final score of a game, as docs/strategy.md gives it ("The optimal
opening values"), for the statistics to set a player's average beside.

The values are the solvers' own, written down here so that the statistics need no solver
(tests/records/test_records_expert.py checks them against `bots`):

- Generala: 215.2221 points (one sheet of 13 boxes, no bonus; players do not interact, so this
  is every seat's expectation). Its presets, as docs/strategy.md gives them (a generala
  servida counted as its points): Argentina 159.6185, with the escalera al as 162.4695, with
  servido +10 161.6608, Familia 247.9758; none for the other option sets.
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

GENERALA_PRESETS: dict[tuple[str, object, bool], float] = {
    ("argentina", 5, False): 159.6184561179,
    ("argentina", 5, True): 162.4694683999,
    ("argentina", 10, False): 161.6607639496,
    ("familia", 10, False): 247.9757545079,
}
"""(preset, servido bonus, escalera al as) → the expected final score, for the option sets the
docs give (each preset's Generala doble on, obligada off: the preset's own)."""

WITHOUT_EXPECTATION = ("navio", "piratas")
"""Games the docs give no expected score for (Barco's race neither)."""


def depends_on_options(game_id: str) -> bool:
    """Whether the expected score of `game_id` depends on its options (Barco's rounds,
    Generala's preset)."""
    return game_id in ("barco", "generala")


def expected_score(game_id: str, options: Mapping[str, Any] | None = None) -> float | None:
    """The expert's expected final score in a game of `game_id` played with `options` (the
    record's options, defaults left out or not); None where the docs give none."""
    options = options or {}
    if game_id == "generala":
        return _generala(options)
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


def _generala(options: Mapping[str, Any]) -> float | None:
    """A record's Generala options are written with only what differs from their preset
    (`rules.generala.GeneralaOptions`): the seed's game is `{}`."""
    preset = options.get("preset", "seed")
    if preset == "seed":
        changed = {k for k, v in options.items() if k != "servida_wins" and v not in (0, False)}
        return GENERALA if not changed - {"preset"} else None
    if options.get("generala_doble", True) is not True or options.get("obligada", False):
        return None
    servido = options.get("servido", {"argentina": 5, "familia": 10}.get(str(preset)))
    return GENERALA_PRESETS.get((str(preset), servido, options.get("escalera_al_as") is True))
