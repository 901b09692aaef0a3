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

Last, in a fresh process, it times short calls: `reference.study.training.play_games` for one
game, called again and again on one learner (the first call loads the tables), and on a fresh
learner each time.

`--only RULES` plays that rule set's games in this process and times nothing, for an instruction
count that other load cannot disturb: run `valgrind --tool=callgrind python3 bench/engine.py
--only challenge --games N` for two values of N and divide the difference of the totals by the
difference of N (`python3` the interpreter itself, not a shell script that starts it). `--seed`
sets every MENACE's seed (1 by default).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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


def play_only(rules: str, games: int, seed: int) -> None:
    """Train a fresh MENACE under these rules for `games` games in this process, timing nothing."""
    import random

    from reference.board import X
    from reference.loop import Match, play_games
    from reference.menace import Menace
    from reference.positions import legal_successors
    from reference.rules import PRESETS

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
    parser.add_argument("--only", choices=["challenge", "michie"],
                        help="play this rule set's games in this process, timing nothing")
    parser.add_argument("--seed", type=int, default=1, help="the seed of every MENACE's generator")
    options = parser.parse_args()
    if options.only:
        play_only(options.only, options.games, options.seed)
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


if __name__ == "__main__":
    main()
