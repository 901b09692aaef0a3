"""MENACE's matchboxes: which boards get one, their labels, and the tables of the fast path."""

from __future__ import annotations

from collections import Counter

import pytest

from reference.board import EMPTY, O, X, is_over, play, reachable_positions, to_move
from reference.boxes import box_labels, distinct_squares, needs_box
from reference.positions import NO_POSITION, Result, position_graph
from reference.symmetry import canonical, transform
from reference.tables import NO_BOX, box_table

from judge.terms import boxes as judge_boxes


def test_menace_has_304_boxes_split_1_12_108_183() -> None:
    labels = box_labels(X)
    assert len(labels) == len(set(labels)) == 304
    assert Counter(label.count(X) for label in labels) == {0: 1, 1: 12, 2: 108, 3: 183}


def test_the_judge_derives_the_same_304_boxes_on_its_own() -> None:
    """The judge's own derivation (an oracle, kept apart on purpose) agrees with the model."""
    assert set(judge_boxes.box_labels()) == set(box_labels(X))
    assert len(judge_boxes.box_labels()) == judge_boxes.BOX_COUNT == 304
    for board in reachable_positions():
        assert judge_boxes.needs_box(board) == needs_box(board, X), board


def test_boxes_come_in_move_order_then_label_order() -> None:
    labels = box_labels(X)
    keys = [(label.count(X), label) for label in labels]
    assert keys == sorted(keys)
    assert labels[0] == EMPTY * 9


@pytest.mark.parametrize("player", [X, O])
def test_every_choice_has_exactly_one_box(player: str) -> None:
    labels = set(box_labels(player))
    faced = {
        canonical(board)[0]
        for board in reachable_positions()
        if not is_over(board) and to_move(board) == player and board.count(EMPTY) >= 2
    }
    assert faced == labels
    assert all(canonical(label)[0] == label for label in labels)


def test_the_graph_numbers_every_reachable_position_once() -> None:
    graph = position_graph()
    assert len(graph.boards) == 5478 and graph.boards[0] == EMPTY * 9
    assert all(graph.index[b] == p for p, b in enumerate(graph.boards))
    assert graph.results.count(Result.DRAWN) == 16


@pytest.mark.parametrize("player", [X, O])
def test_the_fast_tables_agree_with_the_rules(player: str) -> None:
    graph, table = position_graph(), box_table(player)
    assert table.labels == box_labels(player)
    for p, board in enumerate(graph.boards):
        box = table.box_at[p]
        if box == NO_BOX:
            assert table.after_bead[p] == ()
            continue
        label = table.labels[box]
        assert transform(board, graph.to_label[p]) == label
        for bead in range(9):
            after = table.after_bead[p][bead]
            if label[bead] == EMPTY:
                cell = table.bead_to_cell[p][bead]
                assert graph.boards[after] == play(board, cell)
            else:
                assert after == NO_POSITION


def test_forced_moves_are_the_last_empty_square() -> None:
    graph, table = position_graph(), box_table(X)
    forced = [p for p, after in enumerate(table.forced) if after != NO_POSITION]
    assert forced
    for p in forced:
        board = graph.boards[p]
        assert board.count(EMPTY) == 1 and to_move(board) == X
        assert graph.boards[table.forced[p]] == play(board, board.index(EMPTY))


def test_distinct_squares_keep_one_square_of_each_symmetric_set() -> None:
    assert distinct_squares(EMPTY * 9) == (0, 1, 4)  # corner, side, centre
    assert distinct_squares("....X...O") == (0, 1, 2, 5)  # mirror in the main diagonal
    assert distinct_squares("XO.......") == (2, 3, 4, 5, 6, 7, 8)  # no symmetry but the identity
