"""Reading a matchbox dump, check 5 of SPEC section 7: each line as a box and its beads, in
every form of SPEC section 8; all 304 boxes, none twice under symmetry, every bead on an empty
square of its label, no box empty (but where the on-draw refill allows it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import ne
from typing import Final

from reference.board import EMPTY, Board, Cell, O, X, winner
from reference.outcome import Outcome
from reference.symmetry import IDENTITY, PERMUTATIONS, Symmetry

from judge.boxes import BOX_COUNT, Draw, box_labels, orientations
from judge.formats import (
    BeadError,
    Counts,
    Symbols,
    UnreadableError,
    bead_squares,
    guess_numbering,
    read_box_line,
)
from judge.options import BeadFormat, RefillRule
from judge.randomness import counts_of
from judge.text import plural
from judge.verdict import Check, Failure, Place

NOWHERE: Final = Place()
"""The place of a check made outside a run."""
PAST: Final = {Outcome.WIN: "won", Outcome.DRAW: "drew", Outcome.LOSS: "lost"}
"""MENACE's result in a sentence: "MENACE won here"."""


Boxes = dict[Board, Counts]
"""A labelled dump: beads of each box in its canonical label's frame."""


@dataclass(frozen=True)
class DumpReading:
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


def _read_whole(texts: list[str], reader: BoxReader,
                place: Place) -> tuple[Failure | None, DumpReading]:
    """Check 5 on every line of a dump: 304 boxes, one per box of SPEC 4, beads on empty
    squares, none empty."""
    boxes: Boxes = {}
    readings: dict[Board, BoxReading] = {}
    printed_as: dict[Board, str] = {}
    unlabelled: list[Counts] = []
    labelled = True

    def fail(expected: str, got: str, check: Check | None = Check.DUMP) -> tuple[Failure, DumpReading]:
        return Failure(check, place, expected, got), DumpReading(None, (), len(texts))

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
    return None, DumpReading(boxes if labelled else None, tuple(unlabelled), len(texts), tuple(texts),
                          readings=readings)


def first_empty_boxes(dump: DumpReading, draws: list[Draw], outcome: Outcome,
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
        return Failure(Check.DUMP, place, f"at most {plural(allowed, 'empty box', 'empty boxes')}: only a lost game "
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


def read_dump(texts: list[str], reader: BoxReader, place: Place = NOWHERE,
              previous: DumpReading | None = None) -> tuple[Failure | None, DumpReading]:
    """Check 5 on a dump's lines, and the dump as read; after a labelled dump of 304 boxes,
    only the lines that differ from its lines are read again."""
    before = previous.texts if previous is not None else ()
    if previous is None or previous.boxes is None or len(texts) != BOX_COUNT \
            or len(before) != BOX_COUNT:
        return _read_whole(texts, reader, place)
    boxes = dict(previous.boxes)
    readings = dict(previous.readings)
    changed: list[Board] = []
    for old_text, text in compress(zip(before, texts, strict=True), map(ne, before, texts)):
        reading = reader.read(text)
        if (reading.problem is not None or reading.label is None
                or reading.label != reader.read(old_text).label):
            return _read_whole(texts, reader, place)
        boxes[reading.label] = reading.counts
        readings[reading.label] = reading
        changed.append(reading.label)
    return None, DumpReading(boxes, (), len(texts), tuple(texts), frozenset(changed), readings)


def box_reader(texts: Sequence[str], symbols: Symbols, numbering: BeadFormat | None,
               refill: RefillRule) -> BoxReader:
    """A reader of dump lines; an undeclared bead numbering (None) is guessed from `texts`."""
    if numbering is None:
        entries = []
        for text in texts:
            try:
                entries.append(read_box_line(text, symbols))
            except UnreadableError:
                continue
        numbering = guess_numbering([e.beads for e in entries], [e.label for e in entries])
    return BoxReader(symbols, numbering, refill)
