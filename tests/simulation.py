"""Simulated runs through the statistical checks: a MENACE, correct or with a fault of a set size.

No program is started and nothing is printed: a small MENACE of its own, like the canonical
test submission (1 to 4 beads of each empty square at the start, beads kept in lists), plays
the judge's opponents, and after each game the judge's statistics see what a dump would show.
The MENACE may print its beads sorted, in list order or shuffled, keep its lists by appending,
by moving returned beads to the front or by shuffling at each draw, and may turn faulty from a
given game. It is what the statistical checks are measured against (`bench/randomness.py`) and
tested with: it never stands in for the reference's engine in a verdict.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from reference.board import EMPTY, EMPTY_BOARD, Board, Cell, O, X, is_over, play
from reference.outcome import Outcome, outcome_of
from reference.symmetry import PERMUTATIONS, inverse, map_cell

from judge.deciding.board_laws import CORNERS, completing
from judge.deciding.box_changes import KEPT
from judge.deciding.evidence import Evidence
from judge.deciding.opponents import Knowledge, make_opponent
from judge.deciding.randomness import Drawn, DrawStatistics, counts_of
from judge.deciding.refill_law import Refilled, RefillStatistics, refill_beads
from judge.terms.boxes import box_labels, draw_for_move, in_label_frame, label_of
from judge.terms.options import FALSE_ALARM, OpponentKind, RefillRule


class Fault(StrEnum):
    """A way of getting SPEC section 5's randomness wrong, by an amount `size` from 0 to 1."""

    NONE = "none"
    UNIFORM = "uniform"
    """With chance `size`, the draw is uniform over the squares present, ignoring counts."""
    SHARPENED = "sharpened"
    """Chance proportional to beads**(1 + size): the likelier squares favoured."""
    FLATTENED = "flattened"
    """Chance proportional to beads**(1 - size): the rarer squares favoured."""
    SKIPS_LAST = "skips-last"
    """With chance `size`, never the last bead of the list (an off-by-one; the newest bead)."""
    SKIPS_FIRST = "skips-first"
    """With chance `size`, never the first bead of the list (the oldest)."""
    FRONT_HALF = "front-half"
    """With chance `size`, the draw is from the first half of the list."""
    PRINTED_FIRST = "printed-first"
    """The box is shuffled as it is printed; with chance `size` the draw is its first bead."""
    RESEEDS = "reseeds"
    """With chance `size`, a game starts by reseeding the generator with the same seed."""
    REFILLS_LOWEST = "refills-lowest"
    """Each refill bead is the label's lowest empty square with chance `size`."""
    REFILLS_HIGHEST = "refills-highest"
    """Each refill bead is the label's highest empty square with chance `size`."""
    REFILLS_PAIR = "refills-pair"
    """With chance `size`, a refill is two beads of one square and one of another."""
    REFILLS_DIFFERENT = "refills-different"
    """With chance `size`, a refill's three beads are of different squares."""
    REFILLS_NOT_DRAWN = "refills-not-drawn"
    """With chance `size`, a refill bead is any empty square but the one just drawn."""
    ALTERNATE = "alternate"
    """With chance `size`, the draw is from the even places (0, 2, ...) of the beads sorted."""
    AFTER_CORNER = "after-corner"
    """When the opponent's last move was a corner, with chance `size`, uniform over the squares
    present."""
    BURSTS = "bursts"
    """In the last 25 games of every 100, with chance `size`, uniform over the squares present."""
    EVERY_THIRD = "every-third"
    """In every third game, with chance `size`, uniform over the squares present."""
    WINS_AND_BLOCKS = "wins-and-blocks"
    """With chance `size`, a square that wins, else one that blocks, where a bead names one."""


REFILL_FAULTS = frozenset({Fault.REFILLS_LOWEST, Fault.REFILLS_HIGHEST, Fault.REFILLS_PAIR,
                           Fault.REFILLS_DIFFERENT, Fault.REFILLS_NOT_DRAWN})
"""The faults the refill test is made for; the others are the bead-draws test's."""


class Printing(StrEnum):
    """The order in which a box's beads are printed."""

    SORTED = "sorted"
    LIST = "list"
    SHUFFLED = "shuffled"


class Keeping(StrEnum):
    """How a box's list is kept."""

    APPEND = "append"
    """Beads put back are appended; the drawn one is taken out of its place."""
    FRONT = "front"
    """Beads put back go to the front (move-to-front)."""
    SHUFFLE = "shuffle"
    """The list is shuffled before each draw."""


@dataclass(frozen=True)
class Rejections:
    """Where a simulated run was first rejected by each statistical check (None: never)."""

    draws_rejected: int | None
    """The game after which the bead-draws statistic crossed its bound."""
    refills_rejected: int | None
    """The game after which the refill statistic crossed its bound."""
    draws: int
    refills: int
    bead_draws: Evidence
    refill_beads: Evidence
    draw_peaks: tuple[float, ...] = ()
    """The highest log evidence each draw alternative reached after any game."""
    refill_peaks: tuple[float, ...] = ()
    """The same for the refill alternatives."""
    peaks: tuple[float, float] = (0.0, 0.0)
    """The highest log evidence of each check (bead-draws, refills) after any game."""

    def rejected(self, fault: Fault) -> int | None:
        """The game after which the check made for this fault rejected the run."""
        return self.refills_rejected if fault in REFILL_FAULTS else self.draws_rejected


class Menace:
    """A list-based MENACE whose randomness can be faulty, from game `start` on."""

    def __init__(self, seed: int, fault: Fault, size: float, *, one_bead: bool = False,
                 start: int = 1, printing: Printing = Printing.SORTED,
                 keeping: Keeping = Keeping.APPEND) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.fault = fault
        self.size = size
        self.start = start
        self.printing = Printing.SHUFFLED if fault is Fault.PRINTED_FIRST else printing
        self.keeping = keeping
        self.faulty = False
        self.fault_rng = random.Random(seed ^ 0x5EED)
        self.boxes = {label: self._first_beads(label, one_bead) for label in box_labels()}
        self.drawn: list[tuple[Board, Cell]] = []

    def _first_beads(self, label: Board, one_bead: bool) -> list[Cell]:
        """A box's beads at the start: one at random, or 1 to 4 of each empty square."""
        empties = [Cell(c) for c in range(9) if label[c] == EMPTY]
        if one_bead:
            return [self.rng.choice(empties)]
        return [c for c in empties for _ in range(self.rng.randint(1, 4))]

    def start_game(self, game: int) -> None:
        """Forget last game's draws; turn faulty at the start game (in the games a switching
        fault is on); reseed if the fault says so."""
        self.drawn = []
        self.faulty = game >= self.start and self.fault is not Fault.NONE
        if self.fault is Fault.BURSTS:
            self.faulty &= (game - 1) % 100 >= 75
        if self.fault is Fault.EVERY_THIRD:
            self.faulty &= game % 3 == 0
        if self.fault is Fault.RESEEDS and self.faulty and self.fault_rng.random() < self.size:
            self.rng.seed(self.seed)

    def _strikes(self) -> bool:
        """True when the fault acts on this draw or bead."""
        return self.faulty and self.fault_rng.random() < self.size

    def _index(self, beads: list[Cell], label: Board, answering: Cell | None) -> int:
        """The place in the list of the bead drawn from the box of `label`, after the
        opponent's move `answering` (None for MENACE's first move)."""
        n = len(beads)
        fault = self.fault if self.faulty else Fault.NONE
        if fault is Fault.AFTER_CORNER and answering not in CORNERS:
            fault = Fault.NONE
        if fault in (Fault.AFTER_CORNER, Fault.BURSTS, Fault.EVERY_THIRD):
            fault = Fault.UNIFORM
        if fault is Fault.ALTERNATE and n > 1 and self._strikes():
            order = sorted(range(n), key=beads.__getitem__)
            return order[2 * self.rng.randrange((n + 1) // 2)]
        if fault is Fault.WINS_AND_BLOCKS and self._strikes():
            for squares in (completing(label, X), completing(label, O)):
                named = [i for i, square in enumerate(beads) if square in squares]
                if named:
                    return self.rng.choice(named)
        if fault in (Fault.SHARPENED, Fault.FLATTENED):
            power = 1 + self.size if fault is Fault.SHARPENED else 1 - self.size
            counts = counts_of(beads)
            weights = [counts[square] ** (power - 1) for square in beads]
            return self.rng.choices(range(n), weights)[0]
        if n > 1 and fault in (Fault.SKIPS_LAST, Fault.SKIPS_FIRST, Fault.FRONT_HALF,
                               Fault.PRINTED_FIRST, Fault.UNIFORM) and self._strikes():
            if fault is Fault.SKIPS_LAST:
                return self.rng.randrange(n - 1)
            if fault is Fault.SKIPS_FIRST:
                return 1 + self.rng.randrange(n - 1)
            if fault is Fault.FRONT_HALF:
                return self.rng.randrange(n // 2)
            if fault is Fault.UNIFORM:
                return beads.index(self.rng.choice(sorted(set(beads))))
            return 0
        return self.rng.randrange(n)

    def _refill(self, label: Board, drawn: Cell) -> list[Cell]:
        """Three refill beads for a box emptied by drawing `drawn`."""
        empties = [Cell(c) for c in range(9) if label[c] == EMPTY]
        fault = self.fault if self.faulty else Fault.NONE
        if fault is Fault.REFILLS_PAIR and len(empties) > 1 and self._strikes():
            pair, other = self.rng.sample(empties, 2)
            return [pair, pair, other]
        if fault is Fault.REFILLS_DIFFERENT and len(empties) > 2 and self._strikes():
            return self.rng.sample(empties, 3)
        beads = []
        for _ in range(3):
            bead = self.rng.choice(empties)
            if fault is Fault.REFILLS_LOWEST and self._strikes():
                bead = empties[0]
            elif fault is Fault.REFILLS_HIGHEST and self._strikes():
                bead = empties[-1]
            elif fault is Fault.REFILLS_NOT_DRAWN and len(empties) > 1 and self._strikes():
                bead = self.rng.choice([c for c in empties if c != drawn])
            beads.append(bead)
        return beads

    def move(self, board: Board, answering: Cell | None) -> Cell:
        """MENACE's square on `board`, after the opponent's move `answering`."""
        if board.count(EMPTY) == 1:
            return Cell(board.index(EMPTY))
        label, g = label_of(board)
        beads = self.boxes[label]
        if self.keeping is Keeping.SHUFFLE:
            self.rng.shuffle(beads)
        bead = beads.pop(self._index(beads, label, answering))
        if not beads:
            beads.extend(self._refill(label, bead))
        self.drawn.append((label, bead))
        return map_cell(inverse(g), bead)

    def learn(self, outcome: Outcome) -> None:
        """Put the drawn beads back as the game's result says."""
        for label, bead in self.drawn:
            back = [bead] * KEPT[outcome]
            if self.keeping is Keeping.FRONT:
                self.boxes[label][:0] = back
            else:
                self.boxes[label].extend(back)

    def printed(self, label: Board) -> tuple[Cell, ...]:
        """A box's beads as the dump prints them (shuffling its list, for a printed-first fault)."""
        beads = self.boxes[label]
        if self.printing is Printing.SORTED:
            return tuple(sorted(beads))
        if self.printing is Printing.SHUFFLED:
            if self.fault is Fault.PRINTED_FIRST:
                self.rng.shuffle(beads)
                return tuple(beads)
            return tuple(self.rng.sample(beads, len(beads)))
        return tuple(beads)


def simulate(fault: Fault, size: float, games: int, seed: int, *, one_bead: bool = False,
             opponent: OpponentKind = OpponentKind.MIXED, threshold: float = 1 / FALSE_ALARM,
             start: int = 1, printing: Printing = Printing.SORTED,
             keeping: Keeping = Keeping.APPEND, measure_power: bool = False) -> Rejections:
    """One run of `games` games against a judge's opponent, through both statistical checks."""
    menace = Menace(seed, fault, size, one_bead=one_bead, start=start, printing=printing,
                    keeping=keeping)
    knowledge = Knowledge()
    rival = make_opponent(opponent, seed, knowledge)
    judge_rng = random.Random(-seed)
    draw_statistics = DrawStatistics(threshold, measure_power)
    refill_statistics = RefillStatistics(judge_rng, threshold, measure_power)
    draws_rejected = refills_rejected = None
    dump: dict[Board, tuple[Cell, ...]] | None = None
    identity = PERMUTATIONS[0]
    draw_peaks = [0.0] * len(draw_statistics.detector.names)
    refill_peaks = [0.0] * len(refill_statistics.detector.names)
    peaks = [0.0, 0.0]
    for game in range(1, games + 1):
        menace.start_game(game)
        rival.start_game(game)
        board = EMPTY_BOARD
        draws = []
        answering: Cell | None = None
        while True:
            cell = menace.move(board, answering)
            draw = draw_for_move(board, cell)
            if draw is not None:
                draws.append(draw)
                knowledge.draws[draw.label] += 1
                if dump is not None:
                    knowledge.refills += len(dump[draw.label]) == 1
                    draw_statistics.add(Drawn(draw.label, dump[draw.label], draw.squares, game,
                                              len(draws) - 1, None if answering is None
                                              else in_label_frame(board, answering)))
            board = play(board, cell)
            if is_over(board):
                break
            answering = rival.move(board)
            board = play(board, answering)
            if is_over(board):
                break
        outcome = outcome_of(board, X)
        menace.learn(outcome)
        kept = KEPT[outcome]
        if dump is None:
            dump = {label: menace.printed(label) for label in menace.boxes}
        else:
            for draw in draws:
                before = counts_of(dump[draw.label])
                dump[draw.label] = menace.printed(draw.label)
                beads = refill_beads(before, counts_of(dump[draw.label]), draw.squares, kept,
                                     RefillRule.ON_EMPTY)
                if beads is not None:
                    refill_statistics.add(Refilled(draw.label, beads, identity, draw.squares, game))
                    draw_statistics.refilled(draw.label, beads)
        draw_statistics.learnt([(draw.label, draw.squares) for draw in draws], kept)
        for draw in draws:
            knowledge.beads[draw.label] = len(menace.boxes[draw.label])
        if game == 1:
            knowledge.beads = {label: len(beads) for label, beads in menace.boxes.items()}
        draws_seen, refills_seen = draw_statistics.evidence(), refill_statistics.evidence()
        if draws_rejected is None and not draws_seen.passed:
            draws_rejected = game
        if refills_rejected is None and not refills_seen.passed:
            refills_rejected = game
        draw_peaks = list(map(max, draw_peaks, draws_seen.log_values))
        refill_peaks = list(map(max, refill_peaks, refills_seen.log_values))
        peaks = [max(peaks[0], draws_seen.log_evidence), max(peaks[1], refills_seen.log_evidence)]
    draws_seen, refills_seen = draw_statistics.evidence(), refill_statistics.evidence()
    return Rejections(draws_rejected, refills_rejected, draws_seen.observations,
                      refills_seen.observations, draws_seen, refills_seen, tuple(draw_peaks),
                      tuple(refill_peaks), (peaks[0], peaks[1]))
