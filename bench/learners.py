"""Train many MENACEs at once; games per second in all, for each engine and number of learners.

Run by hand: python bench/learners.py [--games N] [--learners K ...] [--opponent NAME]
[--against COMMIT]. The targets: 2,000,000 games per second in total for 4,096 learners against
the random player (numpy), and at most 200 MB for those 4,096 learners over the bare interpreter.
`--against COMMIT` also times the numpy engine of that commit (its `reference/` checked out in a
temporary folder), each engine in a fresh process, in turns with this one, on the same seeds.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference.board import O, X
from reference.rules import CHALLENGE
from reference.study.learners import numpy_available, train_learners
from reference.study.training import OPPONENTS
from reference.tables import box_table

from bench.memory import ROOT, over_bare_mb

MEMORY_PROBE = """
from reference.rules import CHALLENGE
from reference.study.learners import train_learners
train_learners(CHALLENGE, "X", ["random"], 200, 4096, seed=1, engine="{engine}")
"""
"""Train 4,096 learners for 200 games each with one engine."""

TIMED = """
import sys, time
sys.path.insert(0, {root!r})
from reference.board import O, X
from reference.rules import CHALLENGE
from reference.study.learners import train_learners
from reference.study.training import OPPONENTS
from reference.tables import box_table
OPPONENTS[{opponent!r}](), box_table(X), box_table(O)
start, start_cpu = time.perf_counter(), time.process_time()
train_learners(CHALLENGE, X, [{opponent!r}], {games}, {learners}, seed={seed}, engine="numpy")
print(time.perf_counter() - start, time.process_time() - start_cpu)
"""
"""Time one training run of the numpy engine in a fresh process, from the checkout at `root`."""


def timed_run(root: Path, opponent: str, games: int, learners: int,
              seed: int) -> tuple[float, float]:
    """The wall and CPU seconds that one numpy training run takes, from the checkout at `root`."""
    code = TIMED.format(root=str(root), opponent=opponent, games=games, learners=learners,
                        seed=seed)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    wall, cpu = done.stdout.split()
    return float(wall), float(cpu)


def compare(commit: str, options: argparse.Namespace) -> None:
    """Time today's numpy engine and the one of `commit` in turns, best of `repeats` each."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "reference"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        roots = {"today": ROOT, commit: Path(folder)}
        for learners in options.learners:
            best = {name: (float("inf"), float("inf")) for name in roots}
            for repeat in range(options.repeats):
                for name, root in roots.items():
                    wall, cpu = timed_run(root, options.opponent, options.games, learners, repeat)
                    best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
            games = learners * options.games
            for name, (wall, cpu) in best.items():
                print(f"{learners:>9,}  {name:>7}  {games / wall:>12,.0f}  {games / cpu:>12,.0f}")
            (wall, cpu), (old_wall, old_cpu) = best["today"], best[commit]
            print(f"{'':>9}  {'ratio':>7}  {old_wall / wall:>12.2f}  {old_cpu / cpu:>12.2f}")


def main() -> None:
    """Time `games` games of K fresh learners each, for every K and engine, best of `repeats`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--learners", type=int, nargs="+", default=[1, 100, 1_000, 4_096, 10_000])
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--against", metavar="COMMIT",
                        help="time the numpy engine of this commit in turns with today's instead")
    options = parser.parse_args()
    OPPONENTS[options.opponent]()  # tables are built here, outside the timing
    box_table(X), box_table(O)
    engines = ["numpy", "python"] if numpy_available() else ["python"]
    print(f"challenge rules, MENACE (X) against {options.opponent}, {options.games:,} games per "
          f"learner, best of {options.repeats}")
    print("games per second in total, by the wall clock and per second of this process's CPU time "
          "(which other load disturbs less)")
    print(f"{'learners':>9}  {'engine':>7}  {'wall':>12}  {'CPU':>12}")
    if options.against:
        compare(options.against, options)
        return
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
