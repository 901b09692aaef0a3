"""Train the engine against a uniformly random opponent and print games per second.

Run by hand: python bench/engine.py [--games N] [--repeats R]. The last line is the figure.
"""

from __future__ import annotations

import argparse
import random
import time

from reference.board import X
from reference.menace import Menace
from reference.study.opponents import random_opponent
from reference.rules import CHALLENGE


def main() -> None:
    """Time `games` training games, best of `repeats` fresh MENACEs, on one core."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    opponent = random_opponent()  # tables are built here, outside the timing
    best = float("inf")
    for repeat in range(options.repeats):
        menace = Menace(CHALLENGE, player=X, rng=random.Random(repeat))
        start = time.perf_counter()
        tally = menace.train(opponent, options.games)
        best = min(best, time.perf_counter() - start)
        print(f"run {repeat + 1}: {tally.wins} wins, {tally.draws} draws, {tally.losses} losses")
    print(f"challenge rules against a random opponent, best of {options.repeats} runs of "
          f"{options.games:,} games")
    print(f"{options.games / best:,.0f} games per second")


if __name__ == "__main__":
    main()
