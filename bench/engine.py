"""The engine at scale: games per second and peak memory while MENACE trains for millions of games.

Run by hand: python3 bench/engine.py [--games N] [--chunk C] [--against COMMIT]. Each rule set
(the challenge's and Michie's) trains a fresh MENACE (X, seed 1) against a uniformly random
opponent, in a process of its own, so that its peak resident memory is its own. The processes
take turns, C games each (100,000 by default), so that other people's load falls on all of them
alike: compare rates within one run, as ratios. At 100,000 games, 1,000,000 and each further
million it prints each one's rate since the last such point, by the wall clock and per CPU
second (which other load disturbs less), and its peak resident memory; then the rate of each
million, the third million's against the first, and Michie's rules' against the challenge's.

`--against COMMIT` adds the challenge rules' MENACE of that commit (its `reference/` checked out
in a temporary folder) as one more process in the same turns, and its rates against today's.

Then, in a fresh process, it times short calls: `reference.study.training.play_games` for one
game, called again and again on one learner (the first call loads the tables), and on a fresh
learner each time.

Last, in this process, Michie's rules' MENACE against a table-driven loop written here
(`TableLoop`: the same MENACE from precomputed successor and canonical tables, one flat array of
counts, Michie's 4/3/2/1 beads and +3/+1/-1, a uniformly random opponent): a fresh learner of
each plays the same number of games from its first (10,000, 100,000 and 1,000,000 by default,
`--horizons`), in turns, `--rounds` times, the order swapped each round; it prints each one's
rate (the median of the rounds) and the engine's rate over the loop's (the median of the rounds'
ratios), by the wall clock and per CPU second, with the load average before and after. Each side's
time includes making its learner: the engine's boxes and match, the loop's fresh counts.
`--table` runs only this comparison.

`--only RULES` plays that rule set's games in this process and times nothing (`--only table`: the
table-driven loop's), for an instruction count that other load cannot disturb: run `valgrind
--tool=callgrind python3 bench/engine.py --only challenge --games N` for two values of N and
divide the difference of the totals by the difference of N (`python3` the interpreter itself, not
a shell script that starts it). `--seed` sets every MENACE's seed (1 by default).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference.board import X
from reference.loop import Match, final_results, play_games
from reference.menace import Menace, initial_counts
from reference.positions import POSITIONS, Result, legal_successors, position_graph
from reference.rules import MICHIE, PRESETS
from reference.tables import box_table

from bench.memory import ROOT

TRAINER = """
import random, sys, time
sys.path.insert(0, {root!r})
from reference.board import X
from reference.loop import Match, play_games
from reference.menace import Menace
from reference.positions import Result, legal_successors
from reference.rules import PRESETS

menace = Menace(PRESETS[{rules!r}], player=X, rng=random.Random({seed}))
match = Match(menace, legal_successors())
print("ready", flush=True)
for line in sys.stdin:
    games = int(line)
    wall, cpu = time.perf_counter(), time.process_time()
    results = play_games([match], games, menace.draws).results
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = next(int(row.split()[1]) for row in open("/proc/self/status")
                if row.startswith("VmHWM:"))
    print(wall, cpu, peak, results.count(Result.X_WINS), results.count(Result.DRAWN),
          results.count(Result.O_WINS), flush=True)
"""
"""A trainer: builds its MENACE and match, then plays the games asked for on each line of input,
and answers each line with the wall and CPU seconds, the peak resident KiB and the tally."""

SHORT_CALLS = """
import random, sys, time
sys.path.insert(0, {root!r})
start = time.perf_counter(), time.process_time()
from reference.menace import Menace
from reference.study.opponents import random_opponent
from reference.study.training import play_games
learner = Menace(rng=random.Random(1))
pool = [random_opponent()]
play_games(learner, pool, 1)
first = time.perf_counter() - start[0], time.process_time() - start[1]
def per_call(make, calls):
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        play_games(make(), pool, 1)
    return (time.perf_counter() - wall) / calls, (time.process_time() - cpu) / calls
same = per_call(lambda: learner, 1000)
fresh = per_call(lambda: Menace(rng=random.Random(2)), 50)
for name, (wall, cpu) in (("the first call, tables loaded", first), ("the same learner", same),
                          ("a fresh learner each call", fresh)):
    print(f"  {{name:<30}} {{wall * 1000:8.3f}} ms (wall) {{cpu * 1000:8.3f}} ms (CPU)")
"""
"""Time one game a call of the study tools' `play_games`: the first call, then calls on one learner,
then on a fresh learner each time."""

MILLION = 1_000_000


@dataclass
class Trainer:
    """One MENACE training in a process of its own, with what it has reported so far."""

    name: str
    process: subprocess.Popen[str]
    games: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    peak_kib: int = 0
    tally: tuple[int, int, int] = (0, 0, 0)

    def play(self, games: int) -> tuple[float, float]:
        """Play `games` more games; the wall and CPU seconds they took."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{games}\n")
        self.process.stdin.flush()
        wall, cpu, peak, wins, draws, losses = self.process.stdout.readline().split()
        self.games += games
        self.wall += float(wall)
        self.cpu += float(cpu)
        self.peak_kib = int(peak)
        self.tally = (self.tally[0] + int(wins), self.tally[1] + int(draws),
                      self.tally[2] + int(losses))
        return float(wall), float(cpu)


def start(name: str, root: Path, rules: str, seed: int) -> Trainer:
    """A trainer of the checkout at `root` under these rules, its tables built and loaded."""
    code = TRAINER.format(root=str(root), rules=rules, seed=seed)
    process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    if process.stdout.readline().strip() != "ready":
        raise SystemExit(f"the trainer {name} did not start")
    return Trainer(name, process)


def checkpoints(games: int) -> list[int]:
    """Where the rates and memory are printed: 100,000 games, then every million, and the end."""
    marks = [m for m in (100_000, *range(MILLION, games + 1, MILLION)) if m <= games]
    return sorted({*marks, games})


def rate(games: float, seconds: float) -> str:
    """Games per second, for a table cell."""
    return f"{games / seconds:,.0f}" if seconds > 0 else "-"


def train(trainers: list[Trainer], games: int, chunk: int) -> dict[str, list[tuple[float, float]]]:
    """Train every trainer to `games` games in turns of `chunk`: each one's (wall, CPU) a chunk."""
    spent: dict[str, list[tuple[float, float]]] = {t.name: [] for t in trainers}
    marks = checkpoints(games)
    last = dict.fromkeys(spent, (0, 0.0, 0.0))
    print(f"{'games':>10}  {'rules':<22} {'games/s (wall)':>15} {'games/CPU s':>12} "
          f"{'peak MB':>8}  {'wins, draws, losses so far':<28}")
    done = 0
    while done < games:
        step = min(chunk, games - done, next(m for m in marks if m > done) - done)
        for trainer in trainers:
            spent[trainer.name].append(trainer.play(step))
        done += step
        if done in marks:
            for t in trainers:
                games0, wall0, cpu0 = last[t.name]
                print(f"{done:>10,}  {t.name:<22} {rate(done - games0, t.wall - wall0):>15} "
                      f"{rate(done - games0, t.cpu - cpu0):>12} {t.peak_kib / 1024:>8.1f}  "
                      f"{', '.join(f'{n:,}' for n in t.tally)}")
                last[t.name] = (done, t.wall, t.cpu)
    return spent


def per_million(chunks: list[tuple[float, float]], sizes: list[int]) -> list[tuple[float, float]]:
    """The (wall, CPU) rates of each whole million games, from the chunks' seconds."""
    rates, games, wall, cpu = [], 0, 0.0, 0.0
    for size, (w, c) in zip(sizes, chunks, strict=True):
        games, wall, cpu = games + size, wall + w, cpu + c
        if games % MILLION == 0:
            rates.append((MILLION / wall, MILLION / cpu))
            wall = cpu = 0.0
    return rates


def chunk_sizes(games: int, chunk: int) -> list[int]:
    """The games of each turn, as `train` plays them."""
    sizes, done, marks = [], 0, checkpoints(games)
    while done < games:
        step = min(chunk, games - done, next(m for m in marks if m > done) - done)
        sizes.append(step)
        done += step
    return sizes


def summary(trainers: list[Trainer], spent: dict[str, list[tuple[float, float]]],
            games: int, chunk: int) -> None:
    """Each million's rates, the third million's against the first, Michie's against the rest."""
    sizes = chunk_sizes(games, chunk)
    millions = {name: per_million(chunks, sizes) for name, chunks in spent.items()}
    if any(millions.values()):
        print("\nrates of each million games (wall / CPU):")
        for name, rates in millions.items():
            cells = "  ".join(f"{w:,.0f} / {c:,.0f}" for w, c in rates)
            print(f"  {name:<22} {cells}")
        for name, rates in millions.items():
            if len(rates) >= 3:
                print(f"  {name}: third million / first: {rates[2][0] / rates[0][0]:.2f} by the "
                      f"wall clock, {rates[2][1] / rates[0][1]:.2f} by CPU time")
    by_name = {t.name: t for t in trainers}
    base = by_name["challenge"]
    for name, t in by_name.items():
        if name != "challenge":
            print(f"{name} / challenge over all {games:,} games: {base.wall / t.wall:.2f} by the "
                  f"wall clock, {base.cpu / t.cpu:.2f} by CPU time")


OVER = POSITIONS
"""The table-driven loop's steps: a position where MENACE draws, or OVER + one where it is over."""

TableLoopTables = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[tuple[int, ...], ...], ...],
                        tuple[int, ...], tuple[int, ...]]
"""Fresh counts, each box's start, each box square's steps, each step's result, counts' totals."""


@cache
def table_loop_tables() -> TableLoopTables:
    """Michie's MENACE (X) against a random opponent as tables, made once a process.

    `counts`: one flat array, each box its total of beads, then the beads of each square it
    starts with beads on (4/3/2/1 per distinct move); `start[p]`: where the box of position p
    begins in it; `replies[p][k]`: the steps after MENACE plays the box's k-th square from p,
    one for each reply of the opponent (one step if the move ends the game; the opponent's reply
    that leaves one square folds in MENACE's forced last move); `ends[OVER + q]`: the result at q;
    `total_of[i]`: where the total of count i's box is.
    """
    table, legal, results = box_table(X), legal_successors(), final_results()
    ongoing = [result is Result.ONGOING for result in position_graph().results]

    def arrival(q: int) -> int:
        """The step for MENACE arriving to move at q."""
        if not ongoing[q]:
            return OVER + q
        return OVER + legal[q][0] if len(legal[q]) == 1 else q

    counts: list[int] = []
    total_of: list[int] = []
    squares: list[tuple[int, ...]] = []
    for label, beads in initial_counts(MICHIE, X).items():
        assert label == table.labels[len(squares)]
        squares.append(tuple(c for c in range(9) if beads[c]))
        total_of += [len(counts)] * (1 + len(squares[-1]))
        counts += [sum(beads), *(beads[c] for c in squares[-1])]
    box_start = [total_of[i] for i in range(len(counts)) if total_of[i] == i]
    start = tuple(box_start[box] if box >= 0 else -1 for box in table.box_at)
    replies = tuple(
        tuple((OVER + q,) if not ongoing[q] else tuple(map(arrival, legal[q]))
              for q in (table.after_bead[p][c] for c in squares[box]))
        if box >= 0 else () for p, box in enumerate(table.box_at))
    return tuple(counts), start, replies, (0,) * OVER + results, tuple(total_of)


CHANGE = (0, 3, -1, 1)
"""Michie's incentives by Result code: a bead of each drawn square added after a win (3 and the
drawn bead back), a draw (1) and a loss (-1: the drawn bead kept out). Unplayed: 0."""


class TableLoop:
    """MENACE by Michie's rules, a table-driven loop: a fresh learner, its counts in one array."""

    def __init__(self, seed: int) -> None:
        self.counts = list(table_loop_tables()[0])
        self.rng = random.Random(seed)

    def play(self, games: int) -> list[int]:
        """Play and learn from `games` games: the tally by Result code (a resignation: O's win)."""
        counts, rand = self.counts, self.rng.random
        _, start, replies, ends, total_of = table_loop_tables()
        tally = [0, 0, 0, 0]
        over = OVER
        for _ in range(games):
            p = 0
            drawn = []  # where the count of each square drawn this game is
            while p < over:
                box = start[p]
                total = counts[box]
                if not total:  # an empty box: MENACE resigns
                    break
                x = rand() * total - counts[box + 1]
                i = box + 1
                while x >= 0:  # the square whose beads hold the number drawn
                    i += 1
                    x -= counts[i]
                drawn.append(i)
                steps = replies[p][i - box - 1]
                p = steps[int(rand() * len(steps))]
            result = ends[p] if p >= over else Result.O_WINS
            tally[result] += 1
            change = CHANGE[result]
            for i in drawn:
                counts[i] += change
                counts[total_of[i]] += change
        return tally


def engine_learner(seed: int) -> Callable[[int], list[int]]:
    """A fresh MENACE under Michie's rules on the engine, against a random opponent: its play."""
    menace = Menace(MICHIE, player=X, rng=random.Random(seed))
    match = Match(menace, legal_successors())

    def play(games: int) -> list[int]:
        """Play and learn from `games` games; the tally by Result code."""
        results = play_games([match], games, menace.draws).results
        return [results.count(result) for result in range(len(Result))]

    return play


def table_learner(seed: int) -> Callable[[int], list[int]]:
    """A fresh MENACE under Michie's rules on the table-driven loop: its play."""
    return TableLoop(seed).play


Sides = dict[str, Callable[[int], Callable[[int], list[int]]]]
"""Each side of the comparison by name: a fresh learner of it, for a seed."""


def timed(make: Callable[[int], Callable[[int], list[int]]], seed: int,
          games: int) -> tuple[float, float, list[int]]:
    """Wall and CPU seconds to make a fresh learner and play `games` games with it; its tally."""
    wall, cpu = time.perf_counter(), time.process_time()
    tally = make(seed)(games)
    return time.perf_counter() - wall, time.process_time() - cpu, tally


def versus_table(horizons: list[int], rounds: int, seed: int) -> None:
    """The engine's rate under Michie's rules against the table-driven loop's, in this process."""
    sides: Sides = {"engine": engine_learner, "table loop": table_learner}
    for make in sides.values():
        timed(make, seed, 1_000)  # tables made and loaded before any timing
    load = os.getloadavg()[0]
    print(f"\nMichie's rules, the engine against a table-driven loop, in this process: fresh "
          f"learners, {rounds} rounds (load average {load:.2f})")
    print(f"{'games':>10}  {'engine games/s wall / CPU':>26}  {'table loop wall / CPU':>23}  "
          f"{'engine / loop, wall / CPU':>26}  {'wins, draws, losses (engine; loop)':<36}")
    for games in horizons:
        spent: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
        tallies: dict[str, list[int]] = {name: [0, 0, 0, 0] for name in sides}
        for r in range(rounds):
            order = list(sides) if r % 2 == 0 else list(sides)[::-1]
            for name in order:
                wall, cpu, tally = timed(sides[name], seed + r, games)
                spent[name].append((wall, cpu))
                tallies[name] = [a + b for a, b in zip(tallies[name], tally, strict=True)]
        rates = {name: [(games / w, games / c) for w, c in runs] for name, runs in spent.items()}
        engine, loop = rates["engine"], rates["table loop"]
        cells = [f"{statistics.median(x for x, _ in side):>12,.0f} / "
                 f"{statistics.median(y for _, y in side):<11,.0f}" for side in (engine, loop)]
        ratio_wall = statistics.median(e[0] / t[0] for e, t in zip(engine, loop, strict=True))
        ratio_cpu = statistics.median(e[1] / t[1] for e, t in zip(engine, loop, strict=True))
        outcomes = "; ".join(
            ", ".join(f"{n / (games * rounds):.1%}"
                      for n in (tally[Result.X_WINS], tally[Result.DRAWN], tally[Result.O_WINS]))
            for tally in tallies.values())
        print(f"{games:>10,}  {cells[0]:>26}  {cells[1]:>23}  "
              f"{ratio_wall:>12.2f} / {ratio_cpu:<11.2f}  {outcomes}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def play_only(rules: str, games: int, seed: int) -> None:
    """Train a fresh MENACE under these rules (or the table-driven loop's) for `games` games in
    this process, timing nothing."""
    if rules == "table":
        TableLoop(seed).play(games)
        return
    menace = Menace(PRESETS[rules], player=X, rng=random.Random(seed))
    play_games([Match(menace, legal_successors())], games, menace.draws)


def main() -> None:
    """Train each rule set's MENACE in turns and print its rates and memory as it grows."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3 * MILLION)
    parser.add_argument("--chunk", type=int, default=100_000, help="games per turn")
    parser.add_argument("--against", metavar="COMMIT",
                        help="also train the challenge rules' MENACE of this commit, in the "
                             "same turns")
    parser.add_argument("--only", choices=["challenge", "michie", "table"],
                        help="play this rule set's games in this process, timing nothing")
    parser.add_argument("--seed", type=int, default=1, help="the seed of every MENACE's generator")
    parser.add_argument("--table", action="store_true",
                        help="only the comparison with the table-driven loop, in this process")
    parser.add_argument("--horizons", type=int, nargs="+", default=[10_000, 100_000, MILLION],
                        help="games from a fresh learner, for the comparison with the table loop")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds of the comparison with the table loop")
    options = parser.parse_args()
    if options.only:
        play_only(options.only, options.games, options.seed)
        return
    if options.table:
        versus_table(options.horizons, options.rounds, options.seed)
        return
    with tempfile.TemporaryDirectory() as folder:
        trainers = [start("challenge", ROOT, "challenge", options.seed),
                    start("michie", ROOT, "michie", options.seed)]
        if options.against:
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", options.against, "reference"],
                capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
            trainers.append(start(f"challenge {options.against}", Path(folder), "challenge",
                                  options.seed))
        print(f"MENACE (X) against a random opponent, {options.games:,} games in turns of "
              f"{options.chunk:,}; peak resident memory of each trainer's whole process")
        spent = train(trainers, options.games, options.chunk)
        summary(trainers, spent, options.games, options.chunk)
        for t in trainers:
            assert t.process.stdin is not None
            t.process.stdin.close()
            t.process.wait()
    print("\nshort calls: reference.study.training.play_games(learner, [random opponent], 1), "
          "in a fresh process")
    done = subprocess.run([sys.executable, "-c", SHORT_CALLS.format(root=str(ROOT))],
                          capture_output=True, text=True, check=True)
    print(done.stdout, end="")
    versus_table(options.horizons, options.rounds, options.seed)


if __name__ == "__main__":
    main()
