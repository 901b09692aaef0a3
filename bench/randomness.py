"""The power of the statistical checks: the smallest fault each catches in 99% of runs.

Run by hand:

    python -m bench.randomness [--columns 200,1000,thorough] [--runs 100] [--cases NAME,...]
    python -m bench.randomness --false-alarms 2000 [--thorough]

Each fault of `tests/simulation.py` (a simulated MENACE like the canonical test submission) is
tried at sizes from 0.05 to 1, bisected: a size counts as caught when at most 1% of `runs`
simulated runs against the mixed opponent are accepted by the check made for the fault. A
column is a number of games, or `thorough`: the size stated by the alternative made for the
fault, which the thorough mode plays on to have 99% power against (`judge.deciding.thorough`): a
correct MENACE of the fault's kind is judged thoroughly (--thorough-runs times; a budget of
--thorough-time seconds at --game-ms a game), and the column gives the second run's games and the
power against that size the last run measured. `--late` prints, for faults of full size that start
at game 150, how many games after their start the bead-draws check took. `--false-alarms N`
judges N correct runs of 200 games of every kind (print order, list keeping, first beads) and
counts the rejections at the threshold 1e4 and at 20; with `--thorough`, N thorough judgements of
such runs (a first run of 200 games and the second run its plan asks for, within --thorough-time
at --game-ms a game, each run at the threshold 2e4), and counts the judgements either run
rejected. `--jobs N` runs N simulations at once;
`--guesses NAME@COLUMN=SIZE,...` starts those cases' searches at a size (the table's last, say),
walking down or up from it rather than bisecting. `--speed [--against FOLDER]` times the
bead-draws test a draw, caches cold, on the draws of 4 simulated runs of 200 games, replayed by
this tree's judge and, in turns, by the judge of another checkout (say, `git archive 8e17f11
judge reference | tar -x -C /tmp/old`).
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path

from reference.board import Board, Cell

from judge.deciding.randomness import Drawn
from judge.deciding.thorough import RUNS as THOROUGH_RUNS
from judge.deciding.thorough import plan
from judge.terms.options import FALSE_ALARM, OpponentKind
from tests.simulation import REFILL_FAULTS, Fault, Keeping, Printing, Rejections, simulate

SIZES = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
FIRST_GAMES = 200
"""The games of a thorough judgement's first run."""


@dataclass(frozen=True)
class Case:
    """A fault class: the fault, the MENACE it is put in, and what it is in words."""

    name: str
    fault: Fault
    words: str
    one_bead: bool = False
    printing: Printing = Printing.SORTED
    alternative: str = ""
    """The alternative made for it, whose stated size the thorough mode aims at."""
    stated: float = 1.0
    """That size, as a size of this fault."""
    aimed: str = ""
    """What the thorough mode aims at, where the alternative's size is not a size of this fault."""


CASES = (
    Case("uniform", Fault.UNIFORM, "with chance s, uniform over the squares present",
         alternative="uniform over the squares present"),
    Case("sharpened", Fault.SHARPENED, "chance by beads^(1+s): the likelier squares favoured",
         alternative="sharpened"),
    Case("flattened", Fault.FLATTENED, "chance by beads^(1-s): the rarer squares favoured",
         alternative="flattened", stated=0.5),
    Case("front-half", Fault.FRONT_HALF, "with chance s, from the front half of the list",
         alternative="the oldest half, 30% of the time", stated=0.3),
    Case("front-half-list", Fault.FRONT_HALF, "the same, printed in list order",
         printing=Printing.LIST, alternative="the first half as printed, 30% of the time",
         stated=0.3),
    Case("skips-first", Fault.SKIPS_FIRST, "with chance s, never the first bead of the list "
         "(the oldest)", alternative="never the oldest bead"),
    Case("skips-last", Fault.SKIPS_LAST, "with chance s, never the last bead of the list "
         "(the newest)", alternative="never the newest bead"),
    Case("skips-last-one-bead", Fault.SKIPS_LAST, "the same, one bead a box at the start",
         one_bead=True, alternative="never the newest bead"),
    Case("printed-first", Fault.PRINTED_FIRST, "the box shuffled as printed; with chance s its "
         "first bead drawn next game", alternative="always the first bead as printed"),
    Case("reseeds", Fault.RESEEDS, "with chance s, a game reseeds the generator alike"),
    Case("refills-lowest", Fault.REFILLS_LOWEST, "each refill bead the lowest empty square with "
         "chance s, one bead a box", one_bead=True,
         alternative="the lowest empty square by square, 15% of the time", stated=0.15),
    Case("refills-highest", Fault.REFILLS_HIGHEST, "the same, the highest", one_bead=True,
         alternative="the highest empty square by square, 15% of the time", stated=0.15),
    Case("refills-pair", Fault.REFILLS_PAIR, "with chance s, a refill is a pair and one (a a b), "
         "one bead a box", one_bead=True,
         alternative="two beads of one square and one of another"),
    Case("refills-different", Fault.REFILLS_DIFFERENT, "with chance s, a refill's beads are all "
         "different, one bead a box", one_bead=True,
         alternative="all beads of different squares"),
    Case("refills-not-drawn", Fault.REFILLS_NOT_DRAWN, "each refill bead, with chance s, any "
         "empty square but the one just drawn, one bead a box", one_bead=True,
         alternative="never the square just drawn"),
    Case("refills-lowest-stocked", Fault.REFILLS_LOWEST, "each refill bead the lowest empty "
         "square with chance s, 1-4 beads a square",
         alternative="the lowest empty square by square, 15% of the time", stated=0.15),
    Case("alternate", Fault.ALTERNATE, "with chance s, an even place of the sorted beads (the "
         "1st, 3rd, ...)"),
    Case("after-corner", Fault.AFTER_CORNER, "after the opponent takes a corner, with chance s, "
         "uniform over the squares present",
         alternative="uniform over the squares present, on 30% of draws",
         aimed="uniform on 30% of draws"),
    Case("every-third", Fault.EVERY_THIRD, "in every third game, with chance s, uniform over the "
         "squares present", alternative="uniform over the squares present, on 30% of draws",
         aimed="uniform on 30% of draws"),
    Case("bursts", Fault.BURSTS, "in the last 25 games of every 100, with chance s, uniform over "
         "the squares present", alternative="uniform over the squares present, on 30% of draws",
         aimed="uniform on 30% of draws"),
    Case("wins-and-blocks", Fault.WINS_AND_BLOCKS, "with chance s, a winning square, else a "
         "blocking one, where a bead names one",
         alternative="a winning square, else a blocking one, whenever a bead names one"),
)


@cache
def judged_thoroughly(one_bead: bool, printing: Printing, seed: int, opponent: OpponentKind,
                      game_ms: float, budget: float) -> tuple[int, Rejections]:
    """A correct MENACE of this kind judged thoroughly: the second run's games (0: none), and
    the last run (the same for every fault class of this kind of MENACE)."""
    run = partial(simulate, Fault.NONE, 0.0, one_bead=one_bead, printing=printing,
                  opponent=opponent, threshold=THOROUGH_RUNS / FALSE_ALARM, measure_power=True)
    outcome = run(FIRST_GAMES, seed)
    second = plan([("bead-draws", outcome.bead_draws), ("refills", outcome.refill_beads)],
                  FIRST_GAMES, FIRST_GAMES * game_ms / 1000, budget)
    if second.games is None:
        return 0, outcome
    return second.games, run(second.games, seed + 1_000_000)


def thorough_games(case: Case, options: argparse.Namespace) -> str:
    """The stated size the thorough mode aims at for this fault, the games of its second run, and
    the power against that size the last run measured, over thorough judgements of a correct
    MENACE of the fault's kind."""
    if not case.alternative:
        return "no alternative of a stated size"
    powers, games = [], []
    for seed in range(options.thorough_runs):
        played, outcome = judged_thoroughly(case.one_bead, case.printing, seed, options.opponent,
                                            options.game_ms, options.thorough_time)
        test = outcome.refill_beads if case.fault in REFILL_FAULTS else outcome.bead_draws
        found = test.powers()[test.names.index(case.alternative)]
        assert found is not None
        powers.append(found)
        games.append(played)
    aimed = case.aimed or f"s = {case.stated:g}"
    return (f"{aimed}: second run of {statistics.median(games):,.0f} games "
            f"(median); power reached: median {statistics.median(powers):.0%}, lowest "
            f"{min(powers):.0%}")


def one_run(case: Case, size: float, games: int, options: argparse.Namespace,
            seed: int) -> bool:
    """True when the check made for the fault rejected a simulated run of `games` games."""
    return simulate(case.fault, size, games, seed, one_bead=case.one_bead,
                    printing=case.printing, opponent=options.opponent,
                    start=options.start).rejected(case.fault) is not None


def power(caught: Callable[[int], bool], runs: int, jobs: int) -> float:
    """The share of runs caught, stopping early once more than 1% are missed (`jobs` at once)."""
    missed = done = 0
    with ProcessPoolExecutor(jobs) as pool:
        while done < runs:
            seeds = range(done, min(done + 2 * jobs, runs))
            missed += sum(not found for found in pool.map(caught, seeds))
            done = seeds[-1] + 1
            if missed > runs // 100:
                return 1 - missed / done
    return 1 - missed / runs


def walked(case: Case, games: int, guess: float, options: argparse.Namespace) -> str:
    """The smallest size on the grid caught in 99% of runs, walking from a guess: down while
    the size below is caught, else up until one is (a size missed is cheap: its runs stop at
    the second miss in 100)."""
    def caught(k: int) -> bool:
        return power(partial(one_run, case, SIZES[k], games, options), options.runs,
                     options.jobs) >= 0.99

    k = min(range(len(SIZES)), key=lambda j: abs(SIZES[j] - guess))
    if caught(k):
        while k > 0 and caught(k - 1):
            k -= 1
        return f"{SIZES[k]:g}"
    while k < len(SIZES) - 1:
        k += 1
        if caught(k):
            return f"{SIZES[k]:g}"
    return "over 1"


def smallest(case: Case, column: str, options: argparse.Namespace) -> str:
    """The smallest size on the grid caught in 99% of runs, found by bisection, or by a walk
    from the size `--guesses` gives the case for this column."""
    if column == "thorough":
        return thorough_games(case, options)
    guess = options.guesses.get(f"{case.name}@{column}")
    if guess is not None:
        return walked(case, int(column), guess, options)
    low, high = -1, len(SIZES) - 1
    shares: dict[int, float] = {}
    while high - low > 1 or high not in shares:
        middle = (low + high + 1) // 2 if high - low > 1 else high
        shares[middle] = power(partial(one_run, case, SIZES[middle], int(column), options),
                               options.runs, options.jobs)
        if shares[middle] >= 0.99:
            high = middle
        elif middle == high:
            return f"over 1 (at 1: {shares[middle]:.0%})"
        else:
            low = middle
    return f"{SIZES[high]:g}"


def correct_run(seed: int, opponent: OpponentKind, thorough: tuple[float, float] | None
                ) -> tuple[tuple[float, float], int]:
    """The peaks of both checks' log evidence over one correct run of 200 games of a kind chosen
    by the seed or, given a budget and a program's time a game, over the two runs of a thorough
    judgement of it (the higher of each); and the games of its second run."""
    rng = random.Random(seed)
    run = partial(simulate, Fault.NONE, 0.0, printing=rng.choice(list(Printing)),
                  keeping=rng.choice(list(Keeping)), one_bead=rng.random() < 0.5,
                  opponent=opponent)
    if thorough is None:
        return run(200, seed).peaks, 0
    budget, game_ms = thorough
    first = run(FIRST_GAMES, seed, threshold=THOROUGH_RUNS / FALSE_ALARM, measure_power=True)
    second = plan([("bead-draws", first.bead_draws), ("refills", first.refill_beads)],
                  FIRST_GAMES, FIRST_GAMES * game_ms / 1000, budget).games
    if second is None:
        return first.peaks, 0
    last = run(second, seed + 1_000_000, threshold=THOROUGH_RUNS / FALSE_ALARM)
    return (max(first.peaks[0], last.peaks[0]), max(first.peaks[1], last.peaks[1])), second


def false_alarms(runs: int, options: argparse.Namespace) -> None:
    """Judge correct runs of every kind and print the rejections at the bound and at 20."""
    thorough = (options.thorough_time, options.game_ms) if options.thorough else None
    bound = math.log((THOROUGH_RUNS if thorough else 1) / FALSE_ALARM)
    lowered = math.log(20)
    rejected, at_20, either = [0, 0], [0, 0], 0
    games = []
    with ProcessPoolExecutor(options.jobs) as pool:
        for peaks, second in pool.map(partial(correct_run, opponent=options.opponent,
                                              thorough=thorough), range(runs)):
            for k, peak in enumerate(peaks):
                rejected[k] += peak >= bound
                at_20[k] += peak >= lowered
            either += max(peaks) >= bound
            games.append(second)
    what = (f"thorough judgements (second runs of {min(games):,} to {max(games):,} games, "
            f"median {statistics.median(games):,.0f}; each run at {math.exp(bound):,.0f})"
            if thorough else "runs of 200 games")
    print(f"{runs} correct {what}: rejected by bead-draws {rejected[0]}, by refills "
          f"{rejected[1]}, by either {either}; reaching 20 (bound: 5% a run): bead-draws "
          f"{at_20[0] / runs:.1%}, refills {at_20[1] / runs:.1%}")


def late_run(fault: Fault, seed: int) -> int | None:
    """The game at which a run with the fault from game 150 on was rejected."""
    return simulate(fault, 1.0, 400, seed, start=150).draws_rejected


def late(options: argparse.Namespace) -> None:
    """Games from the start (game 150) to the rejection, for faults of full size."""
    for fault in (Fault.UNIFORM, Fault.SHARPENED, Fault.FRONT_HALF):
        with ProcessPoolExecutor(options.jobs) as pool:
            after = list(pool.map(partial(late_run, fault), range(options.runs)))
        games = sorted(math.inf if game is None else game - 150 for game in after)
        within = sum(game <= 150 for game in games)
        print(f"| {fault}, size 1, from game 150 | {within} of {options.runs} | median "
              f"{statistics.median(games):g}, 90th percentile "
              f"{games[int(0.9 * len(games))]:g}, most {games[-1]:g} |", flush=True)


REPLAY = """
import inspect, pickle, sys, time
import judge.deciding.randomness as R
draws = pickle.load(open(sys.argv[1], 'rb'))
fields = len(inspect.signature(R.Drawn).parameters)
cached = [f for module in sys.modules.values() if (module.__name__ or '').startswith('judge.')
          for f in vars(module).values() if hasattr(f, 'cache_clear')]
best = 9.0
for _ in range(7):
    for f in cached:
        f.cache_clear()
    start = time.perf_counter()
    for run in draws:
        statistic = R.DrawStatistics()
        for kind, item in run:
            if kind == 'draw':
                statistic.add(R.Drawn(*item[:fields]))
            else:
                statistic.learnt(*item)
    best = min(best, time.perf_counter() - start)
print(best / sum(kind == 'draw' for run in draws for kind, _ in run) * 1e6)
"""
"""Replays recorded draws through whichever judge is on the path: the best of 7, in us a draw."""


def speed(against: str | None) -> None:
    """Time the bead-draws test a draw, here and, in turns, in another checkout."""
    import tests.simulation as simulation

    runs: list[list[tuple[str, object]]] = []

    class Recording(simulation.DrawStatistics):
        def add(self, drawn: Drawn) -> None:
            runs[-1].append(("draw", (drawn.label, drawn.beads, drawn.squares, drawn.game,
                                      drawn.index, drawn.answering)))
            super().add(drawn)

        def learnt(self, draws: Iterable[tuple[Board, frozenset[Cell]]], kept: int) -> None:
            runs[-1].append(("learnt", (list(draws), kept)))
            super().learnt(draws, kept)

    simulation.DrawStatistics = Recording  # type: ignore[misc]
    for seed in range(4):
        runs.append([])
        simulate(Fault.NONE, 0.0, 200, seed)
    with tempfile.NamedTemporaryFile(suffix=".pkl") as file:
        pickle.dump(runs, file)
        file.flush()
        folders = [str(Path(__file__).resolve().parent.parent), *([against] if against else [])]
        for turn in range(3):
            for folder in folders:
                found = subprocess.run([sys.executable, "-c", REPLAY, file.name], check=True,
                                       env={**os.environ, "PYTHONPATH": folder},
                                       capture_output=True, text=True).stdout
                print(f"turn {turn + 1}, {folder}: {float(found):.1f} us a draw", flush=True)


def guesses(text: str) -> dict[str, float]:
    """`NAME@COLUMN=SIZE,...` as a mapping from NAME@COLUMN to a size."""
    found = {}
    for item in filter(None, text.split(",")):
        key, _, size = item.partition("=")
        try:
            found[key] = float(size)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not NAME@COLUMN=SIZE: {item!r}") from None
    return found


def main() -> None:
    """Print the power table, the late faults, or the false alarms."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--columns", default="200,1000,thorough")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--cases", default=",".join(case.name for case in CASES))
    parser.add_argument("--opponent", type=OpponentKind, choices=list(OpponentKind),
                        default=OpponentKind.MIXED)
    parser.add_argument("--thorough-time", type=float, default=60.0)
    parser.add_argument("--thorough-runs", type=int, default=20)
    parser.add_argument("--game-ms", type=float, default=6.0,
                        help="a program's time a game, for the thorough plan (canonical: 6)")
    parser.add_argument("--start", type=int, default=1, help="the game each fault starts at")
    parser.add_argument("--late", action="store_true")
    parser.add_argument("--false-alarms", type=int, default=0, metavar="RUNS")
    parser.add_argument("--thorough", action="store_true",
                        help="with --false-alarms: thorough judgements")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--guesses", type=guesses, default={},
                        help="NAME@COLUMN=SIZE,...: start each of these cases' search there")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--against", metavar="FOLDER", help="with --speed: another checkout")
    options = parser.parse_args()
    start = time.perf_counter()
    if options.speed:
        speed(options.against)
    elif options.false_alarms:
        false_alarms(options.false_alarms, options)
    elif options.late:
        late(options)
    else:
        columns = options.columns.split(",")
        print(f"{options.runs} runs a size against the {options.opponent} opponent; thorough: "
              f"{options.thorough_time:g} s at {options.game_ms:g} ms a game")
        print("| fault class | " + " | ".join(columns) + " |")
        print("|---|" + "---|" * len(columns))
        chosen = options.cases.split(",")
        for case in CASES:
            if case.name in chosen:
                cells = [smallest(case, column, options) for column in columns]
                print(f"| {case.name}: {case.words} | " + " | ".join(cells) + " |", flush=True)
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
