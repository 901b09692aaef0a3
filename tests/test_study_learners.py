"""Many learners at once: both engines play the same game, learn, and keep every box sound."""

from __future__ import annotations

import math
import sys

import pytest

from reference.board import O, X
from reference.menace import Menace
from reference.rules import CHALLENGE, MICHIE
from reference.study.evaluation import exact_odds
from reference.study.learners import numpy_available, train_learners
from reference.study.opponents import perfect_opponent, random_opponent
from reference.tables import box_table

pytestmark = pytest.mark.e2e

ENGINES = ["python", pytest.param("numpy", marks=pytest.mark.skipif(
    not numpy_available(), reason="numpy is not installed (the optional extra 'fast')"))]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("player", [X, O])
def test_the_first_game_of_fresh_learners_follows_the_exact_odds(engine: str, player: str) -> None:
    """Game 1 of K fresh MENACEs: each result count within 4.5 binomial standard deviations of
    K times its exact chance; false alarm below 1e-5 per count."""
    learners = 2_000 if engine == "numpy" else 200
    curve = train_learners(CHALLENGE, player, ["random"], 1, learners, seed=5, engine=engine)
    odds = exact_odds(Menace(CHALLENGE, player=player), random_opponent())
    for count, p in ((curve.wins[0], odds.win), (curve.draws[0], odds.draw),
                     (curve.losses[0], odds.loss)):
        assert abs(count - learners * p) <= 4.5 * math.sqrt(learners * p * (1 - p))


@pytest.mark.parametrize("engine", ENGINES)
def test_learners_cut_their_losses_against_the_perfect_player(engine: str) -> None:
    """Seeded: the mean loss rate of 100 learners in games 401-500 is far below games 1-100,
    as the single-learner test shows for every seed tried."""
    curve = train_learners(CHALLENGE, X, ["perfect"], 500, 100, seed=2, engine=engine)
    assert sum(curve.losses[400:]) < sum(curve.losses[:100]) / 4
    assert sum(curve.wins) == 0
    assert curve.games == 500 and curve.learners == 100
    band = curve.bands["loss"]
    assert all(lo <= hi for lo, hi in zip(band.low, band.high, strict=True))
    assert band.games[-1] == 500


@pytest.mark.parametrize("engine", ENGINES)
def test_self_play_and_pools_run_for_many_learners(engine: str) -> None:
    curve = train_learners(MICHIE, O, ["menace", "perfect"], 200, 50, seed=3, engine=engine)
    assert sum(curve.wins[1::2]) == 0  # every other game is against the perfect player
    assert sum(curve.wins[0::2]) + sum(curve.draws) + sum(curve.losses) > 0
    assert all(w + d + l == 50
               for w, d, l in zip(curve.wins, curve.draws, curve.losses, strict=True))


@pytest.mark.skipif(not numpy_available(), reason="numpy is not installed")
def test_the_vectorised_boxes_stay_sound_under_every_empty_box_rule() -> None:
    import numpy as np

    from reference.study.vectorised import _Population, _Table, play_round

    for rules in (CHALLENGE, MICHIE):
        me = _Population(rules, X, 64, 300)
        rival = _Table(perfect_opponent())
        legal = np.zeros((me.boxes, 9), dtype=bool)
        for box, empties in enumerate(box_table(X).label_empties):
            legal[box, list(empties)] = True
        rng = np.random.default_rng(0)
        for _ in range(300):
            me.learn(play_round((me, rival), 64, rng))
            beads = me.beads()
            assert (beads >= 0).all()
            assert not beads[:, ~legal].any()  # beads only on empty squares of the label
            if rules is CHALLENGE:
                assert (beads.sum(axis=2) > 0).all()  # the refill rule: no box is ever empty
        if rules is MICHIE:
            assert (beads.sum(axis=2) == 0).any()  # resigning MENACEs do run dry


def test_without_numpy_the_pure_python_engine_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    assert not numpy_available()
    curve = train_learners(CHALLENGE, X, ["random"], 20, 3, seed=1)
    assert curve.learners == 3 and curve.games == 20
    with pytest.raises(ImportError):
        train_learners(CHALLENGE, X, ["random"], 20, 3, seed=1, engine="numpy")


@pytest.mark.parametrize("engine", ENGINES)
def test_learners_whose_first_box_runs_dry_are_counted(engine: str) -> None:
    """Michie's rules, one bead per distinct move, the perfect player: in 1,000 single runs the
    first box ran dry within 300 games 870 times, so fewer than 50 of 100 is a false alarm below
    1e-15."""
    from dataclasses import replace

    rules = replace(MICHIE, initial_beads=(1, 1, 1, 1))
    curve = train_learners(rules, X, ["perfect"], 300, 100, seed=4, engine=engine)
    assert 50 <= curve.first_move_dry <= 100
    assert sum(curve.empty_boxes) >= curve.first_move_dry
    fresh = train_learners(CHALLENGE, X, ["perfect"], 300, 100, seed=4, engine=engine)
    assert fresh.first_move_dry == 0 and sum(fresh.empty_boxes) == 0
