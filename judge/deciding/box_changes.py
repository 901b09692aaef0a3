"""What a drawn box's change shows when it breaks the learning rule of SPEC section 5, and the
rule it breaks, for a rejection's evidence and hints: a refill of another size, the drawn
square's beads changed by another count than the result's, a bead put back on another square
(a symmetry that explains it named), or a dump that holds the boxes before the game's update.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Final

from reference.board import Board, Cell
from reference.outcome import Outcome
from reference.symmetry import SYMMETRIES, inverse, map_cell
from reference.symmetry import canonical as canonical_of

from judge.deciding.phrases import name_of
from judge.terms.boxes import Draw
from judge.terms.options import RefillRule
from judge.terms.text import plural

Counts = tuple[int, ...]

BEAD_CHANGE: Final = {Outcome.WIN: 1, Outcome.DRAW: 0, Outcome.LOSS: -1}
"""SPEC 5: how many beads of each drawn square a box gains after each outcome."""
KEPT: Final = {outcome: 1 + change for outcome, change in BEAD_CHANGE.items()}
"""Beads of the drawn square back in the box after the game, by MENACE's result."""
REFILL: Final = 3
RULES: Final = {Outcome.WIN: "after a win the drawn bead goes back with one more bead of its "
                             "square",
                Outcome.DRAW: "after a draw the drawn bead goes back",
                Outcome.LOSS: "after a loss the drawn bead stays out"}
"""SPEC 5's learning rule for each result, in words."""
RULE_COUNTS: Final = {Outcome.WIN: "adds 1", Outcome.DRAW: "adds none",
                      Outcome.LOSS: "takes it away"}
"""What SPEC 5's rule does to the drawn square's beads after each result, in words."""
MICHIE: Final = {Outcome.WIN: 3, Outcome.DRAW: 1}
"""Beads of the drawn square Michie's own MENACE added after a win and a draw (SPEC 5's
challenge adds one after a win, none after a draw)."""


@dataclass(frozen=True)
class Shown:
    """What a box's change shows: facts for the evidence, and the rule broken, for the hints."""

    evidence: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()


def refilled_from(refill: RefillRule) -> int:
    """The beads a drawn box holds in the dump before the game when the draw empties it."""
    return 1 if refill is RefillRule.ON_EMPTY else 0


def _minus(after: Counts, before: Counts) -> Counts:
    """The change from `before` to `after`, square by square."""
    return tuple(a - b for a, b in zip(after, before, strict=True))


def shown(before: Counts, frames: Iterable[Counts], draw: Draw, outcome: Outcome,
          refill: RefillRule) -> Shown:
    """What a drawn box that broke the learning rule shows, `frames` being its beads after the
    game in each frame of its label."""
    frames = sorted(frames)
    kept = KEPT[outcome]
    if sum(before) == refilled_from(refill):
        should = REFILL - (1 - refilled_from(refill)) + kept
        holds = sum(frames[0])
        when = ("when a draw takes a box's last bead, three beads go into it at once"
                if refill is RefillRule.ON_EMPTY else
                "when MENACE draws from an empty box, three beads go into it first")
        return Shown((f"box {draw.label} held {plural(sum(before), 'bead')} before the game, "
                      f"so MENACE's draw emptied it; after the game it holds "
                      f"{plural(holds, 'bead')}",),
                     (f"{when}, each an empty square of its label at random (SPEC section 5): "
                      f"after a refill and this {outcome.word} the box should hold {should} beads; "
                      f"it holds {holds}",))
    for after in frames:
        change = _minus(after, before)
        moved = [c for c in range(9) if change[c]]
        if len(moved) == 1 and moved[0] in draw.squares \
                and change[moved[0]] not in BEAD_CHANGE.values():
            square, gained = moved[0], change[moved[0]]
            michie = ("; Michie's own MENACE added " + plural(MICHIE[outcome], "bead")
                      + f" after a {outcome.word}, the challenge {RULE_COUNTS[outcome]}"
                      if MICHIE.get(outcome) == gained else "")
            return Shown((f"square {square}, the one drawn, {_changed_by(gained)} after a "
                          f"{outcome.word}, where SPEC section 5 {RULE_COUNTS[outcome]}",),
                         (f"{RULES[outcome]} (SPEC section 5){michie}",))
        elsewhere = _put_back_elsewhere(change, draw, kept)
        if elsewhere is not None:
            return elsewhere
    return Shown()


def _changed_by(count: int) -> str:
    """A change of a square's beads in words: `gained 3 beads`, `lost 1 bead`, `is unchanged`."""
    if not count:
        return "is unchanged"
    return f"{'gained' if count > 0 else 'lost'} {plural(abs(count), 'bead')}"


def _put_back_elsewhere(change: Counts, draw: Draw, kept: int) -> Shown | None:
    """A bead taken out of the drawn square and `kept` put back on another: which square, and
    the symmetry that turns one into the other (the one between the board MENACE faced and
    its label, where it is one of them)."""
    drawn = [c for c in draw.squares if change[c] == -1]
    others = [c for c in range(9) if change[c] and c not in draw.squares]
    if kept == 0 or len(drawn) != 1 or len(others) != 1 or change[others[0]] != kept:
        return None
    square, put = drawn[0], others[0]
    return Shown((f"the drawn bead went back on square {put}, not on square {square}, the one "
                  "drawn",), (misplaced(draw, square, put),))


def misplaced(draw: Draw, square: Cell, put: int) -> str:
    """The hint for a bead of square `square` of a box's label put back on square `put`: the
    symmetry that carries one onto the other, in words."""
    turning = [g for g in SYMMETRIES if map_cell(g, square) == put]
    if draw.faced:
        board_to_label = canonical_of(draw.faced)[1]
        to_board = inverse(board_to_label)
        if to_board in turning:
            return (f"square {put} is square {square} of the label carried onto the board "
                    f"MENACE faced, {draw.faced}, by {name_of(to_board)}: a bead goes back on "
                    "its square in the label's frame, the one drawn (SPEC section 5)")
    how = f" (square {put} is square {square} under {name_of(turning[0])})" if turning else ""
    return ("a bead goes back on the square it was drawn for, in its label's frame (SPEC "
            f"section 5){how}")


FramesOf = Callable[[Board, Counts], frozenset[Counts]]
"""A box's beads in each frame of its label."""


def before_update(before: dict[Board, Counts], after: dict[Board, Counts],
                  last_game: tuple[Sequence[Draw], Outcome], draws: Sequence[Draw],
                  refill: RefillRule, frames_of: FramesOf) -> bool:
    """True when the dump `after` holds the boxes before this game's update: the dump before
    it (`before`, itself printed so) with the previous game's learning, less this game's
    draws, so that each box drawn from this game is a bead short."""
    last_draws, last_outcome = last_game
    if not draws:
        return False
    touched: dict[Board, list[tuple[frozenset[Cell], int]]] = {}
    for draw in last_draws:
        touched.setdefault(draw.label, []).append((draw.squares, KEPT[last_outcome]))
    for draw in draws:
        touched.setdefault(draw.label, []).append((draw.squares, -1))
    for label, counts in after.items():
        frames, old = frames_of(label, counts), before[label]
        moves = touched.get(label)
        if moves is None:
            if old not in frames:
                return False
            continue
        held = sum(old) + sum(step for _, step in moves if step > 0)
        if any(step < 0 for _, step in moves) and held == refilled_from(refill):
            refilled = REFILL - (1 - refilled_from(refill))  # at the draw: random beads
            if not any(sum(frame) == refilled for frame in frames):
                return False
        elif not any(_added(old, changes) in frames for changes in
                     product(*[[(s, step) for s in orbit] for orbit, step in moves])):
            return False
    return True


def _added(before: Counts, changes: Sequence[tuple[Cell, int]]) -> Counts:
    """The beads with each (square, count) change made."""
    counts = list(before)
    for square, step in changes:
        counts[square] += step
    return tuple(counts)
