"""The 304 matchboxes of SPEC section 4, and how a printed label maps onto its box.

The boxes are derived here a second time, on purpose, from the rules alone (not from
`reference.boxes`): the judge is an independent oracle, so a fault in the reference's
derivation cannot hide the same fault in the judge. `tests/test_boxes.py` checks that the
two derivations agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from reference.board import EMPTY, EMPTY_BOARD, Board, Cell, O, X, winner
from reference.symmetry import Symmetry, canonical, images, inverse, map_cell, stabiliser

BOX_COUNT: Final = 304


def needs_box(board: Board) -> bool:
    """True when MENACE faces a choice on this board: X to move, no winner, two or more empty."""
    return (board.count(X) == board.count(O) and winner(board) is None
            and board.count(EMPTY) >= 2)


@dataclass(frozen=True)
class Orientation:
    """A printed label: the box it stands for and the symmetry carrying it onto the box's label."""

    label: Board
    to_label: Symmetry


@cache
def label_of(board: Board) -> tuple[Board, Symmetry]:
    """The canonical label of a board and the first symmetry carrying the board onto it (cached)."""
    return canonical(board)


@cache
def box_labels() -> tuple[Board, ...]:
    """The canonical labels of the 304 boxes, sorted, found by playing from the empty board."""
    seen = {EMPTY_BOARD}
    frontier = [EMPTY_BOARD]
    labels = []
    while frontier:
        board = frontier.pop()
        if needs_box(board):
            labels.append(board)
        if winner(board) is not None:
            continue
        mark = X if board.count(X) == board.count(O) else O
        for cell, here in enumerate(board):
            if here == EMPTY:
                after, _ = canonical(board[:cell] + mark + board[cell + 1:])
                if after not in seen:
                    seen.add(after)
                    frontier.append(after)
    assert len(labels) == BOX_COUNT
    return tuple(sorted(labels))


@cache
def orientations() -> dict[Board, Orientation]:
    """Every image of every box label, with the box it stands for."""
    table: dict[Board, Orientation] = {}
    for label in box_labels():
        for h, image in enumerate(images(label)):
            table.setdefault(image, Orientation(label, inverse(Symmetry(h))))
    return table


@cache
def square_orbit(label: Board, square: Cell) -> frozenset[Cell]:
    """The squares of `label` that its symmetries identify with `square`."""
    return frozenset(map_cell(g, square) for g in stabiliser(label))


@dataclass(frozen=True)
class Draw:
    """One move MENACE made from a box: the box and the squares of its label it may stand for."""

    label: Board
    squares: frozenset[Cell]
    faced: Board = ""
    """The board MENACE faced, where known ("" where not)."""


@cache
def draw_for_move(board: Board, cell: Cell) -> Draw | None:
    """The box MENACE drew from to play `cell` on `board`, or None when it had no choice."""
    if not needs_box(board):
        return None
    label, g = label_of(board)
    return Draw(label, square_orbit(label, map_cell(g, cell)), board)


def in_label_frame(board: Board, cell: Cell) -> Cell:
    """A square of `board` in the frame of its label."""
    return map_cell(label_of(board)[1], cell)
