"""The smallest fault each statistical check catches, with 99% probability, within N games.

Run by hand: python -m bench.randomness [--games 200] [--runs 100] [--opponent mixed].
Each fault of `judge.simulation` is tried at sizes from 0.05 to 1 (bisected): a size counts
as caught when at most 1% of `runs` simulated runs of `games` games are accepted by the
check made for it. Correct runs are simulated too: their rejections are false alarms.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

from judge.options import OpponentKind
from judge.simulation import Fault, Rejections, simulate

SIZES = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
CASES: tuple[tuple[Fault, bool, str], ...] = (
    (Fault.SHARPENED, False, "bead-draws"),
    (Fault.FLATTENED, False, "bead-draws"),
    (Fault.SKIPS_LAST, False, "bead-draws"),
    (Fault.SKIPS_LAST, True, "bead-draws"),
    (Fault.RESEEDS, False, "bead-draws"),
    (Fault.REFILLS_LOWEST, True, "refill"),
    (Fault.REFILLS_LOWEST, False, "refill"),
)
"""Each fault, whether its MENACE starts with one bead per box, and the check made for it."""


def caught(outcome: Rejections, check: str) -> bool:
    """True when the check made for the fault rejected the run."""
    rejected = outcome.draws_rejected if check == "bead-draws" else outcome.refills_rejected
    return rejected is not None


def power(run: Callable[..., Rejections], check: str, runs: int) -> float:
    """The share of runs caught, stopping early once more than 1% are missed."""
    missed = 0
    for seed in range(runs):
        missed += not caught(run(seed=seed), check)
        if missed > runs // 100:
            return 1 - missed / (seed + 1)
    return 1 - missed / runs


def smallest(fault: Fault, one_bead: bool, check: str, options: argparse.Namespace) -> str:
    """The smallest size on the grid caught in 99% of runs, found by bisection."""
    low, high = -1, len(SIZES) - 1
    shares: dict[int, float] = {}
    while high - low > 1 or high not in shares:
        middle = (low + high + 1) // 2 if high - low > 1 else high
        size = SIZES[middle]
        shares[middle] = power(partial(simulate, fault, size, options.games, one_bead=one_bead,
                                       opponent=options.opponent), check, options.runs)
        if shares[middle] >= 0.99:
            high = middle
        elif middle == high:
            return f"not caught at size 1 (caught in {shares[middle]:.0%} of runs)"
        else:
            low = middle
    return f"{SIZES[high]:g}"


def main() -> None:
    """Print the smallest fault caught by each check, and the false alarms on correct runs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--opponent", type=OpponentKind, choices=list(OpponentKind),
                        default=OpponentKind.MIXED)
    options = parser.parse_args()
    start = time.perf_counter()
    alarms = sum(caught(outcome, check) for seed in range(options.runs)
                 for outcome in [simulate(Fault.NONE, 0.0, options.games, seed,
                                          opponent=options.opponent)]
                 for check in ("bead-draws", "refill"))
    print(f"{options.runs} runs of {options.games} games against the {options.opponent} opponent")
    print(f"correct runs rejected: {alarms} of {options.runs}")
    print("| fault | boxes start with | check | smallest size caught in 99% of runs |")
    print("|---|---|---|---|")
    for fault, one_bead, check in CASES:
        start_with = "one bead" if one_bead else "1-4 beads a square"
        print(f"| {fault} | {start_with} | {check} | {smallest(fault, one_bead, check, options)} |",
              flush=True)
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
