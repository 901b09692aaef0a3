"""Learning curves: per game, how many learners won, drew and lost, and the spread between them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

MEASURES = ("win", "draw", "loss", "score")
"""The curves drawn: cumulative win, draw and loss rates, Michie's score (wins + draws - losses)."""

BAND = (0.1, 0.9)
"""The band around a mean curve: from the 10th to the 90th percentile of the learners."""


@dataclass(frozen=True)
class Band:
    """A measure's spread between learners at some games: lowest and highest of the middle 80%."""

    games: tuple[int, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


@dataclass(frozen=True)
class Curve:
    """The games of one or more learners trained side by side: totals per game and bands."""

    learners: int
    wins: Sequence[int]
    """For each game, how many learners won it (a byte a game for one learner)."""
    draws: Sequence[int]
    losses: Sequence[int]
    empty_boxes: Sequence[int]
    """For each game, how often the learners found a box empty, in all."""
    bands: dict[str, Band]
    """For each measure, the spread between learners (none for a single learner)."""
    first_move_dry: int = 0
    """How many learners end with an empty box for their first move."""

    @property
    def games(self) -> int:
        """The number of games each learner played."""
        return len(self.wins)

    def mean(self, measure: str) -> list[float]:
        """The learners' mean of a measure after each game."""
        if measure == "score":
            return [s / self.learners for s in accumulate(
                w + d - l for w, d, l in zip(self.wins, self.draws, self.losses, strict=True))]
        counts = {"win": self.wins, "draw": self.draws, "loss": self.losses}[measure]
        return [c / (self.learners * (g + 1)) for g, c in enumerate(accumulate(counts))]


@dataclass(frozen=True)
class Window:
    """Games `first` to `last` (counted from 1), summed over the learners."""

    first: int
    last: int
    wins: int
    draws: int
    losses: int
    empty_boxes: int

    @property
    def games(self) -> int:
        """Games in the window, over all learners."""
        return self.wins + self.draws + self.losses


def windows(curve: Curve, count: int = 10) -> list[Window]:
    """The games cut into `count` windows of (nearly) equal length, each summed."""
    n = curve.games
    cuts = sorted({round(i * n / count) for i in range(count + 1)})
    return [
        Window(
            first=a + 1, last=b, wins=sum(curve.wins[a:b]), draws=sum(curve.draws[a:b]),
            losses=sum(curve.losses[a:b]), empty_boxes=sum(curve.empty_boxes[a:b]),
        )
        for a, b in pairwise(cuts)
    ]


def checkpoints(games: int, points: int = 200) -> list[int]:
    """Game counts (from 1) at which bands are measured: `points` evenly spread, as many more
    spread evenly on a log scale, and the last game."""
    if games < 1:
        return []
    even = {max(1, round(i * games / points)) for i in range(1, points + 1)}
    logarithmic = {max(1, round(games ** (i / points))) for i in range(points + 1)}
    return sorted(even | logarithmic)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile of the values, by linear interpolation between the nearest ranks."""
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    below = int(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def measure_values(wins: int, draws: int, losses: int) -> dict[str, float]:
    """Each measure for one learner after wins + draws + losses games."""
    games = wins + draws + losses
    return {"win": wins / games, "draw": draws / games, "loss": losses / games,
            "score": float(wins + draws - losses)}


ONE_OF: tuple[bytes, ...] = tuple(bytes(int(b == code) for b in range(256)) for code in range(3))
"""For each result code, a table for `bytes.translate`: 1 for that code, 0 for any other."""


def curve_from_results(
    results: Sequence[bytes | bytearray], empty_boxes: Sequence[bytes | bytearray],
    first_move_dry: int = 0,
) -> Curve:
    """The curve of learners given each one's results per game (0 win, 1 draw, 2 loss).

    One learner's curve is a byte a game for each measure, so that millions of games fit.
    """
    learners = len(results)
    if learners == 1:
        record = results[0]
        return Curve(learners=1, wins=record.translate(ONE_OF[0]),
                     draws=record.translate(ONE_OF[1]),
                     losses=record.translate(ONE_OF[2]), empty_boxes=bytes(empty_boxes[0]),
                     bands={}, first_move_dry=first_move_dry)
    games = len(results[0]) if results else 0
    totals = [[0] * games for _ in range(3)]
    empty = [0] * games
    for record, empties in zip(results, empty_boxes, strict=True):
        for g, code in enumerate(record):
            totals[code][g] += 1
        for g, count in enumerate(empties):
            empty[g] += count
    bands: dict[str, Band] = {}
    if learners > 1 and games:
        marks = checkpoints(games)
        per_learner = []
        for record in results:
            counts, seen, at = [0, 0, 0], 0, []
            for mark in marks:
                for code in record[seen:mark]:
                    counts[code] += 1
                seen = mark
                at.append(measure_values(*counts))
            per_learner.append(at)
        for measure in MEASURES:
            columns = [[at[i][measure] for at in per_learner] for i in range(len(marks))]
            bands[measure] = Band(
                games=tuple(marks),
                low=tuple(percentile(c, BAND[0]) for c in columns),
                high=tuple(percentile(c, BAND[1]) for c in columns),
            )
    return Curve(
        learners=learners, wins=tuple(totals[0]), draws=tuple(totals[1]),
        losses=tuple(totals[2]), empty_boxes=tuple(empty), bands=bands,
        first_move_dry=first_move_dry,
    )
