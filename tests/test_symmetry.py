"""The 8 symmetries of the square: group laws and canonical forms."""

from __future__ import annotations

from hypothesis import example, given

from reference.board import CELLS, reachable_positions, winner
from reference.symmetry import (
    IDENTITY,
    PERMUTATIONS,
    SYMMETRIES,
    canonical,
    compose,
    images,
    inverse,
    map_cell,
    stabiliser,
    transform,
)

from judge.strategies import boards, symmetries


def test_there_are_8_distinct_symmetries_with_the_identity_first() -> None:
    assert len(SYMMETRIES) == len(set(PERMUTATIONS)) == 8
    assert PERMUTATIONS[IDENTITY] == CELLS
    assert all(sorted(p) == list(CELLS) for p in PERMUTATIONS)


def test_the_centre_is_fixed_and_corners_stay_corners() -> None:
    for g in SYMMETRIES:
        assert map_cell(g, 4) == 4
        assert {map_cell(g, c) for c in (0, 2, 6, 8)} == {0, 2, 6, 8}


def test_the_challenge_example_boards_share_a_box() -> None:
    # The challenge's own example: ' 00 / X X / 0 ' and its turned copy ' X  / 0 0 / X0'.
    assert canonical(".OOX.X.O.")[0] == canonical(".X.O.O.XO")[0]


def test_there_are_765_canonical_positions() -> None:
    assert len({canonical(b)[0] for b in reachable_positions()}) == 765


@given(symmetries(), symmetries(), symmetries())
def test_composition_is_associative(f: int, g: int, h: int) -> None:
    assert compose(f, compose(g, h)) == compose(compose(f, g), h)


@given(symmetries(), symmetries())
def test_compose_applies_the_right_one_first(g: int, h: int) -> None:
    for c in CELLS:
        assert map_cell(compose(g, h), c) == map_cell(g, map_cell(h, c))


@given(symmetries())
def test_inverse_undoes(g: int) -> None:
    assert compose(g, inverse(g)) == IDENTITY == compose(inverse(g), g)
    assert compose(g, IDENTITY) == g


@given(boards(), symmetries())
@example("X........", IDENTITY)
def test_transform_moves_each_mark_by_the_symmetry(board: str, g: int) -> None:
    image = transform(board, g)
    assert all(image[map_cell(g, c)] == board[c] for c in CELLS)
    assert transform(image, inverse(g)) == board
    assert winner(image) == winner(board)


@given(boards(), symmetries(), symmetries())
def test_transform_respects_composition(board: str, g: int, h: int) -> None:
    assert transform(transform(board, h), g) == transform(board, compose(g, h))


@given(boards())
def test_canonical_is_the_least_image_and_idempotent(board: str) -> None:
    label, g = canonical(board)
    assert label == min(images(board)) == transform(board, g)
    assert canonical(label) == (label, IDENTITY)


@given(boards(), symmetries())
def test_canonical_is_invariant_under_every_symmetry(board: str, g: int) -> None:
    assert canonical(transform(board, g))[0] == canonical(board)[0]


@given(boards())
def test_the_stabiliser_is_a_subgroup(board: str) -> None:
    kept = stabiliser(board)
    assert IDENTITY in kept
    assert all(compose(g, h) in kept and inverse(g) in kept for g in kept for h in kept)
    assert len(set(images(board))) * len(kept) == 8
