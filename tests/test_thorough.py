"""A thorough judgement plans its second run from the first run's rates, within its budget."""

from __future__ import annotations

import math

import pytest

from judge.deciding.evidence import Detector, Evidence, power
from judge.deciding.thorough import (
    MARGIN,
    first_settings,
    games_needed,
    in_plain_words,
    plan,
    second_settings,
    shortfalls,
    standing,
)
from judge.terms import options
from judge.terms.options import FALSE_ALARM
from judge.terms.settings import Settings

THRESHOLD = 2 / FALSE_ALARM


def evidence(expected: tuple[float, ...], variances: tuple[float, ...]) -> Evidence:
    """A passed test of 3 alternatives (the last unsized) whose moments add up as given."""
    detector = Detector(("a", "b", "c"), THRESHOLD, sized=(True, True, False),
                        measure_power=True)
    detector.bet(1, [1.0, 1.0, 1.0], list(zip(expected, variances, strict=True)))
    return detector.evidence()


@pytest.mark.parametrize("mean,variance", [(0.1, 0.05), (0.02, 0.4), (1.0, 1e-9)])
def test_games_needed_give_99_percent_power(mean: float, variance: float) -> None:
    """At the games asked for, moments growing at the same rate give exactly 99% power."""
    games = games_needed(mean * 100, variance * 100, 1 / 3, THRESHOLD, 100)
    assert power(mean * games, variance * games, 1 / 3, THRESHOLD) == pytest.approx(0.99, abs=1e-6)
    assert games_needed(0.0, 1.0, 1 / 3, THRESHOLD, 100) == math.inf


def test_shortfalls_name_the_sized_alternatives_below_99_percent() -> None:
    """Only sized alternatives of passed tests count, each with the games it needs."""
    test = evidence((100.0, 1.0, 0.0), (1.0, 1.0, 0.0))
    short = shortfalls([("bead-draws", test)], 200)
    assert [s.name for s in short] == ["b"]
    assert short[0].games == pytest.approx(games_needed(1.0, 1.0, 1 / 3, THRESHOLD, 200))


def test_the_second_run_plays_what_the_rates_ask_for_within_the_budget() -> None:
    """Games: the most any alternative needs, with a margin, but no more than fit in the budget."""
    test = evidence((100.0, 5.0, 0.0), (1.0, 2.0, 0.0))
    wanted = math.ceil(games_needed(5.0, 2.0, 1 / 3, THRESHOLD, 200) * MARGIN)
    roomy = plan([("bead-draws", test)], 200, 2.0, 10_000.0)
    assert roomy.games == wanted and "as many as the first run's rates ask for" in roomy.lines[1]
    tight = plan([("bead-draws", test)], 200, 2.0, 12.0)
    assert tight.games == int((12.0 - 2.0) * 0.8 / 0.01) < wanted
    assert "as many as fit" in tight.lines[1]
    assert "1 of 2 alternatives with a stated size have 99% power" in tight.lines[0]


def test_no_second_run_when_powered_or_nothing_to_bet_on() -> None:
    """Every sized alternative powered, or the short ones with nothing to bet on: one run."""
    powered = plan([("refills", evidence((100.0, 100.0, 0.0), (1.0, 1.0, 0.0)))], 200, 1.0, 60.0)
    assert powered.games is None and "no alternative falls short" in powered.lines[-1]
    empty = plan([("refills", evidence((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)))], 200, 1.0, 60.0)
    assert empty.games is None and "nothing to bet on" in empty.lines[-1]


def test_each_run_gets_half_the_false_alarms_and_the_second_a_new_seed() -> None:
    """Both runs measure power at half the false-alarm rate; the second has its own games,
    seed and limits."""
    settings = Settings(games=200, seed=options.MAX_SEED, time_limit=30.0)
    first = first_settings(settings)
    assert first.false_alarm == FALSE_ALARM / 2 and first.measure_power and first.games == 200
    second = second_settings(settings, 5000)
    assert (second.games, second.seed, second.time_limit) == (5000, 0, None)
    assert second.false_alarm == FALSE_ALARM / 2 and second.measure_power


def test_standing_says_when_every_alternative_has_its_power() -> None:
    """The line after a run: all powered, or how many are short and the weakest."""
    done = standing([("bead-draws", evidence((100.0, 100.0, 0.0), (1.0, 1.0, 0.0)))], 300)
    assert done == ("thorough: after 300 games, each of the 2 alternatives with a stated size "
                    "has 99% power against its own law")
    short = standing([("bead-draws", evidence((100.0, 1.0, 0.0), (1.0, 1.0, 0.0)))], 300)
    assert "short: bead-draws b (0%)" in short


def test_standing_counts_apart_the_alternatives_at_part_strength() -> None:
    """Alternatives on 30% of the observations are counted apart: how many of them have 99%
    power, and a shortfall says its strength."""
    detector = Detector(("full", "part", "learnt"), THRESHOLD, sized=(True, True, False),
                        measure_power=True, strengths=(1.0, 0.3, 1.0))
    detector.bet(1, [1.0, 1.0, 1.0], [(100.0, 1.0), (1.0, 1.0), (0.0, 0.0)])
    line = standing([("bead-draws", detector.evidence())], 300)
    assert "1 of 2 alternatives with a stated size" in line
    assert "at 30% strength, 0 of 1; short: bead-draws part" in line
    assert shortfalls([("bead-draws", detector.evidence())], 300)[0].strength == 0.3


def test_the_last_line_says_in_plain_words_what_was_tested_and_what_it_means() -> None:
    """Accepted: how many sized alternatives, how many with 99% power, what the others lack,
    the false-alarm chance; rejected: that more games would not change the answer."""
    test = evidence((100.0, 1.0, 0.0), (1.0, 1.0, 0.0))
    line = in_plain_words("accepted", [("bead-draws", test)], 200, second=False)
    assert line.startswith("thorough, in short: accepted after 200 games in one run. ")
    assert "weighed against 2 wrong ways of making them" in line
    assert "in 1 of them would have been rejected with 99% chance or more" in line
    assert "the other 1 needed more games than the time allowed (--thorough-time)" in line
    assert line.endswith(f"with a chance of at most {FALSE_ALARM:g}.")
    line = in_plain_words("wrong-answer learning", [("bead-draws", test)], 12, second=True)
    assert line.startswith("thorough, in short: rejected (wrong-answer learning) after 12 "
                           "games in two runs: a check failed, which no amount of games changes")


def test_a_long_run_tells_its_progress_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """Every few seconds and at its last game, never on stdout (the report's)."""
    from judge.cli import _progress

    show = _progress("second run", 1_500)
    for game in range(1, 1_501):
        show(game)
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1].startswith("thorough, second run: game 1,500 of 1,500 played, ")
