"""Shared hypothesis strategies and settings: boards built by legal play, symmetries, games."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from reference.board import EMPTY_BOARD, Board, Cell, legal_moves, play
from reference.symmetry import SYMMETRIES, Symmetry

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The judge's replays of rejected runs go to a folder of the test session, not the home."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))


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
