"""Train many MENACEs at once and print games per second in total, for each engine and number of learners.

Run by hand: python bench/learners.py [--games N] [--learners K ...] [--opponent NAME].
The targets: 2,000,000 games per second in total for 4,096 learners against the random player
(numpy), and at most 200 MB for those 4,096 learners over the bare interpreter.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference.board import O, X
from reference.rules import CHALLENGE
from reference.study.learners import numpy_available, train_learners
from reference.study.training import OPPONENTS
from reference.tables import box_table

from bench.memory import over_bare_mb

MEMORY_PROBE = """
from reference.rules import CHALLENGE
from reference.study.learners import train_learners
train_learners(CHALLENGE, "X", ["random"], 200, 4096, seed=1, engine="{engine}")
"""
"""Train 4,096 learners for 200 games each with one engine."""


def main() -> None:
    """Time `games` games of K fresh learners each, for every K and engine, best of `repeats`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--learners", type=int, nargs="+", default=[1, 100, 1_000, 4_096, 10_000])
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    OPPONENTS[options.opponent]()  # tables are built here, outside the timing
    box_table(X), box_table(O)
    engines = ["numpy", "python"] if numpy_available() else ["python"]
    print(f"challenge rules, MENACE (X) against {options.opponent}, {options.games:,} games per "
          f"learner, best of {options.repeats}")
    print("games per second in total, by the wall clock and per second of this process's CPU time "
          "(which other load disturbs less)")
    print(f"{'learners':>9}  {'engine':>7}  {'wall':>12}  {'CPU':>12}")
    for learners in options.learners:
        for engine in engines:
            if engine == "python" and learners * options.games > 2_000_000:
                continue  # minutes of pure Python: the rate is the same as for fewer learners
            wall = cpu = float("inf")
            for repeat in range(options.repeats):
                start, start_cpu = time.perf_counter(), time.process_time()
                train_learners(CHALLENGE, X, [options.opponent], options.games, learners,
                               seed=repeat, engine=engine)
                wall = min(wall, time.perf_counter() - start)
                cpu = min(cpu, time.process_time() - start_cpu)
            games = learners * options.games
            print(f"{learners:>9,}  {engine:>7}  {games / wall:>12,.0f}  {games / cpu:>12,.0f}")
    bare, used = over_bare_mb(MEMORY_PROBE.format(engine=engines[0]))
    print(f"memory: 4,096 learners ({engines[0]}) take {used:.0f} MB over the bare interpreter's "
          f"{bare:.0f} MB (peak resident memory)")


if __name__ == "__main__":
    main()
