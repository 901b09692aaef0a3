"""Train the engine against a uniformly random opponent: games per second, today's loop beside the old one.

Run by hand: python bench/engine.py [--games N] [--repeats R]. Both loops train a fresh MENACE
from the same seed, timed in turns in one run; the ratio is the figure. They draw their numbers
differently (the old loop as `int(random() * n)`, the game loop from `reference.draws`), so
they play different games of the same kind: each round prints both tallies. It also prints the
floor that drawing the numbers alone sets, and the memory that the tables and one MENACE take
over the bare interpreter.

`--only LOOP` plays that loop once and times nothing, for an instruction count that other load
cannot disturb: run `valgrind --tool=callgrind python bench/engine.py --only "game loop"
--games N` for two values of N and divide the difference of the totals by the difference of N.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference.board import Cell, X
from reference.loop import Match, play_games
from reference.menace import Menace
from reference.outcome import Outcome
from reference.positions import OpponentTable, Result, legal_successors, position_graph
from reference.rules import CHALLENGE, EmptyBox
from reference.tables import box_table

from bench.memory import over_bare_mb

Loop = Callable[[Menace, OpponentTable, int], bytes]
"""A way to play `games` training games of a MENACE against an opponent; each game's Result."""


def old_loop(
    self: Menace, pool: Sequence[OpponentTable], games: int, *, first_game: int = 0
) -> tuple[bytearray, bytearray]:
    """The engine's loop as it was before the one game loop (commit 03f932b), kept to compare.

    It draws as the engine then did, `int(random() * n)`, and leaves boxes in the order of
    that time's rules; `tests/test_loop.py` holds the game loop to today's plain rules.

    Play and learn from `games` games, game g against pool[(first_game + g) % len(pool)]; each
    game's `Result` code, and how often MENACE met an empty box in each game.
    """
    graph = position_graph()
    table = box_table(self.player)
    results = [int(r) for r in graph.results]
    box_at, after_bead, forced = table.box_at, table.after_bead, table.forced
    empties_of, legal_moves = table.label_empties, legal_successors()
    boxes = self.live_beads
    rnd = self.rng.random
    refill = self.rules.empty_box is EmptyBox.REFILL
    resign = self.rules.empty_box is EmptyBox.RESIGN
    refill_beads = self.rules.refill_beads
    mine = int(Result.X_WINS if self.player == X else Result.O_WINS)
    theirs = int(Result.O_WINS if self.player == X else Result.X_WINS)
    returned = [0] * 4
    returned[mine] = self.rules.beads_returned(Outcome.WIN)
    returned[theirs] = self.rules.beads_returned(Outcome.LOSS)
    returned[Result.DRAWN] = self.rules.beads_returned(Outcome.DRAW)
    record = bytearray(games)
    empties_record = bytearray(games)
    menace_first = self.player == X
    count = len(pool)
    for game in range(games):
        # The hot loop: the same steps as move() and learn(), inlined for speed.
        opponent = pool[(first_game + game) % count]
        drawn: list[tuple[list[Cell], Cell]] = []
        empty_here = 0
        if menace_first:
            position = 0
        else:
            opening = opponent[0]
            position = opening[int(rnd() * len(opening))]
        while True:
            box = box_at[position]
            if box >= 0:
                beads = boxes[box]
                n = len(beads)
                if n:
                    i = int(rnd() * n)
                    bead = beads[i]
                    beads[i] = beads[-1]
                    beads.pop()
                    if n == 1 and refill:
                        empties = empties_of[box]
                        beads.extend(
                            empties[int(rnd() * len(empties))] for _ in range(refill_beads)
                        )
                    drawn.append((beads, bead))
                    position = after_bead[position][bead]
                else:
                    empty_here += 1
                    if resign:
                        result = theirs
                        break
                    legal = legal_moves[position]
                    position = legal[int(rnd() * len(legal))]
            else:
                position = forced[position]
            result = results[position]
            if result:
                break
            choices = opponent[position]
            position = choices[int(rnd() * len(choices))]
            result = results[position]
            if result:
                break
        record[game] = result
        empties_record[game] = empty_here
        back = returned[result]
        if back == 1:
            for beads, bead in drawn:
                beads.append(bead)
        elif back:
            for beads, bead in drawn:
                beads.extend([bead] * back)
    return record, empties_record


def with_old_loop(menace: Menace, opponent: OpponentTable, games: int) -> bytes:
    """The games played by the old loop."""
    return bytes(old_loop(menace, [opponent], games)[0])


def with_game_loop(menace: Menace, opponent: OpponentTable, games: int) -> bytes:
    """The games played by the one game loop, its match built inside the timing."""
    return play_games([Match(menace, opponent)], games, menace.draws).results


def draws_only(menace: Menace, opponent: OpponentTable, games: int) -> bytes:
    """No game at all: only the numbers a game draws (about 6.5 of them), as the loop draws
    them from boxes of fewer than 256 beads: the floor for any loop."""
    five = menace.draws.below_small[5]
    for _ in range(games):
        next(five), next(five), next(five), next(five), next(five), next(five), next(five)
    return b""


LOOPS: dict[str, Loop] = {"old loop": with_old_loop, "game loop": with_game_loop,
                          "random numbers only": draws_only}


def tally(results: bytes) -> str:
    """The wins, draws and losses of MENACE (playing X) in these results."""
    return (f"{results.count(Result.X_WINS)} wins, {results.count(Result.DRAWN)} draws, "
            f"{results.count(Result.O_WINS)} losses")


def games_per_second(games: int, repeats: int) -> dict[str, tuple[float, float]]:
    """The best rates of each loop over `repeats` rounds, the loops taking turns within each round:
    by the wall clock, and per second of this process's CPU time (which other load disturbs less)."""
    opponent = legal_successors()
    wall = dict.fromkeys(LOOPS, float("inf"))
    cpu = dict.fromkeys(LOOPS, float("inf"))
    for repeat in range(repeats):
        played: dict[str, bytes] = {}
        for name, loop in LOOPS.items():
            menace = Menace(CHALLENGE, player=X, rng=random.Random(repeat))
            start, start_cpu = time.perf_counter(), time.process_time()
            results = loop(menace, opponent, games)
            wall[name] = min(wall[name], time.perf_counter() - start)
            cpu[name] = min(cpu[name], time.process_time() - start_cpu)
            played[name] = results
        print(f"round {repeat + 1}: " + "; ".join(
            f"{name} {tally(played[name])}" for name in ("old loop", "game loop")))
    return {name: (games / wall[name], games / cpu[name]) for name in LOOPS}


MEMORY_PROBE = """
import random
from reference.board import X
from reference.loop import Match, play_games
from reference.menace import Menace
from reference.positions import legal_successors
menace = Menace(player=X, rng=random.Random(1))
play_games([Match(menace, legal_successors())], 20_000, menace.draws)
"""
"""Build every table, one MENACE and its match, and train it for 20,000 games."""


def main() -> None:
    """Print each loop's games per second, their ratio, and the memory the engine takes."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", choices=sorted(LOOPS), help="play this loop once, time nothing")
    options = parser.parse_args()
    if options.only:
        menace = Menace(CHALLENGE, player=X, rng=random.Random(0))
        LOOPS[options.only](menace, legal_successors(), options.games)
        return
    position_graph(), box_table(X), legal_successors()  # tables are built here, outside the timing
    rates = games_per_second(options.games, options.repeats)
    print(f"challenge rules against a random opponent, best of {options.repeats} rounds of "
          f"{options.games:,} games, on one core:")
    print(f"  {'':<20} {'games/s (wall)':>15} {'games/CPU s':>15}")
    for name, (by_wall, by_cpu) in rates.items():
        print(f"  {name:<20} {by_wall:>15,.0f} {by_cpu:>15,.0f}")
    new, old = rates["game loop"], rates["old loop"]
    print(f"game loop / old loop: {new[0] / old[0]:.2f} by the wall clock, "
          f"{new[1] / old[1]:.2f} by CPU time")
    bare, engine = over_bare_mb(MEMORY_PROBE)
    print(f"memory: the tables and one MENACE after 20,000 games take {engine:.1f} MB over the "
          f"bare interpreter's {bare:.1f} MB (peak resident memory)")


if __name__ == "__main__":
    main()
