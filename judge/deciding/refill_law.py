"""The refill test: the beads of each refill, taken together, against SPEC 5's law.

SPEC 5: an emptied box gets three beads, each an independent, uniformly chosen empty square of
its label. The judge sees them between two dumps, up to the label's symmetries, so a refill is
observed as the number of its beads on each orbit of the label's empty squares, and the SPEC's
law of that is multinomial, each orbit's chance its share of the empty squares. The
alternatives are laws of the whole refill (`judge.deciding.evidence` turns them into bets):

- repeats: all beads on one square; all on different squares; exactly two on one square and one
  on another; more or fewer repeated squares (the SPEC's law tilted by e**(+-1) per pair of beads
  on one orbit);
- the square just drawn (whose last bead emptied the box): never chosen (the other squares of
  its orbit still are), or chosen 30% of the time;
- pulls: each bead the lowest, or the highest, empty square of the label, by square or as the
  label was printed in the dump before, 15% or 50% of the time;
- patterns, learnt as they go: a histogram of each bead's randomised PIT (its place among the
  label's empty squares in an order, plus a uniform share of its slot drawn by the judge, which
  under the SPEC is uniform on [0, 1) and independent of all before it), by square and as printed;
  the histogram forgets old beads, so that it follows a fault that starts late.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import Final

from reference.board import EMPTY, Board, Cell
from reference.symmetry import map_cell, stabiliser

from judge.deciding.evidence import SMOOTHING, Detector, Evidence, Moments, moments
from judge.terms.options import FALSE_ALARM, RefillRule

Counts = tuple[int, ...]
"""Beads of a box, as the number of beads of each square 0-8."""
Law = tuple[float, ...]
"""A chance for each possible refill, in the order of `_Table.outcomes`."""

DRAWN_SHARE: Final = 0.3
"""Under "the square just drawn, 30% of the time", the chance of each bead being that square."""
PULLS: Final = (0.15, 0.5)
"""The shares of the pulls to the lowest or highest empty square."""
TILT: Final = 1.0
"""The tilts of "more" and "fewer repeated squares", per pair of beads on one orbit."""
REFILL_BINS: Final = 6
"""Bins of the PIT histogram that the pattern alternatives learn as they go."""
FORGETTING: Final = 0.98
"""What the pattern histograms keep of their counts at each bead."""
_ENDS: Final = tuple((end, frame, share) for frame in ("by square", "as printed")
                     for end in ("lowest", "highest") for share in PULLS)
REFILL_ALTERNATIVES: Final = (
    "all beads of one square", "all beads of different squares",
    "two beads of one square and one of another", "more repeated squares",
    "fewer repeated squares", "never the square just drawn",
    f"the square just drawn, {DRAWN_SHARE:.0%} of the time",
    *(f"the {end} empty square {frame}, {share:.0%} of the time" for end, frame, share in _ENDS),
    "a pattern of squares, by square", "a pattern of squares, as printed",
)
PATTERNS: Final = 2
"""The pattern alternatives, last: they learn their law, so they have no stated size."""
REFILL_SMOOTHING: Final = (SMOOTHING, SMOOTHING, SMOOTHING, 0.0, 0.0, SMOOTHING, 0.0,
                           *(0.0,) * len(_ENDS), *(SMOOTHING,) * PATTERNS)
"""Each alternative's smoothing: none for the laws already mixed with the SPEC's."""


@dataclass(frozen=True)
class Refilled:
    """The refill beads of one box, as seen between two dumps."""

    label: Board
    """The box's canonical label."""
    beads: Counts
    """The refill beads in the label's frame (their squares known up to the label's symmetries)."""
    printed: tuple[Cell, ...]
    """Where each square of the label lands on the label as printed in the dump before."""
    drawn: frozenset[Cell]
    """The squares of the draw that emptied the box (an orbit of the label's symmetries)."""
    game: int


@cache
def orbits(label: Board) -> tuple[tuple[Cell, ...], ...]:
    """The label's empty squares, grouped by its symmetries, each group sorted, in order."""
    seen: set[Cell] = set()
    groups = []
    for cell in range(9):
        if label[cell] == EMPTY and cell not in seen:
            group = tuple(sorted({map_cell(g, Cell(cell)) for g in stabiliser(label)}))
            seen.update(group)
            groups.append(group)
    return tuple(groups)


@cache
def orbit_ids(label: Board) -> tuple[int, ...]:
    """Each square's orbit, named by its least square (-1 for a square that is not empty)."""
    ids = [-1] * 9
    for group in orbits(label):
        for cell in group:
            ids[cell] = group[0]
    return tuple(ids)


def refill_beads(before: Counts, after: Counts, squares: frozenset[Cell], kept: int,
                 refill: RefillRule) -> Counts | None:
    """The refill beads a drawn box shows, or None if it was not refilled in the game.

    `kept` is what learning puts back of the drawn square: 2 (win), 1 (draw) or 0 (loss).
    Under `on-empty` the last bead was drawn and three came in; under `on-draw` the box was
    empty, three came in and one of them was drawn: the other two are independent and uniform
    whichever was drawn, so those two are the refill beads seen. The beads are known only up
    to the label's symmetries: the kept beads come off a square of `squares` that has them.
    """
    if sum(before) != (1 if refill is RefillRule.ON_EMPTY else 0):
        return None
    beads = list(after)
    for _ in range(kept):
        square = next((s for s in sorted(squares) if beads[s]), None)
        if square is None:
            return None
        beads[square] -= 1
    return tuple(beads)


def randomised_pit(order: Sequence[Cell], squares: frozenset[Cell], rng: random.Random) -> float:
    """The bead's place among the squares in `order`, plus a uniform share of its slot.

    The bead is one of those whose square is in `squares`, picked at random.
    """
    places = [i for i, square in enumerate(order) if square in squares]
    return (rng.choice(places) + rng.random()) / len(order)


@dataclass(frozen=True)
class _Table:
    """Every refill a box could show, with its chance under the SPEC and each sized alternative."""

    outcomes: dict[tuple[int, ...], int]
    """Each refill, as beads per orbit, and its place in the laws."""
    spec: Law
    laws: tuple[Law, ...]
    moments: tuple[Moments, ...]


def _multinomial(counts: Sequence[int], chances: Sequence[float]) -> float:
    """The chance of these counts when each bead falls independently by `chances`."""
    total = float(math.factorial(sum(counts)))
    for n, chance in zip(counts, chances, strict=True):
        total *= chance ** n / math.factorial(n)
    return total


def _pulled(spec: Sequence[float], target: int, share: float) -> list[float]:
    """The SPEC's law of one bead, with `share` of it moved to orbit `target`."""
    return [(1 - share) * p + (share if j == target else 0.0) for j, p in enumerate(spec)]


@cache
def _outcomes(orbit_count: int, beads: int) -> tuple[tuple[int, ...], ...]:
    """Every way of putting `beads` beads on `orbit_count` orbits, as beads per orbit."""
    return tuple(counts for counts in product(range(beads + 1), repeat=orbit_count)
                 if sum(counts) == beads)


@lru_cache(maxsize=4096)
def _table(label: Board, beads: int, drawn: int, printed_ends: tuple[int, int]) -> _Table:
    """The laws of a refill of `beads` beads into `label`, whose last draw was orbit `drawn`;
    `printed_ends` are the orbits of the lowest and highest empty square as printed."""
    groups = orbits(label)
    sizes = [len(group) for group in groups]
    empty = sum(sizes)
    bead = [size / empty for size in sizes]
    outcomes = _outcomes(len(groups), beads)
    ways = [_multinomial(x, [1.0] * len(x)) for x in outcomes]

    def iid(chances: Sequence[float]) -> Law:
        return tuple(w * math.prod(c ** n for c, n in zip(chances, x, strict=True) if n)
                     for w, x in zip(ways, outcomes, strict=True))

    spec = iid(bead)

    def tilted(tilt: float) -> Law:
        weights = [p * math.exp(tilt * sum(math.comb(n, 2) for n in x))
                   for p, x in zip(spec, outcomes, strict=True)]
        return tuple(w / sum(weights) for w in weights)

    one = tuple(next((bead[j] for j, n in enumerate(x) if n == beads), 0.0) for x in outcomes)
    different = (tuple(math.prod(math.comb(s, n) for s, n in zip(sizes, x, strict=True))
                       / math.comb(empty, beads) for x in outcomes)
                 if empty >= beads else spec)
    pair = spec
    if beads == 3 and len(groups) > 1:
        pair = tuple(next((bead[a] * bead[c] / (1 - bead[a]) for a, n in enumerate(x) if n == 2
                           for c, m in enumerate(x) if m == 1), 0.0) for x in outcomes)
    never = (iid([(size - (j == drawn)) / (empty - 1) for j, size in enumerate(sizes)])
             if empty > 1 else spec)
    lowest_square, highest_square = 0, len(groups) - 1
    ends = {("lowest", "by square"): lowest_square, ("highest", "by square"): highest_square,
            ("lowest", "as printed"): printed_ends[0], ("highest", "as printed"): printed_ends[1]}
    laws = (one, different, pair, tilted(TILT), tilted(-TILT), never,
            iid(_pulled(bead, drawn, DRAWN_SHARE)),
            *(iid(_pulled(bead, ends[end, frame], share)) for end, frame, share in _ENDS))
    return _Table({x: j for j, x in enumerate(outcomes)}, spec, laws,
                  tuple(moments(law, spec, smoothing)
                        for law, smoothing in zip(laws, REFILL_SMOOTHING[:-PATTERNS], strict=True)))


class RefillStatistics:
    """The refill statistic over a run: the beads of every refill seen."""

    def __init__(self, rng: random.Random, threshold: float = 1 / FALSE_ALARM,
                 measure_power: bool = False) -> None:
        self.rng = rng
        sized = [True] * (len(REFILL_ALTERNATIVES) - PATTERNS) + [False] * PATTERNS
        self.detector = Detector(REFILL_ALTERNATIVES, threshold, sized, measure_power,
                                 smoothing=REFILL_SMOOTHING)
        self.histograms = [[0.0] * REFILL_BINS for _ in range(PATTERNS)]
        """How many refill PITs fell in each bin, by square and as printed, forgetting old ones."""

    def _pattern_ratio(self, histogram: list[float], u: float) -> float:
        """The histogram's predictive density at u (add-1/2 estimate), then learn u."""
        b = min(int(u * REFILL_BINS), REFILL_BINS - 1)
        ratio = REFILL_BINS * (histogram[b] + 0.5) / (sum(histogram) + REFILL_BINS / 2)
        for k in range(REFILL_BINS):
            histogram[k] *= FORGETTING
        histogram[b] += 1
        return ratio

    def add(self, refilled: Refilled) -> None:
        """Bet on one refill's beads (at least one bead, each on an empty square)."""
        label = refilled.label
        groups = orbits(label)
        ids = orbit_ids(label)
        observed = tuple(sum(refilled.beads[s] for s in group) for group in groups)
        starts: list[int] = [group[0] for group in groups]
        empties = [Cell(c) for c in range(9) if label[c] == EMPTY]
        printed_order = sorted(empties, key=lambda c: refilled.printed[c])
        ends = (starts.index(ids[printed_order[0]]), starts.index(ids[printed_order[-1]]))
        table = _table(label, sum(observed), starts.index(ids[min(refilled.drawn)]), ends)
        j = table.outcomes[observed]
        ratios = [law[j] / table.spec[j] for law in table.laws]
        patterns = [1.0] * PATTERNS
        for group, n in zip(groups, observed, strict=True):
            for _ in range(n):
                for k, order in enumerate((empties, printed_order)):
                    u = randomised_pit(order, frozenset(group), self.rng)
                    patterns[k] *= self._pattern_ratio(self.histograms[k], u)
        self.detector.bet(refilled.game, [*ratios, *patterns],
                          [*table.moments, *[(0.0, 0.0)] * PATTERNS])

    def evidence(self) -> Evidence:
        """The evidence so far."""
        return self.detector.evidence()
