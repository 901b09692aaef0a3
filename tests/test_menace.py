"""The engine: box invariants after every game, the learning rule, refills and the presets."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.beads import counts_of
from reference.board import (
    CELLS,
    EMPTY,
    EMPTY_BOARD,
    Board,
    O,
    X,
    is_over,
    play,
    winner,
)
from reference.boxes import box_labels
from reference.loop import Match, play_games
from reference.menace import InvalidBoxesError, Menace, initial_contents
from reference.outcome import Outcome, Tally
from reference.positions import Result
from reference.rules import CHALLENGE, MICHIE, EmptyBox, Rules
from reference.study.opponents import perfect_opponent, random_opponent
from reference.symmetry import canonical, transform

from judge.deciding.opponents import Choices
from judge.strategies import games, scripted_move

Contents = dict[Board, tuple[int, ...]]


def assert_boxes_are_sound(contents: Contents, *, may_be_empty: bool = False) -> None:
    """SPEC 4: exactly the 304 boxes, every bead on an empty square of its label, none empty."""
    assert list(contents) == list(box_labels(X))
    for label, beads in contents.items():
        assert may_be_empty or beads, f"box {label} is empty"
        assert all(label[b] == EMPTY for b in beads), f"illegal bead in {label}: {beads}"


def play_one_game(menace: Menace, choices: tuple[int, ...]) -> tuple[list[tuple[Board, int]],
                                                                     Outcome]:
    """A game against an opponent scripted by `choices`; MENACE's (board, cell) moves."""
    board, moves, picks = EMPTY_BOARD, [], iter(choices)
    while True:
        cell = menace.move(board)
        assert cell is not None
        moves.append((board, cell))
        board = play(board, cell)
        if is_over(board):
            break
        board = play(board, scripted_move(board, next(picks, 0)))
        if is_over(board):
            break
    mark = winner(board)
    return moves, Outcome.DRAW if mark is None else Outcome.WIN if mark == X else Outcome.LOSS


def assert_learned_as_spec_says(
    before: Contents, after: Contents, moves: list[tuple[Board, int]], outcome: Outcome
) -> None:
    """SPEC 5: only the boxes drawn from changed, each by the outcome's beads plus any refill."""
    drawn: dict[Board, tuple[Board, int]] = {}
    for board, cell in moves:
        if board.count(EMPTY) >= 2:
            label, _ = canonical(board)
            assert label not in drawn, "a box is drawn from at most once a game"
            drawn[label] = (board, cell)
    for label in before:
        if label not in drawn:
            assert after[label] == before[label], f"box {label} changed but was not drawn from"
            continue
        board, cell = drawn[label]
        # The beads that stand for the square played: any that maps onto it.
        played = {b for b in CELLS if label[b] == EMPTY and any(
            transform(play(board, cell), g) == play(label, b) for g in range(8)
        )}
        old, new = Counter(before[label]), Counter(after[label])
        delta = {Outcome.WIN: 1, Outcome.DRAW: 0, Outcome.LOSS: -1}[outcome]
        explained = False
        for bead in played & set(old):
            expected = old.copy()
            expected[bead] += delta
            if +expected == new:
                explained = True
            if sum(old.values()) == 1:  # the draw emptied the box: three refill beads came in
                refill = new.copy()
                refill[bead] -= delta + 1
                if min(refill.values(), default=0) >= 0 and refill.total() == 3:
                    explained = True
        assert explained, f"box {label}: {before[label]} -> {after[label]} after a {outcome.value}"


@given(st.integers(min_value=0, max_value=2**32), games(min_games=6, max_games=6))
def test_after_every_game_the_boxes_change_exactly_as_spec_5_says(seed: int,
                                                                  script: Choices) -> None:
    menace = Menace(rng=random.Random(seed))
    before = menace.contents()
    assert_boxes_are_sound(before)
    for game in range(6):
        moves, outcome = play_one_game(menace, script[game])
        menace.learn(outcome)
        after = menace.contents()
        assert_boxes_are_sound(after)
        assert_learned_as_spec_says(before, after, moves, outcome)
        before = after


@pytest.mark.e2e
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from([0, 1, 2, 3]))
def test_boxes_stay_sound_over_long_training(seed: int, which: int) -> None:
    rules = [CHALLENGE, Rules(initial_beads=(1, 1, 1, 1), win=0, draw=0, loss=-1),
             Rules(win=3, draw=1),
             Rules(initial_beads=(2, 2, 2, 2), loss=-1, refill_beads=1)][which]
    menace = Menace(rules, rng=random.Random(seed))
    played = play_games([Match(menace, random_opponent())], 300, menace.draws)
    assert len(played.results) == 300 and sum(played.empty_boxes) == 0
    assert_boxes_are_sound(menace.contents())


def test_refill_puts_three_legal_beads_in_the_box_it_empties() -> None:
    contents = {label: list(beads) for label, beads in initial_contents().items()}
    contents[EMPTY_BOARD] = [4]
    menace = Menace(rng=random.Random(5), contents=contents)
    assert menace.move(EMPTY_BOARD) == 4
    refilled = menace.contents()[EMPTY_BOARD]
    assert len(refilled) == 3 and all(0 <= b <= 8 for b in refilled)
    drawn = menace.learn(Outcome.WIN)
    assert drawn == ((0, 4),)
    assert Counter(menace.contents()[EMPTY_BOARD]) == Counter(refilled) + Counter({4: 2})


def test_refill_beads_are_uniform_over_the_empty_squares() -> None:
    # One refill of 30,000 beads into the emptied first box: chi-square with 8 degrees of
    # freedom; 45.0 is its 1-in-a-million tail (false alarm rate 1e-6 unseeded; seeded here).
    rules = Rules(refill_beads=30_000)
    contents = {label: list(beads) for label, beads in initial_contents(rules).items()}
    contents[EMPTY_BOARD] = [0]
    menace = Menace(rules, rng=random.Random(11), contents=contents)
    menace.move(EMPTY_BOARD)
    counts = Counter(menace.contents()[EMPTY_BOARD])
    expected = 30_000 / 9
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in CELLS)
    assert sum(counts.values()) == 30_000 and chi2 < 45.0


def test_draws_follow_the_bead_counts() -> None:
    # Beads 6:3:1 on squares 0, 1, 4; 20,000 draws each put back by a draw. Chi-square with 2
    # degrees of freedom; 27.6 is its 1-in-a-million tail (false alarm rate 1e-6 unseeded).
    contents = {label: list(beads) for label, beads in initial_contents().items()}
    contents[EMPTY_BOARD] = [0] * 6 + [1] * 3 + [4]
    menace = Menace(rng=random.Random(3), contents=contents)
    counts: Counter[int] = Counter()
    for _ in range(20_000):
        counts[menace.move(EMPTY_BOARD) or 0] += 1
        menace.learn(Outcome.DRAW)
    assert menace.contents()[EMPTY_BOARD] == (0,) * 6 + (1,) * 3 + (4,)
    expected = {0: 12_000, 1: 6_000, 4: 2_000}
    assert set(counts) == set(expected)
    assert sum((counts[c] - e) ** 2 / e for c, e in expected.items()) < 27.6


def test_a_bead_is_played_through_the_symmetry_from_label_to_board() -> None:
    board = "........X"  # the label of this board's box is ".......X." turned or reflected
    label, to_label = canonical("O.......X")
    contents = {name: list(beads) for name, beads in initial_contents().items()}
    bead = next(c for c in CELLS if label[c] == EMPTY and c not in (0, 8))
    contents[label] = [bead]
    menace = Menace(rng=random.Random(0), contents=contents)
    cell = menace.move("O.......X")
    assert cell is not None
    assert transform(play("O.......X", cell), to_label) == play(label, bead)
    assert board[cell] == EMPTY


def test_menace_never_loses_more_against_perfect_play_after_training() -> None:
    menace = Menace(rng=random.Random(1))
    first = menace.train(perfect_opponent(), 500)
    menace.train(perfect_opponent(), 4_000)
    last = menace.train(perfect_opponent(), 500)
    assert first.wins == last.wins == 0
    assert last.losses < first.losses


def test_michie_rules_start_with_4_3_2_1_beads_per_distinct_move() -> None:
    contents = initial_contents(MICHIE)
    assert Counter(contents[EMPTY_BOARD]) == {0: 4, 1: 4, 4: 4}
    for label, beads in contents.items():
        per_square = set(Counter(beads).values())
        assert per_square == {4 - label.count(X)}


def test_michie_menace_resigns_at_an_empty_box() -> None:
    contents: dict[Board, list[int]] = {k: list(v) for k, v in initial_contents(MICHIE).items()}
    contents[EMPTY_BOARD] = []
    menace = Menace(MICHIE, rng=random.Random(0), contents=contents)
    assert menace.move(EMPTY_BOARD) is None
    played = play_games([Match(menace, random_opponent())], 10, menace.draws)
    assert set(played.results) == {Result.O_WINS} and sum(played.empty_boxes) == 10
    assert menace.train(random_opponent(), 10) == Tally(losses=10)


def test_random_rule_plays_a_legal_move_from_an_empty_box() -> None:
    rules = Rules(empty_box=EmptyBox.RANDOM)
    contents: dict[Board, list[int]] = {k: list(v) for k, v in initial_contents(rules).items()}
    contents[EMPTY_BOARD] = []
    menace = Menace(rules, rng=random.Random(0), contents=contents)
    assert menace.move(EMPTY_BOARD) in CELLS
    assert menace.learn(Outcome.WIN) == ()
    assert menace.contents()[EMPTY_BOARD] == ()


def test_menace_can_play_second() -> None:
    menace = Menace(player=O, rng=random.Random(2))
    assert len(menace.labels) == len(box_labels(O))
    cell = menace.move("....X....")
    assert cell is not None and cell != 4
    with pytest.raises(ValueError, match="not O's move"):
        menace.move(EMPTY_BOARD)
    tally = menace.train(random_opponent(), 300)
    assert tally.games == 300


def test_loading_refuses_contents_that_do_not_fit() -> None:
    good = {k: list(v) for k, v in initial_contents().items()}
    menace = Menace()
    with pytest.raises(InvalidBoxesError, match="illegal bead 4"):
        menace.load({**good, "....X...O": [4]})
    with pytest.raises(InvalidBoxesError, match="no box"):
        menace.load({**good, "X........": [1]})
    with pytest.raises(InvalidBoxesError, match="missing"):
        menace.load({k: v for k, v in good.items() if k != EMPTY_BOARD})
    with pytest.raises(InvalidBoxesError, match="empty"):
        menace.load({**good, EMPTY_BOARD: []})
    counts = menace.counts()
    with pytest.raises(InvalidBoxesError, match="illegal bead 4"):
        menace.load_counts({**counts, "....X...O": (0, 0, 0, 0, 1, 0, 0, 0, 0)})
    with pytest.raises(InvalidBoxesError, match="nine bead counts"):
        menace.load_counts({**counts, EMPTY_BOARD: (1, 1, 1)})
    assert menace.counts() == counts == {label: counts_of(beads) for label, beads in good.items()}
