"""A law of places learnt from the draws: which places of an order of the beads a program favours.

Under the SPEC the bead drawn is any of the box's n beads alike, so in any order of them fixed
before the draw its place is uniform on 0..n-1, whatever the place means. A pattern sorts each
place into a few cells, and a tilt gives each cell a weight: the tilted law gives each place its
cell's weight, normalised over the n places, and the orbit drawn the sum over its places. Two
patterns, each with the tilts it mixes over:

- **alternate places**: the cells are the place's parity and n's, and the tilts weigh the even
  places counted from the first bead, or from the last, TILTS times the odd ones;
- **quarters**: the cells are the quarter of the order a place falls in, and the tilts weigh
  one quarter 3 times, or a third of, the others.

The law of the next draw is the mixture of the tilted laws, each weighed by its prior share
times its likelihood ratio over the draws before (Bayes' rule, exact on the orbits the judge
sees): it learns which pattern, and how strong, from the draws, and its bet, a likelihood ratio
of a law fixed before each draw, has mean exactly 1 under the SPEC (`judge.deciding.evidence`),
so learning costs no false alarms, only the log of the number of tilts against the right one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from operator import mul
from typing import Final

from judge.deciding.draw_laws import CACHED

TILTS: Final = (0.25, 0.5, 2.0, 4.0)
"""How many times as likely an even place is as an odd one, under the alternate tilts."""
QUARTER_TILTS: Final = (3.0, 1 / 3)
"""The weight of the favoured quarter, the others weighing 1."""


def parity_cell(place: int, n: int) -> int:
    """The parity of the place (from the first bead), and of n."""
    return (place & 1) | (n & 1) << 1


def quarter_cell(place: int, n: int) -> int:
    """The quarter of the order the place falls in."""
    return 4 * place // n


def _alternate_tilts() -> tuple[tuple[float, ...], ...]:
    """Even places from the first bead weighed by each tilt, then from the last: with n odd the
    first and last are both even; with n even, the last is odd."""
    return (*((t, 1.0, t, 1.0) for t in TILTS), *((1.0, t, t, 1.0) for t in TILTS))


def _quarter_tilts() -> tuple[tuple[float, ...], ...]:
    """One quarter weighed by each tilt."""
    return tuple(tuple(t if c == k else 1.0 for c in range(4)) for t in QUARTER_TILTS
                 for k in range(4))


PATTERNS: Final = (("alternate places", parity_cell, _alternate_tilts()),
                   ("a pattern of quarters", quarter_cell, _quarter_tilts()))
"""Each pattern's name, how it sorts a place among n into cells (four), and its tilts."""


@cache
def _cells(pattern: int, n: int) -> tuple[tuple[int, ...], tuple[tuple[float, ...], ...]]:
    """Each of n places' cell, by a pattern; and for each cell, each tilt's likelihood ratio for
    a place in it: its weight of the cell over its mean weight of the n places."""
    cells = tuple(PATTERNS[pattern][1](place, n) for place in range(n))
    share = [cells.count(c) / n for c in range(4)]
    tilts = PATTERNS[pattern][2]
    means = [sum(w * s for w, s in zip(tilt, share, strict=True)) for tilt in tilts]
    return cells, tuple(tuple(tilt[c] / mean for tilt, mean in zip(tilts, means, strict=True))
                        for c in range(4))


@lru_cache(maxsize=CACHED)
def _ratios(pattern: int, n: int, hits: tuple[int, ...]) -> tuple[float, ...]:
    """Each tilt's likelihood ratio for a draw whose orbit has `hits` places in each cell, among
    n places, by a pattern: the mean of its ratios for those places."""
    ratios = _cells(pattern, n)[1]
    places = sum(hits)
    return tuple(sum(h * r for h, r in zip(hits, column, strict=True)) / places
                 for column in zip(*ratios, strict=True))


class LearntPattern:
    """The learnt law of places, by one pattern (its place in PATTERNS), in one order."""

    def __init__(self, pattern: int) -> None:
        self.pattern = pattern
        tilts = len(PATTERNS[pattern][2])
        self.weights = [1 / tilts] * tilts
        """Each tilt's prior share times its likelihood ratio so far, over `total`."""
        self.total = 1.0

    def ratio(self, places: Sequence[int], n: int) -> float:
        """The likelihood ratio of a draw whose orbit has these places among n; then learn it."""
        cells = _cells(self.pattern, n)[0]
        hits = [0, 0, 0, 0]
        for place in places:
            hits[cells[place]] += 1
        self.weights = weights = list(map(mul, self.weights, _ratios(self.pattern, n, tuple(hits))))
        total: float = sum(weights)
        bet, self.total = total / self.total, total
        if not 1e-200 < total < 1e200:
            self.weights, self.total = [w / total for w in weights], 1.0
        return bet
