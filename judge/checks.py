"""The checks of SPEC section 7, one function each, named by their check ids."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from itertools import compress
from operator import ne
from typing import Final

from reference.board import EMPTY, Board, Cell, O, X, play, winner
from reference.outcome import Outcome
from reference.symmetry import IDENTITY, PERMUTATIONS, Symmetry, inverse, stabiliser

from judge.boxes import BOX_COUNT, Draw, box_labels, orientations
from judge.formats import BeadError, Counts, Symbols, UnreadableError, bead_squares, read_box_line
from judge.options import BeadFormat, RefillRule
from judge.randomness import (
    FALSE_ALARM,
    Drawn,
    DrawStatistics,
    Evidence,
    Refilled,
    RefillStatistics,
    counts_of,
    refill_beads,
)
from judge.verdict import Check, Ending, Failure, Place

BEAD_CHANGE: Final = {Outcome.WIN: 1, Outcome.DRAW: 0, Outcome.LOSS: -1}
"""SPEC 5: how many beads of each drawn square a box gains after each outcome."""
REFILL: Final = 3
PAST: Final = {Outcome.WIN: "won", Outcome.DRAW: "drew", Outcome.LOSS: "lost"}
"""MENACE's result in a sentence: "MENACE won here"."""
KEPT: Final = {outcome: 1 + change for outcome, change in BEAD_CHANGE.items()}
"""Beads of the drawn square back in the box after the game, by MENACE's result."""


def show(counts: Counts) -> str:
    """Beads as a sorted list of squares, e.g. `0 0 4 8`."""
    return " ".join(str(c) for c, n in enumerate(counts) for _ in range(n)) or "(none)"


# -- 1. new-game -------------------------------------------------------------------------

def new_game(line: str, place: Place) -> Failure | None:
    """Check 1: the game starts with the line `new game`."""
    if line.strip().lower() == "new game":
        return None
    return Failure(Check.NEW_GAME, place, "new game", line)


# -- 2. true-board -----------------------------------------------------------------------

def true_board_first(board: Board, place: Place) -> tuple[Failure | None, Cell]:
    """Check 2, first board of a game: exactly one X, nothing else (the board was cleared)."""
    if board.count(X) == 1 and board.count(EMPTY) == 8:
        return None, Cell(board.index(X))
    return Failure(Check.TRUE_BOARD, place, "a cleared board with MENACE's first X",
                   board), Cell(0)


def true_board_after_opponent(before: Board, cell: Cell, after: Board,
                              place: Place) -> Failure | None:
    """Check 2, after O's move: the board differs from the one before by exactly that O."""
    expected = play(before, cell)
    if after == expected:
        return None
    return Failure(Check.TRUE_BOARD, place, expected, after)


def true_board_after_menace(before: Board, after: Board,
                            place: Place) -> tuple[Failure | None, Cell]:
    """Check 2, after MENACE's move: exactly one new X on an empty square, nothing else."""
    changed = [c for c in range(9) if before[c] != after[c]]
    if len(changed) == 1 and before[changed[0]] == EMPTY and after[changed[0]] == X:
        return None, Cell(changed[0])
    return Failure(Check.TRUE_BOARD, place, f"{before} with one new X on an empty square",
                   after), Cell(0)


# -- 3. game-end -------------------------------------------------------------------------

def game_end(board: Board, over: bool, got: str, line: str, place: Place) -> Failure:
    """Check 3: the failure of a game that went on after its end, or stopped before it."""
    if over:
        return Failure(Check.GAME_END, place,
                       f"the matchbox dump: the game is over on {board}", f"{got}: {line}")
    return Failure(Check.GAME_END, place,
                   f"a board: the game is not over on {board}", f"{got}: {line}")


def game_end_waits(place: Place) -> Failure:
    """Check 3: the failure of a program that asks for a move once the game is over."""
    return Failure(Check.GAME_END, place, "the matchbox dump: the game is over",
                   "it waits for another move")


# -- 4. interactive ----------------------------------------------------------------------

def interactive(waiting_for_input: bool) -> Check | None:
    """Check 4: a silent program blocked reading its input did not show its move first."""
    return Check.INTERACTIVE if waiting_for_input else None


# -- 5. dump -----------------------------------------------------------------------------

Boxes = dict[Board, Counts]
"""A labelled dump: beads of each box in its canonical label's frame."""


@dataclass(frozen=True)
class ReadDump:
    """A dump as read: labelled boxes by label, or unlabelled bead counts in printed order."""

    boxes: Boxes | None
    unlabelled: tuple[Counts, ...]
    lines: int
    texts: tuple[str, ...] = ()
    """The dump's lines as printed."""
    changed: frozenset[Board] | None = None
    """Boxes whose lines differ from the previous dump's, when only those were read again."""
    readings: dict[Board, BoxReading] = field(default_factory=dict)
    """The reading of each labelled box's line."""


def _why_not_a_box(label: Board) -> str:
    """Why a printed label is not one of the 304 boxes."""
    if label.count(X) != label.count(O):
        return "X and O counts differ, so MENACE is not to move"
    if winner(label) is not None:
        return "someone has three in a row"
    if label.count(EMPTY) < 2:
        return "fewer than two empty squares"
    return "it cannot be reached in play"


@dataclass(frozen=True)
class BoxReading:
    """One dump line, read and checked on its own: its box and beads, or what is wrong with it."""

    printed: str | None
    """The label as printed (canonical symbols), None when unlabelled."""
    label: Board | None
    """The box's canonical label, None when unlabelled or not a box."""
    counts: Counts
    """Beads in the canonical label's frame (in the printed frame when unlabelled)."""
    problem: tuple[str, str, Check | None] | None = None
    """What was expected, what came, and the check (None: unreadable), if the line is wrong."""
    beads: tuple[Cell, ...] = ()
    """The beads in the order printed, each in the canonical label's frame."""
    frame: Symmetry = IDENTITY
    """The symmetry carrying the printed label onto the canonical one."""


class BoxReader:
    """Reads dump lines under fixed declarations, remembering each distinct line once read."""

    def __init__(self, symbols: Symbols, numbering: BeadFormat, refill: RefillRule) -> None:
        self.symbols = symbols
        self.numbering = numbering
        self.empty_allowed = refill is RefillRule.ON_DRAW
        self.cache: dict[str, BoxReading] = {}

    def read(self, text: str) -> BoxReading:
        """The reading of one dump line (from the cache when the line was seen before)."""
        reading = self.cache.get(text)
        if reading is None:
            reading = self._read(text)
            if len(self.cache) < 100_000:
                self.cache[text] = reading
        return reading

    def _read(self, text: str) -> BoxReading:
        """Read and check one dump line."""
        def wrong(expected: str, got: str, check: Check | None = Check.DUMP) -> BoxReading:
            return BoxReading(None, None, (), (expected, got, check))
        try:
            entry = read_box_line(text, self.symbols)
            squares = bead_squares(entry.beads, self.numbering)
            counts = counts_of(squares)
        except (UnreadableError, BeadError) as error:
            return wrong("a matchbox: beads as squares", f"{text!r}: {error}", None)
        if not any(counts) and not self.empty_allowed:
            return wrong("no empty box", f"an empty box: {text!r}")
        if entry.label is None:
            return BoxReading(None, None, counts)
        for cell, n in enumerate(counts):
            if n and entry.label[cell] != EMPTY:
                return wrong("every bead on an empty square of its label",
                             f"bead {cell} on {entry.label[cell]}: {text!r}")
        orientation = orientations().get(entry.label)
        if orientation is None:
            return wrong("a label of one of the 304 boxes",
                         f"{entry.label} ({_why_not_a_box(entry.label)}): {text!r}")
        permutation = PERMUTATIONS[orientation.to_label]
        beads = tuple(permutation[square] for square in squares)
        return BoxReading(entry.label, orientation.label, counts_of(beads), beads=beads,
                          frame=orientation.to_label)


def dump(texts: list[str], reader: BoxReader, place: Place) -> tuple[Failure | None, ReadDump]:
    """Check 5: 304 boxes, one per box of SPEC 4, beads on empty squares, none empty."""
    boxes: Boxes = {}
    readings: dict[Board, BoxReading] = {}
    printed_as: dict[Board, str] = {}
    unlabelled: list[Counts] = []
    labelled = True

    def fail(expected: str, got: str, check: Check | None = Check.DUMP) -> tuple[Failure, ReadDump]:
        return Failure(check, place, expected, got), ReadDump(None, (), len(texts))

    for number, text in enumerate(texts, 1):
        reading = reader.read(text)
        if reading.problem is not None:
            expected, got, check = reading.problem
            return fail(expected, f"box {number}, {got}", check)
        if number == 1:
            labelled = reading.printed is not None
        elif (reading.printed is not None) != labelled:
            return fail("every box labelled, or none", f"box {number}: {text!r}", None)
        if reading.label is None:
            unlabelled.append(reading.counts)
            continue
        if reading.label in boxes:
            return fail("each box once", f"{printed_as[reading.label]} and {reading.printed} "
                                         f"are the same box under symmetry (box {number})")
        boxes[reading.label] = reading.counts
        readings[reading.label] = reading
        printed_as[reading.label] = reading.printed or ""
    if len(texts) != BOX_COUNT:
        missing = ""
        if labelled and len(texts) < BOX_COUNT:
            missing = f", e.g. none for {next(b for b in box_labels() if b not in boxes)}"
        return fail(f"{BOX_COUNT} boxes", f"{len(texts)} boxes{missing}")
    return None, ReadDump(boxes if labelled else None, tuple(unlabelled), len(texts), tuple(texts),
                          readings=readings)


def first_empty_boxes(dump: ReadDump, draws: list[Draw], outcome: Outcome,
                      place: Place) -> Failure | None:
    """Check 5 on the first dump: a box can be empty only if game 1 drew its last bead and lost.

    Every box starts with a bead (SPEC 4), so under the on-draw reading a box is empty only
    after a game that took its last bead and did not put it back. Later dumps are held to
    this by the learning check, which compares each box with the one before. In an
    unlabelled dump, only the number of empty boxes can be checked.
    """
    if dump.boxes is None:
        empty = sum(1 for counts in dump.unlabelled if not any(counts))
        allowed = len(draws) if outcome is Outcome.LOSS else 0
        if empty <= allowed:
            return None
        return Failure(Check.DUMP, place, f"at most {allowed} empty box(es): only a lost game "
                       "empties a box, one per bead it drew", f"{empty} empty boxes")
    drawn = {draw.label for draw in draws}
    for label, counts in dump.boxes.items():
        if not any(counts) and (label not in drawn or outcome is not Outcome.LOSS):
            why = ("MENACE did not draw from it in game 1" if label not in drawn
                   else f"MENACE {PAST[outcome]} game 1, so its bead went back")
            return Failure(Check.DUMP, place,
                           "an empty box only where a lost game took its last bead",
                           f"box {label} is empty, but every box starts with a bead and {why}",
                           subject=label)
    return None


def dump_since(previous: ReadDump, texts: list[str], reader: BoxReader,
               place: Place) -> tuple[Failure | None, ReadDump]:
    """Check 5 on a dump, reading again only the lines that differ from the previous dump's."""
    before = previous.texts
    if previous.boxes is None or len(texts) != BOX_COUNT or len(before) != BOX_COUNT:
        return dump(texts, reader, place)
    boxes = dict(previous.boxes)
    readings = dict(previous.readings)
    changed: list[Board] = []
    for old_text, text in compress(zip(before, texts, strict=True), map(ne, before, texts)):
        reading = reader.read(text)
        if (reading.problem is not None or reading.label is None
                or reading.label != reader.read(old_text).label):
            return dump(texts, reader, place)
        boxes[reading.label] = reading.counts
        readings[reading.label] = reading
        changed.append(reading.label)
    return None, ReadDump(boxes, (), len(texts), tuple(texts), frozenset(changed), readings)


# -- 6. learning -------------------------------------------------------------------------

def _box_change_ok(before: Counts, after: Counts, squares: frozenset[Cell], outcome: Outcome,
                   refill: RefillRule) -> bool:
    """True when one drawn box changed as SPEC 5 says (refills included)."""
    kept = KEPT[outcome]
    total_before, total_after = sum(before), sum(after)
    refilled_from = 1 if refill is RefillRule.ON_EMPTY else 0
    if total_before == refilled_from:
        extra = REFILL - (1 - refilled_from)
        if total_after != extra + kept:
            return False
        return kept == 0 or any(after[s] >= kept for s in squares)
    for s in squares:
        if before[s] >= 1:
            expected = list(before)
            expected[s] += BEAD_CHANGE[outcome]
            if tuple(expected) == after:
                return True
    return False


def _expected_change(before: Counts, squares: frozenset[Cell], outcome: Outcome, refill: RefillRule) -> str:
    """What SPEC 5 says a drawn box becomes, in words."""
    names = "/".join(str(s) for s in sorted(squares))
    refilled_from = 1 if refill is RefillRule.ON_EMPTY else 0
    if sum(before) == refilled_from:
        return f"a refill of 3 beads, then the {outcome.word} rule for square {names}"
    delta = {Outcome.WIN: "one more bead", Outcome.DRAW: "no change",
             Outcome.LOSS: "one bead fewer"}[outcome]
    return f"{show(before)} with {delta} of square {names} ({outcome.word})"


def learning(before: Boxes, after: Boxes, draws: list[Draw], outcome: Outcome, refill: RefillRule,
             place: Place, changed: frozenset[Board] | None = None) -> Failure | None:
    """Check 6: between two dumps only the boxes drawn from change, each as SPEC 5 says.

    `changed`, when given, names every box whose line differs: the others are equal.
    """
    drawn = {draw.label: draw for draw in draws}
    others = after.keys() if changed is None else changed
    labels = [*drawn, *sorted(label for label in others if label not in drawn)]
    for label in labels:
        frames, old = label_frames(label, after[label]), before[label]
        draw = drawn.get(label)
        if draw is None:
            if old not in frames:
                return Failure(Check.LEARNING, place,
                               f"box {label} unchanged (MENACE did not draw from it): {show(old)}",
                               show(after[label]), subject=label)
        elif not any(_box_change_ok(old, counts, draw.squares, outcome, refill)
                     for counts in frames):
            return Failure(Check.LEARNING, place,
                           f"box {label}: {_expected_change(old, draw.squares, outcome, refill)}",
                           show(after[label]), subject=label,
                           evidence=_learnt_as(old, frames, draw.squares, outcome, refill))
    return None


@cache
def label_frames(label: Board, counts: Counts) -> frozenset[Counts]:
    """The beads of a box in each of its label's frames: moved by each symmetry of the label.

    A label with symmetries can carry its beads in any of its frames, so a box is compared
    with the previous dump up to these.
    """
    return frozenset(tuple(counts[PERMUTATIONS[inverse(g)][c]] for c in range(9))
                     for g in stabiliser(label))


def _learnt_as(before: Counts, frames: frozenset[Counts], squares: frozenset[Cell],
               outcome: Outcome, refill: RefillRule) -> tuple[str, ...]:
    """In words, the result the program learned for when it scored the game wrongly."""
    for other in Outcome:
        if other is not outcome and any(_box_change_ok(before, counts, squares, other, refill)
                                        for counts in frames):
            return (f"MENACE {PAST[outcome]} here, but the program learned as for a "
                    f"{other.word}",)
    return ()


def learning_unlabelled(before: tuple[Counts, ...], after: tuple[Counts, ...], draws: int,
                        outcome: Outcome, place: Place) -> Failure | None:
    """Check 6 for unlabelled dumps: at most one changed box per draw, each by the right delta."""
    changed = [(b, a) for b, a in zip(before, after, strict=False) if b != a]
    if len(changed) > draws:
        return Failure(Check.LEARNING, place, f"at most {draws} boxes changed",
                       f"{len(changed)} boxes changed")
    for b, a in changed:
        if not _unlabelled_change_ok(b, a, outcome):
            learnt_as = [other for other in Outcome
                         if other is not outcome and _unlabelled_change_ok(b, a, other)]
            return Failure(Check.LEARNING, place,
                           f"a box changed by the {outcome.word} rule",
                           f"{show(b)} became {show(a)}",
                           evidence=tuple(f"MENACE {PAST[outcome]} here, but the program "
                                          f"learned as for a {other.word}"
                                          for other in learnt_as[:1]))
    return None


def _unlabelled_change_ok(before: Counts, after: Counts, outcome: Outcome) -> bool:
    """True when an unlabelled box changed by the outcome's rule, or was refilled."""
    change = BEAD_CHANGE[outcome]
    diffs = [y - x for x, y in zip(before, after, strict=True)]
    refilled = sum(before) == 1 and sum(after) == REFILL + change + 1
    return refilled or (bool(change) and sorted(d for d in diffs if d) == [change])


# -- 7. bead-draws -----------------------------------------------------------------------

DRAW_LAW: Final = "drawing in proportion to the beads"
REFILL_LAW: Final = "refill beads independent and uniform over the label's empty squares"


class BeadDraws:
    """Check 7, pooled over a run: each move's chosen square against the previous dump's beads."""

    def __init__(self, threshold: float = 1 / FALSE_ALARM, measure_power: bool = False) -> None:
        self.statistics = DrawStatistics(threshold, measure_power)

    def add(self, label: Board, beads: tuple[Cell, ...], squares: frozenset[Cell], game: int,
            index: int, place: Place) -> Failure | None:
        """Account for the `index`-th draw of a game; a move to a square without beads fails."""
        if not beads:
            return None
        if not any(square in squares for square in beads):
            return Failure(Check.BEAD_DRAWS, place,
                           f"a square with beads in box {label} ({show(counts_of(beads))})",
                           f"square {'/'.join(str(s) for s in sorted(squares))}, which had none")
        self.statistics.add(Drawn(label, beads, squares, game, index))
        return None

    def learnt(self, draws: list[Draw], outcome: Outcome) -> None:
        """Note what learning put back into the boxes drawn from."""
        self.statistics.learnt([(draw.label, draw.squares) for draw in draws], KEPT[outcome])

    def refilled(self, label: Board, beads: Counts) -> None:
        """Note that a box was emptied and refilled with these beads (for the beads' ages)."""
        self.statistics.refilled(label, beads)

    def result(self) -> Evidence:
        """The pooled test so far."""
        return self.statistics.evidence()


def bead_draws(test: Evidence, place: Place) -> Failure | None:
    """Check 7: the evidence against drawing by the beads has not reached its threshold."""
    if test.passed:
        return None
    return Failure(Check.BEAD_DRAWS, place, DRAW_LAW, test.describe("moves", DRAW_LAW),
                   evidence=_per_alternative(test))


class Refills:
    """Check 6's statistical part, pooled over a run: where the beads of every refill seen went."""

    def __init__(self, seed: int, threshold: float = 1 / FALSE_ALARM,
                 measure_power: bool = False) -> None:
        self.statistics = RefillStatistics(random.Random(seed), threshold, measure_power)

    def add(self, before: BoxReading, after: BoxReading, squares: frozenset[Cell],
            outcome: Outcome, refill: RefillRule, game: int) -> Counts | None:
        """Account for a drawn box between two dumps of game `game`: its refill beads, if any."""
        assert after.label is not None
        beads = refill_beads(before.counts, after.counts, squares, KEPT[outcome], refill)
        if beads is None or not any(beads):
            return None
        printed = PERMUTATIONS[inverse(before.frame)]
        self.statistics.add(Refilled(after.label, beads, printed, squares, game))
        return beads

    def result(self) -> Evidence:
        """The pooled test so far."""
        return self.statistics.evidence()


def refill_beads_check(test: Evidence, place: Place) -> Failure | None:
    """Check 6, refills: the evidence against the refill law has not reached its threshold."""
    if test.passed:
        return None
    return Failure(Check.LEARNING, place, REFILL_LAW, test.describe("refills", REFILL_LAW),
                   evidence=_per_alternative(test))


def _per_alternative(test: Evidence) -> tuple[str, ...]:
    """The evidence for each alternative, a line each, for the report."""
    return ("likelihood ratio of each alternative against the SPEC's law, mixed over the game "
            "its fault would start at:",
            *(f"  {line}" for line in test.per_alternative()))


# -- 8. exit ----------------------------------------------------------------------------

def exit_(ending: Ending, finished: bool, place: Place) -> Failure | None:
    """Check 8: it ended on its own with status 0 only after the last dump, leaving nothing.

    A non-zero status or a signal is a runtime error, and a hang a time limit: the verdict's
    decision order deals with those.
    """
    if ending.killed_by_judge or ending.status != 0:
        return None
    if not finished:
        return Failure(Check.EXIT, place, "the last dump, then exit",
                       f"it exited with status 0 before the end, in {place}")
    if ending.leftovers:
        return Failure(Check.EXIT, place, "nothing left running after the exit",
                       f"it left {ending.leftovers} process(es) running after it exited")
    return None
