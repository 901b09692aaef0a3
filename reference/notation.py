"""How boards, matchboxes and moves are written: SPEC sections 2 and 6."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from reference.board import Board, Cell

AXIS: Final = "LMR"
"""The letters of a row (first letter, top to bottom) or a column (second, left to right)."""


class InvalidMoveTextError(ValueError):
    """Text that is not a move: two letters from L, M, R."""


def parse_move(text: str) -> Cell:
    """The square named by two letters from L/M/R, row then column, case and spaces ignored."""
    letters = text.strip().upper()
    if len(letters) != 2 or letters[0] not in AXIS or letters[1] not in AXIS:
        raise InvalidMoveTextError(
            f"{text.strip()!r} is not a move: type two letters from L, M, R, the row "
            "(L top, M middle, R bottom) then the column (L left, M middle, R right), e.g. MM"
        )
    return Cell(AXIS.index(letters[0]) * 3 + AXIS.index(letters[1]))


def move_name(cell: Cell) -> str:
    """The two letters that name a square."""
    row, col = divmod(cell, 3)
    return AXIS[row] + AXIS[col]


def format_board(board: Board) -> str:
    """Three lines of three cells separated by spaces, without a final newline."""
    return "\n".join(" ".join(board[r * 3:r * 3 + 3]) for r in range(3))


def format_box(label: Board, beads: Iterable[int]) -> str:
    """One dump line: the label as nine cells, then its beads as cell numbers."""
    return " ".join([label, *map(str, beads)])


def format_dump(contents: Mapping[Board, Iterable[int]]) -> str:
    """The whole matchbox dump, one line per box, without a final newline."""
    return "\n".join(format_box(label, beads) for label, beads in contents.items())
