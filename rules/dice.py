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


def check_outcome(pending: PendingThrow | None, faces: object) -> tuple[int, ...]:
    """Validate thrown faces against the pending throw; return them as a tuple.

    `faces` may be anything at all (it can come from a save or a bug): only a list or tuple
    of whole numbers 1 to 6, as many as the pending throw needs, passes; everything else is an
    IllegalAction, never a TypeError."""
    if pending is None:
        raise IllegalAction(N_("No dice are being thrown now"))
    if not isinstance(faces, list | tuple):
        raise IllegalAction(N_("A throw is a list of dice faces, not {faces}"), faces=_shown(faces))
    if len(faces) != pending.count:
        raise IllegalAction(
            N_("Expected {expected} dice, got {got}"), expected=pending.count, got=len(faces)
        )
    for face in faces:
        if type(face) is not int or face not in FACES:  # (not bool, not float, not a subclass)
            raise IllegalAction(N_("A die shows 1 to 6, not {face}"), face=_shown(face))
    return tuple(faces)


def _shown(value: object) -> str:
    """A value as a player may read it in a message: its repr, cut short."""
    try:
        text = repr(value)
    except Exception:  # a repr that fails is no reason to fail the message
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 40 else f"{text[:39]}…"
