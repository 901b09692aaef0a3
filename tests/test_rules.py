"""The rules as data: presets, overrides and what cannot be played."""

from __future__ import annotations

import pytest

from reference.outcome import Outcome
from reference.rules import CHALLENGE, MICHIE, PRESETS, EmptyBox, InvalidRulesError, Rules


def test_the_challenge_returns_two_one_or_no_beads() -> None:
    assert [CHALLENGE.beads_returned(o) for o in Outcome] == [2, 1, 0]
    assert CHALLENGE.empty_box is EmptyBox.REFILL and CHALLENGE.refill_beads == 3


def test_michie_rewards_three_one_and_takes_one() -> None:
    assert [MICHIE.incentive(o) for o in Outcome] == [3, 1, -1]
    assert MICHIE.initial_beads == (4, 3, 2, 1) and MICHIE.distinct_moves_only
    assert MICHIE.empty_box is EmptyBox.RESIGN
    assert PRESETS == {"challenge": CHALLENGE, "michie": MICHIE}


@pytest.mark.parametrize("changes, problem", [
    ({"initial_beads": (1, 1, 0, 1)}, "initial beads"),
    ({"initial_beads": (1, 1, 1)}, "initial beads"),
    ({"loss": -2}, "loss incentive"),
    ({"win": -5}, "win incentive"),
    ({"refill_beads": 0}, "refill"),
])
def test_rules_that_cannot_be_played_are_refused(changes: dict[str, object], problem: str) -> None:
    with pytest.raises(InvalidRulesError, match=problem):
        Rules(**changes)  # type: ignore[arg-type]
