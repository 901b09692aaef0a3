"""E-detectors: evidence against the SPEC's law that keeps its false-alarm rate, whatever the
game a fault starts at.

A statistical check sees, one at a time, observations the SPEC gives a law to (a draw, the beads
of a refill). For each of its alternative laws `a` it bets on observation i the smoothed
likelihood ratio

    L_a(i) = (1 - s_a) q_a(x_i) / p(x_i) + s_a,

where p is the SPEC's law of observation i and q_a the alternative's, both fixed by what was seen
before i, and x_i what was observed. The smoothing s_a is SMOOTHING for a law that may give an
observation no chance (so that one odd observation does not rule it out), 0 for a law that is
already a mixture with the SPEC's. Its evidence after the observations of games up to g is

    E = sum_a pi(a) [ sum_{k <= g} w(k) prod_{i: game(i) >= k} L_a(i) + (1 - W(g)) ],

    w(k) = 1 / (C (k + 1) ln(k + 1)^2),   W(g) = w(1) + ... + w(g),   C = 2.11:

a mixture, over the alternatives (each with its share pi(a), the shares summing to 1) and over
the game k at which a fault starts, of each alternative's likelihood ratio since game k; the start
games still to come, and what the weights leave of 1, have bet nothing yet. The weights sum to at
most 1: the sum of 1 / ((k + 1) ln(k + 1)^2) over k < 10^6 is 2.1097..., and the rest is below the
integral of 1 / (x ln(x)^2) from 10^6, 1 / ln(10^6).

**The bound.** Under the SPEC, given everything before observation i (the program's earlier
output, the judge's opponent and its random numbers included),

    E[L_a(i) | past] = sum_{x: p(x) > 0} p(x) ((1 - s_a) q_a(x) / p(x) + s_a) <= 1.

So each product over the observations of games k on is a nonnegative supermartingale starting at
1, whatever the opponent does, and E, a mixture of them with weights fixed in advance plus a
constant, is one too, with E = 1 before any observation. By Ville's inequality,
P(E >= 1/alpha at some point) <= alpha. A check that rejects once its evidence reaches
1/FALSE_ALARM therefore rejects a correct program with chance at most FALSE_ALARM per run, for
any number of games, and may reject at the first game where the bound is crossed.

**The cost of not knowing when.** E >= pi(a) w(k) L_a(k..), so a fault that starts at game k is
caught once its alternative's likelihood ratio since game k reaches 1 / (alpha pi(a) w(k)):
log(1/w(k)) nats, 0.7 for game 1, 9.0 for game 150, 11.5 for game 1,000, and the evidence gathered
for the SPEC before game k does not count against it.

**The computation** (Shiryaev-Roberts' recursion, O(K) per observation): for each alternative, A_a
is the part of the mixture whose start game has come. When observations of game g arrive, the
start games since the last observation join A_a with their weights (their products are all still
1); each observation multiplies A_a by L_a(i): E = sum_a pi(a) A_a + 1 - W(g). A_a is carried as
a number, capped at CAP, so that a bet costs a multiplication, not a logarithm.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from statistics import NormalDist
from typing import Final

from judge.terms.options import FALSE_ALARM
from judge.terms.text import plural

SMOOTHING: Final = 0.1
"""An alternative that may give an observation no chance is mixed with this share of the SPEC's."""
POWER: Final = 0.99
"""The chance of rejecting an alternative's own law that counts as enough games."""
Z_POWER: Final = NormalDist().inv_cdf(POWER)

Moments = tuple[float, float]
"""The mean and variance of one observation's log bet, had the alternative's own law drawn it."""


START_NORM: Final = 2.11
"""An upper bound of the sum over games k of 1 / ((k + 1) ln(k + 1)^2)."""


def start_weight(game: int) -> float:
    """The share of the evidence betting that the fault starts at this game (from 1)."""
    return 1 / (START_NORM * (game + 1) * math.log(game + 1) ** 2)


def log_bet(ratio: float, smoothing: float = SMOOTHING) -> float:
    """The log of the smoothed bet on a likelihood ratio."""
    return math.log((1 - smoothing) * ratio + smoothing)


def moments(law: Sequence[float], spec: Sequence[float],
            smoothing: float = SMOOTHING) -> Moments:
    """Mean and variance of the log bet on one observation drawn by `law` (the SPEC's: `spec`)."""
    mean = square = 0.0
    for q, p in zip(law, spec, strict=True):
        if q > 0:
            bet = log_bet(q / p, smoothing)
            mean += q * bet
            square += q * bet * bet
    return mean, max(square - mean * mean, 0.0)


def needed(share: float, threshold: float) -> float:
    """The log of the product of bets that makes an alternative with this share reject from
    game 1."""
    return math.log(threshold / (share * start_weight(1)))


NOTHING: Final = 1e-9
"""A mean log bet an observation below which an alternative has nothing to bet on (its law is
the SPEC's, but for rounding)."""


def power(expected: float, variance: float, share: float, threshold: float) -> float:
    """The chance that an alternative's own law, drawing every observation, would be rejected.

    `expected` and `variance` add up its log bets' moments; a rejection from game 1 needs the
    product of its bets to reach threshold / (share w(1)) (`needed`). A normal approximation of
    the sum of the log bets.
    """
    need = needed(share, threshold)
    if variance <= 0:
        return 1.0 if expected >= need else 0.0
    return NormalDist().cdf((expected - need) / math.sqrt(variance))


@dataclass(frozen=True)
class Evidence:
    """A check's evidence so far, for each named alternative against the SPEC's law."""

    observations: int
    names: tuple[str, ...]
    log_values: tuple[float, ...]
    """Natural log of each alternative's evidence (mixed over start games), in `names` order."""
    starts: tuple[int, ...] = ()
    """Each alternative's likeliest start: the game from which its likelihood ratio counts most."""
    threshold: float = 1 / FALSE_ALARM
    expected: tuple[float, ...] = ()
    """Per alternative, the expected sum of its log bets had its own law drawn: when measured."""
    variances: tuple[float, ...] = ()
    sized: tuple[bool, ...] = ()
    """Which alternatives are one law of a stated size (the others learn theirs as they go)."""
    shares: tuple[float, ...] = ()
    """Each alternative's share of the evidence (alike when empty)."""
    strengths: tuple[float, ...] = ()
    """Each alternative's strength: the share of observations its law acts on (1 when empty)."""

    def share(self, k: int) -> float:
        """The share of the evidence of alternative k."""
        return self.shares[k] if self.shares else 1 / len(self.names)

    @cached_property
    def log_evidence(self) -> float:
        """Log of the alternatives' evidence, mixed by their shares (an e-detector, the SPEC's)."""
        if not self.log_values:
            return 0.0
        top = max(self.log_values)
        shares = self.shares or (1 / len(self.names),) * len(self.names)
        return top + math.log(math.fsum(share * math.exp(v - top)
                                        for share, v in zip(shares, self.log_values, strict=True)))

    @property
    def passed(self) -> bool:
        """True unless the evidence against the SPEC's law has reached the threshold."""
        return self.log_evidence < math.log(self.threshold)

    @property
    def strongest(self) -> str:
        """The alternative the observations favour most, and since when."""
        k = max(range(len(self.names)), key=lambda j: self.log_values[j])
        return self.names[k] + self._since(k)

    def _since(self, k: int) -> str:
        """`(from game g)`, when the alternative's likeliest start is after game 1."""
        start = self.starts[k] if self.starts else 1
        return f" (from game {start})" if start > 1 else ""

    def per_alternative(self) -> tuple[str, ...]:
        """Each alternative's evidence, strongest first, e.g. `sharpened: 12.3`."""
        order = sorted(range(len(self.names)), key=lambda k: -self.log_values[k])
        return tuple(f"{self.names[k]}: {_exp(self.log_values[k]):.3g}{self._since(k)}"
                     for k in order)

    def ratios(self) -> str:
        """Each alternative's evidence on one line, strongest first."""
        return "; ".join(self.per_alternative())

    def describe(self, noun: str, law: str) -> str:
        """The statistic in words: the observations (each a `noun`, such as `move`), against
        the SPEC's `law`; the likeliest alternative only where the evidence is worth a look
        (NOTABLE), else it means nothing."""
        observed = plural(self.observations, noun)
        if not self.observations:
            return f"over {observed}, nothing to test"
        likeliest = (f"; likeliest alternative: {self.strongest}"
                     if self.log_evidence >= math.log(NOTABLE) else "")
        return (f"over {observed}, evidence against {law} "
                f"{_exp(self.log_evidence):.3g} (rejected at {self.threshold:.0f}){likeliest}")

    def powers(self) -> tuple[float | None, ...]:
        """Each sized alternative's chance of being rejected had its own law drawn (None: unsized
        or not measured)."""
        if not self.expected:
            return (None,) * len(self.names)
        return tuple(power(m, v, self.share(k), self.threshold) if sized else None
                     for k, (m, v, sized) in enumerate(zip(self.expected, self.variances,
                                                           self.sized, strict=True)))


NOTABLE: Final = 20.0
"""Evidence from which the likeliest alternative is named: below it, which alternative leads
is chance (a correct program reaches it in a few runs of a hundred)."""


def _exp(log: float) -> float:
    """e to the `log`, capped so that it prints."""
    return math.exp(min(log, 700.0))


CAP: Final = 1e250
"""The most an alternative's evidence is carried at: far past any threshold, short of overflow."""


class Detector:
    """The running e-detector of one check: per alternative, its evidence mixed over start games.

    Each alternative's part whose start game has come is carried as a number, not its log: an
    observation multiplies it by its bet, a game adds the new start weights. It never falls below
    the weight of the last game's start times that game's bets, and it is capped at CAP.
    """

    def __init__(self, names: Sequence[str], threshold: float = 1 / FALSE_ALARM,
                 sized: Sequence[bool] | None = None, measure_power: bool = False,
                 shares: Sequence[float] | None = None,
                 smoothing: Sequence[float] | None = None,
                 strengths: Sequence[float] | None = None) -> None:
        self.names = tuple(names)
        self.strengths = tuple(strengths) if strengths is not None else ()
        self.smoothing = (tuple(smoothing) if smoothing is not None
                          else (SMOOTHING,) * len(self.names))
        """Each alternative's share of the SPEC's law in its bets."""
        self.kept = tuple(1 - s for s in self.smoothing)
        self.shares = tuple(shares) if shares is not None else ()
        assert not self.shares or (len(self.shares) == len(self.names)
                                   and math.fsum(self.shares) <= 1 + 1e-12)
        self.threshold = threshold
        self.sized = tuple(sized) if sized is not None else (True,) * len(self.names)
        self.observations = 0
        self.game = 0
        """The last game whose start weight has joined."""
        self.weighed = 0.0
        """The start weights that have joined, W(game)."""
        self.active = [0.0] * len(self.names)
        """Per alternative, the part of the mixture whose start game has come."""
        self.best = [1.0] * len(self.names)
        """Per alternative, the largest term of that part as a share of it, and its start game
        (a bet multiplies every term alike, so only a start game's joining changes the share)."""
        self.starts = [0] * len(self.names)
        self.expected: list[float] | None = [0.0] * len(self.names) if measure_power else None
        self.variances = [0.0] * len(self.names)

    @property
    def measures_power(self) -> bool:
        """True when each bet's moments under its own alternative are wanted."""
        return self.expected is not None

    def _begin(self, game: int) -> None:
        """Let the start games up to `game` join the bets."""
        assert game >= self.game, (game, self.game)
        if game == self.game:
            return
        joining = math.fsum(start_weight(k) for k in range(self.game + 1, game + 1))
        self.weighed += joining
        first = start_weight(self.game + 1)
        active, best, starts = self.active, self.best, self.starts
        for k, part in enumerate(active):
            largest = best[k] * part
            if first > largest:
                largest, starts[k] = first, self.game + 1
            part = min(part + joining, CAP)
            active[k] = part
            best[k] = largest / part
        self.game = game

    def bet(self, game: int, ratios: Sequence[float],
            observed_moments: Sequence[Moments] | None = None) -> None:
        """Multiply in one observation of game `game`: each alternative's likelihood ratio."""
        self._begin(game)
        self.observations += 1
        self.active = [part * (kept * ratio + smoothing) for part, kept, smoothing, ratio
                       in zip(self.active, self.kept, self.smoothing, ratios, strict=True)]
        if self.expected is not None and observed_moments is not None:
            for k, (mean, variance) in enumerate(observed_moments):
                self.expected[k] += mean
                self.variances[k] += variance

    def evidence(self) -> Evidence:
        """The evidence so far."""
        pending = 1 - self.weighed
        return Evidence(self.observations, self.names,
                        tuple(math.log(part + pending) for part in self.active),
                        tuple(self.starts), self.threshold, tuple(self.expected or ()),
                        tuple(self.variances) if self.expected is not None else (), self.sized,
                        self.shares, self.strengths)
