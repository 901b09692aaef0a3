"""The statistical checks keep their false-alarm rate, and catch the faults they were made for."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from itertools import product

import pytest

from reference.board import EMPTY, Board, Cell
from reference.symmetry import PERMUTATIONS

from judge.boxes import box_labels, square_orbit
from judge.options import RefillRule
from judge.randomness import (
    COUNT_POWERS,
    DRAW_ALTERNATIVES,
    FALSE_ALARM,
    REFILL_ALTERNATIVES,
    REPEAT_SHARE,
    SMOOTHING,
    Drawn,
    DrawStatistics,
    Martingale,
    Refilled,
    RefillStatistics,
    _refill_law_ratios,
    counts_of,
    orbits,
    randomised_pit,
    refill_beads,
)
from judge.simulation import Fault, simulate

LABELS = box_labels()
LOWERED = 20.0
"""A lowered threshold: each check then rejects at most 1 correct run in 20."""
RUNS = 2000


def empties(label: Board) -> list[Cell]:
    """The empty squares of a label."""
    return [Cell(c) for c in range(9) if label[c] == EMPTY]


def correct_draws(rng: random.Random, games: int) -> Iterator[Drawn | int]:
    """Correct draws from random boxes, beads printed in a random order, and each game's result."""
    for game in range(games):
        for index in range(rng.randint(1, 4)):
            label = rng.choice(LABELS)
            beads = [c for c in empties(label) for _ in range(rng.randint(0, 3))]
            beads = beads or [rng.choice(empties(label))]
            if rng.random() < 0.5:
                rng.shuffle(beads)
            yield Drawn(label, tuple(beads), square_orbit(label, rng.choice(beads)), game, index)
        yield rng.choice((0, 1, 2))


def rejected(statistic: DrawStatistics | RefillStatistics) -> bool:
    """True when the statistic has crossed its threshold."""
    return not statistic.evidence().passed


def test_bead_draws_keeps_its_false_alarm_rate() -> None:
    """At threshold 20, correct draws are rejected in at most 1 run in 20 (Ville)."""
    alarms = 0
    for seed in range(RUNS):
        rng = random.Random(seed)
        statistic = DrawStatistics(threshold=LOWERED)
        drawn: list[tuple[Board, frozenset[Cell]]] = []
        for item in correct_draws(rng, 12):
            if isinstance(item, int):
                statistic.learnt(drawn, item)
                drawn = []
                continue
            statistic.add(item)
            drawn.append((item.label, item.squares))
            if rng.random() < 0.1:
                statistic.refilled(item.label)
            if rejected(statistic):
                alarms += 1
                break
    assert alarms <= RUNS / LOWERED


def correct_refills(rng: random.Random, count: int) -> Iterator[Refilled]:
    """Refills of random boxes with 3 (or 2) independent uniform beads, printed in any frame."""
    for _ in range(count):
        label = rng.choice(LABELS)
        beads = counts_of([rng.choice(empties(label)) for _ in range(rng.choice((2, 3)))])
        yield Refilled(label, beads, PERMUTATIONS[rng.randrange(8)])


def plain_skip(beads: list[Cell], squares: frozenset[Cell], skipped: set[Cell]) -> float:
    """The ratio of "never a bead of a square in `skipped`", from its definition."""
    n, hits = len(beads), sum(b in squares for b in beads)
    if n < 2 or not any(b in skipped for b in beads):
        return 1.0
    return (hits - bool(skipped & squares)) / (n - 1) / (hits / n)


def plain_bets(draws: list[Drawn | int]) -> list[float]:
    """The bead-draws test's log ratios, each bet computed straight from its definition."""
    logs = [0.0] * len(DRAW_ALTERNATIVES)
    last: dict[Board, frozenset[Cell]] = {}
    put_back: dict[Board, frozenset[Cell]] = {}
    places: dict[tuple[int, int], list[set[int]]] = {}
    game_draws: list[Drawn] = []
    for item in draws:
        if isinstance(item, int):
            if item:
                put_back.update((d.label, d.squares) for d in game_draws)
            game_draws = []
            continue
        game_draws.append(item)
        beads, squares = list(item.beads), item.squares
        n, hits = len(beads), sum(b in squares for b in beads)
        chance = hits / n
        counts, ratios = [beads.count(s) for s in range(9)], []
        for _, power in COUNT_POWERS:
            weight = ([float(c == max(counts)) for c in counts] if power == math.inf else
                      [c ** power if c else 0.0 for c in counts])
            ratios.append(sum(weight[s] / sum(weight) for s in squares) / chance)
        orders = (sorted(beads), beads)
        ratios += [plain_skip(beads, squares, {order[end]}) for order in orders
                   for end in (0, -1)]
        ratios.append(plain_skip(beads, squares, set(put_back.get(item.label, {beads[-1]}))))
        ratios.append(1.0 if item.label not in last else
                      REPEAT_SHARE * (last[item.label] == squares) / chance + 1 - REPEAT_SHARE)
        last[item.label] = squares
        now = [{i for i, b in enumerate(order) if b in squares} for order in orders]
        before = places.pop((item.game - 1, item.index), None)
        places[(item.game, item.index)] = now
        for k, order in enumerate(orders):
            near = {p + d for p in (before or now)[k] for d in (-1, 0, 1) if 0 <= p + d < n}
            ratios.append(1.0 if before is None or not near else
                          REPEAT_SHARE * sum(order[p] in squares for p in near) / len(near)
                          / chance + 1 - REPEAT_SHARE)
        for k, ratio in enumerate(ratios):
            logs[k] += math.log((1 - SMOOTHING) * ratio + SMOOTHING)
    return logs


def test_each_bet_is_its_definition() -> None:
    """The bead-draws test bets, draw by draw, exactly what each alternative's definition says."""
    draws = list(correct_draws(random.Random(7), 300))
    statistic = DrawStatistics()
    game_draws: list[Drawn] = []
    for item in draws:
        if isinstance(item, int):
            statistic.learnt([(d.label, d.squares) for d in game_draws], item)
            game_draws = []
        else:
            statistic.add(item)
            game_draws.append(item)
    assert statistic.evidence().log_ratios == pytest.approx(plain_bets(draws), rel=1e-12)


def test_refill_test_keeps_its_false_alarm_rate() -> None:
    """At threshold 20, correct refills are rejected in at most 1 run in 20 (Ville)."""
    alarms = 0
    for seed in range(RUNS):
        rng = random.Random(seed)
        statistic = RefillStatistics(random.Random(-seed), threshold=LOWERED)
        for refilled in correct_refills(rng, 20):
            statistic.add(refilled)
            if rejected(statistic):
                alarms += 1
                break
    assert alarms <= RUNS / LOWERED


def test_each_alternative_is_a_law() -> None:
    """Under the SPEC each alternative's likelihood ratio has mean 1, exactly, on one draw."""
    label = box_labels()[5]
    beads = tuple(c for c in empties(label) for _ in range(c % 3 + 1))
    statistic = DrawStatistics()
    statistic.add(Drawn(label, beads, frozenset({beads[0]}), 1, 0))
    statistic.learnt([(label, frozenset({beads[-1]}))], 2)
    means = [0.0] * len(DRAW_ALTERNATIVES)
    for orbit in {square_orbit(label, c) for c in beads}:
        chance = sum(c in orbit for c in beads) / len(beads)
        trial = DrawStatistics()
        trial.places = dict(statistic.places)
        trial.last_drawn = dict(statistic.last_drawn)
        trial.put_back = dict(statistic.put_back)
        trial.add(Drawn(label, beads, orbit, 2, 0))
        for k, log in enumerate(trial.evidence().log_ratios):
            means[k] += chance * (math.exp(log) - 0.1) / 0.9
    assert means == pytest.approx([1.0] * len(DRAW_ALTERNATIVES))


def test_refill_beads_come_from_the_dumps_and_the_result() -> None:
    """On-empty: three beads after the kept ones; on-draw: two, the third was drawn."""
    square = frozenset({Cell(0)})
    assert refill_beads(counts_of([0]), counts_of([0, 0, 0, 4, 8]), square, 2, RefillRule.ON_EMPTY) == \
        counts_of([0, 4, 8])
    assert refill_beads(counts_of([0, 4]), counts_of([4]), square, 0, RefillRule.ON_EMPTY) is None
    assert refill_beads(counts_of([]), counts_of([0, 0, 4]), square, 1, RefillRule.ON_DRAW) == \
        counts_of([0, 4])


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


def test_evidence_names_every_alternative() -> None:
    """The evidence is reported per alternative, strongest first."""
    martingale = Martingale(("a", "b"))
    martingale.bet([10.0, 0.0])
    evidence = martingale.evidence()
    assert evidence.strongest == "a" and evidence.ratios().startswith("a: 9.1")
    assert evidence.passed and evidence.threshold == 1 / FALSE_ALARM
    assert len(REFILL_ALTERNATIVES) == len(RefillStatistics(random.Random()).evidence().names)


@pytest.mark.parametrize("fault,games,one_bead,check", [
    (Fault.SHARPENED, 200, False, "draws"),
    (Fault.FLATTENED, 200, False, "draws"),
    (Fault.SKIPS_LAST, 400, False, "draws"),
    (Fault.RESEEDS, 100, False, "draws"),
    (Fault.REFILLS_LOWEST, 200, True, "refills"),
])
def test_each_check_catches_its_fault(fault: Fault, games: int, one_bead: bool,
                                      check: str) -> None:
    """Each fault at full size is caught by its check in simulated runs; a correct run is not."""
    for seed in (1, 2):
        outcome = simulate(fault, 1.0, games, seed, one_bead=one_bead)
        assert getattr(outcome, f"{check}_rejected") is not None, outcome
    correct = simulate(Fault.NONE, 0.0, games, 1, one_bead=one_bead)
    assert correct.draws_rejected is None and correct.refills_rejected is None


@pytest.mark.parametrize("label", [".........", "....O...X", "XO......."])
@pytest.mark.parametrize("beads", [2, 3])
def test_each_refill_alternative_is_a_law(label: Board, beads: int) -> None:
    """Under the SPEC the refill alternatives' likelihood ratios have mean 1 over all refills."""
    squares = empties(label)
    means = [0.0, 0.0]
    for refill in product(squares, repeat=beads):
        for k, ratio in enumerate(_refill_law_ratios(label, counts_of(refill))):
            means[k] += ratio / len(squares) ** beads
    assert means == pytest.approx([1.0, 1.0])
