"""The coverage and mixed opponents hunt refills when a run has few."""

from __future__ import annotations

import random
import statistics

from simulation import Fault, simulate

from reference.board import Board, Cell

from judge.deciding.opponents import FIRST_HUNT, CoverageOpponent, Knowledge, MixedOpponent
from judge.terms.boxes import label_of
from judge.terms.options import OpponentKind

BOARD: Board = "X........"
"""O to move after MENACE took a corner."""


def test_a_run_has_few_refills_below_one_in_ten_games_after_the_first_ten() -> None:
    """Few refills: fewer than one a ten games so far, from game FIRST_HUNT on."""
    knowledge = Knowledge()
    assert not knowledge.few_refills(FIRST_HUNT - 1)
    assert knowledge.few_refills(FIRST_HUNT)
    knowledge.refills = 3
    assert not knowledge.few_refills(31) and knowledge.few_refills(32)


def boxes_after(board: Board) -> dict[Cell, Board]:
    """The box MENACE draws from after each O move on `board`."""
    return {Cell(c): label_of(board[:c] + "O" + board[c + 1:])[0]
            for c in range(9) if board[c] == "."}


def test_hunting_steers_into_the_box_with_the_fewest_beads() -> None:
    """Hunting, with no nearly empty box in reach, O plays a best move into the box with the
    fewest beads rather than into a box not drawn from yet."""
    knowledge = Knowledge()
    after = boxes_after(BOARD)
    knowledge.beads = {label: 20 for label in after.values()}
    knowledge.draws.update({label: 1 for label in after.values()})
    fewest = Cell(4)  # the centre: O's only move that does not lose by force
    knowledge.beads[after[fewest]] = 5
    knowledge.draws[after[Cell(8)]] = 0  # a box not drawn from yet: what coverage would pick
    opponent = CoverageOpponent(random.Random(1), knowledge)
    opponent.start_game(1)
    assert not opponent.hunting and opponent.move(BOARD) == Cell(8)
    opponent.start_game(FIRST_HUNT)
    assert opponent.hunting and opponent.move(BOARD) == fewest


def test_the_mixed_opponent_plays_coverage_more_while_refills_are_few() -> None:
    """While hunting, the mixed opponent picks the coverage kind 5 games in 10, not 4."""
    knowledge = Knowledge()
    opponent = MixedOpponent(random.Random(2), knowledge)
    picked = []
    for game in range(FIRST_HUNT, FIRST_HUNT + 2000):
        opponent.start_game(game)
        picked.append(opponent.current is opponent.kinds[OpponentKind.COVERAGE])
    assert 0.47 < statistics.mean(picked) < 0.53


def test_hunting_gives_a_run_of_well_stocked_boxes_refills() -> None:
    """A MENACE starting with 1 to 4 beads of each square meets refills in every run of 200
    games against the mixed opponent (seeds 0-5)."""
    assert min(simulate(Fault.NONE, 0.0, 200, seed).refills for seed in range(6)) >= 4
