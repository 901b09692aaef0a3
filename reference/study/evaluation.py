"""Measuring a trained MENACE without teaching it: sampled rates with intervals, and exact odds."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from reference.menace import Menace
from reference.outcome import Outcome, Tally
from reference.positions import NO_POSITION, OpponentTable, Result, position_graph, result_of
from reference.rules import EmptyBox, Rules
from reference.study.opponents import random_opponent
from reference.study.training import OPPONENTS
from reference.tables import box_table

Z95 = 1.959963984540054
"""The normal quantile for a two-sided 95% interval."""


def frozen_rules(rules: Rules) -> Rules:
    """The same MENACE, but learning nothing: every bead goes back, and no box is ever refilled.

    A box is drawn from at most once a game, so with every drawn bead put back after the game
    the boxes end each game exactly as they began it. A box that is already empty is met as the
    rules say: resign under Michie's rule, otherwise a random legal move.
    """
    empty_box = EmptyBox.RESIGN if rules.empty_box is EmptyBox.RESIGN else EmptyBox.RANDOM
    return replace(rules, win=0, draw=0, loss=0, empty_box=empty_box)


def frozen(menace: Menace, rng: random.Random) -> Menace:
    """A copy of this MENACE that plays as it does and never changes its boxes."""
    return Menace(frozen_rules(menace.rules), player=menace.player, rng=rng,
                  counts=menace.counts())


@dataclass(frozen=True)
class Interval:
    """A proportion and its 95% Wilson score interval."""

    rate: float
    low: float
    high: float


def wilson(successes: int, trials: int) -> Interval:
    """The observed proportion with its 95% Wilson score interval."""
    if trials <= 0:
        raise ValueError(f"an interval needs at least one trial, got {trials}")
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return Interval(rate=p, low=min(p, max(0.0, centre - half)),
                    high=max(p, min(1.0, centre + half)))


@dataclass(frozen=True)
class Odds:
    """Exact chances of each result in one game, given the beads and the opponent's table."""

    win: float
    draw: float
    loss: float


@dataclass(frozen=True)
class Evaluation:
    """A frozen MENACE against one opponent: the sampled games and the exact odds."""

    opponent: str
    tally: Tally
    odds: Odds

    def interval(self, result: Outcome) -> Interval:
        """The sampled rate of an outcome with its 95% interval."""
        return wilson(self.tally.count(result), self.tally.games)


def exact_odds(menace: Menace, opponent: OpponentTable) -> Odds:
    """The exact chances that this MENACE, not learning, wins, draws or loses one game."""
    graph = position_graph()
    table = box_table(menace.player)
    counts = list(menace.counts().values())
    resign = menace.rules.empty_box is EmptyBox.RESIGN
    mine = result_of(menace.player, Outcome.WIN)
    theirs = result_of(menace.player, Outcome.LOSS)
    legal = random_opponent()  # every legal move: what MENACE plays from an empty box
    memo: dict[int, tuple[float, float, float]] = {}

    def odds(position: int) -> tuple[float, float, float]:
        if position in memo:
            return memo[position]
        result = graph.results[position]
        if result is mine:
            value = (1.0, 0.0, 0.0)
        elif result is theirs:
            value = (0.0, 0.0, 1.0)
        elif result is Result.DRAWN:
            value = (0.0, 1.0, 0.0)
        else:
            box = table.box_at[position]
            weighted: list[tuple[float, int]]
            if box >= 0 and any(counts[box]):
                beads, total = counts[box], sum(counts[box])
                weighted = [(beads[b] / total, table.after_bead[position][b])
                            for b in range(len(beads)) if beads[b]]
            elif box >= 0 and resign:
                weighted = []
            elif box >= 0:
                weighted = [(1 / len(legal[position]), child) for child in legal[position]]
            elif table.forced[position] != NO_POSITION:
                weighted = [(1.0, table.forced[position])]
            else:
                row = opponent[position]
                weighted = [(1 / len(row), child) for child in row]
            if not weighted:
                value = (0.0, 0.0, 1.0)
            else:
                parts = [(w, odds(child)) for w, child in weighted]
                value = (sum(w * o[0] for w, o in parts), sum(w * o[1] for w, o in parts),
                         sum(w * o[2] for w, o in parts))
        memo[position] = value
        return value

    win, draw, loss = odds(0)
    return Odds(win=win, draw=draw, loss=loss)


def evaluate(
    menace: Menace, opponents: Sequence[str], games: int, *, seed: int | None = None,
) -> list[Evaluation]:
    """Play a frozen copy of MENACE `games` games against each opponent, its boxes unchanged."""
    master = random.Random(seed)
    evaluations = []
    for name in opponents:
        table = OPPONENTS[name]()
        copy = frozen(menace, random.Random(master.getrandbits(64)))
        tally = copy.train(table, games)
        evaluations.append(Evaluation(opponent=name, tally=tally, odds=exact_odds(menace, table)))
    return evaluations
