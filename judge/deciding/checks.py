"""The checks of SPEC section 7, one function each, named by their check ids."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import Final

from reference.board import EMPTY, EMPTY_BOARD, Board, Cell, O, X, play
from reference.outcome import Outcome
from reference.symmetry import PERMUTATIONS, inverse, stabiliser

from judge.deciding.box_changes import (
    BEAD_CHANGE,
    KEPT,
    REFILL,
    RULES,
    before_update,
    shown,
)
from judge.deciding.dumps import (
    PAST,
    Boxes,
    BoxReader,
    BoxReading,
    DumpReading,
    first_empty_boxes,
    read_dump,
)
from judge.deciding.phrases import (
    EIGHT_LINES,
    GAMES_ASKED,
    NUMBERINGS,
    ON_DRAW,
    ROW_FIRST,
    missed_line,
    why_over,
)
from judge.deciding.randomness import (
    Drawn,
    DrawStatistics,
    Evidence,
    Refilled,
    RefillStatistics,
    counts_of,
    refill_beads,
)
from judge.reading.formats import Counts, is_new_game
from judge.running.ending import Ending
from judge.terms.boxes import Draw
from judge.terms.options import FALSE_ALARM, RefillRule
from judge.terms.text import plural
from judge.terms.verdicts import Check, Failure, Place


def show(counts: Counts) -> str:
    """Beads as a sorted list of squares, e.g. `0 0 4 8`."""
    return " ".join(str(c) for c, n in enumerate(counts) for _ in range(n)) or "(none)"


# -- 1. new-game -------------------------------------------------------------------------

def new_game(line: str, place: Place, *, more: bool = True) -> Failure | None:
    """Check 1: each game starts with the line `new game`; after the last game (`more` False),
    none does."""
    if is_new_game(line) == more:
        return None
    if more:
        return Failure(Check.NEW_GAME, place, "new game", line, hints=(
            "every game starts with the line 'new game', the first and each one after it "
            "(SPEC section 3, step 2.1)",))
    return Failure(Check.NEW_GAME, place,
                   f"exactly {plural(place.game, 'game')}, then the end of output", "new game",
                   hints=(GAMES_ASKED,))


# -- 2. true-board -----------------------------------------------------------------------

def true_board(before: Board, after: Board, place: Place, *,
               o_move: Cell | None = None) -> tuple[Failure | None, Cell]:
    """Check 2: the board printed after `before` is the true board, and the square played.

    After O's move `o_move`, it is the board before with that O; after MENACE's, it has
    exactly one new X on an empty square, and nothing else (on the empty board: the cleared
    board with MENACE's first X).
    """
    if o_move is not None:
        expected = play(before, o_move)
        if after == expected:
            return None, o_move
        shown, rule = _o_move_misplayed(before, after, o_move)
        return Failure(Check.TRUE_BOARD, place, expected, after, evidence=shown,
                       hints=rule), o_move
    changed = [c for c in range(9) if before[c] != after[c]]
    if len(changed) == 1 and before[changed[0]] == EMPTY and after[changed[0]] == X:
        return None, Cell(changed[0])
    should = ("a cleared board with MENACE's first X" if before == EMPTY_BOARD
              else f"{before} with one new X on an empty square")
    evidence: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    if before != EMPTY_BOARD and not changed:
        evidence = ("the board is the one before MENACE's move: no X was added",)
        hints = ("MENACE's move puts one X on an empty square (SPEC section 7, check 2): print "
                 "the board after the X is placed; if the program drew a bead for a taken "
                 "square, its boxes must hold beads only for their labels' empty squares "
                 "(SPEC section 4)",)
    elif before != EMPTY_BOARD and len(changed) == 1 and after[changed[0]] == X:
        square = changed[0]
        evidence = (f"MENACE's X is on square {square}, which {before[square]} held",)
        hints = ("MENACE moves only onto an empty square: a box holds beads only for its "
                 "label's empty squares (SPEC section 4), and a bead's square is carried onto "
                 "the board by the symmetry that turns the label into the board (SPEC section "
                 "5)",)
    return Failure(Check.TRUE_BOARD, place, should, after, evidence=evidence,
                   hints=hints), Cell(0)



def _o_move_misplayed(before: Board, after: Board,
                      o_move: Cell) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What a board printed after O's move shows of how the move was read, and the rule: no O
    added, or O on the square mirrored in the main diagonal (the move read column first)."""
    if after == before:
        return (("the board is the one before O's move: no O was added",),
                ("the program plays O's move, then prints the board (SPEC section 3, step 3)",))
    row, column = divmod(o_move, 3)
    swapped = Cell(column * 3 + row)
    if swapped != o_move and after == before[:swapped] + O + before[swapped + 1:]:
        taken = f", over the {before[swapped]} there" if before[swapped] != EMPTY else ""
        return ((f"O is on square {swapped}, not on square {o_move}{taken}: the move read "
                 "column first",),
                (ROW_FIRST,))
    return (), ()

# -- 3. game-end -------------------------------------------------------------------------

def game_end(board: Board, over: bool, came: str, place: Place) -> Failure:
    """Check 3: the failure of a game that went on after its end (`over`: what `came` instead
    of the dump), or stopped before it (what came instead of the next board)."""
    if over:
        return Failure(Check.GAME_END, place,
                       f"the matchbox dump: the game is over on {board}", came,
                       evidence=(f"the game was over: {why_over(board)}",),
                       hints=(missed_line(board),))
    return Failure(Check.GAME_END, place, f"a board: the game is not over on {board}", came,
                   hints=("a game goes on until a side has three in a row or the board is "
                          "full: the program ended it too soon",))


# -- 4. interactive ----------------------------------------------------------------------

def interactive(waiting_for_input: bool) -> Check | None:
    """Check 4: a silent program blocked reading its input did not show its move first (an
    idle program that was not is idle, and no check of its own fails)."""
    return Check.INTERACTIVE if waiting_for_input else None


# -- 5. dump ----------------------------------------------------------------------------

def dump(texts: Sequence[str], reader: BoxReader, place: Place,
         previous: DumpReading | None = None, *,
         game_one: tuple[Sequence[Draw], Outcome] | None = None,
         drawn: Sequence[Draw] = ()) -> tuple[Failure | None, DumpReading]:
    """Check 5 on a dump's lines, each read by `reader` (judge/deciding/dumps.py): 304 boxes,
    one for each box of SPEC 4, every bead on an empty square of its label, none empty (but
    where the on-draw refill allows it); and the dump as read.

    After a labelled dump of 304 boxes (`previous`), only the lines that differ are read again.
    `game_one`, MENACE's draws and result in game 1, holds the first dump to the boxes game 1
    can have emptied; `drawn`, the game's draws, relates a bead on a taken square of a box
    drawn from to the square drawn.
    """
    failure, reading = read_dump(list(texts), reader, place, previous,
                                 drawn or (game_one[0] if game_one else ()))
    if failure is None and game_one is not None:
        failure = first_empty_boxes(reading, list(game_one[0]), game_one[1], place)
    return failure, reading


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


def _expected_change(before: Counts, squares: frozenset[Cell], outcome: Outcome,
                     refill: RefillRule) -> str:
    """What SPEC 5 says a drawn box becomes, in words."""
    names = "/".join(str(s) for s in sorted(squares))
    refilled_from = 1 if refill is RefillRule.ON_EMPTY else 0
    if sum(before) == refilled_from:
        return f"a refill of 3 beads, then the {outcome.word} rule for square {names}"
    delta = {Outcome.WIN: "one more bead", Outcome.DRAW: "no change",
             Outcome.LOSS: "one bead fewer"}[outcome]
    return f"{show(before)} before the game, {delta} of square {names} after a {outcome.word}"


def _after(before: Counts, squares: frozenset[Cell], outcome: Outcome,
           refill: RefillRule, got: Counts) -> Counts | None:
    """What SPEC 5 says a drawn box holds after the game, for the square of the drawn one's
    orbit nearest to what it holds (`got`); None after a refill (its beads are random)."""
    if sum(before) == (1 if refill is RefillRule.ON_EMPTY else 0):
        return None
    def after(square: Cell) -> Counts:
        counts = list(before)
        counts[square] += BEAD_CHANGE[outcome]
        return tuple(counts)
    return min((after(s) for s in sorted(squares) if before[s]),
               key=lambda should: (_distance(got, should), should != after(min(squares))),
               default=after(min(squares)))


def _distance(got: Counts, should: Counts) -> int:
    """How many beads two boxes differ by, square by square."""
    return sum(abs(a - b) for a, b in zip(got, should, strict=True))


def _difference(got: Counts, should: Counts | None) -> tuple[str, ...]:
    """Where a box's beads differ from what they should be, square by square."""
    if should is None:
        return ()
    wrong = [f"square {c}: {plural(got[c], 'bead')}, {should[c]} expected"
             for c in range(9) if got[c] != should[c]]
    return ("difference: " + "; ".join(wrong),) if wrong else ()


def learning_labelled(before: Boxes, after: Boxes, draws: Sequence[Draw], outcome: Outcome,
                      refill: RefillRule, place: Place,
                      changed: frozenset[Board] | None = None) -> Failure | None:
    """Check 6 for labelled dumps: only the boxes drawn from change, each as SPEC 5 says.

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
            change = _expected_change(old, draw.squares, outcome, refill)
            should = _after(old, draw.squares, outcome, refill, after[label])
            emptied = refill is RefillRule.ON_EMPTY and sum(old) == 1
            what = shown(old, frames, draw, outcome, refill)
            learnt_as = () if should is None else _learnt_as(old, frames, draw.squares,
                                                             outcome, refill)
            return Failure(Check.LEARNING, place,
                           f"box {label}: " + (change if should is None
                                               else f"{show(should)} ({change})"),
                           show(after[label]), subject=label,
                           evidence=(*_difference(after[label], should), *what.evidence,
                                     *learnt_as),
                           hints=what.hints,
                           declarable=((ON_DRAW,) if emptied else ()) + NUMBERINGS)
    return None


def learning(before: DumpReading, after: DumpReading, draws: Sequence[Draw], outcome: Outcome,
             refill: RefillRule, place: Place, reader: BoxReader, *,
             board: Board | None = None,
             last_game: tuple[Sequence[Draw], Outcome] | None = None) -> Failure | None:
    """Check 6: from one dump to the next, only the boxes drawn from change, as SPEC 5 says;
    a failure shows the box's line in both dumps, and, given the `board` the game ended on,
    how the game ended where the program learned as for another result; given the previous
    game's draws and result (`last_game`), whether the dump holds the boxes before this
    game's update."""
    if after.boxes is not None and before.boxes is not None:
        failure = learning_labelled(before.boxes, after.boxes, draws, outcome, refill, place,
                                    after.changed)
        if failure is not None:
            printed = ("previous dump: " + _printed(before, reader, failure.subject),
                       "this dump:     " + _printed(after, reader, failure.subject))
            if last_game is not None and before_update(before.boxes, after.boxes, last_game,
                                                       draws, refill, label_frames):
                return replace(failure, evidence=(*_difference_lines(failure), *printed,
                                                  _BEFORE_UPDATE.format(game=place.game,
                                                                        last=place.game - 1)),
                               hints=(PRINT_AFTER_LEARNING,), declarable=())
            failure = replace(failure, evidence=(*failure.evidence, *printed))
    elif after.boxes is None and before.boxes is None:
        failure = learning_unlabelled(before.unlabelled, after.unlabelled, len(draws), outcome,
                                      place)
    else:
        return Failure(None, place, "dumps all labelled or all unlabelled",
                       "a change of form between dumps")
    return failure if failure is None or board is None else _with_ending(failure, outcome, board)


_BEFORE_UPDATE: Final = (
    "this dump holds the boxes before game {game}'s update: every box MENACE drew from in game "
    "{game} is a bead short, and game {last}'s learning shows only now")
PRINT_AFTER_LEARNING: Final = (
    "print the matchboxes after MENACE learns from the game, not before (SPEC section 3, step "
    "4): each dump holds the boxes after that game's update")


def _difference_lines(failure: Failure) -> tuple[str, ...]:
    """The failure's line on how the box differs from what it should hold."""
    return tuple(line for line in failure.evidence if line.startswith("difference: "))


def _printed(dump: DumpReading, reader: BoxReader, label: str) -> str:
    """The line of a dump that holds the box `label`."""
    return next((text for text in dump.texts if reader.read(text).label == label),
                "(no such line)")


def _with_ending(failure: Failure, outcome: Outcome, board: Board) -> Failure:
    """A learning failure that scored the game as another result, with how the game ended:
    the line the program may have missed."""
    if outcome is Outcome.DRAW or \
            not any("learned as for a" in line for line in failure.evidence):
        return failure
    rule = RULES[outcome]
    return replace(failure, evidence=(*failure.evidence,
                                      f"MENACE {PAST[outcome]}: {why_over(board)}"),
                   hints=(*failure.hints, f"{rule} (SPEC section 5); if the program did not "
                          f"see how the game ended, check its test for a line: {EIGHT_LINES}"))


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
        return Failure(Check.LEARNING, place,
                       f"at most {plural(draws, 'box', 'boxes')} changed, one for each draw",
                       f"{plural(len(changed), 'box', 'boxes')} changed")
    for b, a in changed:
        if not _unlabelled_change_ok(b, a, outcome):
            learnt_as = [other for other in Outcome
                         if other is not outcome and _unlabelled_change_ok(b, a, other)]
            return Failure(Check.LEARNING, place,
                           f"a box changed by the {outcome.word} rule",
                           f"{show(b)} became {show(a)}",
                           evidence=tuple(f"MENACE {PAST[outcome]} here, but the program "
                                          f"learned as for a {other.word}"
                                          for other in learnt_as[:1]),
                           declarable=(ON_DRAW,) if sum(b) == 1 else ())
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
            index: int, place: Place, answering: Cell | None = None) -> Failure | None:
        """Account for the `index`-th draw of a game, made after the opponent's move
        `answering` (label frame; None for MENACE's first move); a move to a square without
        beads fails."""
        if not beads:
            return None
        if not any(square in squares for square in beads):
            return Failure(Check.BEAD_DRAWS, place,
                           f"a square with beads in box {label} ({show(counts_of(beads))})",
                           f"square {'/'.join(str(s) for s in sorted(squares))}, which had none",
                           subject=label,
                           hints=("a move is a bead drawn from the box of the board MENACE "
                                  "faces (SPEC section 5): MENACE played a square of which "
                                  "the previous dump showed no bead in that box",),
                           declarable=(ON_DRAW, *NUMBERINGS))
        self.statistics.add(Drawn(label, beads, squares, game, index, answering))
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
    hints: tuple[str, ...] = ()
    if test.strongest.startswith("always the first bead as printed"):
        hints = ("its draws follow the order in which it printed each box's beads: the draw is "
                 "made at the move (SPEC section 5), so shuffling a box as it is printed and "
                 "taking its first bead next game fixes every draw in advance; draw a bead "
                 "at random when MENACE moves",)
    return Failure(Check.BEAD_DRAWS, place, DRAW_LAW, test.describe("move", DRAW_LAW),
                   evidence=_per_alternative(test), hints=hints)


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
    return Failure(Check.LEARNING, place, REFILL_LAW, test.describe("refill", REFILL_LAW),
                   evidence=_per_alternative(test))


SHOWN: Final = 12
"""The alternatives a report shows, strongest first; the JSON report has every one."""


def _per_alternative(test: Evidence) -> tuple[str, ...]:
    """The evidence for the strongest alternatives, a line each, for the report."""
    lines = test.per_alternative()
    rest = (f"  and {plural(len(lines) - SHOWN, 'more alternative')}, each weaker (all in the "
            "JSON report, --json)",) if len(lines) > SHOWN else ()
    return ("likelihood ratio of each alternative against the SPEC's law, mixed over the game "
            "its fault would start at:",
            *(f"  {line}" for line in lines[:SHOWN]), *rest)


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
                       f"it exited with status 0 before the end, {place.within}")
    if ending.leftovers:
        left = plural(ending.leftovers, "process", "processes")
        return Failure(Check.EXIT, place, "nothing left running after the exit",
                       f"it left {left} running after it exited")
    return None
