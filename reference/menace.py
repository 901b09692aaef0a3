"""MENACE itself: matchboxes of beads counted per square, a bead drawn per move, learning per game.

A bead drawn is kept aside, as SPEC 5 says; but since a box is drawn from at most once a game,
no draw can tell whether it left its box. So it stays in the box, with what a win adds to it
(`loop.at_once`), and the game's end gives the box what the result returns instead. The game
loop does the same, in the same order, so both leave the same entries in every box and draw the
same squares from the same numbers. What MENACE shows (`counts`, `contents`) is SPEC's: the
beads kept aside are out of their boxes until the game ends.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from reference.beads import Box, Counts, counts_of
from reference.board import (
    CELLS,
    EMPTY,
    Board,
    Cell,
    IllegalMoveError,
    X,
    empty_cells,
    is_over,
    to_move,
)
from reference.boxes import BoxId, box_labels, distinct_squares
from reference.draws import Draws, draws_from
from reference.loop import at_once, match_of, play_games
from reference.outcome import Outcome, Tally
from reference.positions import OpponentTable, result_of
from reference.rules import CHALLENGE, EmptyBox, Rules
from reference.symmetry import canonical, inverse, map_cell
from reference.tables import box_table


class InvalidBoxesError(ValueError):
    """Matchbox contents that do not fit MENACE's boxes: a wrong label, an illegal bead, no bead."""


def initial_counts(rules: Rules = CHALLENGE, player: str = X) -> dict[Board, Counts]:
    """The beads each box starts with under these rules, counted per square, by label."""
    return dict(_initial_counts(rules, player))


@cache
def _initial_counts(rules: Rules, player: str) -> dict[Board, Counts]:
    """The beads each box starts with, made once a process for each rule set and player."""
    counts = {}
    for label in box_labels(player):
        squares = distinct_squares(label) if rules.distinct_moves_only else empty_cells(label)
        count = rules.initial_beads[label.count(player)]
        counts[label] = tuple(count if c in squares else 0 for c in CELLS)
    return counts


@cache
def _fresh_boxes(rules: Rules, player: str) -> tuple[Box, ...]:
    """The boxes as the rules start them, in box order, made once a process: copied, not changed."""
    return tuple(Box(row) for row in _initial_counts(rules, player).values())


def initial_contents(rules: Rules = CHALLENGE, player: str = X) -> dict[Board, list[Cell]]:
    """The beads each box starts with under these rules, one cell number per bead, by label."""
    return {label: [Cell(c) for c in CELLS for _ in range(counts[c])]
            for label, counts in initial_counts(rules, player).items()}


@cache
def _box_numbers(player: str) -> Mapping[Board, BoxId]:
    """Each box's place in the box order, by label, made once a process and only read."""
    return {label: box for box, label in enumerate(box_labels(player))}


class Menace:
    """A MENACE that plays `player` under `rules`, drawing beads with `rng`.

    Its boxes start as the rules say, or hold `contents` (a list of beads per label) or
    `counts` (beads per square per label).
    """

    def __init__(
        self,
        rules: Rules = CHALLENGE,
        *,
        player: str = X,
        rng: random.Random | None = None,
        contents: Mapping[Board, Iterable[int]] | None = None,
        counts: Mapping[Board, Sequence[int]] | None = None,
    ) -> None:
        self.rules = rules
        self.player = player
        self.rng = rng if rng is not None else random.Random()
        self._labels = box_labels(player)
        self._index = _box_numbers(player)
        self._empties = box_table(player).label_empties
        self._drawn: list[tuple[BoxId, Cell, bool]] = []
        """The beads drawn this game, kept aside: box, square, and True once taken out of the box
        (else still counted in it, as after a win)."""
        self._boxes = [box.copy() for box in _fresh_boxes(rules, player)]
        if contents is not None:
            self.load(contents)
        if counts is not None:
            self.load_counts(counts)

    @property
    def live_boxes(self) -> list[Box]:
        """Each box in box order: the live boxes, which the game loop draws from and changes."""
        return self._boxes

    @property
    def draws(self) -> Draws:
        """The draws of this MENACE's generator, shared by everything that draws with it."""
        return draws_from(self.rng)

    @property
    def labels(self) -> tuple[Board, ...]:
        """The boxes' labels, in the fixed box order."""
        return self._labels

    def counts(self) -> dict[Board, Counts]:
        """The beads of every box counted per square (squares 0 to 8), by label in box order;
        the beads kept aside are not in their boxes."""
        rows = [list(box.counts) for box in self._boxes]
        for box, square, out in self._drawn:
            if not out:
                rows[box][square] -= 1 + at_once(self.rules)
        return {label: tuple(row) for label, row in zip(self.labels, rows, strict=True)}

    def contents(self) -> dict[Board, tuple[Cell, ...]]:
        """The beads of every box, sorted, by label in box order: one item per bead."""
        return {label: tuple(Cell(c) for c in CELLS for _ in range(row[c]))
                for label, row in self.counts().items()}

    def load(self, contents: Mapping[Board, Iterable[int]]) -> None:
        """Replace every box's beads by these lists of beads, once checked to fit this MENACE."""
        counts: dict[Board, Counts] = {}
        for label, beads in contents.items():
            cells = list(beads)
            for bead in cells:
                if not isinstance(bead, int) or not 0 <= bead <= 8 or (
                        label in self._index and label[bead] != EMPTY):
                    raise InvalidBoxesError(f"box {label!r} holds an illegal bead {bead!r}")
            counts[label] = counts_of(cells)
        self.load_counts(counts)

    def load_counts(self, counts: Mapping[Board, Sequence[int]]) -> None:
        """Replace every box's beads by these counts per square, once checked to fit this MENACE."""
        index = self._index
        unknown = sorted(set(counts) - set(index))
        if unknown:
            raise InvalidBoxesError(f"no box of player {self.player} is labelled {unknown[0]!r}")
        missing = [label for label in self.labels if label not in counts]
        if missing:
            raise InvalidBoxesError(f"{len(missing)} boxes are missing, the first {missing[0]!r}")
        loaded: list[list[int]] = [[] for _ in self.labels]
        for label, per_square in counts.items():
            row = list(per_square)
            if len(row) != len(CELLS) or not all(type(c) is int and c >= 0 for c in row):
                raise InvalidBoxesError(f"box {label!r} does not hold nine bead counts of at "
                                        "least 0")
            taken = next((c for c in CELLS if row[c] and label[c] != EMPTY), None)
            if taken is not None:
                raise InvalidBoxesError(f"box {label!r} holds an illegal bead {taken!r}")
            if not any(row) and self.rules.empty_box is EmptyBox.REFILL:
                raise InvalidBoxesError(f"box {label!r} is empty, which the refill rule forbids")
            loaded[index[label]] = row
        for box, row in zip(self._boxes, loaded, strict=True):
            box.load(row)  # in place: a match built on these boxes stays valid
        self._drawn = []

    def reset(self) -> None:
        """Forget everything learned: every box back to the beads the rules start it with."""
        for box, fresh in zip(self._boxes, _fresh_boxes(self.rules, self.player), strict=True):
            box.assign(fresh)
        self._drawn = []

    def move(self, board: Board) -> Cell | None:
        """The square MENACE takes on `board`, its bead kept aside; None when it resigns."""
        if is_over(board) or to_move(board) != self.player:
            raise IllegalMoveError(f"it is not {self.player}'s move on {board!r}")
        empties = empty_cells(board)
        if len(empties) == 1:
            return empties[0]
        label, to_label = canonical(board)
        box = self._index[label]
        self._take_out(box)
        if not self._boxes[box].total:
            if self.rules.empty_box is EmptyBox.RESIGN:
                return None
            return empties[self.draws.below(len(empties))]
        return map_cell(inverse(to_label), self._take_bead(box))

    def _take_bead(self, box: BoxId) -> Cell:
        """Draw a bead from a box at random, keep it aside, and refill the box if it is empty."""
        beads = self._boxes[box]
        draws = self.draws
        square = beads.draw(draws)
        if beads.total == 1:  # taking it out empties the box
            beads.add(square, -1)
            if self.rules.empty_box is EmptyBox.REFILL:
                empties = self._empties[box]
                for _ in range(self.rules.refill_beads):
                    beads.add(empties[draws.below(len(empties))], 1)
            beads.add(square, 1)
        beads.grow(square, at_once(self.rules))  # counted in its box, as after a win, till the end
        self._drawn.append((box, square, False))
        return square

    def _take_out(self, box: BoxId) -> None:
        """Take out of `box` a bead drawn from it this game and still counted in it (only a
        second draw from one box in one game needs it, as when a test draws at will)."""
        for k, (drawn, square, out) in enumerate(self._drawn):
            if drawn == box and not out:
                self._boxes[box].add(square, -1 - at_once(self.rules))
                self._drawn[k] = (drawn, square, True)

    def learn(self, outcome: Outcome) -> tuple[tuple[BoxId, Cell], ...]:
        """Put the beads kept aside back as the outcome says, the last drawn first: the (box, bead)
        pairs drawn."""
        returned = self.rules.beads_returned(outcome)
        self._end(returned)
        drawn = tuple((box, square) for box, square, _ in self._drawn)
        self._drawn = []
        return drawn

    def _end(self, returned: int) -> None:
        """Give each bead drawn this game, the last first, `returned` beads of its square in all."""
        for box, square, out in reversed(self._drawn):
            change = returned if out else returned - 1 - at_once(self.rules)
            if change:  # as the game loop: no change, nothing done
                self._boxes[box].add(square, change)

    def new_game(self) -> None:
        """Start a game, the beads kept aside from any game not learned from left out (the testing
        toolkit's adapter verb)."""
        self._end(0)
        self._drawn = []

    def end(self, outcome: str) -> None:
        """Learn from a game that ended in `outcome`: `win`, `draw` or `loss` (adapter verb)."""
        self.learn(Outcome[outcome.upper()])

    def boxes(self) -> dict[Board, tuple[Cell, ...]]:
        """The beads of every box by label (adapter verb): the same as `contents`."""
        return self.contents()

    def train(self, opponent: OpponentTable, games: int) -> Tally:
        """Play and learn from `games` games against an opponent given as data; the tally."""
        played = play_games([match_of(self, opponent)], games, self.draws)
        return Tally(*(played.results.count(result_of(self.player, o)) for o in Outcome))
