"""The e-detector: its recursion is the mixture over start games it claims, and its power sums."""

from __future__ import annotations

import math
import random

import pytest

from judge.deciding.evidence import (
    SMOOTHING,
    START_NORM,
    Detector,
    Evidence,
    log_bet,
    moments,
    power,
    start_weight,
)
from judge.terms.options import FALSE_ALARM


def test_start_weights_sum_to_at_most_one() -> None:
    """The weights of the first million start games, and a bound of the rest (the integral of
    1 / (C x ln(x)^2) from 10^6), sum to less than 1; game 1 has about half."""
    first = math.fsum(start_weight(k) for k in range(1, 10 ** 6))
    assert first + 1 / (START_NORM * math.log(10 ** 6)) <= 1
    assert 0.49 < start_weight(1) < 0.5 and 8.9 < -math.log(start_weight(150)) < 9.1


def explicit(bets: list[tuple[int, list[float]]], games: int) -> list[float]:
    """Each alternative's evidence from its definition: sum over start games k of w(k) times the
    product of its smoothed ratios of games k on, and the weight left (products 1)."""
    alternatives = len(bets[0][1])
    values = []
    for a in range(alternatives):
        total = 1 - math.fsum(start_weight(k) for k in range(1, games + 1))
        for k in range(1, games + 1):
            product = math.prod((1 - SMOOTHING) * ratios[a] + SMOOTHING
                                for game, ratios in bets if game >= k)
            total += start_weight(k) * product
        values.append(total)
    return values


def test_the_recursion_is_the_mixture_over_start_games() -> None:
    """Bets of games with gaps between them: the detector's evidence is the explicit mixture."""
    rng = random.Random(5)
    bets: list[tuple[int, list[float]]] = []
    game = 0
    for _ in range(40):
        game += rng.choice((0, 0, 1, 3))
        bets.append((max(game, 1), [rng.uniform(0, 3), rng.uniform(0, 1.5), 0.0]))
    detector = Detector(("a", "b", "c"))
    for game, ratios in bets:
        detector.bet(game, ratios)
    evidence = detector.evidence()
    assert [math.exp(v) for v in evidence.log_values] == pytest.approx(
        explicit(bets, bets[-1][0]), rel=1e-9)
    assert math.exp(evidence.log_evidence) == pytest.approx(
        sum(math.exp(v) for v in evidence.log_values) / 3)


def test_a_fault_from_a_later_game_is_dated_and_costs_log_k_k_plus_1() -> None:
    """Bets against until game 150, then ratio 2: the likeliest start is 150, and the evidence
    is at least w(150) times the product since then, and within a few times that."""
    detector = Detector(("late",))
    for game in range(1, 150):
        detector.bet(game, [0.5])
    for game in range(150, 171):
        detector.bet(game, [2.0])
    evidence = detector.evidence()
    assert evidence.starts == (150,)
    assert evidence.strongest == "late (from game 150)"
    least = math.log(start_weight(150)) + 21 * log_bet(2.0)
    assert least <= evidence.log_values[0] <= least + 2


def test_evidence_names_every_alternative() -> None:
    """The evidence is reported per alternative, strongest first, against its threshold."""
    detector = Detector(("a", "b"))
    detector.bet(1, [10.0, 0.0])
    evidence = detector.evidence()
    assert evidence.strongest == "a"
    assert evidence.ratios().startswith(f"a: {start_weight(1) * 9.1 + 1 - start_weight(1):.3g}")
    assert evidence.passed and evidence.threshold == 1 / FALSE_ALARM
    assert "likeliest alternative" not in evidence.describe("move", "the law")  # a mere 5
    for game in range(2, 5):
        detector.bet(game, [10.0, 0.0])
    assert "likeliest alternative: a" in detector.evidence().describe("move", "the law")
    assert Evidence(0, (), ()).describe("move", "the law") == "over 0 moves, nothing to test"


def test_moments_are_those_of_the_log_bet() -> None:
    """The mean and variance of the log bet under the law, from the definition."""
    law, spec = (0.5, 0.5, 0.0), (0.25, 0.25, 0.5)
    mean, variance = moments(law, spec)
    assert mean == pytest.approx(log_bet(2.0))
    assert variance == pytest.approx(0.0, abs=1e-12)
    mean, variance = moments((0.8, 0.2), (0.5, 0.5))
    bets = (log_bet(1.6), log_bet(0.4))
    assert mean == pytest.approx(0.8 * bets[0] + 0.2 * bets[1])
    assert variance == pytest.approx(0.8 * 0.2 * (bets[0] - bets[1]) ** 2)


def test_power_is_the_normal_chance_of_reaching_the_threshold() -> None:
    """Power: the chance that the log bets' sum passes log(K threshold / w(1)), normally
    approximated."""
    need = math.log(10 / FALSE_ALARM / start_weight(1))
    assert power(need, 1.0, 0.1, 1 / FALSE_ALARM) == pytest.approx(0.5)
    assert power(need + 2.3263, 1.0, 0.1, 1 / FALSE_ALARM) == pytest.approx(0.99, abs=1e-4)
    assert power(need - 1, 0.0, 0.1, 1 / FALSE_ALARM) == 0.0


def test_measured_moments_add_up() -> None:
    """A detector measuring power adds each bet's moments for each alternative."""
    detector = Detector(("a", "b"), sized=(True, False), measure_power=True)
    detector.bet(1, [1.0, 1.0], [(0.5, 0.1), (0.2, 0.0)])
    detector.bet(2, [1.0, 1.0], [(0.5, 0.1), (0.2, 0.0)])
    evidence = detector.evidence()
    assert evidence.expected == (1.0, 0.4) and evidence.variances == pytest.approx((0.2, 0.0))
    powers = evidence.powers()
    assert powers[1] is None and powers[0] is not None and powers[0] < 0.01
