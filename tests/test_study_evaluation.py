"""Evaluation: it never changes the boxes, samples agree with exact odds, intervals are right."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from reference.board import O, X
from reference.menace import Menace
from reference.rules import CHALLENGE, MICHIE, EmptyBox
from reference.study.evaluation import evaluate, exact_odds, frozen, frozen_rules, wilson
from reference.study.opponents import perfect_opponent, random_opponent
from reference.study.training import play_games

pytestmark = pytest.mark.e2e


def trained(player: str = X, games: int = 3_000, seed: int = 1) -> Menace:
    """A MENACE trained against the random and perfect players in turn."""
    menace = Menace(CHALLENGE, player=player, rng=random.Random(seed))
    play_games(menace, [random_opponent(), perfect_opponent()], games)
    return menace


@pytest.mark.parametrize("player", [X, O])
def test_evaluation_does_not_change_the_boxes(player: str) -> None:
    menace = trained(player)
    before = menace.contents()
    evaluate(menace, ["random", "perfect", "positional", "defensive"], 2_000, seed=3)
    assert menace.contents() == before
    copy = frozen(menace, random.Random(4))
    copy.train(random_opponent(), 2_000)
    assert copy.contents() == before


def test_frozen_rules_learn_nothing_and_keep_the_empty_box_rule() -> None:
    assert frozen_rules(MICHIE).empty_box is EmptyBox.RESIGN
    assert frozen_rules(CHALLENGE).empty_box is EmptyBox.RANDOM
    rules = frozen_rules(MICHIE)
    assert (rules.win, rules.draw, rules.loss) == (0, 0, 0)
    dry = Menace(replace(MICHIE, initial_beads=(1, 1, 1, 1)), rng=random.Random(0))
    play_games(dry, [perfect_opponent()], 400)
    assert dry.contents()[dry.labels[0]] == ()
    assert exact_odds(dry, random_opponent()).loss == 1.0  # it resigns every game
    assert frozen(dry, random.Random(1)).train(random_opponent(), 50).losses == 50


@pytest.mark.parametrize("player", [X, O])
def test_sampled_rates_agree_with_the_exact_odds(player: str) -> None:
    """Each count is within 4.5 standard deviations of its binomial mean: false alarm below 1e-5."""
    menace = trained(player, games=500)
    for e in evaluate(menace, ["random", "positional", "defensive"], 4_000, seed=9):
        n = e.tally.games
        for count, p in ((e.tally.wins, e.odds.win), (e.tally.draws, e.odds.draw),
                         (e.tally.losses, e.odds.loss)):
            assert abs(count - n * p) <= 4.5 * math.sqrt(n * p * (1 - p)) + 1e-9, e


def test_the_exact_odds_of_a_fresh_menace_are_those_of_random_play() -> None:
    odds = exact_odds(Menace(CHALLENGE), random_opponent())
    assert odds.win + odds.draw + odds.loss == pytest.approx(1.0)
    # Known figures for two uniformly random players: X wins 737/1260, draws 160/1260.
    assert odds.win == pytest.approx(737 / 1260)
    assert odds.draw == pytest.approx(160 / 1260)


def test_a_well_trained_menace_can_never_lose_to_the_perfect_player() -> None:
    menace = Menace(CHALLENGE, rng=random.Random(7))
    play_games(menace, [perfect_opponent()], 5_000)
    assert exact_odds(menace, perfect_opponent()).loss == 0.0
    assert exact_odds(Menace(CHALLENGE), perfect_opponent()).loss > 0.5


def test_wilson_intervals_match_published_values() -> None:
    zero = wilson(0, 10)
    assert (zero.low, round(zero.high, 4)) == (0.0, 0.2775)
    half = wilson(5, 10)
    assert (round(half.low, 4), round(half.high, 4)) == (0.2366, 0.7634)
    with pytest.raises(ValueError, match="0"):
        wilson(0, 0)
