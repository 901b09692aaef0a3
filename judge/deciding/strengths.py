"""Alternatives at part strength: a fault that acts on some draws, in some contexts, or in games
that switch it on and off.

Each is made from an alternative law q of a draw (its likelihood ratio r = q / p against the
SPEC's p), and bets so that its mean under the SPEC stays at most 1 (`judge.deciding.evidence`):

- **on a share of the draws**: the law PART q + (1 - PART) p, which bets PART r + 1 - PART;
- **in a context**: q after the opponent moves to a corner, an edge or the centre, or at
  MENACE's first move; the SPEC's law elsewhere, where it bets 1;
- **in games that switch on and off**: a mixture over patterns of games fixed in advance (every
  k-th game; bursts that come back every P games), q in the games a pattern has on, p in the
  others (`Switching`).

The share, the contexts and the patterns are fixed in advance, so each is one more alternative
law with a share of the evidence, or a mixture of such laws: how often, where and when a fault
acts is mixed over, not guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from functools import lru_cache
from operator import itemgetter
from typing import Final

from reference.board import Cell

from judge.deciding.board_laws import CORNERS, EDGES
from judge.deciding.evidence import SMOOTHING

PART: Final = 0.3
"""The share of the draws a fault "on part of the draws" acts on: the thorough mode's size."""


class Context(IntEnum):
    """Where a draw stands in a game: MENACE's first move, or what the opponent's last move took."""

    FIRST = 0
    CORNER = 1
    EDGE = 2
    CENTRE = 3


CONTEXT_NAMES: Final = ("at MENACE's first move", "after the opponent takes a corner",
                        "after the opponent takes an edge", "after the opponent takes the centre")


def context_of(answering: Cell | None) -> Context:
    """The context of a draw made after the opponent's move `answering` (None: the first move)."""
    if answering is None:
        return Context.FIRST
    if answering in CORNERS:
        return Context.CORNER
    return Context.EDGE if answering in EDGES else Context.CENTRE


SWITCHING: Final = "in games that switch on and off"
EVERY: Final = range(2, 11)
"""Faults on every k-th game, for these k."""
PERIODS: Final = (20, 50, 100, 200)
"""Faults in bursts that come back every P games, for these P."""
BURST_PHASES: Final = 20
"""The starts a burst may have within its period, evenly spaced."""


def _patterns() -> tuple[dict[int, tuple[tuple[int, ...], ...]], tuple[float, ...]]:
    """The on/off patterns: for each period, for each game's remainder by it, the patterns on
    in that game; and each pattern's prior weight (half to every k-th game, half to bursts)."""
    on: dict[int, list[list[int]]] = {}
    weights: list[float] = []

    def pattern(period: int, games: range, weight: float) -> None:
        table = on.setdefault(period, [[] for _ in range(period)])
        for game in games:
            table[game % period].append(len(weights))
        weights.append(weight)

    for k in EVERY:
        for phase in range(k):
            pattern(k, range(phase, phase + 1), 0.5 / len(EVERY) / k)
    for period in PERIODS:
        for length in (period // 4, period // 2):
            for start in (period * k // BURST_PHASES for k in range(BURST_PHASES)):
                pattern(period, range(start, start + length),
                        0.5 / len(PERIODS) / 2 / BURST_PHASES)
    return ({period: tuple(map(tuple, table)) for period, table in on.items()}, tuple(weights))


ON_IN_GAME, PATTERN_WEIGHTS = _patterns()


@lru_cache(maxsize=8)
def on_in_game(game: int) -> tuple[int, ...]:
    """The patterns on in game `game` (remembered: every alternative asks in turn)."""
    return tuple(k for period, table in ON_IN_GAME.items() for k in table[game % period])


class Switching:
    """Alternatives in games that switch on and off, by a pattern fixed in advance: every k-th
    game, or bursts of a quarter or a half of every P games (EVERY, PERIODS); for each, a
    mixture over the patterns. In a game a pattern has off, the draws follow the SPEC's law; in
    one it has on, the alternative's (mixed with SMOOTHING of the SPEC's). The bet on a draw is
    the mixture's chance of it over the SPEC's: pi r + 1 - pi, with pi the weight of the
    patterns on in this game given the draws before (each pattern's weight: its prior weight
    times its alternative's likelihood ratio over the games it has on)."""

    def __init__(self, laws: int) -> None:
        self.weights = [list(PATTERN_WEIGHTS) for _ in range(laws)]
        """Per alternative law, each pattern's weight."""
        self.totals = [sum(PATTERN_WEIGHTS)] * laws
        self.game = 0
        self.on: tuple[int, ...] = ()
        self.on_weights = [0.0] * laws
        """Per law, the weight of the patterns on in this game, before its draws."""
        self.products = [1.0] * laws
        """Per law, its likelihood ratio over this game's draws so far."""

    def _next_game(self, game: int) -> None:
        """Give this game's likelihood ratios to the patterns on in it; turn to `game`."""
        on = on_in_game(game)
        for law, (weights, product) in enumerate(zip(self.weights, self.products, strict=True)):
            if product != 1.0:
                for k in self.on:
                    weights[k] *= product
                total = self.totals[law] + self.on_weights[law] * (product - 1)
                if not 1e-100 < total < 1e100:
                    weights[:] = [w / total for w in weights]
                    total = 1.0
                self.totals[law] = total
            self.on_weights[law] = sum(itemgetter(*on)(weights))
        self.game, self.on, self.products = game, on, [1.0] * len(self.weights)

    def bets(self, game: int, ratios: Sequence[float]) -> list[float]:
        """The bets on a draw of `game` whose alternative laws have these likelihood ratios."""
        if game != self.game:
            self._next_game(game)
        bets = []
        for law, ratio in enumerate(ratios):
            ratio = (1 - SMOOTHING) * ratio + SMOOTHING
            on = self.on_weights[law] * self.products[law]
            off = self.totals[law] - self.on_weights[law]
            self.products[law] *= ratio
            bets.append((off + on * ratio) / (off + on))
        return bets
