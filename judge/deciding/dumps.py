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
from reference.symmetry import IDENTITY, PERMUTATIONS, SYMMETRIES, Symmetry, map_cell

from judge.deciding.box_changes import misplaced
from judge.deciding.phrases import (
    BEAD_FORMS,
    EIGHT_LINES,
    NO_EMPTY_BOX,
    NUMBERINGS,
    ON_DRAW,
    counts_by_move,
    symmetry_between,
    why_over,
)
from judge.deciding.randomness import counts_of
from judge.reading.formats import (
    BeadError,
    Counts,
    Symbols,
    UnreadableError,
    bead_squares,
    guess_numbering,
    read_box_line,
)
from judge.terms.boxes import BOX_COUNT, Draw, box_labels, orientations
from judge.terms.options import BeadFormat, RefillRule
from judge.terms.text import plural
from judge.terms.verdicts import Check, Failure, Place

NOWHERE: Final = Place()
"""The place of a check made outside a run."""
PAST: Final = {Outcome.WIN: "won", Outcome.DRAW: "drew", Outcome.LOSS: "lost"}
"""MENACE's result in a sentence: "MENACE won here"."""


TAKEN_SQUARE: Final = (
    "a bead names an empty square of its box's label (SPEC section 4): a box starts with beads "
    "only for its label's empty squares, and a bead drawn goes back onto the square it was "
    "drawn for, in the label's frame")
"""The hint for a bead on a square its label has taken."""

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


def not_a_box(label: Board) -> tuple[str, str]:
    """Why a printed label is not one of the 304 boxes, and the rule of SPEC section 4 it
    breaks, for the hint."""
    xs, os = label.count(X), label.count(O)
    if xs != os:
        return (f"it has {plural(xs, 'X', 'Xs')} and {plural(os, 'O', 'Os')}, so it is not "
                "MENACE's turn", "MENACE plays X and moves first: it has a box only for "
                "boards with as many Xs as Os (SPEC section 4)")
    if winner(label) is not None:
        return (f"the game is over: {why_over(label)}",
                "a board where a side has three in a row is over and gets no box (SPEC "
                f"section 4): check the program's test for a line, {EIGHT_LINES}")
    if label.count(EMPTY) < 2:  # as many Xs as Os: an odd number of empty squares
        return ("it has one empty square",
                "when only one square is left, MENACE simply takes it, with no box and no "
                "bead (SPEC section 4): a box is for a board with two or more empty squares")
    return "it cannot be reached in play", "a box is for a board reached in play (SPEC section 4)"


@dataclass(frozen=True)
class BoxReading:
    """One dump line, read and checked on its own: its box and beads, or what is wrong with it."""

    printed: str | None
    """The label as printed (canonical symbols), None when unlabelled."""
    label: Board | None
    """The box's canonical label, None when unlabelled or not a box."""
    counts: Counts
    """Beads in the canonical label's frame (in the printed frame when unlabelled)."""
    problem: Failure | None = None
    """What is wrong with the line, if it is (placed nowhere: the dump gives the place)."""
    beads: tuple[Cell, ...] = ()
    """The beads in the order printed, each in the canonical label's frame."""
    frame: Symmetry = IDENTITY
    """The symmetry carrying the printed label onto the canonical one."""
    taken: tuple[Board, Cell] | None = None
    """For a bead on a square its label has taken, where the label is a box's: the box's
    canonical label and that square in its frame."""


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
        def wrong(expected: str, got: str, check: Check | None = Check.DUMP,
                  hints: tuple[str, ...] = (), declarable: tuple[tuple[str, str], ...] = (),
                  taken: tuple[Board, Cell] | None = None) -> BoxReading:
            return BoxReading(None, None, (), Failure(check, NOWHERE, expected, got,
                                                      hints=hints, declarable=declarable),
                              taken=taken)
        try:
            entry = read_box_line(text, self.symbols)
            squares = bead_squares(entry.beads, self.numbering)
            counts = counts_of(squares)
        except (UnreadableError, BeadError) as error:
            return wrong("a matchbox: beads as squares", f"{text!r}: {error}", None,
                         (BEAD_FORMS,), NUMBERINGS)
        if not any(counts) and not self.empty_allowed:
            return wrong("no empty box", f"an empty box: {text!r}", hints=(NO_EMPTY_BOX,),
                         declarable=(ON_DRAW,))
        if entry.label is None:
            return BoxReading(None, None, counts)
        orientation = orientations().get(entry.label)
        for cell, n in enumerate(counts):
            if n and entry.label[cell] != EMPTY:
                return wrong("every bead on an empty square of its label",
                             f"bead {cell} on square {cell}, which {entry.label[cell]} holds in "
                             f"the label {entry.label}: {text!r}", hints=(TAKEN_SQUARE,),
                             declarable=NUMBERINGS, taken=None if orientation is None else (
                                 orientation.label,
                                 PERMUTATIONS[orientation.to_label][Cell(cell)]))
        if orientation is None:
            why, rule = not_a_box(entry.label)
            return wrong("a label of one of the 304 boxes", f"{entry.label} ({why}): {text!r}",
                         hints=(rule,))
        permutation = PERMUTATIONS[orientation.to_label]
        beads = tuple(permutation[square] for square in squares)
        return BoxReading(entry.label, orientation.label, counts_of(beads), beads=beads,
                          frame=orientation.to_label)


def _read_whole(texts: list[str], reader: BoxReader, place: Place,
                drawn: Sequence[Draw] = ()) -> tuple[Failure | None, DumpReading]:
    """Check 5 on every line of a dump: 304 boxes, one per box of SPEC 4, beads on empty
    squares, none empty; a bead on a taken square of a box `drawn` from in the game is
    related to the square drawn."""
    boxes: Boxes = {}
    readings: dict[Board, BoxReading] = {}
    printed_as: dict[Board, str] = {}
    printed_lines: dict[Board, str] = {}
    unlabelled: list[Counts] = []
    labelled = True

    def rejected(expected: str, got: str, check: Check | None = Check.DUMP,
                 evidence: tuple[str, ...] = (), hints: tuple[str, ...] = (),
                 declarable: tuple[tuple[str, str], ...] = ()) -> tuple[Failure, DumpReading]:
        return (Failure(check, place, expected, got, evidence=evidence, hints=hints,
                        declarable=declarable), DumpReading(None, (), len(texts)))

    for number, text in enumerate(texts, 1):
        reading = reader.read(text)
        problem = reading.problem
        if problem is not None:
            counted = () if len(texts) == BOX_COUNT else (
                f"the dump has {plural(len(texts), 'box', 'boxes')}",)
            return rejected(problem.expected, f"box {number}, {problem.got}", problem.check,
                            counted, (*_drawn_for(reading.taken, drawn), *problem.hints),
                            problem.declarable)
        if number == 1:
            labelled = reading.printed is not None
        elif (reading.printed is not None) != labelled:
            return rejected("every box labelled, or none", f"box {number}: {text!r}", None)
        if reading.label is None:
            unlabelled.append(reading.counts)
            continue
        if reading.label in boxes:
            first = printed_as[reading.label]
            return rejected("each box once", f"{first} and {reading.printed} are the same box "
                                         f"under symmetry (box {number})",
                        evidence=(f"{reading.printed} is {first} under "
                                  f"{symmetry_between(first, reading.printed or '')}",
                                  f"box {texts.index(printed_lines[reading.label]) + 1}: "
                                  f"{printed_lines[reading.label]}",
                                  f"box {number}: {text}",
                                  f"the dump has {plural(len(texts), 'box', 'boxes')}"),
                        hints=("a board and its 7 rotations and reflections share one box "
                               "(SPEC section 4): keep one box for each, labelled by any one "
                               "of them, and look a board's box up through its symmetries",))
        boxes[reading.label] = reading.counts
        readings[reading.label] = reading
        printed_as[reading.label] = reading.printed or ""
        printed_lines[reading.label] = text
    if len(texts) != BOX_COUNT:
        return _miscounted(texts, boxes, labelled, place)
    return None, DumpReading(boxes if labelled else None, tuple(unlabelled), len(texts),
                             tuple(texts), readings=readings)


def _drawn_for(taken: tuple[Board, Cell] | None, drawn: Sequence[Draw]) -> tuple[str, ...]:
    """The hint for a bead on a taken square of a box MENACE drew from in the game: the
    symmetry that carries the square drawn onto it, where one does."""
    draw = next((d for d in drawn if taken is not None and d.label == taken[0]), None)
    if draw is None or taken is None:
        return ()
    square = min(draw.squares)
    if not any(map_cell(g, square) == taken[1] for g in SYMMETRIES):
        return ()
    return (f"MENACE drew square {square} from this box in this game: "
            + misplaced(draw, square, taken[1]),)


def _miscounted(texts: list[str], boxes: Boxes, labelled: bool,
                place: Place) -> tuple[Failure, DumpReading]:
    """Check 5 on a dump of other than 304 boxes: how many of each move's boxes it holds, some
    it lacks, and the likely fix."""
    got = plural(len(texts), "box", "boxes")
    evidence: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    if labelled and len(texts) < BOX_COUNT:
        missing = [label for label in box_labels() if label not in boxes]
        examples = [next(b for b in missing if b.count(X) == n) for n in range(4)
                    if any(b.count(X) == n for b in missing)]
        got += f", none for {', '.join(examples[:3])} among others"
        evidence = (f"it holds {counts_by_move(list(boxes))}",)
    if len(texts) < BOX_COUNT * 0.9:
        hints = ("every one of the 304 boxes is there from the first game on, in every dump "
                 "(SPEC section 4): make them all before the first game, not when a board is "
                 "first met",)
    elif len(texts) > BOX_COUNT:
        hints = ("one box for each board MENACE can face with a choice to make, up to the 8 "
                 "symmetries (SPEC section 4): none for a finished board, none with fewer than "
                 "two empty squares, none twice",)
    return (Failure(Check.DUMP, place, f"{BOX_COUNT} boxes", got, evidence=evidence,
                    hints=hints), DumpReading(None, (), len(texts)))


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
        most = plural(allowed, "empty box", "empty boxes")
        return Failure(Check.DUMP, place, f"at most {most}: only a lost game empties a box, one "
                       "per bead it drew", plural(empty, "empty box", "empty boxes"))
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
              previous: DumpReading | None = None,
              drawn: Sequence[Draw] = ()) -> tuple[Failure | None, DumpReading]:
    """Check 5 on a dump's lines, and the dump as read; after a labelled dump of 304 boxes,
    only the lines that differ from its lines are read again. `drawn`: the game's draws,
    for the hint on a bead put back on a taken square."""
    before = previous.texts if previous is not None else ()
    if previous is None or previous.boxes is None or len(texts) != BOX_COUNT \
            or len(before) != BOX_COUNT:
        return _read_whole(texts, reader, place, drawn)
    boxes = dict(previous.boxes)
    readings = dict(previous.readings)
    changed: list[Board] = []
    for old_text, text in compress(zip(before, texts, strict=True), map(ne, before, texts)):
        reading = reader.read(text)
        if (reading.problem is not None or reading.label is None
                or reading.label != reader.read(old_text).label):
            return _read_whole(texts, reader, place, drawn)
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
