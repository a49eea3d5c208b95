"""Generala: the exact solution for one player's expected final score, and the bots on it.

Without bonuses a player's future depends only on which boxes are filled: 2^13 states. The
value of a state (expected points still to come) is found by backward induction from the
full sheet. One turn of a state is solved in three layers over the 252 five-dice hands:

- F(h): the best box for hand h, its points plus the value of the sheet with that box filled.
- C_s(K): the value of keeping the multiset K (0 to 4 dice) after throw s and throwing the
  rest, averaged one die at a time: C(K) = mean over faces f of C(K + f), with C of a full
  hand the hand's value after throw s + 1 (the standard trick: 462 keeps, 6 terms each).
- H_s(h): the value of hand h after throw s: the best of F(h) and every keep inside h, found
  by taking the best over "remove one die" down the keep lattice.

The value of the state is the mean of H_1 over the opening throw.

That is the seed's game without options, whose table is shipped (`assets/`). Any other preset
or option set is solved by `bots.generala_solver` (numpy, well under a second), one table per
option set (`preset_table`), on first use.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from operator import add, itemgetter, mul
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rules.generala import (
    BOXES,
    DICE,
    FACE_OF_BOX,
    THROWS_PER_TURN,
    Box,
    Fill,
    Generala,
    GeneralaOptions,
    GeneralaState,
    Roll,
    score,
)

from .base import Bot, Coach, Thresholds, Unit

if TYPE_CHECKING:
    from .generala_solver import PresetTable

GAME = Generala()
FACES = (1, 2, 3, 4, 5, 6)
FULL_SHEET = (1 << len(BOXES)) - 1
SIXTH = 1 / 6

Multiset = tuple[int, ...]


def _by_distinct_faces(k: int) -> tuple[Multiset, ...]:
    """The multisets of k dice, most distinct faces first (see PARENTS)."""
    return tuple(sorted(combinations_with_replacement(FACES, k), key=lambda m: (-len(set(m)), m)))


LEVELS: tuple[tuple[Multiset, ...], ...] = tuple(_by_distinct_faces(k) for k in range(DICE + 1))
"""Every multiset of k dice (sorted faces), for k = 0..5: 1, 6, 21, 56, 126, 252."""
INDEX: tuple[dict[Multiset, int], ...] = tuple(
    {m: i for i, m in enumerate(level)} for level in LEVELS
)
HANDS = LEVELS[DICE]


def _plus(m: Multiset, face: int) -> Multiset:
    return tuple(sorted((*m, face)))


def _minus(m: Multiset, face: int) -> Multiset:
    rest = list(m)
    rest.remove(face)
    return tuple(rest)


def _probability(hand: Multiset) -> float:
    ways = factorial(len(hand))
    for n in Counter(hand).values():
        ways //= factorial(n)
    return ways / 6 ** len(hand)


HAND_PROBABILITY = tuple(_probability(h) for h in HANDS)

Getter = Callable[[Sequence[float]], tuple[float, ...]]


def _getter(indices: Sequence[int]) -> Getter:
    """itemgetter that always returns a tuple, even of one item."""
    if len(indices) == 1:
        (only,) = indices
        return lambda values: (values[only],)
    return itemgetter(*indices)


CHILDREN: tuple[tuple[Getter, ...], ...] = tuple(
    tuple(_getter([INDEX[k + 1][_plus(m, f)] for m in LEVELS[k]]) for f in FACES)
    for k in range(DICE)
)
"""CHILDREN[k][f - 1] maps the keeps of level k to the keeps of level k+1 with f added."""


def _parents(k: int) -> tuple[Getter, ...]:
    """PARENTS[k][j] maps each multiset of level k with more than j distinct faces to the
    multiset of level k-1 without one die of its j-th face. Levels list the multisets with
    the most distinct faces first, so getter j covers a prefix of the level."""
    getters = []
    for j in range(k):
        rows = [m for m in LEVELS[k] if len(set(m)) > j]
        if rows:
            getters.append(_getter([INDEX[k - 1][_minus(m, sorted(set(m))[j])] for m in rows]))
    return tuple(getters)


PARENTS = tuple(_parents(k) for k in range(DICE + 1))

BOX_SCORES: tuple[tuple[int, ...], ...] = tuple(tuple(score(b, h) for h in HANDS) for b in BOXES)
NONZERO: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((i, s) for i, s in enumerate(scores) if s) for scores in BOX_SCORES
)
LIBRE = BOXES.index(Box.LIBRE)
BOX_BIT = {box: 1 << i for i, box in enumerate(BOXES)}


def _max(values: Sequence[float], others: Iterable[float]) -> list[float]:
    """Element-wise maximum (a comprehension: several times faster than map(max, ...))."""
    return [x if x >= y else y for x, y in zip(values, others, strict=False)]


@dataclass(frozen=True)
class Turn:
    """The solved turn of one sheet: everything a hint needs."""

    fill: list[float]
    """F: the value of filling the best box with each hand (the value after throw 3)."""
    after: tuple[list[float], list[float]]
    """H_1 and H_2: the value of each hand after throw 1 and after throw 2."""
    keeps: tuple[list[list[float]], list[list[float]]]
    """C_1 and C_2 by level: the value of keeping each multiset after throw 1 or 2."""
    value: float


def _keep_values(next_hand: list[float]) -> list[list[float]]:
    """C by level (0..5) for hands valued `next_hand` after the coming throw."""
    levels: list[list[float]] = [[]] * (DICE + 1)
    levels[DICE] = next_hand
    for k in range(DICE - 1, -1, -1):
        up = levels[k + 1]
        g1, g2, g3, g4, g5, g6 = CHILDREN[k]
        total = map(
            add,
            map(add, map(add, g1(up), g2(up)), map(add, g3(up), g4(up))),
            map(add, g5(up), g6(up)),
        )
        levels[k] = list(map(SIXTH.__mul__, total))
    return levels


def _hand_values(keeps: list[list[float]], fill: list[float]) -> list[float]:
    """H: each hand's best of filling a box now and every keep of 0 to 4 of its dice.

    best[k] is, for each keep K of k dice, the best keep inside K: the better of K itself
    and the best inside each K minus one die."""
    best = keeps[0]
    for k in range(1, DICE + 1):
        below = best
        first, *others = PARENTS[k]
        best = _max(fill if k == DICE else keeps[k], first(below))
        for getter in others:
            head = _max(best, getter(below))
            best[: len(head)] = head
    return best


def _fill_values(filled: int, future: Sequence[float]) -> list[float]:
    """F: each hand's best box, its points plus the value of the sheet with it filled.

    A box scores 0 for most hands: start from the best zero (or from Libre, which always
    scores), then raise the hands that score in each other free box."""
    open_boxes = [i for i in range(len(BOXES)) if not filled & (1 << i)]
    floor = max(future[filled | (1 << i)] for i in open_boxes)
    if LIBRE in open_boxes:
        libre = future[filled | (1 << LIBRE)]
        best = [x if x >= floor else floor for x in map(libre.__add__, BOX_SCORES[LIBRE])]
    else:
        best = [floor] * len(HANDS)
    for i in open_boxes:
        if i != LIBRE:
            later = future[filled | (1 << i)]
            for hand, points in NONZERO[i]:
                value = points + later
                if value > best[hand]:
                    best[hand] = value
    return best


def _state_value(filled: int, future: Sequence[float]) -> float:
    fill = _fill_values(filled, future)
    after_2 = _hand_values(_keep_values(fill), fill)
    after_1 = _hand_values(_keep_values(after_2), fill)
    return sum(map(mul, HAND_PROBABILITY, after_1))


class Table:
    """The value of every sheet: the expected points still to come, playing optimally.

    Filled lazily: `value(mask)` solves only the sheets reachable from `mask` (the supersets),
    so a sheet with two boxes left costs four turn solutions, the empty sheet all 8192.
    """

    def __init__(self) -> None:
        self._values: list[float | None] | array[float] = [None] * (FULL_SHEET + 1)
        self._values[FULL_SHEET] = 0.0
        self.complete = False

    def solve_all(self) -> None:
        """Fill the whole table, fullest sheets first (about 3 s in CPython on this machine)."""
        if self.complete:
            return
        values = self._values
        for mask in range(FULL_SHEET - 1, -1, -1):
            if values[mask] is None:
                values[mask] = _state_value(mask, self.solved())
        self.complete = True

    def solved(self) -> Sequence[float]:
        """The values as the solver reads them: a sheet's value is worked out from the
        sheets with one more box filled, and those are always solved first (an unsolved
        sheet is None, and is never read)."""
        return cast("Sequence[float]", self._values)

    def value(self, filled: int) -> float:
        known = self._values[filled]
        if known is not None:
            return known
        for i in range(len(BOXES)):
            if not filled & (1 << i):
                self.value(filled | (1 << i))
        result = _state_value(filled, self.solved())
        self._values[filled] = result
        return result

    def values(self) -> list[float]:
        """The whole table, indexed by the bit mask of filled boxes (bit i: BOXES[i])."""
        self.solve_all()
        return list(self.solved())

    def load(self, values: Sequence[float]) -> None:
        """Install a table computed elsewhere (e.g. shipped with the app and read by it),
        kept as an array of doubles (64 KB, rather than a list of 8,192 float objects)."""
        if len(values) != FULL_SHEET + 1 or values[FULL_SHEET] != 0:
            raise ValueError(f"a Generala table has {FULL_SHEET + 1} values, the last 0")
        self._values = array("d", values)
        self.complete = True
        _turn.cache_clear()

    def turn(self, filled: int) -> Turn:
        return _turn(self, filled)


@lru_cache(maxsize=64)
def _turn(table: Table, filled: int) -> Turn:
    for i in range(len(BOXES)):
        if not filled & (1 << i):
            table.value(filled | (1 << i))
    fill = _fill_values(filled, table.solved())
    keeps_2 = _keep_values(fill)
    after_2 = _hand_values(keeps_2, fill)
    keeps_1 = _keep_values(after_2)
    after_1 = _hand_values(keeps_1, fill)
    value = sum(map(mul, HAND_PROBABILITY, after_1))
    return Turn(fill=fill, after=(after_1, after_2), keeps=(keeps_1, keeps_2), value=value)


TABLE = Table()
"""The one table of the process: solved on first use, kept in memory."""


def filled_mask(sheet: Sequence[int | None]) -> int:
    return sum(1 << i for i, value in enumerate(sheet) if value is not None)


SEED = GeneralaOptions()

PRESET_TABLES: dict[str, PresetTable] = {}
"""The tables of the option sets met so far (the seed's game without options uses TABLE)."""


def preset_table(options: GeneralaOptions) -> PresetTable:
    """The table of an option set other than the seed's game, solved on first use (well under
    a second) unless the app installed a cached one (`load`)."""
    from .generala_solver import PresetTable, table_key

    key = table_key(options)
    if key not in PRESET_TABLES:
        PRESET_TABLES[key] = PresetTable(options)
    return PRESET_TABLES[key]


def option_values(state: GeneralaState, table: Table = TABLE) -> list[tuple[Roll | Fill, float]]:
    """Each legal action of the player to move with the points it is worth from here on
    (this turn's box included), playing optimally afterwards."""
    if state.options != SEED:
        return _preset_option_values(state)
    legal = GAME.legal_actions(state)
    filled = filled_mask(state.sheets[state.current])
    if state.throws == 0:
        return [(action, table.value(filled)) for action in legal]
    turn = table.turn(filled)
    hand = tuple(sorted(state.dice))
    valued: list[tuple[Roll | Fill, float]] = []
    for action in legal:
        if isinstance(action, Fill):
            i = BOXES.index(action.box)
            value = score(action.box, hand) + table.value(filled | (1 << i))
        else:
            kept = tuple(sorted(state.dice[p] for p in action.hold))
            value = turn.keeps[state.throws - 1][len(kept)][INDEX[len(kept)][kept]]
        valued.append((action, value))
    return valued


def _preset_option_values(state: GeneralaState) -> list[tuple[Roll | Fill, float]]:
    from .generala_solver import keep_value

    table = preset_table(state.options)
    legal = GAME.legal_actions(state)
    seat = state.current
    filled = filled_mask(state.sheets[seat])
    held = state.generala_held(seat)
    if state.throws == 0:
        return [(action, table.value(filled, held)) for action in legal]
    turn = table.turn(filled, held)
    valued: list[tuple[Roll | Fill, float]] = []
    for action in legal:
        if isinstance(action, Fill):
            points = state.box_points(action.box)
            after = filled | (1 << state.boxes.index(action.box))
            held_after = points > 0 if action.box is Box.GENERALA else held
            value = points + table.value(after, held_after)
        else:
            kept = tuple(sorted(state.dice[p] for p in action.hold))
            value = keep_value(turn, state.throws, kept)
        valued.append((action, value))
    return valued


class GeneralaCoach(Coach):
    game_id = "generala"
    thresholds: ClassVar[dict[Unit, Thresholds]] = {
        Unit.FINAL_SCORE: Thresholds(good=1.0, inaccuracy=3.0, mistake=8.0)
    }

    def __init__(self, table: Table = TABLE) -> None:
        self.table = table

    def prepare(self, state: GeneralaState) -> None:
        if state.options != SEED:
            table = preset_table(state.options)
            table.solve_all()
            seat = GAME.current_player(state)
            if seat is not None:  # the turn of the player to move, for the hints to come
                table.turn(filled_mask(state.sheets[seat]), state.generala_held(seat))
        else:
            self.table.solve_all()

    def unit(self, state: GeneralaState) -> Unit:
        return Unit.FINAL_SCORE

    def values(self, state: GeneralaState) -> list[tuple[Any, float]]:
        total = state.total(state.current)
        return [(action, total + value) for action, value in option_values(state, self.table)]

    def decision(self, state: GeneralaState, action: Roll | Fill) -> Hashable:
        """A keep is the faces kept, whichever dice show them."""
        if isinstance(action, Roll) and state.throws:
            return tuple(sorted(state.dice[p] for p in set(action.hold)))
        return action


# -- the casual player ------------------------------------------------------------------------

MADE_HANDS = (
    Box.GENERALA_DOBLE,
    Box.GENERALA,
    Box.ESCALERA_ESCASA,
    Box.POKER,
    Box.ESCALERA_LARGA,
    Box.ESCALERA,
    Box.FULL,
)
"""Hands a casual player stands on at once if the box is still free."""


class GeneralaMedium(Bot):
    """A casual player: stands on a made hand, else keeps the most common face (a four-dice
    straight when there is one) and, at the end, writes the best score (a zero where it
    hurts least)."""

    game_id = "generala"
    level = "medium"

    def _choose(self, state: GeneralaState, legal: Sequence[Any]) -> Any:
        if state.throws == 0:
            return Roll()
        dice = state.dice
        writable = [action.box for action in legal if isinstance(action, Fill)]
        made = [box for box in MADE_HANDS if box in writable and state.box_points(box) > 0]
        if made:
            return Fill(box=made[0])
        if state.throws < THROWS_PER_TURN:
            if state.options.obligada and writable[0] in FACE_OF_BOX:
                face = FACE_OF_BOX[writable[0]]
                return Roll(hold=tuple(p for p, d in enumerate(dice) if d == face))
            return Roll(hold=_casual_hold(dice, writable))
        boxes = state.boxes
        best = max(writable, key=lambda box: (state.box_points(box), -boxes.index(box)))
        if state.box_points(best) > 0:
            return Fill(box=best)
        return Fill(box=writable[0])


def _casual_hold(dice: tuple[int, ...], free: list[Box]) -> tuple[int, ...]:
    straights = [
        s
        for s, box in (
            ((1, 2, 3, 4, 5), Box.ESCALERA_ESCASA),
            ((2, 3, 4, 5, 6), Box.ESCALERA_LARGA),
            ((1, 2, 3, 4, 5), Box.ESCALERA),
            ((2, 3, 4, 5, 6), Box.ESCALERA),
        )
        if box in free
    ]
    for run in straights:
        have = set(dice) & set(run)
        if len(have) == 4:
            return tuple(sorted(dice.index(face) for face in have))
    counts = Counter(dice)
    face = max(counts, key=lambda f: (counts[f], f))
    return tuple(p for p, d in enumerate(dice) if d == face)[:4]
