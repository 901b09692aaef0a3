"""Facts about the game and the laws of its rules."""

from __future__ import annotations

import pytest
from hypothesis import given

from reference.board import (
    CELLS,
    EMPTY,
    EMPTY_BOARD,
    LINES,
    IllegalMoveError,
    InvalidBoardError,
    O,
    X,
    empty_cells,
    is_full,
    is_over,
    legal_moves,
    play,
    reachable_positions,
    to_move,
    validate,
    winner,
)

from judge.strategies import boards


def test_there_are_8_lines_covering_every_cell() -> None:
    assert len(LINES) == 8
    assert {c for line in LINES for c in line} == set(CELLS)


def test_there_are_5478_reachable_positions() -> None:
    positions = list(reachable_positions())
    assert len(positions) == len(set(positions)) == 5478


def test_winner_reads_rows_columns_and_diagonals() -> None:
    assert winner("XXXOO....") == X
    assert winner("O..O..OXX") == O
    assert winner("X...X...X") == X
    assert winner("..O.O.O..") == O
    assert winner("XOXXOOOXX") is None
    assert winner(EMPTY_BOARD) is None


def test_play_puts_the_mark_of_the_side_to_move() -> None:
    assert play(EMPTY_BOARD, 4) == "....X...."
    assert play("....X....", 0) == "O...X...."


def test_play_refuses_an_occupied_square_and_a_finished_game() -> None:
    with pytest.raises(IllegalMoveError, match="not empty"):
        play("....X....", 4)
    with pytest.raises(IllegalMoveError, match="over"):
        play("XXXOO....", 8)


def test_validate_quotes_a_bad_board() -> None:
    assert validate("X........") == "X........"
    with pytest.raises(InvalidBoardError, match="'X-'"):
        validate("X-")


@given(boards())
def test_marks_alternate_with_x_first(board: str) -> None:
    assert board.count(X) - board.count(O) in (0, 1)
    assert to_move(board) == (X if board.count(X) == board.count(O) else O)


@given(boards())
def test_legal_moves_are_the_empty_squares_until_the_game_is_over(board: str) -> None:
    if is_over(board):
        assert legal_moves(board) == ()
        assert winner(board) is not None or is_full(board)
    else:
        assert legal_moves(board) == empty_cells(board)
        assert all(board[c] == EMPTY for c in legal_moves(board))


@given(boards(max_moves=8))
def test_a_move_adds_exactly_one_mark(board: str) -> None:
    for cell in legal_moves(board):
        after = play(board, cell)
        changed = [c for c in CELLS if after[c] != board[c]]
        assert changed == [cell]
        assert after[cell] == to_move(board)
