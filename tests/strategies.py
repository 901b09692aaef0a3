"""Hypothesis strategies built by construction: boards reached by legal play, symmetries, games."""

from __future__ import annotations

from hypothesis import strategies as st

from reference.board import EMPTY_BOARD, Board, Cell, legal_moves, play
from reference.symmetry import SYMMETRIES, Symmetry


def symmetries() -> st.SearchStrategy[Symmetry]:
    """Any of the 8 symmetries, shrinking to the identity."""
    return st.sampled_from(SYMMETRIES)


@st.composite
def boards(draw: st.DrawFn, *, max_moves: int = 9) -> Board:
    """A board reached from the empty board by legal moves, shrinking towards the empty board."""
    board = EMPTY_BOARD
    for _ in range(draw(st.integers(min_value=0, max_value=max_moves))):
        moves = legal_moves(board)
        if not moves:
            break
        board = play(board, draw(st.sampled_from(moves)))
    return board


@st.composite
def opponent_choices(draw: st.DrawFn, *, games: int) -> list[int]:
    """Indices that pick the opponent's moves: each taken modulo the number of legal moves."""
    return draw(st.lists(st.integers(min_value=0, max_value=8), min_size=4 * games,
                         max_size=4 * games))


def nth_legal(board: Board, index: int) -> Cell:
    """The legal move at `index` (modulo their number)."""
    moves = legal_moves(board)
    return moves[index % len(moves)]
