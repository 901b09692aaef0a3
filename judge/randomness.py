"""Test martingales for the randomness of SPEC section 5: where draws and refill beads go.

Each statistical check bets, observation by observation, on several alternative laws against
the SPEC's law: its evidence for an alternative is the product of that alternative's
likelihood ratios, each ratio mixed with a share of the SPEC's law so that one odd
observation cannot rule the alternative out. Under the SPEC every product is a martingale
with mean 1 whatever the opponent does, and so is their mean; by Ville's inequality the mean
ever reaches 1 / FALSE_ALARM with chance at most FALSE_ALARM, however long the run. So a check
that rejects when its evidence reaches that bound has a false-alarm rate of at most FALSE_ALARM
per run, and may reject at the first game where the bound is crossed.

Alternatives that see position name a bead by its place in an order of the box's beads (by
square, or as printed): a draw that never takes the first or last bead, or that lands where
the previous game's draw did, has a likelihood computed exactly. Refill beads are also looked
at through a randomised probability-integral transform (PIT): a bead's place among the
label's empty squares in an order, plus a uniform share of its slot drawn by the judge, which
under the SPEC is uniform on [0, 1) and independent of everything before it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress
from typing import Final

from reference.board import EMPTY, Board, Cell
from reference.symmetry import map_cell, stabiliser

from judge.options import RefillRule

FALSE_ALARM: Final = 1e-4
"""Each statistical check rejects at most this fraction of correct runs."""
SMOOTHING: Final = 0.1
"""Each alternative is mixed with this share of the SPEC's law."""

Counts = tuple[int, ...]
"""Beads of a box, as the number of beads of each square 0-8."""


@dataclass(frozen=True)
class Evidence:
    """A pooled test so far: the evidence for each named alternative against the SPEC's law."""

    observations: int
    names: tuple[str, ...]
    log_ratios: tuple[float, ...]
    """Natural log of each alternative's likelihood ratio, in the order of `names`."""
    threshold: float = 1 / FALSE_ALARM

    @property
    def log_evidence(self) -> float:
        """Log of the mean of the likelihood ratios (a test martingale under the SPEC)."""
        top = max(self.log_ratios)
        mean = sum(math.exp(r - top) for r in self.log_ratios) / len(self.log_ratios)
        return top + math.log(mean)

    @property
    def passed(self) -> bool:
        """True unless the evidence against the SPEC's law has reached the threshold."""
        return self.log_evidence < math.log(self.threshold)

    @property
    def strongest(self) -> str:
        """The alternative the observations favour most."""
        return self.names[max(range(len(self.names)), key=lambda k: self.log_ratios[k])]

    def per_alternative(self) -> tuple[str, ...]:
        """Each alternative's likelihood ratio, strongest first, e.g. `sharpened: 12.3`."""
        order = sorted(range(len(self.names)), key=lambda k: -self.log_ratios[k])
        return tuple(f"{self.names[k]}: {_exp(self.log_ratios[k]):.3g}" for k in order)

    def ratios(self) -> str:
        """Each alternative's likelihood ratio on one line, strongest first."""
        return "; ".join(self.per_alternative())

    def describe(self, what: str, law: str) -> str:
        """The statistic in words: `what` observed, against the SPEC's `law`."""
        if not self.observations:
            return f"over 0 {what}, nothing to test"
        return (f"over {self.observations} {what}, evidence against {law} "
                f"{_exp(self.log_evidence):.3g} (rejected at {self.threshold:.0f}); "
                f"likeliest alternative: {self.strongest}")


def _exp(log: float) -> float:
    """e to the `log`, capped so that it prints."""
    return math.exp(min(log, 700.0))


class Martingale:
    """A running product of smoothed likelihood ratios, one per named alternative."""

    def __init__(self, names: Sequence[str], threshold: float = 1 / FALSE_ALARM) -> None:
        self.names = tuple(names)
        self.threshold = threshold
        self.observations = 0
        self.log_ratios = [0.0] * len(self.names)

    def bet(self, ratios: Sequence[float]) -> None:
        """Multiply in one observation's likelihood ratio of each alternative."""
        self.observations += 1
        for k, ratio in enumerate(ratios):
            self.log_ratios[k] += math.log((1 - SMOOTHING) * ratio + SMOOTHING)

    def evidence(self) -> Evidence:
        """The evidence so far."""
        return Evidence(self.observations, self.names, tuple(self.log_ratios), self.threshold)


def randomised_pit(order: Sequence[Cell], squares: frozenset[Cell], rng: random.Random) -> float:
    """The drawn bead's place among the beads in `order`, plus a uniform share of its slot.

    The bead is one of those whose square is in `squares`, picked at random.
    """
    places = [i for i, square in enumerate(order) if square in squares]
    return (rng.choice(places) + rng.random()) / len(order)


# -- the bead-draws check (SPEC 5: one bead drawn uniformly) ----------------------------

COUNT_POWERS: Final = (("uniform over the squares present", 0.0), ("flattened", 0.5),
                       ("sharpened", 2.0), ("strongly sharpened", 4.0),
                       ("always the most frequent square", math.inf))
"""Ways of drawing that ignore the bead counts: chance proportional to beads**power."""
ORDERS: Final = ("by square", "as printed")
"""Orders of a box's beads the position-aware alternatives look at."""
SQUARES: Final = range(9)
"""The squares 0-8, in cell order."""
_NEXT: Final = (1).__add__
"""A place's next place."""
_PREVIOUS: Final = (-1).__add__
"""A place's previous place."""
REPEAT_SHARE: Final = 0.5
"""Under the repeat alternative, the chance that a box's draw repeats its last one."""
DRAW_ALTERNATIVES: Final = (
    *(name for name, _ in COUNT_POWERS),
    *(f"never the {end} bead {order}" for order in ORDERS for end in ("first", "last")),
    "never the bead put back last (else the last printed)",
    "the box's last draw again",
    *(f"the previous game's places again, {order}" for order in ORDERS),
)


@dataclass(frozen=True)
class Drawn:
    """One draw as the judge saw it."""

    label: Board
    """The box's canonical label."""
    beads: tuple[Cell, ...]
    """The box's beads before the draw, as printed, each square in the label's frame."""
    squares: frozenset[Cell]
    """The squares of the label the move may stand for (an orbit of the label's symmetries)."""
    game: int
    index: int
    """The draw's number within its game: 0 for MENACE's first move."""


def counts_of(beads: Sequence[Cell]) -> Counts:
    """The number of beads of each square 0-8."""
    return tuple(map(beads.count, SQUARES))


def _places(order: Sequence[Cell], squares: frozenset[Cell]) -> frozenset[int]:
    """The places in `order` of the beads whose square is in `squares`."""
    return frozenset(compress(range(len(order)), map(squares.__contains__, order)))


def _power_law(counts: Counts, power: float) -> list[float]:
    """Each square's chance when it is proportional to beads**power."""
    if power == math.inf:
        top = max(counts)
        weights = [1.0 if n == top else 0.0 for n in counts]
    else:
        weights = [n ** power if n else 0.0 for n in counts]
    total = sum(weights)
    return [w / total for w in weights]


def _count_ratios(counts: Counts, squares: frozenset[Cell]) -> tuple[float, ...]:
    """Each count-based alternative's chance of the squares drawn, over the SPEC's chance."""
    chosen = sum(counts[s] for s in squares) / sum(counts)
    return tuple(sum(_power_law(counts, power)[s] for s in squares) / chosen
                 for _, power in COUNT_POWERS)


def _skip_ratio(counts: Counts, squares: frozenset[Cell], skipped: Iterable[Cell],
                beads: int, hits: int) -> float:
    """The likelihood ratio of "never one particular bead", of a square in `skipped`, for a box
    of `beads` beads, `hits` of them on the squares drawn.

    No bet where the box holds no bead of those squares, or a single bead.
    """
    if beads < 2 or not any(counts[s] for s in skipped):
        return 1.0
    return (hits - any(s in squares for s in skipped)) / (beads - 1) / (hits / beads)


@cache
def _by_square(counts: Counts, squares: frozenset[Cell]) -> tuple[tuple[float, ...], frozenset[int]]:
    """What a draw's bets owe to its box's counts alone: the count-based ratios, then the
    ratios of never the first and never the last bead by square; and the places of the
    squares drawn among the beads sorted by square."""
    beads = sum(counts)
    hits = sum(counts[s] for s in squares)
    present = [Cell(s) for s in SQUARES if counts[s]]
    places = frozenset(place for s in squares
                       for place in range(sum(counts[:s]), sum(counts[:s + 1])))
    return (*_count_ratios(counts, squares),
            _skip_ratio(counts, squares, present[:1], beads, hits),
            _skip_ratio(counts, squares, present[-1:], beads, hits)), places


def _same_places_ratio(places: frozenset[int], beads: int, before: frozenset[int],
                       chance: float) -> float:
    """The likelihood ratio of "a bead at about the same place as last game's draw", for a
    box of `beads` beads whose drawn squares lie at `places` in an order.

    The alternative draws, with chance REPEAT_SHARE, a place next to or at one the previous
    game's draw with the same number could have had, as a program reseeded with the same seed
    at each game does; `chance` is the SPEC's chance of the squares drawn.
    """
    near = before.union(map(_NEXT, before), map(_PREVIOUS, before)).intersection(range(beads))
    if not near:
        return 1.0
    return REPEAT_SHARE * len(near & places) / len(near) / chance + 1 - REPEAT_SHARE


class DrawStatistics:
    """The bead-draws statistic over a run: every draw from a box whose beads are known."""

    def __init__(self, threshold: float = 1 / FALSE_ALARM) -> None:
        self.martingale = Martingale(DRAW_ALTERNATIVES, threshold)
        self.places: dict[tuple[int, int], tuple[frozenset[int], ...]] = {}
        """Where in each order the beads of each draw (game, index) could have been."""
        self.last_drawn: dict[Board, frozenset[Cell]] = {}
        """The squares of each box's last draw."""
        self.put_back: dict[Board, frozenset[Cell]] = {}
        """The squares of the bead each box got back last in learning, where known."""

    def add(self, drawn: Drawn) -> None:
        """Bet on one draw; its squares must hold at least one bead."""
        beads, squares = drawn.beads, drawn.squares
        counts = counts_of(beads)
        n = len(beads)
        by_count, sorted_places = _by_square(counts, squares)
        hits = len(sorted_places)
        put_back = self.put_back.get(drawn.label, beads[-1:])
        ratios = [*by_count, _skip_ratio(counts, squares, beads[:1], n, hits),
                  _skip_ratio(counts, squares, beads[-1:], n, hits),
                  _skip_ratio(counts, squares, put_back, n, hits)]
        last = self.last_drawn.get(drawn.label)
        ratios.append(1.0 if last is None else
                      REPEAT_SHARE * (last == squares) / (hits / n) + 1 - REPEAT_SHARE)
        self.last_drawn[drawn.label] = squares
        places = (sorted_places, _places(beads, squares))
        previous = self.places.pop((drawn.game - 1, drawn.index), None)
        self.places[(drawn.game, drawn.index)] = places
        ratios += [1.0 if previous is None else
                   _same_places_ratio(now, n, before, hits / n)
                   for now, before in zip(places, previous or places, strict=True)]
        self.martingale.bet(ratios)

    def learnt(self, draws: Iterable[tuple[Board, frozenset[Cell]]], kept: int) -> None:
        """Note what learning put back into each box drawn from (`kept` beads of its square)."""
        if kept:
            for label, squares in draws:
                self.put_back[label] = squares

    def refilled(self, label: Board) -> None:
        """Note that a box was refilled: which bead came last is unknown, unless learning says."""
        self.put_back.pop(label, None)

    def evidence(self) -> Evidence:
        """The evidence so far."""
        return self.martingale.evidence()


# -- the refill beads (SPEC 5: each an independent, uniform empty square of the label) -----

REFILL_BINS: Final = 6
"""Bins of the PIT histogram that the pattern alternatives learn as they go."""
REFILL_ALTERNATIVES: Final = ("all beads of one square", "all beads of different squares",
                              "a pattern of squares, by square", "a pattern of squares, as printed")


@dataclass(frozen=True)
class Refilled:
    """The refill beads of one box, as seen between two dumps."""

    label: Board
    """The box's canonical label."""
    beads: Counts
    """The refill beads in the label's frame (their squares known up to the label's symmetries)."""
    printed: tuple[Cell, ...]
    """Where each square of the label lands on the label as printed in the dump."""


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


def _orbit_counts(label: Board, beads: Counts) -> list[int]:
    """The number of beads on each orbit of the label's empty squares."""
    return [sum(beads[s] for s in group) for group in orbits(label)]


def _refill_law_ratios(label: Board, beads: Counts) -> tuple[float, float]:
    """Likelihood ratios of "all of one square" and "all different" against independent beads."""
    groups = orbits(label)
    empty = sum(len(group) for group in groups)
    b = sum(beads)
    pairs = list(zip((len(group) for group in groups), _orbit_counts(label, beads), strict=True))
    spec = math.factorial(b) * math.prod((size / empty) ** n / math.factorial(n)
                                         for size, n in pairs)
    one = next((size / empty for size, n in pairs if n == b), 0.0)
    different = (math.prod(math.comb(size, n) for size, n in pairs)
                 / math.comb(empty, b)) if empty >= b else spec
    return one / spec, different / spec


class RefillStatistics:
    """The refill statistic over a run: the beads of every refill seen."""

    def __init__(self, rng: random.Random, threshold: float = 1 / FALSE_ALARM) -> None:
        self.rng = rng
        self.martingale = Martingale(REFILL_ALTERNATIVES, threshold)
        self.histograms = [[0] * REFILL_BINS for _ in range(2)]
        """How many refill PITs fell in each bin, by square and as printed."""

    def _pattern_ratio(self, histogram: list[int], u: float) -> float:
        """The histogram's predictive density at u (add-1/2 estimate), then learn u."""
        b = min(int(u * REFILL_BINS), REFILL_BINS - 1)
        ratio = REFILL_BINS * (histogram[b] + 0.5) / (sum(histogram) + REFILL_BINS / 2)
        histogram[b] += 1
        return ratio

    def add(self, refilled: Refilled) -> None:
        """Bet on one refill's beads (at least one bead, each on an empty square)."""
        label = refilled.label
        one, different = _refill_law_ratios(label, refilled.beads)
        empties = [Cell(c) for c in range(9) if label[c] == EMPTY]
        printed_order = sorted(empties, key=lambda c: refilled.printed[c])
        patterns = [1.0, 1.0]
        for group, n in zip(orbits(label), _orbit_counts(label, refilled.beads), strict=True):
            for _ in range(n):
                for k, order in enumerate((empties, printed_order)):
                    u = randomised_pit(order, frozenset(group), self.rng)
                    patterns[k] *= self._pattern_ratio(self.histograms[k], u)
        self.martingale.bet([one, different, *patterns])

    def evidence(self) -> Evidence:
        """The evidence so far."""
        return self.martingale.evidence()
