"""Slow checks of the statistical tests (`-m e2e`): the false-alarm bound over correct runs of 200
and of 1,500 games, the faults hidden by sorted printing within 1,000 games, and a thorough
judgement."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from fixture_folders import assembled
from live import judge_process
from simulation import Fault, Keeping, Printing, simulate

from judge.deciding.randomness import DRAW_ALTERNATIVES
from judge.deciding.refill_law import REFILL_ALTERNATIVES
from judge.terms.options import FALSE_ALARM

ROOT = Path(__file__).resolve().parent.parent
RUNS = 100
LOWERED = 20.0

pytestmark = pytest.mark.e2e


PARTS = 2
"""The runs in parts, judged side by side under `-n`, each part under 20 s and its bounds holding
alone; 2,000 runs, and 2,000 thorough judgements, are measured by `python -m bench.randomness
--false-alarms 2000 [--thorough]` (bench/README.md)."""


@pytest.mark.parametrize("part", range(PARTS))
def test_correct_runs_of_200_games_keep_the_false_alarm_bound(part: int) -> None:
    """100 correct simulated runs of 200 games, of every kind (print order, list keeping, one
    bead or 1-4 a square), in 2 parts of 50: at the threshold 1e4 none rejected by either check
    (the bound allows 0.005 on average in a part); at a threshold lowered to 20, each
    alternative, and each check, reaches it in at most 5% of a part's runs plus 2 sd of a
    binomial (5 of 50): a check that crossed it in 1 run of 4 would fail a part with chance 99%."""
    runs = RUNS // PARTS
    draws = [0] * len(DRAW_ALTERNATIVES)
    refills = [0] * len(REFILL_ALTERNATIVES)
    lowered = [0, 0]
    rejected = 0
    for seed in range(part * runs, (part + 1) * runs):
        rng = random.Random(seed)
        outcome = simulate(Fault.NONE, 0.0, 200, seed, printing=rng.choice(list(Printing)),
                           keeping=rng.choice(list(Keeping)), one_bead=rng.random() < 0.5)
        rejected += max(outcome.peaks) >= math.log(1 / FALSE_ALARM)
        for k, peak in enumerate(outcome.peaks):
            lowered[k] += peak >= math.log(LOWERED)
        for counts, peaks in ((draws, outcome.draw_peaks), (refills, outcome.refill_peaks)):
            for k, peak in enumerate(peaks):
                counts[k] += peak >= math.log(LOWERED)
    allowed = runs / LOWERED + 2 * math.sqrt(runs * 0.05 * 0.95)
    assert rejected == 0
    assert max(lowered) <= allowed, lowered
    assert max(draws) <= allowed, dict(zip(DRAW_ALTERNATIVES, draws, strict=True))
    assert max(refills) <= allowed, dict(zip(REFILL_ALTERNATIVES, refills, strict=True))


LONG_RUNS = 12
LONG_GAMES = 1500
"""Runs as long as a thorough judgement's second run plays (1,500 to 8,000 games): fewer, and
shorter than most, so that they fit in the suite; 2,000 whole thorough judgements are measured by
`python -m bench.randomness --false-alarms 2000 --thorough` (bench/README.md)."""


@pytest.mark.parametrize("half", range(2))
def test_long_correct_runs_keep_the_false_alarm_bound(half: int) -> None:
    """6 correct runs of 1,500 games of every kind, at a threshold lowered to 20, in each of two
    halves: the bound allows each check 5% of runs (0.3 of 6), and 3 or more of 6 come with chance
    0.2% at 5%; a check whose long runs crossed 20 in half of them would fail a half with chance
    66%, and at 1e4 (where the bound allows 1e-4) no run comes near."""
    crossed = [0, 0]
    for seed in range(half * LONG_RUNS // 2, (half + 1) * LONG_RUNS // 2):
        rng = random.Random(seed)
        outcome = simulate(Fault.NONE, 0.0, LONG_GAMES, 10_000 + seed,
                           printing=rng.choice(list(Printing)),
                           keeping=rng.choice(list(Keeping)), one_bead=rng.random() < 0.5)
        for k, peak in enumerate(outcome.peaks):
            crossed[k] += peak >= math.log(LOWERED)
        assert max(outcome.peaks) < math.log(1 / FALSE_ALARM), (seed, outcome.peaks)
    assert max(crossed) <= 2, crossed


@pytest.mark.parametrize("one_bead", [False, True])
def test_never_the_newest_bead_with_sorted_printing_is_caught_within_1000_games(
        one_bead: bool) -> None:
    """An off-by-one that never draws the last bead of a list that appends (the newest bead),
    printed sorted, is caught within 1,000 games on five seeds."""
    for seed in range(1, 6):
        outcome = simulate(Fault.SKIPS_LAST, 1.0, 1000, seed, one_bead=one_bead)
        assert outcome.draws_rejected is not None, outcome.bead_draws.ratios()


def test_a_thorough_judgement_plays_a_second_run_and_says_how_far_it_got(tmp_path: Path) -> None:
    """The canonical program under --thorough with a small budget: two runs, both accepted, and
    lines that say what power the alternatives reached and the false-alarm rate."""
    run = judge_process("--games", "60", "--seed", "5", "--thorough", "--thorough-time", "20",
                        assembled("accepted/canonical", tmp_path))
    lines = run.stdout.splitlines()
    assert run.returncode == 0 and lines[-1].startswith("accepted"), run.stdout[-2000:]
    assert any(line.startswith("thorough, second run:") for line in lines)
    assert sum(line.startswith("thorough: after") for line in lines) == 2
    assert "the judgement at most 0.0001" in run.stdout
