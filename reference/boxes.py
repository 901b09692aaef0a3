"""Which boards get a matchbox, how each is labelled, and where a bead lands on the real board."""

from __future__ import annotations

from functools import cache

from reference.board import CELLS, EMPTY, EMPTY_BOARD, Board, Cell, to_move, winner
from reference.symmetry import PERMUTATIONS, canonical, stabiliser

BoxId = int
"""A matchbox's place in the fixed box order: by MENACE's move number, then label."""


def needs_box(board: Board, player: str) -> bool:
    """True when `player` must choose a move on `board`: its turn, no winner, two squares free."""
    return to_move(board) == player and board.count(EMPTY) >= 2 and winner(board) is None


@cache
def box_labels(player: str) -> tuple[Board, ...]:
    """The labels of the player's boxes in box order, found by walking canonical positions only."""
    seen = {EMPTY_BOARD}
    frontier = [EMPTY_BOARD]
    for board in frontier:  # grows as it is read
        if winner(board) is not None:
            continue
        mark = to_move(board)
        for cell in CELLS:
            if board[cell] == EMPTY:
                label, _ = canonical(board[:cell] + mark + board[cell + 1:])
                if label not in seen:
                    seen.add(label)
                    frontier.append(label)
    labels = [board for board in seen if needs_box(board, player)]
    return tuple(sorted(labels, key=lambda label: (label.count(player), label)))


def distinct_squares(label: Board) -> tuple[Cell, ...]:
    """One empty square of each set the label's own symmetries make equivalent: the least."""
    keep = []
    for cell in CELLS:
        if label[cell] == EMPTY and all(
            PERMUTATIONS[g][cell] >= cell for g in stabiliser(label)
        ):
            keep.append(cell)
    return tuple(keep)

