"""Generala under any preset and house options: the exact expected final score, with numpy.

The seed's game without options keeps its own solver and shipped table (`bots.generala.Table`);
this one solves every other option set in well under a second, and agrees with that one on the
seed's game (tests/bots/test_bots_generala_presets.py).

A player's future depends on the boxes filled and, when the sheet has a Generala doble, on
whether the Generala holds its points (the doble scores only then): the state is that set of
boxes and that flag. The flag matters only while the Generala is written and the doble is not,
so every other state keeps it 0 (its canonical index). With "obligada" the filled boxes are
always the first k of the sheet, so only those states are solved.

A turn is solved as in `bots.generala`, for a whole layer of states at once (the states with
the same number of boxes filled depend only on the layer below):

- F(h): each hand's best box, its points plus the value of the state after writing it, and
  F1(h) the same right after the first throw, when a servido bonus counts;
- C_s(K) = Σ_h T[K, h] H_{s+1}(h): the value of keeping the multiset K (0 to 4 dice) after
  throw s, T[K, h] the chance that the dice thrown make the hand h with K (a matrix product);
- H_s(h): the best of writing now (F1 after the first throw, F after the second) and every
  keep K inside h, found down the keep lattice one die at a time;
- V(state) = Σ_h P(h) H_1(h). A generala servida counts as its points: the table is the one
  player's expected final score, whatever the servida option says.

Everything here is pure (no I/O); the app caches a solved table in its data dir
(`app.strategy_tables`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import numpy.typing as npt

from rules.generala import Box, GeneralaOptions, points, sheet_boxes

Floats = npt.NDArray[np.float64]
Multiset = tuple[int, ...]
DICE = 5
FACES = (1, 2, 3, 4, 5, 6)

LEVELS: tuple[tuple[Multiset, ...], ...] = tuple(
    tuple(sorted(combinations_with_replacement(FACES, k), key=lambda m: (-len(set(m)), m)))
    for k in range(DICE + 1)
)
"""The multisets of k dice (sorted faces), k = 0..5: 1, 6, 21, 56, 126, 252; those with the
most distinct faces first, so that "one die less of its j-th face" covers a prefix of a
level."""
OFFSET = tuple(sum(len(level) for level in LEVELS[:k]) for k in range(DICE + 2))
KEEP_INDEX: dict[Multiset, int] = {
    m: OFFSET[k] + i for k, level in enumerate(LEVELS) for i, m in enumerate(level)
}
"""Every multiset of 0 to 5 dice, numbered level by level (462 in all)."""
HANDS = LEVELS[DICE]
HAND_INDEX = {hand: i for i, hand in enumerate(HANDS)}


def _chance(dice: Multiset) -> float:
    ways = factorial(len(dice))
    for n in Counter(dice).values():
        ways //= factorial(n)
    return ways / 6 ** len(dice)


def _without(hand: Multiset, keep: Multiset) -> Multiset | None:
    rest = list(hand)
    for face in keep:
        if face not in rest:
            return None
        rest.remove(face)
    return tuple(rest)


Indices = npt.NDArray[np.intp]


@cache
def _tables() -> tuple[Floats, tuple[Indices, ...], tuple[tuple[Indices, ...], ...]]:
    """P(h) of the opening throw; for each level k < 5 the children of its multisets in level
    k+1 (one die more of each face: a column a face); for each level k > 0 the parents of its
    multisets in level k-1 (column j: one die less of the j-th face it shows, for the prefix
    of the level that shows more than j faces)."""
    opening = np.array([_chance(h) for h in HANDS])
    children = tuple(
        np.array(
            [
                [KEEP_INDEX[tuple(sorted((*m, f)))] - OFFSET[k + 1] for f in FACES]
                for m in LEVELS[k]
            ],
            dtype=np.intp,
        )
        for k in range(DICE)
    )
    parents = []
    for k in range(1, DICE + 1):
        columns = []
        for j in range(k):
            rows = [m for m in LEVELS[k] if len(set(m)) > j]
            if rows:
                up = [KEEP_INDEX[_without(m, (sorted(set(m))[j],)) or ()] for m in rows]
                columns.append(np.array(up, dtype=np.intp) - OFFSET[k - 1])
        parents.extend([tuple(columns)])
    return opening, children, tuple(parents)


def table_key(options: GeneralaOptions) -> str:
    """What the table depends on, as a name: the servida option does not change it."""
    return "-".join(
        [
            options.preset,
            f"servido{options.servido}",
            "alas" if options.escalera_al_as else "noalas",
            "doble" if options.generala_doble else "nodoble",
            "obligada" if options.obligada else "libre",
        ]
    )


@dataclass(frozen=True)
class PresetTurn:
    """The solved turn of one state: what a hint needs."""

    fill: tuple[Floats, Floats]
    """F1 and F: each hand's best box after the first throw (servido) and after a later one."""
    keeps: tuple[Floats, Floats]
    """C_1 and C_2: the value of keeping each multiset (by `KEEP_INDEX`) after throw 1 or 2."""
    value: float


def _sparse(scores: Floats) -> bool:
    """Whether a box's scores are 0 on most hands and never -inf (its 0 is a floor)."""
    return bool(np.isfinite(scores).all() and np.count_nonzero(scores) <= len(HANDS) // 4)


def _raise(fill: Floats, total: Floats, scores: Floats, later: Floats) -> None:
    """fill = max(fill, scores + later) by hand (rows) and state (columns): on every hand
    for a box that scores on most, on its scoring hands only for a box that scores on few."""
    if _sparse(scores) or not np.isfinite(scores).all():
        hands = np.nonzero(scores > 0)[0]
        if len(hands):
            fill[hands] = np.maximum(fill[hands], scores[hands, None] + later[None, :])
        return
    np.add(scores[:, None], later[None, :], out=total)
    np.maximum(fill, total, out=fill)


class PresetTable:
    """The expected points still to come from every state of one option set, playing
    optimally: `value(filled, held)` for the bit mask of filled boxes (bit i: the sheet's
    i-th box) and whether the Generala holds its points."""

    def __init__(self, options: GeneralaOptions) -> None:
        self.options = options
        self.boxes = sheet_boxes(options)
        self.n = len(self.boxes)
        self.full = (1 << self.n) - 1
        self.doble = Box.GENERALA_DOBLE in self.boxes
        self.generala_bit = 1 << self.boxes.index(Box.GENERALA)
        self.doble_bit = 1 << self.boxes.index(Box.GENERALA_DOBLE) if self.doble else 0
        self.size = (2 << self.n) if self.doble else (1 << self.n)
        self._values: Floats | None = None
        # (a doble's scores as written with the Generala held: `_pseudo_boxes` says when)
        scores = np.array(
            [
                [points(options, box, hand, generala_held=True) for hand in HANDS]
                for box in self.boxes
            ],
            dtype=float,
        )
        servido = np.array(
            [
                [points(options, box, hand, first_throw=True, generala_held=True) for hand in HANDS]
                for box in self.boxes
            ],
            dtype=float,
        )
        self._scores = (servido, scores)
        self._generala = np.array([len(set(hand)) == 1 for hand in HANDS])

    # -- states ---------------------------------------------------------------------------
    def index(self, filled: int, held: bool) -> int:
        """A state's place in the table (the flag only where it matters)."""
        matters = self.doble and filled & self.generala_bit and not filled & self.doble_bit
        return filled + (self.full + 1 if held and matters else 0)

    def _states(self, filled: int) -> list[int]:
        both = self.doble and filled & self.generala_bit and not filled & self.doble_bit
        return [filled, filled + self.full + 1] if both else [filled]

    def _masks(self) -> list[list[int]]:
        """The reachable sets of filled boxes by how many are filled, 0 to n."""
        if self.options.obligada:
            return [[(1 << k) - 1] for k in range(self.n + 1)]
        layers: list[list[int]] = [[] for _ in range(self.n + 1)]
        for mask in range(self.full + 1):
            layers[mask.bit_count()].append(mask)
        return layers

    # -- solving --------------------------------------------------------------------------
    def _pseudo_boxes(self) -> list[tuple[int, str, Floats, Floats]]:
        """The boxes as the solver writes them: (box, which later state, F1's scores, F's).
        A Generala with a doble on the sheet is two: a generala written (the state after it
        holds its points) and anything else written (scores 0, the state after does not); a
        doble is two as well: with the Generala held, and without (scores 0)."""
        none = np.full(len(HANDS), -np.inf)
        pseudo = []
        for i, box in enumerate(self.boxes):
            servido, scores = self._scores[0][i], self._scores[1][i]
            if box is Box.GENERALA and self.doble:
                pseudo.append(
                    (
                        i,
                        "held",
                        np.where(self._generala, servido, none),
                        np.where(self._generala, scores, none),
                    )
                )
                pseudo.append((i, "plain", np.zeros(len(HANDS)), np.zeros(len(HANDS))))
            elif box is Box.GENERALA_DOBLE:
                pseudo.append((i, "if held", servido, scores))
                pseudo.append((i, "if not held", np.zeros(len(HANDS)), np.zeros(len(HANDS))))
            else:
                pseudo.append((i, "plain", servido, scores))
        return pseudo

    def _fills(self, states: Indices, values: Floats) -> tuple[Floats, Floats]:
        """F1 and F for a batch of states (a column each, a row a hand), from the values of
        the states after them: the best over the boxes of the box's scores plus the value of
        the state after it (-inf where the box is not free)."""
        masks = states & self.full
        held = states > self.full
        if self.options.obligada:
            due = np.full(len(states), -1, dtype=np.intp)
            for i in range(self.n - 1, -1, -1):
                due[(masks & (1 << i)) == 0] = i
        pseudo = self._pseudo_boxes()
        later = np.empty((len(pseudo), len(states)))
        for row, (i, kind, _, _) in enumerate(pseudo):
            after = masks | (1 << i)
            # the flag after: set by a generala written, kept by any other box but the
            # Generala's, and only while the Generala is written and the doble open
            if kind == "held":
                flag = np.ones(len(states), dtype=bool)
            elif self.boxes[i] is Box.GENERALA:
                flag = np.zeros(len(states), dtype=bool)
            else:
                flag = held
            flag = flag & ((after & self.generala_bit) != 0) & ((after & self.doble_bit) == 0)
            value = values[after + flag * (self.full + 1)]
            free = (masks & (1 << i)) == 0
            if self.options.obligada:
                free &= due == i
            if kind == "if held":
                free &= held
            elif kind == "if not held":
                free &= ~held
            later[row] = np.where(free, value, -np.inf)
        # A box that scores on most hands (a number box, Libre) is added to every hand; one
        # that scores on few (the made hands) raises only those, the others taking its later
        # value as a floor (its 0), which a box that scores on no hand but -inf has too.
        fill = np.empty((len(HANDS), len(states)))
        floors = [later[row] for row, (_, _, _, scores) in enumerate(pseudo) if _sparse(scores)]
        fill[:] = np.max(floors, axis=0) if floors else -np.inf
        total = np.empty_like(fill)
        for row, (_, _, _, scores) in enumerate(pseudo):
            _raise(fill, total, scores, later[row])
        fill_1 = fill.copy()
        for row, (_, _, servido, scores) in enumerate(pseudo):
            if not np.array_equal(servido, scores):
                _raise(fill_1, total, servido, later[row])
        return fill_1, fill

    @staticmethod
    def _keeps(after: Floats) -> Floats:
        """C for hands valued `after` once the dice are thrown (a row a multiset, by
        `KEEP_INDEX`): each keep of k dice is the mean over the face of one more die of the
        keep of k + 1 (the hand itself at 5)."""
        children = _tables()[1]
        levels = [after]
        for k in range(DICE - 1, -1, -1):
            up, faces = levels[-1], children[k]
            total = up[faces[:, 0]] + up[faces[:, 1]]
            for f in range(2, len(FACES)):
                total += up[faces[:, f]]
            total *= 1 / len(FACES)
            levels.append(total)
        return np.concatenate(levels[::-1], axis=0)

    @staticmethod
    def _hands(keeps: Floats, fill: Floats) -> Floats:
        """H: each hand's best of writing (`fill`) and every keep of 0 to 4 of its dice: the
        best keep inside K is K itself or the best inside K less one of its faces."""
        parents = _tables()[2]
        best = keeps[OFFSET[0] : OFFSET[1]]
        for k in range(1, DICE + 1):
            here = fill if k == DICE else keeps[OFFSET[k] : OFFSET[k + 1]]
            below = best
            first, *others = parents[k - 1]
            best = np.maximum(here, below[first])
            for column in others:
                head = best[: len(column)]
                np.maximum(head, below[column], out=head)
        return best

    def _turns(
        self, states: Indices, values: Floats
    ) -> tuple[Floats, Floats, Floats, Floats, Floats]:
        opening = _tables()[0]
        fill_1, fill = self._fills(states, values)
        keeps_2 = self._keeps(fill)
        after_2 = self._hands(keeps_2, fill)
        keeps_1 = self._keeps(after_2)
        after_1 = self._hands(keeps_1, fill_1)
        return fill_1, fill, keeps_1, keeps_2, (after_1 * opening[:, None]).sum(axis=0)

    def solve_all(self) -> None:
        if self._values is not None:
            return
        values = np.zeros(self.size)
        layers = self._masks()
        for count in range(self.n - 1, -1, -1):
            states = np.array(
                [s for mask in layers[count] for s in self._states(mask)], dtype=np.intp
            )
            for start in range(0, len(states), 512):
                batch = states[start : start + 512]
                values[batch] = self._turns(batch, values)[4]
        self._values = values

    def is_solved(self) -> bool:
        return self._values is not None

    def solved(self) -> Floats:
        self.solve_all()
        assert self._values is not None
        return self._values

    def values(self) -> list[float]:
        """The whole table, by `index` (unreachable states 0)."""
        return [float(v) for v in self.solved()]

    def load(self, values: list[float] | npt.ArrayLike) -> None:
        """Install a table solved before (read from the app's cache)."""
        array = np.asarray(values, dtype=float)
        if array.shape != (self.size,) or array[self.full] != 0:
            raise ValueError(
                f"a Generala table for {table_key(self.options)} has {self.size} values"
            )
        self._values = array
        self.turn.cache_clear()

    def value(self, filled: int, held: bool = False) -> float:
        return float(self.solved()[self.index(filled, held)])

    @lru_cache(maxsize=64)  # noqa: B019 (one table per option set, kept for the process)
    def turn(self, filled: int, held: bool) -> PresetTurn:
        state = np.array([self.index(filled, held)], dtype=np.intp)
        fill_1, fill, keeps_1, keeps_2, value = self._turns(state, self.solved())
        return PresetTurn(
            fill=(fill_1[:, 0], fill[:, 0]),
            keeps=(keeps_1[:, 0], keeps_2[:, 0]),
            value=float(value[0]),
        )


def keep_value(turn: PresetTurn, throws: int, kept: Multiset) -> float:
    """The value of keeping `kept` (sorted faces) after throw `throws` (1 or 2)."""
    return float(turn.keeps[throws - 1][KEEP_INDEX[kept]])
