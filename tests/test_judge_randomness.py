"""The bead-draws test: each alternative is a law, each bet its definition, the false-alarm rate
holds, and each alternative catches the fault it was made for, from game 1 or from game 150."""

from __future__ import annotations

import math
import random

import pytest
from simulation import Fault, Keeping, Printing, simulate

from reference.board import EMPTY, Board, Cell, empty_cells

from judge.deciding.bead_ages import Ages
from judge.deciding.draw_laws import (
    COUNT_POWERS,
    PLACE_LAWS,
    count_laws,
    count_ratios,
    near_law,
    place_laws,
    place_ratios,
)
from judge.deciding.evidence import start_weight
from judge.deciding.randomness import (
    DRAW_ALTERNATIVES,
    DRAW_SMOOTHING,
    REPEAT_SHARE,
    Drawn,
    DrawStatistics,
    counts_of,
)
from judge.deciding.refill_law import orbit_ids
from judge.terms.boxes import box_labels, square_orbit

LABELS = box_labels()
LOWERED = 20.0
"""A lowered threshold: each alternative then crosses it in at most 1 correct run in 20."""


def random_box(rng: random.Random) -> tuple[Board, tuple[Cell, ...]]:
    """A random box and beads, printed sorted or shuffled."""
    label = rng.choice(LABELS)
    beads = [c for c in empty_cells(label) for _ in range(rng.randint(0, 3))]
    beads = beads or [rng.choice(empty_cells(label))]
    if rng.random() < 0.5:
        rng.shuffle(beads)
    return label, tuple(beads)


def test_each_law_is_a_law_and_each_bet_its_definition() -> None:
    """Every alternative's law over the orbits present sums to 1, and the bets made for the orbit
    drawn are that law's chance over the SPEC's."""
    rng = random.Random(1)
    for _ in range(300):
        label, beads = random_box(rng)
        ids = orbit_ids(label)
        printed = tuple(ids[s] for s in beads)
        present = tuple(sorted(set(printed)))
        spec = tuple(printed.count(o) / len(printed) for o in present)
        n = len(printed)
        first, last = rng.randint(1, n), rng.randint(1, n)
        near = frozenset(rng.sample(range(n), rng.randint(1, n)))
        laws = [*count_laws(counts_of(beads), ids, present),
                *place_laws(printed, present, first, last),
                near_law(printed, present, near, REPEAT_SHARE, spec)]
        for law in laws:
            assert math.fsum(law) == pytest.approx(1.0) and min(law) >= 0
        for j, orbit in enumerate(present):
            squares = square_orbit(label, Cell(orbit))
            places = [i for i, o in enumerate(printed) if o == orbit]
            assert count_ratios(counts_of(beads), squares) == pytest.approx(
                [law[j] / spec[j] for law in laws[:len(COUNT_POWERS)]])
            assert place_ratios(places, n, first, last) == pytest.approx(
                [law[j] / spec[j] for law in laws[len(COUNT_POWERS):-1]])


def test_place_laws_say_what_their_names_say() -> None:
    """Beads 0 1 2 3 in that order: never the first gives square 0 nothing, always the last gives
    all to square 3, the first half 30% of the time gives 0 and 1 each 0.7/4 + 0.3/2."""
    laws = place_laws((0, 1, 2, 3), (0, 1, 2, 3))
    never_first, never_last, always_first, always_last, front, back, to_front, to_back = laws
    assert never_first == pytest.approx((0, 1 / 3, 1 / 3, 1 / 3))
    assert never_last == pytest.approx((1 / 3, 1 / 3, 1 / 3, 0))
    assert always_first == (1, 0, 0, 0) and always_last == (0, 0, 0, 1)
    assert front == pytest.approx((0.325, 0.325, 0.175, 0.175)) and back == front[::-1]
    assert to_front[0] > to_front[1] > to_front[2] > to_front[3]
    assert to_back == pytest.approx(to_front[::-1])
    assert len(laws) == PLACE_LAWS
    # a newest group of three beads of unknown order: never the newest spares each 2 times in 3
    assert place_laws((0, 1, 2, 3), (0, 1, 2, 3), 1, 3)[1] == pytest.approx((1 / 3, 2 / 9, 2 / 9,
                                                                             2 / 9))


def test_each_alternative_has_mean_one_under_the_spec() -> None:
    """After some history (learning, a refill, the game before), each alternative's smoothed bet
    on the next draw has mean exactly 1 when the draw follows the beads."""
    rng = random.Random(3)
    for _ in range(40):
        label, beads = random_box(rng)
        statistic = DrawStatistics()
        first = Drawn(label, beads, square_orbit(label, rng.choice(beads)), 1, 0)
        statistic.add(first)
        statistic.learnt([(label, first.squares)], rng.choice((0, 1, 2)))
        if rng.random() < 0.3:
            statistic.refilled(label, counts_of(rng.sample(beads, min(3, len(beads)))))
        _, after = random_box(rng) if rng.random() < 0.3 else (label, beads)
        after = tuple(c for c in after if label[c] == EMPTY) or beads
        means = [0.0] * len(DRAW_ALTERNATIVES)
        for orbit in {square_orbit(label, c) for c in after}:
            chance = sum(c in orbit for c in after) / len(after)
            trial = DrawStatistics()
            trial.ages.accounts = {k: type(v)(list(v.beads), v.oldest, v.newest)
                                   for k, v in statistic.ages.accounts.items()}
            trial.places, trial.game = dict(statistic.places), statistic.game
            trial.last_drawn = dict(statistic.last_drawn)
            trial.add(Drawn(label, after, orbit, 2, 0))
            for k, log in enumerate(trial.evidence().log_values):
                # evidence = (w(1) + w(2)) * bet + 1 - (w(1) + w(2)): one bet, in game 2
                joined = start_weight(1) + start_weight(2)
                bet = (math.exp(log) - 1 + joined) / joined
                smoothing = DRAW_SMOOTHING[k]
                means[k] += chance * (bet - smoothing) / (1 - smoothing)
        assert means == pytest.approx([1.0] * len(DRAW_ALTERNATIVES))


def test_ages_follow_a_list_that_appends() -> None:
    """The account of a box: as printed at first, a draw takes a middle bead of its orbit,
    learning appends, a refill is one group of unknown order."""
    ages, label = Ages(), "........."
    assert ages.order(label, (0, 1, 4, 0)) == ((0, 1, 4, 0), 1, 1)
    ages.drawn(label, 0)  # the first 0 is the oldest, the last 0 the newest: neither is taken
    assert ages.order(label, (0, 1, 4)) == ((1, 4, 0), 1, 1)
    ages.learnt(label, 4, 2)
    assert ages.order(label, (0, 1, 4, 4, 4)) == ((1, 4, 0, 4, 4), 1, 2)
    ages.refilled(label, [4, 1, 1])
    assert ages.order(label, (1, 1, 4)) == ((1, 1, 4), 3, 3)
    assert ages.order(label, (1, 4)) == ((1, 4), 1, 1)  # the dump disagrees: taken as printed


def correct_kind(seed: int) -> tuple[Printing, Keeping, bool]:
    """A correct simulated MENACE's kind for a seed: its printing, its keeping, one bead a box."""
    rng = random.Random(seed)
    return rng.choice(list(Printing)), rng.choice(list(Keeping)), rng.random() < 0.5


def test_no_alternative_passes_its_false_alarm_rate() -> None:
    """At threshold 20, each alternative's evidence (and their mean) reaches it in at most 1
    correct run in 20 (Ville): 120 runs of 30 games, every kind of correct program, with a
    tolerance of 1 sd of a binomial over the bound (at most 6 + 3 runs). The same over 2,000
    runs of 200 games: `tests/test_statistics_e2e.py`, `bench/randomness.py`."""
    runs, tolerance = 120, 3
    crossed = [0] * len(DRAW_ALTERNATIVES)
    pooled = 0
    for seed in range(runs):
        printing, keeping, one_bead = correct_kind(seed)
        outcome = simulate(Fault.NONE, 0.0, 30, seed, threshold=LOWERED, printing=printing,
                           keeping=keeping, one_bead=one_bead)
        pooled += outcome.draws_rejected is not None
        for k, top in enumerate(outcome.draw_peaks):
            crossed[k] += top >= math.log(LOWERED)
    assert pooled <= runs / LOWERED + tolerance
    assert max(crossed) <= runs / LOWERED + tolerance, dict(zip(DRAW_ALTERNATIVES, crossed,
                                                                strict=True))


@pytest.mark.parametrize("fault,size,games,kind,alternative", [
    (Fault.UNIFORM, 1.0, 150, {}, "uniform over the squares present"),
    (Fault.SHARPENED, 1.0, 200, {}, "sharpened"),
    (Fault.FLATTENED, 1.0, 200, {}, "flattened"),
    (Fault.RESEEDS, 1.0, 100, {}, ""),  # the same draws in every game: several alternatives
    (Fault.SKIPS_FIRST, 1.0, 200, {}, ("never the oldest bead", "never the first bead by square")),
    (Fault.SKIPS_LAST, 1.0, 200, {}, "never the newest bead"),
    (Fault.SKIPS_LAST, 1.0, 200, {"printing": Printing.LIST}, "never the last bead as printed"),
    (Fault.FRONT_HALF, 1.0, 100, {}, "the oldest half"),
    (Fault.FRONT_HALF, 1.0, 100, {"printing": Printing.LIST}, "the first half as printed"),
    (Fault.PRINTED_FIRST, 1.0, 30, {}, "always the first bead as printed"),
])
def test_each_alternative_catches_its_fault(fault: Fault, size: float, games: int,
                                            kind: dict[str, object],
                                            alternative: str | tuple[str, ...]) -> None:
    """A simulated MENACE with the fault is rejected on three seeds, the alternative made for it
    the likeliest (or all but); the same MENACE without it is not."""
    for seed in (1, 2, 3):
        outcome = simulate(fault, size, games, seed, **kind)  # type: ignore[arg-type]
        assert outcome.draws_rejected is not None, (seed, outcome.bead_draws.ratios())
        top = outcome.bead_draws.per_alternative()[:3]
        assert any(line.startswith(alternative) for line in top), top
    correct = simulate(Fault.NONE, 0.0, games, 1, **kind)  # type: ignore[arg-type]
    assert correct.draws_rejected is None


@pytest.mark.parametrize("fault", [Fault.UNIFORM, Fault.SHARPENED])
def test_a_fault_from_game_150_is_caught_within_150_games(fault: Fault) -> None:
    """A MENACE correct until game 150 and faulty from then on is not rejected before game 150,
    and is rejected within 150 games of it, dated from game 150 give or take 30."""
    for seed in (1, 2, 3):
        outcome = simulate(fault, 1.0, 300, seed, start=150)
        assert outcome.draws_rejected is not None and 150 <= outcome.draws_rejected <= 300
        k = max(range(len(DRAW_ALTERNATIVES)), key=lambda j: outcome.bead_draws.log_values[j])
        assert 120 <= outcome.bead_draws.starts[k] <= 180, outcome.bead_draws.strongest
