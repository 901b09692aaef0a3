"""The vectorised engine against the plain rules: its draws, bookkeeping, counts and bands."""

from __future__ import annotations

from dataclasses import replace

import pytest

from reference.board import O, X
from reference.menace import initial_contents
from reference.outcome import Outcome
from reference.positions import outcome_codes
from reference.rules import CHALLENGE, MAX_BEADS, MICHIE, EmptyBox, Rules
from reference.study.curves import BAND, MEASURES, measure_values, percentile
from reference.study.opponents import random_opponent
from reference.tables import box_table

np = pytest.importorskip("numpy", reason="numpy is not installed (the optional extra 'fast')")

from reference.study.vectorised import (
    _Population,
    _Table,
    band_points,
    bead_dtype,
    play_round,
)

BEADS = [3, 0, 1, 0, 5, 0, 0, 2, 1]
"""A box for the empty board with 12 beads on five squares."""


@pytest.mark.parametrize("games", [10, 100_000], ids=["16-bit counts", "32-bit counts"])
def test_beads_are_drawn_in_exact_proportion_to_their_counts(games: int) -> None:
    """Evenly spaced uniform numbers, one per learner, draw each square exactly as often as
    its share of the beads: no sampling, so no false alarm."""
    per_bead = 50
    k = per_bead * sum(BEADS)
    me = _Population(CHALLENGE, X, k, games)
    me.counts[:k, :9] = BEADS  # box 0 (the empty board, whose slots are its squares)
    uniform = (np.arange(k) + 0.5) / k
    after = me.move(np.zeros(k, dtype=np.intp), uniform, np.random.default_rng(0), 9)
    squares = me.drawn[0] % me.width
    assert np.bincount(squares, minlength=9).tolist() == [per_bead * b for b in BEADS]
    assert after.tolist() == [box_table(X).after_bead[0][s] for s in squares]
    two = _Population(CHALLENGE, X, 2, games)
    two.counts[:2, :9] = BEADS
    two.move(np.zeros(2, dtype=np.intp), np.array([0.0, 1 - 2 ** -53]), np.random.default_rng(0), 9)
    assert (two.drawn[0] % two.width).tolist() == [0, 8]  # the first and the last square held


@pytest.mark.parametrize("player", [X, O])
def test_each_slot_holds_the_beads_of_its_square_and_leads_where_that_square_does(
        player: str) -> None:
    me = _Population(MICHIE, player, 3, 10)  # 4, 3, 2 and 1 beads a move: slots tell apart
    table = box_table(player)
    start = me.beads()
    for box, beads in enumerate(initial_contents(MICHIE, player).values()):
        assert (start[:, box] == np.bincount(beads, minlength=9)).all()
    for p, box in enumerate(table.box_at):
        if box >= 0:
            empties = table.label_empties[box]
            assert me.label_empties[box, :len(empties)].tolist() == list(empties)
            assert [int(me.after_flat[p * 9 + slot]) for slot in range(len(empties))] == [
                table.after_bead[p][square] for square in empties]


@pytest.mark.parametrize("player", [X, O])
@pytest.mark.parametrize("rules", [CHALLENGE, MICHIE, replace(CHALLENGE, empty_box=EmptyBox.RANDOM,
                                                               initial_beads=(1, 1, 1, 1))],
                         ids=["refill", "resign", "random move"])
def test_after_each_game_only_the_drawn_squares_change_as_the_rules_say(
    rules: Rules, player: str,
) -> None:
    """SPEC section 5, checked game by game for 200 learners: each box drawn from (one per move
    number, in order) held the bead, gains the rules' beads of that square for the learner's
    result, and only a box whose last bead was drawn also gains refill beads on its label's empty
    squares; nothing else changes."""
    k, games = 200, 80
    me = _Population(rules, player, k, games)
    rival = _Table(random_opponent())
    movers = (me, rival) if player == X else (rival, me)
    change = [rules.beads_returned(Outcome(code)) - 1 for code in outcome_codes(player)]
    moves = np.array(box_table(player).move_numbers)
    legal = np.zeros((me.boxes, 9), dtype=bool)
    for box, empties in enumerate(box_table(player).label_empties):
        legal[box, list(empties)] = True
    rng = np.random.default_rng(1)
    refilled = 0
    for _ in range(games):
        before = me.beads().copy()
        result = play_round(movers, k, rng)
        drawn = list(me.drawn)
        me.learn(result)
        expected = before.copy()
        emptied = np.zeros((k, me.boxes), dtype=bool)
        for move, flat in enumerate(drawn):
            row, slot = np.divmod(flat, me.width)
            box, learner = np.divmod(row, k)
            real = box < me.boxes  # not a sink: the game was on and the box held beads
            box, learner = box[real], learner[real]
            square = me.label_empties[box, slot[real]]
            assert (moves[box] == move).all()
            assert (before[learner, box, square] >= 1).all()
            expected[learner, box, square] += np.array(change)[result[learner]]
            if rules.empty_box is EmptyBox.REFILL:
                emptied[learner, box] = before[learner, box].sum(axis=1) == 1
        extra = me.beads() - expected
        assert not extra[~emptied].any()
        assert (extra[emptied] >= 0).all() and (extra[emptied].sum(axis=1) == 3).all()
        assert not extra[:, ~legal].any()
        refilled += int(emptied.sum())
    assert (me.box_beads(np.arange(me.boxes)) == me.beads().sum(axis=2).T).all()
    if rules.empty_box is EmptyBox.REFILL:
        assert refilled > 0
    else:
        assert me.empty_met > 0  # learners met empty boxes, and drew from their sinks


def test_counts_take_as_many_bits_as_the_rules_can_need() -> None:
    rich = Rules(win=MAX_BEADS)
    assert bead_dtype(CHALLENGE, 600) == np.int16
    assert bead_dtype(rich, 100) == np.int32
    assert bead_dtype(CHALLENGE, 10 ** 9) == np.int64
    me = _Population(rich, X, 50, 60)
    rival = _Table(random_opponent())
    rng = np.random.default_rng(2)
    for _ in range(60):
        me.learn(play_round((me, rival), 50, rng))
    beads = me.beads()
    assert (beads >= 0).all()
    assert beads.max() > np.iinfo(np.int16).max  # 16 bits would have wrapped round


def test_bands_are_the_percentiles_the_pure_python_curves_take() -> None:
    rng = np.random.default_rng(3)
    for learners, played in ((2, 1), (7, 30), (1_000, 500)):
        tally = rng.multinomial(played, [0.5, 0.2, 0.3], size=learners).T
        points = band_points(tally, played)
        values = [measure_values(*(int(c) for c in column)) for column in tally.T]
        for measure in MEASURES:
            column = [v[measure] for v in values]
            assert points[measure] == (percentile(column, BAND[0]), percentile(column, BAND[1]))
