"""The refill test: each alternative is a law of the whole refill, the false-alarm rate holds, and
each alternative catches the fault it was made for."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from itertools import product

import pytest
from simulation import Fault, simulate

from reference.board import Board, Cell, empty_cells
from reference.symmetry import PERMUTATIONS

from judge.deciding.randomness import counts_of
from judge.deciding.refill_law import (
    REFILL_ALTERNATIVES,
    Refilled,
    RefillStatistics,
    _table,
    orbits,
    randomised_pit,
    refill_beads,
)
from judge.terms.boxes import box_labels, square_orbit
from judge.terms.options import RefillRule

LABELS = box_labels()
LOWERED = 20.0


@pytest.mark.parametrize("label", [".........", "....O...X", "XO.......", "XOXO....."])
@pytest.mark.parametrize("beads", [2, 3])
def test_each_refill_alternative_is_a_law(label: Board, beads: int) -> None:
    """Over all the refills a box could show, each alternative's chances sum to 1, and the
    SPEC's are those of independent uniform beads, square by square."""
    groups = orbits(label)
    for drawn, low in product(range(len(groups)), repeat=2):
        table = _table(label, beads, drawn, (low, len(groups) - 1 - drawn))
        for law in (table.spec, *table.laws):
            assert math.fsum(law) == pytest.approx(1.0) and min(law) >= 0
    squares = empty_cells(label)
    spec = _table(label, beads, 0, (0, 0))
    chances = [0.0] * len(spec.spec)
    for refill in product(squares, repeat=beads):
        observed = tuple(sum(s in group for s in refill) for group in groups)
        chances[spec.outcomes[observed]] += 1 / len(squares) ** beads
    assert chances == pytest.approx(spec.spec)


def test_a_pair_and_the_square_just_drawn_mean_what_they_say() -> None:
    """On a label without symmetries, "two of one square and one of another" gives all its
    chance to such refills, and "never the square just drawn" none to a refill holding it."""
    label = "XO......."
    table = _table(label, 3, 2, (0, 6))
    names = REFILL_ALTERNATIVES
    pair = table.laws[names.index("two beads of one square and one of another")]
    never = table.laws[names.index("never the square just drawn")]
    for observed, j in table.outcomes.items():
        assert (pair[j] > 0) == (sorted(observed, reverse=True)[:2] == [2, 1])
        assert (never[j] > 0) == (observed[2] == 0)


def test_refill_beads_come_from_the_dumps_and_the_result() -> None:
    """On-empty: three beads after the kept ones; on-draw: two, the third was drawn."""
    square = frozenset({Cell(0)})
    assert refill_beads(counts_of([0]), counts_of([0, 0, 0, 4, 8]), square, 2,
                        RefillRule.ON_EMPTY) == counts_of([0, 4, 8])
    assert refill_beads(counts_of([0, 4]), counts_of([4]), square, 0, RefillRule.ON_EMPTY) is None
    assert refill_beads(counts_of([]), counts_of([0, 0, 4]), square, 1,
                        RefillRule.ON_DRAW) == counts_of([0, 4])


def test_orbits_group_the_squares_a_label_cannot_tell_apart() -> None:
    """The empty board's squares fall into corners, edges and centre."""
    assert orbits("." * 9) == ((0, 2, 6, 8), (1, 3, 5, 7), (4,))
    assert all(len(group) == 1 for group in orbits("XO......."))


def test_randomised_pit_is_uniform() -> None:
    """The randomised PIT of a correct draw is uniform on [0, 1): each fifth gets its share."""
    rng = random.Random(3)
    order = [Cell(c) for c in (0, 0, 0, 4, 8, 8)]
    bins = [0] * 5
    for _ in range(5000):
        square = rng.choice(order)
        bins[int(5 * randomised_pit(order, frozenset({square}), rng))] += 1
    assert all(900 < n < 1100 for n in bins), bins


def refills(rng: random.Random, count: int, law: str = "spec") -> Iterator[Refilled]:
    """Refills of random boxes with 3 (or 2) beads, printed in any frame, each bead uniform (or
    by a faulty law: the square just drawn favoured)."""
    for game in range(1, count + 1):
        label = rng.choice(LABELS)
        squares = empty_cells(label)
        drawn = rng.choice(squares)
        beads = [drawn if law == "favoured" and rng.random() < 0.5 else rng.choice(squares)
                 for _ in range(rng.choice((2, 3)))]
        yield Refilled(label, counts_of(beads), PERMUTATIONS[rng.randrange(8)],
                       square_orbit(label, drawn), game)


def test_no_refill_alternative_passes_its_false_alarm_rate() -> None:
    """At threshold 20, each alternative's evidence (and their mean) reaches it in at most 1
    run in 20 of correct refills (Ville): 400 runs of 20 refills, a tolerance of 1 sd of a
    binomial over the bound (at most 20 + 5 runs)."""
    runs, tolerance = 400, 5
    crossed = [0] * len(REFILL_ALTERNATIVES)
    pooled = 0
    for seed in range(runs):
        rng = random.Random(seed)
        statistic = RefillStatistics(random.Random(-seed), threshold=LOWERED)
        top = [-math.inf] * len(REFILL_ALTERNATIVES)
        rejected = False
        for refilled in refills(rng, 20):
            statistic.add(refilled)
            evidence = statistic.evidence()
            top = [max(a, b) for a, b in zip(top, evidence.log_values, strict=True)]
            rejected = rejected or not evidence.passed
        pooled += rejected
        for k, value in enumerate(top):
            crossed[k] += value >= math.log(LOWERED)
    assert pooled <= runs / LOWERED + tolerance
    assert max(crossed) <= runs / LOWERED + tolerance, dict(zip(REFILL_ALTERNATIVES, crossed,
                                                                strict=True))


@pytest.mark.parametrize("fault,size,alternative", [
    (Fault.REFILLS_LOWEST, 0.5, "the lowest empty square"),
    (Fault.REFILLS_HIGHEST, 0.5, "the highest empty square"),
    (Fault.REFILLS_PAIR, 1.0, "two beads of one square and one of another"),
    (Fault.REFILLS_DIFFERENT, 1.0, ("all beads of different squares", "fewer repeated squares")),
    (Fault.REFILLS_NOT_DRAWN, 1.0, "never the square just drawn"),
])
def test_each_refill_alternative_catches_its_fault(fault: Fault, size: float,
                                                   alternative: str | tuple[str, ...]) -> None:
    """A simulated MENACE with one bead a box (many refills) and the fault is rejected within 40
    games on three seeds, the alternative made for it the likeliest or all but."""
    for seed in (1, 2, 3):
        outcome = simulate(fault, size, 40, seed, one_bead=True)
        assert outcome.refills_rejected is not None, outcome.refill_beads.ratios()
        top = outcome.refill_beads.per_alternative()[:2]
        assert any(line.startswith(alternative) for line in top), top
    assert simulate(Fault.NONE, 0.0, 40, 1, one_bead=True).refills_rejected is None


def test_the_square_just_drawn_favoured_is_caught() -> None:
    """Refills whose beads are the square just drawn half of the time are rejected."""
    statistic = RefillStatistics(random.Random(1))
    for refilled in refills(random.Random(2), 150, law="favoured"):
        statistic.add(refilled)
    evidence = statistic.evidence()
    assert not evidence.passed and evidence.strongest.startswith("the square just drawn")
