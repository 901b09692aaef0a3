"""Training against opponents, MENACEs and pools: each game kept, boxes sound, learning shown."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.board import EMPTY, O, X
from reference.menace import Menace
from reference.outcome import Outcome
from reference.rules import CHALLENGE, MICHIE, EmptyBox, Rules
from reference.study.curves import curve_from_results, percentile, windows
from reference.study.opponents import perfect_opponent, random_opponent
from reference.study.training import (
    Training,
    UnknownOpponentError,
    opponent_sides,
    parse_opponents,
    play_games,
)


def assert_sound(menace: Menace, *, may_be_empty: bool = False) -> None:
    """Every box holds beads only on empty squares of its label; none is empty unless allowed."""
    for label, beads in menace.contents().items():
        assert may_be_empty or beads, label
        assert all(label[b] == EMPTY for b in beads), (label, beads)


def test_training_against_the_perfect_player_cuts_losses() -> None:
    """Seeded; over seeds 0-999 the last 1,000 games had fewer losses than the first 1,000 every
    time (at most 0 losses at the end, over 100 at the start), so a false alarm is below 0.3%."""
    menace = Menace(CHALLENGE, rng=random.Random(2024))
    record = play_games(menace, [perfect_opponent()], 5_000)
    first = record.results[:1000].count(Outcome.LOSS)
    last = record.results[-1000:].count(Outcome.LOSS)
    assert last < first
    assert record.results.count(Outcome.WIN) == 0  # nobody beats the perfect player
    assert_sound(menace)


@pytest.mark.e2e
def test_each_result_moves_the_opening_box_as_the_challenge_rules_say() -> None:
    menace = Menace(CHALLENGE, rng=random.Random(5))
    table = random_opponent()
    seen = Counter()
    for _ in range(300):
        before = len(menace.contents()[menace.labels[0]])
        code = play_games(menace, [table], 1).results[0]
        after = len(menace.contents()[menace.labels[0]])
        if before > 1:  # a box down to its last bead is refilled, which adds three
            assert after - before == {Outcome.WIN: 1, Outcome.DRAW: 0, Outcome.LOSS: -1}[code]
        seen[code] += 1
    assert set(seen) == {Outcome.WIN, Outcome.DRAW, Outcome.LOSS}


def test_a_pool_is_played_in_turn() -> None:
    """Game g is against pool[g % 2]: MENACE never wins the perfect player's games, often others."""
    menace = Menace(CHALLENGE, rng=random.Random(3))
    record = play_games(menace, [perfect_opponent(), random_opponent()], 2_000)
    assert Outcome.WIN not in record.results[0::2]
    assert record.results[1::2].count(Outcome.WIN) > 500  # seeds 0-99: at least 671 of these 1,000
    again = play_games(menace, [perfect_opponent(), random_opponent()], 11, first_game=1)
    assert Outcome.WIN not in again.results[1::2]


@pytest.mark.parametrize("player", [X, O])
def test_self_play_teaches_both_sides_and_keeps_every_box_sound(player: str) -> None:
    rng = random.Random(11)
    learner = Menace(CHALLENGE, player=player, rng=rng)
    pool = opponent_sides(["menace"], learner, rng)
    (rival,) = pool
    assert isinstance(rival, Menace) and rival.player != player
    fresh = rival.contents()
    record = play_games(learner, pool, 3_000)
    assert rival.contents() != fresh  # the rival learned too
    assert_sound(learner)
    assert_sound(rival)
    # Two MENACEs teaching each other draw more and more: seeded; over seeds 0-199 the last 500
    # games always held at least 72 more draws than the first 500, so a false alarm is below 1%.
    assert record.results[-500:].count(Outcome.DRAW) > record.results[:500].count(Outcome.DRAW)


def test_menace_as_o_never_beats_the_perfect_player_and_fills_its_own_boxes() -> None:
    menace = Menace(MICHIE, player=O, rng=random.Random(8))
    record = play_games(menace, [perfect_opponent()], 500)
    assert Outcome.WIN not in record.results
    assert_sound(menace, may_be_empty=True)
    assert len(menace.contents()) == 289


def test_an_empty_box_is_recorded_in_the_game_it_was_met() -> None:
    """Michie's rules, one bead per distinct move: against perfect play the first box runs dry."""
    from dataclasses import replace

    menace = Menace(replace(MICHIE, initial_beads=(1, 1, 1, 1)), rng=random.Random(0))
    record = play_games(menace, [perfect_opponent()], 400)
    assert menace.contents()[menace.labels[0]] == ()
    first = next(g for g, n in enumerate(record.empty_boxes) if n)
    # From then on MENACE resigns at once: every later game is a loss with one empty box met.
    assert set(record.results[first:]) == {Outcome.LOSS}
    assert set(record.empty_boxes[first + 1:]) == {1}


def test_opponent_names_are_checked() -> None:
    assert parse_opponents("Random, perfect,menace") == ("random", "perfect", "menace")
    with pytest.raises(UnknownOpponentError, match="'minimax'"):
        parse_opponents("random,minimax")


def test_a_curve_counts_every_game_and_its_windows_add_up() -> None:
    results = [bytes([Outcome.WIN, Outcome.DRAW, Outcome.LOSS, Outcome.WIN]),
               bytes([Outcome.LOSS, Outcome.LOSS, Outcome.DRAW, Outcome.WIN])]
    curve = curve_from_results(results, [bytes(4), bytes([0, 1, 0, 0])])
    assert (curve.wins, curve.draws, curve.losses) == ((1, 0, 0, 2), (0, 1, 1, 0), (1, 1, 1, 0))
    assert curve.mean("win") == [0.5, 0.25, 1 / 6, 0.375]
    assert curve.mean("score") == [0.0, 0.0, 0.0, 1.0]
    parts = windows(curve, 3)
    assert [(w.first, w.last) for w in parts] == [(1, 1), (2, 3), (4, 4)]
    assert sum(w.games for w in parts) == 8 and sum(w.empty_boxes for w in parts) == 1
    # Final win rates 0.5 and 0.25: the middle 80% runs from 0.275 to 0.475.
    assert curve.bands["win"].low[-1] == pytest.approx(0.275)
    assert curve.bands["win"].high[-1] == pytest.approx(0.475)
    assert percentile([3, 1, 2, 4], 0.5) == 2.5


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    player=st.sampled_from([X, O]),
    rules=st.sampled_from([CHALLENGE, MICHIE]),
    names=st.lists(st.sampled_from(["random", "perfect", "positional", "defensive", "menace"]),
                   min_size=1, max_size=3),
    games=st.integers(min_value=1, max_value=40),
)
@pytest.mark.e2e
def test_any_pool_keeps_every_box_sound_and_records_every_game(
    seed: int, player: str, rules: Rules, names: list[str], games: int,
) -> None:
    rng = random.Random(seed)
    learner = Menace(rules, player=player, rng=rng)
    pool = opponent_sides(names, learner, rng)
    record = play_games(learner, pool, games)
    assert record.games == games and len(record.empty_boxes) == games
    assert set(record.results) <= {Outcome.WIN, Outcome.DRAW, Outcome.LOSS}
    refill = rules.empty_box is EmptyBox.REFILL
    for side in [learner, *pool]:
        if isinstance(side, Menace):
            assert_sound(side, may_be_empty=not refill)
    for g, code in enumerate(record.results):
        if names[g % len(names)] == "perfect":
            assert code != Outcome.WIN
    if refill:
        assert not any(record.empty_boxes)


def test_training_in_chunks_plays_the_same_games_as_in_one_go() -> None:
    def run(chunks: list[int]) -> tuple[bytes, dict[str, tuple[int, ...]]]:
        rng = random.Random(21)
        learner = Menace(CHALLENGE, rng=rng)
        training = Training(learner, opponent_sides(["menace", "random"], learner, rng))
        results = b"".join(training.play(n).results for n in chunks)
        return results, learner.contents()

    assert run([500]) == run([123, 1, 376])
    assert run([500]) != run([499])


def test_short_calls_reuse_the_learners_matches_and_play_what_one_training_plays() -> None:
    """One game a call: the matches are made once and kept on the learner, and the games are
    those of one Training playing game after game."""
    from reference import loop

    def calls(rng_seed: int) -> tuple[bytes, dict[str, tuple[int, ...]]]:
        menace = Menace(CHALLENGE, rng=random.Random(rng_seed))
        pool = [perfect_opponent(), random_opponent()]
        results = b"".join(play_games(menace, pool, 1, first_game=g).results for g in range(40))
        assert loop.match_of(menace, pool[0]) is loop.match_of(menace, pool[0])
        return results, menace.counts()

    menace = Menace(CHALLENGE, rng=random.Random(3))
    one_go = Training(menace, [perfect_opponent(), random_opponent()]).play(40).results
    assert calls(3) == (one_go, menace.counts())
    learner, table = Menace(CHALLENGE), random_opponent()
    first = loop.match_of(learner, table)
    learner.rules = MICHIE  # other rules: another match
    assert loop.match_of(learner, table) is not first
