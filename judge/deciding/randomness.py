"""The statistical checks of SPEC section 5's randomness: where draws go, and where refill beads go.

Each check bets, observation by observation, on alternative laws against the SPEC's and rejects
once its evidence reaches 1 / FALSE_ALARM: an e-detector (`judge.deciding.evidence`, where the bound
is proved) whose false-alarm rate is at most FALSE_ALARM per run however long the run, and which
catches a fault that starts late about as fast as one present from the start.

The bead-draws test (this module): every draw from a box whose beads the previous dump showed,
against drawing one bead uniformly (each orbit of the label's symmetries by its share of the
beads). Alternatives (`judge.deciding.draw_laws`): chance by a power of the bead counts; a bead's
place in three orders of the box's beads, by square, as printed and by age
(`judge.deciding.bead_ages`): never or always the first or last, a half favoured 30% of the time, a
slope; the box's last draw again; and the previous game's places again (a generator reseeded alike
at every game). The refill test is in `judge.deciding.refill_law`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from operator import itemgetter
from typing import Final

from reference.board import Board, Cell

from judge.deciding.bead_ages import Ages
from judge.deciding.board_laws import ALWAYS_NAMES, BOARD_NAMES, board_laws, board_ratios
from judge.deciding.draw_laws import (
    AGE_NAMES,
    CACHED,
    COUNT_POWERS,
    PLACE_LAWS,
    PLACE_SMOOTHING,
    Law,
    Order,
    count_laws,
    count_ratios,
    near_law,
    place_laws,
    place_names,
    place_ratios,
)
from judge.deciding.evidence import SMOOTHING, Detector, Evidence, Moments, moments
from judge.deciding.learnt_places import PATTERNS, LearntPattern
from judge.deciding.refill_law import Counts, Refilled, RefillStatistics, orbit_ids, refill_beads
from judge.deciding.strengths import CONTEXT_NAMES, PART, SWITCHING, Context, Switching, context_of
from judge.terms.options import FALSE_ALARM

__all__ = ["DRAW_ALTERNATIVES", "Counts", "DrawStatistics", "Drawn", "Evidence",
           "Refilled", "RefillStatistics", "counts_of", "refill_beads"]

ORDERS: Final = ("by square", "as printed", "by age")
"""Orders of a box's beads: the place laws of the first two are named by them (by age, by the
bead's age), and the previous game's places are looked for in all three."""
REPEAT_SHARE: Final = 0.5
"""Under the repeat alternatives, the chance that a draw repeats (a square, or a place)."""
LEARNT_ORDERS: Final = (ORDERS[0], ORDERS[2])
"""The orders whose places are learnt: by square (the order as printed too, when printed sorted)
and by age (the list's order, for a program that appends)."""
BASE_ALTERNATIVES: Final = (
    *(name for name, _ in COUNT_POWERS),
    *(name for order in ORDERS[:2] for name in place_names(order)),
    *AGE_NAMES,
    "the box's last draw again",
    *(f"the previous game's places again, {order}" for order in ORDERS),
    *(f"{pattern} {order}, learnt" for order in LEARNT_ORDERS for pattern, _, _ in PATTERNS),
    *BOARD_NAMES,
)
"""The alternative laws at full strength, in the order their ratios are computed."""
COUNTS: Final = len(COUNT_POWERS)
PLACES: Final = COUNTS
"""Where the place laws start: 8 for each order."""
REPEATS: Final = PLACES + 3 * PLACE_LAWS
LEARNT: Final = REPEATS + len(ORDERS) + 1
BOARD: Final = LEARNT + len(LEARNT_ORDERS) * len(PATTERNS)
BASE_SMOOTHING: Final = (*(SMOOTHING,) * COUNTS, *(PLACE_SMOOTHING * 3),
                         *(0.0,) * (len(ORDERS) + 1 + len(LEARNT_ORDERS) * len(PATTERNS)),
                         *(SMOOTHING,) * len(ALWAYS_NAMES),
                         *(0.0,) * (len(BOARD_NAMES) - len(ALWAYS_NAMES)))
"""Each law's smoothing: none for the laws already mixed with the SPEC's, or learnt."""
PARTIAL: Final = (*range(COUNTS), *(PLACES + PLACE_LAWS * order + k for order in range(3)
                                    for k in range(4)), *range(BOARD, BOARD + len(ALWAYS_NAMES)))
"""The laws also taken on PART of the draws: counts, never or always the first or last bead, and
the board's "always" laws."""
WHEN: Final = (0, 1, 2)
"""The laws also taken in one context, and in games that switch: uniform over the squares
present, flattened, sharpened."""
DRAW_ALTERNATIVES: Final = (
    *BASE_ALTERNATIVES,
    *(f"{BASE_ALTERNATIVES[k]}, on {PART:.0%} of draws" for k in PARTIAL),
    *(f"{BASE_ALTERNATIVES[k]}, {context}" for context in CONTEXT_NAMES for k in WHEN),
    *(f"{BASE_ALTERNATIVES[k]}, {SWITCHING}" for k in WHEN),
)
FAMILIES: Final = ((COUNTS, 1 / 8), (3 * PLACE_LAWS, 1 / 4), (len(ORDERS) + 1, 1 / 8),
                   (len(LEARNT_ORDERS) * len(PATTERNS), 1 / 16), (len(BOARD_NAMES), 1 / 16),
                   (len(PARTIAL), 1 / 8), (len(CONTEXT_NAMES) * len(WHEN), 1 / 8),
                   (len(WHEN), 1 / 8))
"""The alternatives by family, in order, and each family's share of the evidence, spread evenly
over its alternatives: the count laws, the place laws, the repeats, the learnt places, the board
laws, the laws on part of the draws, the laws in one context, the laws in games that switch."""
DRAW_SHARES: Final = tuple(share / size for size, share in FAMILIES for _ in range(size))
DRAW_SMOOTHING: Final = (*BASE_SMOOTHING, *(1 - PART,) * len(PARTIAL),
                         *(BASE_SMOOTHING[k] for _ in CONTEXT_NAMES for k in WHEN),
                         *(0.0,) * len(WHEN))
"""Each alternative's smoothing: on PART of the draws, 1 - PART of the SPEC's law; in games that
switch, none (the filter smooths)."""
DRAW_SIZED: Final = tuple(not (LEARNT <= k < BOARD) for k in range(len(BASE_ALTERNATIVES))) + (
    (True,) * len(PARTIAL) + (False,) * ((len(CONTEXT_NAMES) + 1) * len(WHEN)))
"""Which alternatives are one law of a stated size: not the learnt ones, nor those in one
context or in games that switch (their size is where, or when, they act)."""
DRAW_STRENGTHS: Final = (1.0,) * len(BASE_ALTERNATIVES) + (PART,) * len(PARTIAL) + (
    (1.0,) * ((len(CONTEXT_NAMES) + 1) * len(WHEN)))
"""The share of the draws each alternative's law acts on."""
_PICK_PARTIAL: Final = itemgetter(*PARTIAL)
_PICK_WHEN: Final = itemgetter(*WHEN)
_UNMOVED: Final = (1.0,) * len(WHEN)
SQUARES: Final = range(9)


@dataclass(frozen=True)
class Drawn:
    """One draw as the judge saw it."""

    label: Board
    """The box's canonical label."""
    beads: tuple[Cell, ...]
    """The box's beads before the draw, as printed, each square in the label's frame."""
    squares: frozenset[Cell]
    """The squares of the label the move may stand for (an orbit of the label's symmetries)."""
    game: int
    index: int
    """The draw's number within its game: 0 for MENACE's first move."""
    answering: Cell | None = None
    """The opponent's move just before, in the label's frame (None for MENACE's first move)."""


def counts_of(beads: Sequence[Cell]) -> Counts:
    """The number of beads of each square 0-8."""
    return tuple(map(beads.count, SQUARES))


@lru_cache(maxsize=CACHED)
def _moments(law: Law, spec: Law, smoothing: float) -> Moments:
    """The moments of the log bet on a law, remembered: most laws recur from draw to draw."""
    return moments(law, spec, smoothing)


def _repeat_law(present: Order, last: int | None, spec: Law) -> Law:
    """"The box's last draw again": its last orbit half the time, where the box still has it."""
    if last is None:
        return spec
    j = present.index(last)
    return tuple((1 - REPEAT_SHARE) * p + (REPEAT_SHARE if k == j else 0.0)
                 for k, p in enumerate(spec))


def _draw_moments(drawn: Drawn, orders: tuple[Order, Order, Order], ends: tuple[int, int],
                  repeat: int | None, nears: Sequence[frozenset[int]],
                  context: Context) -> list[Moments]:
    """Each alternative's moments on this draw, had its own law drawn it (in DRAW_ALTERNATIVES
    order; none for the learnt laws and those in games that switch)."""
    by_square, printed, by_age = orders
    present = tuple(sorted(set(printed)))
    spec = tuple(by_square.count(o) / len(by_square) for o in present)
    counts, ids = counts_of(drawn.beads), orbit_ids(drawn.label)
    laws = [*count_laws(counts, ids, present),
            *place_laws(by_square, present), *place_laws(printed, present),
            *place_laws(by_age, present, *ends), _repeat_law(present, repeat, spec),
            *(near_law(order, present, near, REPEAT_SHARE, spec) if near else spec
              for order, near in zip(orders, nears, strict=True)),
            *(spec,) * (BOARD - LEARNT),
            *board_laws(counts, drawn.label, ids, present, drawn.answering)]
    found = [_moments(law, spec, smoothing) for law, smoothing in zip(laws, BASE_SMOOTHING,
                                                                      strict=True)]
    for k in PARTIAL:
        partial = tuple(PART * q + (1 - PART) * p for q, p in zip(laws[k], spec, strict=True))
        found.append(_moments(partial, spec, 0.0))
    for here in Context:
        found.extend(found[k] if here is context else (0.0, 0.0) for k in WHEN)
    found.extend((0.0, 0.0) for _ in WHEN)
    return found


def _places(order: Order, orbit: int) -> list[int]:
    """The places (ascending) of the beads of `orbit` in `order`."""
    return list(compress(range(len(order)), map(orbit.__eq__, order)))


def _near(places: Sequence[int], n: int) -> frozenset[int]:
    """The places among `n` at most one away from one of `places`."""
    near = set(places)
    near.update(map((1).__add__, places), map((-1).__add__, places))
    return frozenset(filter(range(n).__contains__, near))


class DrawStatistics:
    """The bead-draws statistic over a run: every draw from a box whose beads are known."""

    def __init__(self, threshold: float = 1 / FALSE_ALARM, measure_power: bool = False) -> None:
        self.detector = Detector(DRAW_ALTERNATIVES, threshold, DRAW_SIZED, measure_power,
                                 DRAW_SHARES, DRAW_SMOOTHING, DRAW_STRENGTHS)
        self.ages = Ages()
        self.game = 0
        self.places: dict[int, tuple[list[int], ...]] = {}
        """Where in each order the beads of each draw of this game were, by index."""
        self.places_before: dict[int, tuple[list[int], ...]] = {}
        """The same for the game before."""
        self.last_drawn: dict[Board, int] = {}
        """The orbit of each box's last draw."""
        self.patterns = [LearntPattern(k) for _ in LEARNT_ORDERS for k in range(len(PATTERNS))]
        """The learnt laws of places, in each order by each pattern."""
        self.switching = Switching(len(WHEN))

    def add(self, drawn: Drawn) -> None:
        """Bet on one draw; its squares must hold at least one bead."""
        if drawn.game != self.game:
            self.places_before = self.places if drawn.game == self.game + 1 else {}
            self.places, self.game = {}, drawn.game
        label, beads = drawn.label, drawn.beads
        ids = orbit_ids(label)
        orbit = ids[min(drawn.squares)]
        n = len(beads)
        printed = tuple(map(ids.__getitem__, beads))
        by_square = tuple(map(ids.__getitem__, sorted(beads)))
        by_age, oldest, newest = self.ages.order(label, printed)
        now = tuple(_places(order, orbit) for order in (by_square, printed, by_age))
        chance = len(now[0]) / n
        counts = counts_of(beads)
        ratios = [*count_ratios(counts, drawn.squares),
                  *place_ratios(now[0], n), *place_ratios(now[1], n),
                  *place_ratios(now[2], n, oldest, newest)]
        last = self.last_drawn.get(label)
        repeat = last if last in printed else None
        ratios.append(1.0 if repeat is None else
                      REPEAT_SHARE * (repeat == orbit) / chance + 1 - REPEAT_SHARE)
        before = self.places_before.get(drawn.index)
        nears = [_near(places, n) for places in before] if before is not None \
            else [frozenset()] * len(ORDERS)
        for near, places in zip(nears, now, strict=True):
            ratios.append(REPEAT_SHARE * len(near.intersection(places)) / len(near) / chance
                          + 1 - REPEAT_SHARE if near else 1.0)
        patterns = iter(self.patterns)
        for places in (now[0], now[2]):
            ratios.extend(next(patterns).ratio(places, n) for _ in PATTERNS)
        ratios.extend(board_ratios(counts, label, drawn.squares, drawn.answering))
        ratios.extend(_PICK_PARTIAL(ratios))
        when = _PICK_WHEN(ratios)
        context = context_of(drawn.answering)
        for here in Context:
            ratios.extend(when if here is context else _UNMOVED)
        ratios.extend(self.switching.bets(drawn.game, when))
        self.places[drawn.index] = now
        observed_moments = None
        if self.detector.measures_power:
            orders = (by_square, printed, by_age)
            observed_moments = _draw_moments(drawn, orders, (oldest, newest), repeat, nears,
                                             context)
        self.detector.bet(drawn.game, ratios, observed_moments)
        self.last_drawn[label] = orbit
        self.ages.drawn(label, orbit)

    def learnt(self, draws: Iterable[tuple[Board, frozenset[Cell]]], kept: int) -> None:
        """Note what learning put back into each box drawn from (`kept` beads of its square)."""
        for label, squares in draws:
            self.ages.learnt(label, orbit_ids(label)[min(squares)], kept)

    def refilled(self, label: Board, beads: Counts) -> None:
        """Note that a box was emptied and refilled with these beads (in the label's frame)."""
        ids = orbit_ids(label)
        self.ages.refilled(label, [ids[s] for s, n in enumerate(beads) for _ in range(n)])

    def evidence(self) -> Evidence:
        """The evidence so far."""
        return self.detector.evidence()
