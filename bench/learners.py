"""Train many MENACEs at once and print games per second in total, for each engine and number of learners.

Run by hand: python bench/learners.py [--games N] [--learners K ...] [--opponent NAME].
The target is 300,000 games per second in total for K >= 1,000 learners.
"""

from __future__ import annotations

import argparse
import time

from reference.board import O, X
from reference.study.learners import numpy_available, train_learners
from reference.rules import CHALLENGE
from reference.tables import box_table
from reference.study.training import OPPONENTS


def main() -> None:
    """Time `games` games of K fresh learners each, for every K and engine, best of `repeats`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--learners", type=int, nargs="+", default=[1, 100, 1_000, 10_000])
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    OPPONENTS[options.opponent]()  # tables are built here, outside the timing
    box_table(X), box_table(O)
    engines = ["numpy", "python"] if numpy_available() else ["python"]
    print(f"challenge rules, MENACE (X) against {options.opponent}, {options.games:,} games per "
          f"learner, best of {options.repeats}")
    print(f"{'learners':>9}  {'engine':>7}  {'games/s in total':>17}")
    for learners in options.learners:
        for engine in engines:
            if engine == "python" and learners * options.games > 2_000_000:
                continue  # minutes of pure Python: the rate is the same as for fewer learners
            best = float("inf")
            for repeat in range(options.repeats):
                start = time.perf_counter()
                train_learners(CHALLENGE, X, [options.opponent], options.games, learners,
                               seed=repeat, engine=engine)
                best = min(best, time.perf_counter() - start)
            print(f"{learners:>9,}  {engine:>7}  {learners * options.games / best:>17,.0f}")


if __name__ == "__main__":
    main()
