"""The rules of noughts and crosses on a board written as nine characters."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Final, NewType

Cell = NewType("Cell", int)
"""A square of the board, 0 to 8, row by row from the top left."""

Board = str
"""A position: nine characters, each `X`, `O` or `.`, row by row from the top left."""

X: Final = "X"
O: Final = "O"
EMPTY: Final = "."
CELLS: Final[tuple[Cell, ...]] = tuple(Cell(c) for c in range(9))
EMPTY_BOARD: Final[Board] = EMPTY * 9

LINES: Final[tuple[tuple[Cell, Cell, Cell], ...]] = tuple(
    (Cell(a), Cell(b), Cell(c))
    for a, b, c in (
        (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
        (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
        (0, 4, 8), (2, 4, 6),  # diagonals
    )
)
assert len(LINES) == 8


class InvalidBoardError(ValueError):
    """A string that is not nine cells of `X`, `O` and `.`."""


class IllegalMoveError(ValueError):
    """A move onto an occupied square, or after the game is over."""


def validate(board: str) -> Board:
    """The board itself, once checked to be nine cells of `X`, `O` and `.`."""
    if len(board) != 9 or set(board) - {X, O, EMPTY}:
        raise InvalidBoardError(f"not a board of nine X, O and . cells: {board!r}")
    return board


@cache
def winner(board: Board) -> str | None:
    """The mark with three in a row, or None."""
    for a, b, c in LINES:
        if board[a] != EMPTY and board[a] == board[b] == board[c]:
            return board[a]
    return None


def is_full(board: Board) -> bool:
    """True when no square is empty."""
    return EMPTY not in board


def is_over(board: Board) -> bool:
    """True when someone has three in a row or the board is full."""
    return winner(board) is not None or is_full(board)


def to_move(board: Board) -> str:
    """The mark that moves next, X moving first."""
    return X if board.count(X) == board.count(O) else O


def empty_cells(board: Board) -> tuple[Cell, ...]:
    """The empty squares, in cell order."""
    return tuple(Cell(c) for c, mark in enumerate(board) if mark == EMPTY)


def legal_moves(board: Board) -> tuple[Cell, ...]:
    """The squares the side to move may take: none once the game is over."""
    return () if is_over(board) else empty_cells(board)


def play(board: Board, cell: Cell) -> Board:
    """The board after the side to move takes `cell`."""
    if is_over(board):
        raise IllegalMoveError(f"the game is over: {board!r}")
    if not 0 <= cell <= 8 or board[cell] != EMPTY:
        raise IllegalMoveError(f"square {cell} is not empty on {board!r}")
    return board[:cell] + to_move(board) + board[cell + 1:]


def reachable_positions() -> Iterator[Board]:
    """Every board reachable from the empty board by legal play, each once."""
    seen = {EMPTY_BOARD}
    frontier = [EMPTY_BOARD]
    while frontier:
        board = frontier.pop()
        yield board
        for cell in legal_moves(board):
            after = play(board, cell)
            if after not in seen:
                seen.add(after)
                frontier.append(after)
