"""Chance outcomes of throwing dice: exact distributions, no random numbers."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import factorial

from .errors import N_, IllegalAction
from .model import Frozen

FACES = (1, 2, 3, 4, 5, 6)


class PendingThrow(Frozen):
    """A chance event the state waits for: `count` dice thrown by `player`.

    `ordered` dice are told apart (piratas' d1 and d2), so each ordered tuple is one outcome;
    otherwise an outcome is a sorted multiset of faces with its multinomial probability.
    """

    player: int | None
    count: int
    ordered: bool = False


@cache
def throw_outcomes(
    count: int, ordered: bool = False
) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every outcome of throwing `count` fair dice with its exact probability."""
    if count == 0:
        return (((), Fraction(1)),)
    if ordered:
        p = Fraction(1, 6**count)
        return tuple((faces, p) for faces in product(FACES, repeat=count))
    total = 6**count
    result = []
    for faces in combinations_with_replacement(FACES, count):
        ways = factorial(count)
        for n in Counter(faces).values():
            ways //= factorial(n)
        result.append((faces, Fraction(ways, total)))
    return tuple(result)


def check_outcome(pending: PendingThrow | None, faces: tuple[int, ...]) -> tuple[int, ...]:
    """Validate thrown faces against the pending throw; return them as a tuple."""
    if pending is None:
        raise IllegalAction(N_("No dice are being thrown now"))
    faces = tuple(faces)
    if len(faces) != pending.count:
        raise IllegalAction(
            N_("Expected {expected} dice, got {got}"), expected=pending.count, got=len(faces)
        )
    for face in faces:
        if not isinstance(face, int) or isinstance(face, bool) or face not in FACES:
            raise IllegalAction(N_("A die shows 1 to 6, not {face}"), face=face)
    return faces
