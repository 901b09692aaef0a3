"""Laws a draw could follow instead of the SPEC's: by bead counts, by a bead's place in an order.

A law gives each orbit present in the box (the squares the label's symmetries identify, named
by the least of them) its chance of being drawn, in the order of `present`, the orbits present
sorted. The SPEC's law is each orbit's share of the beads. The place laws put a weight on each
place of an order of the box's beads (by square, as printed, by age) and give each orbit the
weight of its places: never the first or the last bead, always one of them, a half of the
order favoured, or a slope along it. Where the first or last place is a group of beads whose
order is unknown (a refill's), the laws on that place share it evenly over the group.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from judge.deciding.evidence import SMOOTHING

Law = tuple[float, ...]
"""Each orbit's chance, in the order of the orbits present."""
Order = tuple[int, ...]
"""A box's beads in some order, each named by its orbit."""

COUNT_POWERS: Final = (("uniform over the squares present", 0.0), ("flattened", 0.5),
                       ("sharpened", 2.0), ("strongly sharpened", 4.0),
                       ("always the most frequent square", math.inf))
"""Ways of drawing that ignore the bead counts: chance proportional to beads**power."""
HALF_SHARE: Final = 0.3
"""Under the half alternatives, the chance that the draw is made from that half only."""
SLOPE: Final = 0.5
"""Under the slope alternatives, the weight of the end favoured over the mean (1 + SLOPE)."""
PLACE_LAWS: Final = 8
PLACE_SMOOTHING: Final = (SMOOTHING,) * 4 + (0.0,) * 4
"""The place laws' smoothing: the first four may give a draw no chance, the rest are mixtures."""
CACHED: Final = 1 << 14


def place_names(order: str) -> tuple[str, ...]:
    """The place laws' names for an order named like `by square`, in the order computed."""
    share = f"{HALF_SHARE:.0%} of the time"
    return (f"never the first bead {order}", f"never the last bead {order}",
            f"always the first bead {order}", f"always the last bead {order}",
            f"the first half {order}, {share}", f"the last half {order}, {share}",
            f"a slope towards the first beads {order}", f"a slope towards the last beads {order}")


AGE_NAMES: Final = ("never the oldest bead", "never the newest bead",
                    "always the oldest bead (a queue)", "always the newest bead (a stack)",
                    f"the oldest half, {HALF_SHARE:.0%} of the time",
                    f"the newest half, {HALF_SHARE:.0%} of the time",
                    "a slope towards the oldest beads", "a slope towards the newest beads")
"""The place laws by age: the first bead by age is the oldest."""


def _count_weights(counts: tuple[int, ...], power: float) -> list[float]:
    """Each square's weight under a count law: its beads to the power (infinity: the most)."""
    if power == math.inf:
        top = max(counts)
        return [1.0 if n == top else 0.0 for n in counts]
    return [n ** power if n else 0.0 for n in counts]


@lru_cache(maxsize=CACHED)
def count_laws(counts: tuple[int, ...], orbit_of: tuple[int, ...],
               present: Order) -> tuple[Law, ...]:
    """Each count-power law, for a box with these bead counts of each square 0-8.

    A power is taken of each square's count, then summed over the squares of each orbit.
    """
    index = {orbit: j for j, orbit in enumerate(present)}
    laws = []
    for _, power in COUNT_POWERS:
        weights = _count_weights(counts, power)
        total = sum(weights)
        law = [0.0] * len(present)
        for square, weight in enumerate(weights):
            if weight:
                law[index[orbit_of[square]]] += weight / total
        laws.append(tuple(law))
    return tuple(laws)


@lru_cache(maxsize=CACHED)
@lru_cache(maxsize=CACHED)
def count_ratios(counts: tuple[int, ...], squares: frozenset[int]) -> tuple[float, ...]:
    """Each count law's likelihood ratio for a draw of `squares` from a box of these counts."""
    chance = sum(counts[s] for s in squares) / sum(counts)
    ratios = []
    for _, power in COUNT_POWERS:
        weights = _count_weights(counts, power)
        ratios.append(sum(weights[s] for s in squares) / sum(weights) / chance)
    return tuple(ratios)


def _place_weights(n: int, first: int, last: int) -> tuple[tuple[float, ...], ...]:
    """The weights of each of n places (n >= 2), a tuple of one weight per place law."""
    half = n // 2
    never_first = [1 / (n - 1)] * n
    never_last = [1 / (n - 1)] * n
    always_first = [0.0] * n
    always_last = [0.0] * n
    for i in range(first):
        never_first[i] = (first - 1) / (first * (n - 1))
        always_first[i] = 1 / first
    for i in range(n - last, n):
        never_last[i] = (last - 1) / (last * (n - 1))
        always_last[i] = 1 / last
    base = (1 - HALF_SHARE) / n
    front = [base + (HALF_SHARE / half if i < half else 0.0) for i in range(n)]
    back = [base + (HALF_SHARE / half if i >= n - half else 0.0) for i in range(n)]
    tilt = [SLOPE * (1 - 2 * i / (n - 1)) for i in range(n)]
    laws = (never_first, never_last, always_first, always_last, front, back,
            [(1 + t) / n for t in tilt], [(1 - t) / n for t in tilt])
    return tuple(zip(*laws, strict=True))


@lru_cache(maxsize=CACHED)
def place_laws(order: Order, present: Order, first: int = 1, last: int = 1) -> tuple[Law, ...]:
    """Each place law over the orbits present, for the box's beads in `order`.

    `first` and `last` are the sizes of the groups of unknown order at either end.
    """
    n = len(order)
    if n < 2:
        return ((1.0,) * len(present),) * PLACE_LAWS
    sums = {orbit: [0.0] * PLACE_LAWS for orbit in present}
    for orbit, weights in zip(order, _place_weights(n, first, last), strict=True):
        total = sums[orbit]
        for k, weight in enumerate(weights):
            total[k] += weight
    return tuple(zip(*(sums[orbit] for orbit in present), strict=True))


def place_ratios(places: Sequence[int], n: int, first: int = 1,
                 last: int = 1) -> tuple[float, ...]:
    """Each place law's likelihood ratio for a draw whose orbit has these places (ascending) of n.

    The same as `place_laws` gives, over the SPEC's chance, computed for the one orbit drawn.
    """
    hits = len(places)
    if n < 2:
        return (1.0,) * PLACE_LAWS
    half = n // 2
    in_first = bisect_left(places, first)
    in_last = hits - bisect_left(places, n - last)
    front = bisect_left(places, half)
    back = hits - bisect_left(places, n - half)
    tilt = SLOPE * (hits - 2 * sum(places) / (n - 1))
    scale = n / hits
    return ((hits - in_first / first) / (n - 1) * scale,
            (hits - in_last / last) / (n - 1) * scale,
            in_first / first * scale, in_last / last * scale,
            (1 - HALF_SHARE) + HALF_SHARE * front / half * scale,
            (1 - HALF_SHARE) + HALF_SHARE * back / half * scale,
            1 + tilt / hits, 1 - tilt / hits)


def near_law(order: Order, present: Order, near: frozenset[int], share: float,
             spec: Law) -> Law:
    """With chance `share`, a bead at one of the places `near` (each alike); else the SPEC's law."""
    index = {orbit: j for j, orbit in enumerate(present)}
    law = [(1 - share) * p for p in spec]
    for place in near:
        law[index[order[place]]] += share / len(near)
    return tuple(law)
