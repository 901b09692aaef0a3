"""Perfect play: the minimax value of every position and the moves that keep it."""

from __future__ import annotations

from functools import cache

from reference.board import Board, Cell, X, legal_moves, play, to_move, winner


@cache
def value(board: Board) -> int:
    """The result with perfect play from here: +1 X wins, 0 draw, -1 O wins."""
    mark = winner(board)
    if mark is not None:
        return 1 if mark == X else -1
    moves = legal_moves(board)
    if not moves:
        return 0
    values = [value(play(board, cell)) for cell in moves]
    return max(values) if to_move(board) == X else min(values)


@cache
def best_moves(board: Board) -> tuple[Cell, ...]:
    """The moves that keep the best result for the side to move, in cell order."""
    moves = legal_moves(board)
    if not moves:
        return ()
    sign = 1 if to_move(board) == X else -1
    best = max(sign * value(play(board, cell)) for cell in moves)
    return tuple(cell for cell in moves if sign * value(play(board, cell)) == best)

