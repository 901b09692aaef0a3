"""Time the leaderboard of golf/ judged one submission at a time and side by side.

Run by hand: python bench/leaderboard.py [--jobs N] [--games G] [--runs R]. Prints the wall time
of `python -m judge golf/ -j 1` and of `-j N` (default: the number of cores), each the best of R
runs, and their ratio; the target is at most 0.6 on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def wall_seconds(jobs: int, games: int) -> float:
    """The wall time of one leaderboard run of golf/ with `jobs` at once."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "judge", "golf/", "-j", str(jobs), "--games", str(games),
                    "--seed", "2026"], cwd=ROOT, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    """Print the serial and parallel wall times of the golf leaderboard and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    serial = parallel = float("inf")
    for _ in range(options.runs):  # in turns, so that other load falls on both alike
        serial = min(serial, wall_seconds(1, options.games))
        parallel = min(parallel, wall_seconds(options.jobs, options.games))
    print(f"golf/ leaderboard, {options.games} games each, best of {options.runs} runs:")
    print(f"  -j 1: {serial:.2f} s   -j {options.jobs}: {parallel:.2f} s   "
          f"ratio {parallel / serial:.2f}")


if __name__ == "__main__":
    main()
