"""MENACE itself: matchboxes of beads, a bead drawn for each move, and learning after each game."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from reference.beads import first_of, put_back, take_out
from reference.board import (
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
from reference.loop import Match, play_games
from reference.outcome import Outcome, Tally
from reference.positions import OpponentTable, result_of
from reference.rules import CHALLENGE, EmptyBox, Rules
from reference.symmetry import canonical, inverse, map_cell


class InvalidBoxesError(ValueError):
    """Matchbox contents that do not fit MENACE's boxes: a wrong label, an illegal bead, an empty box."""


def initial_contents(rules: Rules = CHALLENGE, player: str = X) -> dict[Board, list[Cell]]:
    """The beads each box starts with under these rules, by label."""
    contents = {}
    for label in box_labels(player):
        squares = distinct_squares(label) if rules.distinct_moves_only else empty_cells(label)
        count = rules.initial_beads[label.count(player)]
        contents[label] = [c for c in squares for _ in range(count)]
    return contents


class Menace:
    """A MENACE that plays `player` under `rules`, drawing beads with `rng`."""

    def __init__(
        self,
        rules: Rules = CHALLENGE,
        *,
        player: str = X,
        rng: random.Random | None = None,
        contents: Mapping[Board, Iterable[int]] | None = None,
    ) -> None:
        self.rules = rules
        self.player = player
        self.rng = rng if rng is not None else random.Random()
        self._labels = box_labels(player)
        self._index = {label: box for box, label in enumerate(self._labels)}
        self._empties = tuple(empty_cells(label) for label in self._labels)
        self._drawn: list[tuple[BoxId, int, Cell]] = []
        """The beads drawn this game: box, place in its list, bead."""
        self._beads: list[list[Cell]] = list(initial_contents(rules, player).values())
        if contents is not None:
            self.load(contents)

    @property
    def live_beads(self) -> list[list[Cell]]:
        """Each box's beads in box order: the live lists, which the game loop draws from and refills."""
        return self._beads

    @property
    def draws(self) -> Draws:
        """The draws of this MENACE's generator, shared by everything that draws with it."""
        return draws_from(self.rng)

    @property
    def labels(self) -> tuple[Board, ...]:
        """The boxes' labels, in the fixed box order."""
        return self._labels

    def contents(self) -> dict[Board, tuple[Cell, ...]]:
        """The beads of every box, sorted, by label in box order."""
        return {label: tuple(sorted(beads))
                for label, beads in zip(self.labels, self._beads, strict=True)}

    def load(self, contents: Mapping[Board, Iterable[int]]) -> None:
        """Replace every box's beads, after checking they fit this MENACE's boxes."""
        index = self._index
        unknown = sorted(set(contents) - set(index))
        if unknown:
            raise InvalidBoxesError(f"no box of player {self.player} is labelled {unknown[0]!r}")
        missing = [label for label in self.labels if label not in contents]
        if missing:
            raise InvalidBoxesError(f"{len(missing)} boxes are missing, the first {missing[0]!r}")
        loaded: list[list[Cell]] = [[] for _ in self.labels]
        for label, beads in contents.items():
            box = index[label]
            cells = list(beads)
            for bead in cells:
                if not isinstance(bead, int) or not 0 <= bead <= 8 or label[bead] != EMPTY:
                    raise InvalidBoxesError(f"box {label!r} holds an illegal bead {bead!r}")
            if not cells and self.rules.empty_box is EmptyBox.REFILL:
                raise InvalidBoxesError(f"box {label!r} is empty, which the refill rule forbids")
            loaded[box] = [Cell(c) for c in cells]
        for box, beads in enumerate(loaded):
            self._beads[box][:] = beads  # in place: a match built on these lists stays valid
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
        if not self._beads[box]:
            if self.rules.empty_box is EmptyBox.RESIGN:
                return None
            return empties[self.draws.below(len(empties))]
        return map_cell(inverse(to_label), self._take_bead(box))

    def _take_bead(self, box: BoxId) -> Cell:
        """Draw a bead from a box at random, keep it aside, and refill the box if it is left empty."""
        beads = self._beads[box]
        draws = self.draws
        place = first_of(beads, draws.below(len(beads)))
        bead = take_out(beads, place)
        if not beads and self.rules.empty_box is EmptyBox.REFILL:
            empties = self._empties[box]
            beads.extend(empties[draws.below(len(empties))] for _ in range(self.rules.refill_beads))
        self._drawn.append((box, place, bead))
        return bead

    def learn(self, outcome: Outcome) -> tuple[tuple[BoxId, Cell], ...]:
        """Put the beads kept aside back as the outcome says, the last drawn first; the (box, bead) pairs drawn."""
        returned = self.rules.beads_returned(outcome)
        for box, place, bead in reversed(self._drawn):
            put_back(self._beads[box], place, bead, returned)
        drawn = tuple((box, bead) for box, _, bead in self._drawn)
        self._drawn = []
        return drawn

    def new_game(self) -> None:
        """Start a game with no bead kept aside (the testing toolkit's adapter verb)."""
        self._drawn = []

    def end(self, outcome: str) -> None:
        """Learn from a game that ended in `outcome`: `win`, `draw` or `loss` (adapter verb)."""
        self.learn(Outcome[outcome.upper()])

    def boxes(self) -> dict[Board, tuple[Cell, ...]]:
        """The beads of every box by label (adapter verb): the same as `contents`."""
        return self.contents()

    def train(self, opponent: OpponentTable, games: int) -> Tally:
        """Play and learn from `games` games against an opponent given as data; the tally."""
        played = play_games([Match(self, opponent)], games, self.draws)
        return Tally(*(played.results.count(result_of(self.player, o)) for o in Outcome))
