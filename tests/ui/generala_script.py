"""A whole two-player Generala game on loaded dice, described once for both input styles.

Ana and Bob fill the boxes top to bottom. Ana scores every box (281 points); Bob writes 0 in
Generala (231 points). Ana's Poker is made with a hold and a second throw.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.generala import BOXES, Box

ROLL_OFF = (6, 2)  # Ana rolls 6, Bob 2: Ana starts


@dataclass(frozen=True)
class Turn:
    box: Box
    first: tuple[int, ...]
    hold: tuple[int, ...] = ()  # dice positions (0-based) held before a second throw
    second: tuple[int, ...] = ()
    zero: bool = False


SCORING = {
    Box.ONES: ((1, 1, 1, 2, 3), 3),
    Box.TWOS: ((2, 2, 3, 4, 6), 4),
    Box.THREES: ((3, 3, 3, 1, 2), 9),
    Box.FOURS: ((4, 4, 4, 4, 1), 16),
    Box.FIVES: ((5, 5, 1, 2, 3), 10),
    Box.SIXES: ((6, 6, 6, 1, 2), 18),
    Box.TRIO: ((2, 2, 2, 5, 6), 20),
    Box.POKER: ((3, 3, 3, 3, 6), 30),
    Box.FULL: ((4, 4, 4, 6, 6), 25),
    Box.ESCALERA_LARGA: ((2, 3, 4, 5, 6), 30),
    Box.ESCALERA_ESCASA: ((1, 2, 3, 4, 5), 40),
    Box.GENERALA: ((5, 5, 5, 5, 5), 50),
    Box.LIBRE: ((6, 6, 5, 5, 4), 26),
}
ANA_TOTAL = sum(points for _, points in SCORING.values())
BOB_TOTAL = ANA_TOTAL - 50


def ana_turn(box: Box) -> Turn:
    if box is Box.POKER:
        return Turn(box, (3, 3, 3, 1, 2), hold=(0, 1, 2), second=(3, 6))
    return Turn(box, SCORING[box][0])


def bob_turn(box: Box) -> Turn:
    if box is Box.GENERALA:
        return Turn(box, (1, 2, 3, 4, 6), zero=True)
    return Turn(box, SCORING[box][0])


TURNS: list[Turn] = [turn for box in BOXES for turn in (ana_turn(box), bob_turn(box))]


def loaded_faces() -> list[int]:
    faces = list(ROLL_OFF)
    for turn in TURNS:
        faces += [*turn.first, *turn.second]
    return faces
