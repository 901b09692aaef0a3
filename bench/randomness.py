"""The power of the statistical checks: the smallest fault each catches in 99% of runs.

Run by hand:

    python -m bench.randomness [--columns 200,1000,thorough] [--runs 100] [--cases NAME,...]
    python -m bench.randomness --false-alarms 2000

Each fault of `tests/simulation.py` (a simulated MENACE like the canonical test submission) is
tried at sizes from 0.05 to 1, bisected: a size counts as caught when at most 1% of `runs`
simulated runs against the mixed opponent are accepted by the check made for the fault. A
column is a number of games, or `thorough`: the size stated by the alternative made for the
fault, which the thorough mode plays on to have 99% power against (`judge.deciding.thorough`): a
correct MENACE of the fault's kind is judged thoroughly (--thorough-runs times; a budget of
--thorough-time seconds at --game-ms a game), and the column gives the second run's games and the
power against that size the last run measured. `--late` prints, for faults of full size that start
at game 150, how many games after their start the bead-draws check took. `--false-alarms N` judges N
correct runs of 200 games of every kind (print order, list keeping, first beads) and counts the
rejections at the threshold 1e4 and at 20. `--speed [--against FOLDER]` times the bead-draws test a
draw, caches cold, on the draws of 4 simulated runs of 200 games, replayed by this tree's judge and,
in turns, by the judge of another checkout (say, `git archive 8e17f11 judge reference | tar -x -C
/tmp/old`).
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
    return (f"s = {case.stated:g}: second run of {statistics.median(games):,.0f} games "
            f"(median); power reached: median {statistics.median(powers):.0%}, lowest "
            f"{min(powers):.0%}")


def one_run(case: Case, size: float, games: int, options: argparse.Namespace,
            seed: int) -> bool:
    """True when the check made for the fault rejected a simulated run of `games` games."""
    return simulate(case.fault, size, games, seed, one_bead=case.one_bead,
                    printing=case.printing, opponent=options.opponent,
                    start=options.start).rejected(case.fault) is not None


def power(caught: Callable[[int], bool], runs: int) -> float:
    """The share of runs caught, stopping early once more than 1% are missed."""
    missed = 0
    for seed in range(runs):
        missed += not caught(seed)
        if missed > runs // 100:
            return 1 - missed / (seed + 1)
    return 1 - missed / runs


def smallest(case: Case, column: str, options: argparse.Namespace) -> str:
    """The smallest size on the grid caught in 99% of runs, found by bisection."""
    if column == "thorough":
        return thorough_games(case, options)
    low, high = -1, len(SIZES) - 1
    shares: dict[int, float] = {}
    while high - low > 1 or high not in shares:
        middle = (low + high + 1) // 2 if high - low > 1 else high
        shares[middle] = power(partial(one_run, case, SIZES[middle], int(column), options),
                               options.runs)
        if shares[middle] >= 0.99:
            high = middle
        elif middle == high:
            return f"over 1 (at 1: {shares[middle]:.0%})"
        else:
            low = middle
    return f"{SIZES[high]:g}"


def false_alarms(runs: int, opponent: OpponentKind) -> None:
    """Judge correct runs of every kind and print the rejections at 1e4 and at 20."""
    bound, lowered = math.log(1 / FALSE_ALARM), math.log(20)
    rejected = [0, 0]
    at_20 = [0, 0]
    for seed in range(runs):
        rng = random.Random(seed)
        outcome = simulate(Fault.NONE, 0.0, 200, seed, printing=rng.choice(list(Printing)),
                           keeping=rng.choice(list(Keeping)), one_bead=rng.random() < 0.5,
                           opponent=opponent)
        for k, peak in enumerate(outcome.peaks):
            rejected[k] += peak >= bound
            at_20[k] += peak >= lowered
    print(f"{runs} correct runs of 200 games: rejected at 1e4 by bead-draws {rejected[0]}, by "
          f"refills {rejected[1]}; reaching 20 (bound: 5%): bead-draws {at_20[0] / runs:.1%}, "
          f"refills {at_20[1] / runs:.1%}")


def late(options: argparse.Namespace) -> None:
    """Games from the start (game 150) to the rejection, for faults of full size."""
    for fault in (Fault.UNIFORM, Fault.SHARPENED, Fault.FRONT_HALF):
        after = [simulate(fault, 1.0, 400, seed, start=150).draws_rejected
                 for seed in range(options.runs)]
        games = sorted(math.inf if game is None else game - 150 for game in after)
        within = sum(game <= 150 for game in games)
        print(f"| {fault}, size 1, from game 150 | {within} of {options.runs} | median "
              f"{statistics.median(games):g}, 90th percentile "
              f"{games[int(0.9 * len(games))]:g}, most {games[-1]:g} |", flush=True)


REPLAY = """
import pickle, sys, time
import judge.deciding.randomness as R
draws = pickle.load(open(sys.argv[1], 'rb'))
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
                statistic.add(R.Drawn(*item))
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
                                      drawn.index)))
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
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--against", metavar="FOLDER", help="with --speed: another checkout")
    options = parser.parse_args()
    start = time.perf_counter()
    if options.speed:
        speed(options.against)
    elif options.false_alarms:
        false_alarms(options.false_alarms, options.opponent)
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
