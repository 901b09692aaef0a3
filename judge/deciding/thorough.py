"""A thorough judgement: a second, longer run, as long as the statistical checks need.

The program reads N, the number of games, first, and must play exactly N games then exit, so a
run cannot be stretched once begun, and stopping it early would leave its exit unchecked.
So a thorough judgement is made of two ordinary runs, each with every check, the exit included:

1. the first run plays the games asked for (200 by default) and measures, for each statistical
   alternative with a stated size, what its own law would have shown: the mean and variance of
   the sum of its log bets (`judge.deciding.evidence`);
2. if every such alternative already has 99% power (the chance that a program drawing by it
   would have been rejected), or a check rejected the program, that is the judgement; else a
   second run, with a new seed, plays as many games as the first run's rates say every
   alternative needs for 99% power, within the time budget (the first run's time a game
   tells how many games fit).

The report says, after each run, which alternatives fall short of 99% power and by how much.
Each run's statistical checks reject a correct program with chance at most FALSE_ALARM / 2,
so the thorough judgement keeps FALSE_ALARM in all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from judge.deciding.evidence import NOTHING, POWER, Z_POWER, Evidence, needed
from judge.terms import options
from judge.terms.options import FALSE_ALARM
from judge.terms.settings import Settings

RUNS: Final = 2
"""Runs of a thorough judgement: each gets this share of the false-alarm rate."""
MARGIN: Final = 1.25
"""The second run plays this many times the games the first run's rates ask for."""
BUDGET_SHARE: Final = 0.8
"""The share of the time left that the second run's games are planned to take."""


@dataclass(frozen=True)
class Shortfall:
    """A sized alternative of a check that has less than 99% power so far."""

    check: str
    name: str
    power: float
    games: float
    """The games a run needs, at this run's rates, for 99% power (inf: nothing to bet on)."""
    strength: float = 1.0
    """The share of observations the alternative's law acts on."""


def first_settings(settings: Settings) -> Settings:
    """A thorough judgement's first run's settings: its share of false alarms, powers measured."""
    return replace(settings, false_alarm=FALSE_ALARM / RUNS, measure_power=True)


def games_needed(expected: float, variance: float, share: float, threshold: float,
                 games: int) -> float:
    """The games after which an alternative reaches 99% power, its moments growing at the rate
    they had over `games` games (inf when it has had nothing to bet on)."""
    mean, spread = expected / games, variance / games
    if mean <= NOTHING:
        return math.inf
    need = needed(share, threshold)
    root = (Z_POWER * math.sqrt(spread)
            + math.sqrt(Z_POWER ** 2 * spread + 4 * mean * need)) / (2 * mean)
    return root * root


def shortfalls(tests: Sequence[tuple[str, Evidence]], games: int) -> list[Shortfall]:
    """The sized alternatives, of the checks that passed, that have less than 99% power."""
    short = []
    for check, evidence in tests:
        if not evidence.passed or not evidence.expected:
            continue
        for k, power in enumerate(evidence.powers()):
            if power is not None and power < POWER:
                short.append(Shortfall(check, evidence.names[k], power, games_needed(
                    evidence.expected[k], evidence.variances[k], evidence.share(k),
                    evidence.threshold, max(games, 1)), _strength(evidence, k)))
    return short


def _strength(evidence: Evidence, k: int) -> float:
    """The share of observations alternative k acts on."""
    return evidence.strengths[k] if evidence.strengths else 1.0


@dataclass(frozen=True)
class Plan:
    """What a thorough judgement does after its first run."""

    games: int | None
    """The second run's games, None for no second run."""
    lines: tuple[str, ...]


def plan(tests: Sequence[tuple[str, Evidence]], games: int, seconds: float,
         budget: float) -> Plan:
    """The second run a first run of `games` games taking `seconds` calls for, within `budget`."""
    short = shortfalls(tests, games)
    lines = [standing(tests, games, short)]
    reachable = [s.games for s in short if math.isfinite(s.games)]
    if not reachable:
        return Plan(None, (*lines, "thorough: no second run: "
                           + ("no alternative falls short" if not short else
                              "the alternatives that fall short had nothing to bet on")))
    per_game = seconds / max(games, 1)
    fits = int((budget - seconds) * BUDGET_SHARE / per_game) if per_game > 0 else options.MAX_GAMES
    wanted = math.ceil(max(reachable) * MARGIN)
    second = max(1, min(wanted, fits, options.MAX_GAMES))
    why = ("as many as the first run's rates ask for" if second == wanted else
           f"of the {wanted:,} the first run's rates ask for, as many as fit")
    lines.append(f"thorough: a second run of {second:,} games, {why} (budget {budget:g} s, "
                 f"{per_game * 1000:.1f} ms a game so far)")
    return Plan(second, tuple(lines))


def second_settings(settings: Settings, games: int) -> Settings:
    """The settings of the second run: its games, a new seed, the limits that go with its games."""
    return replace(first_settings(settings), games=games,
                   seed=(settings.seed + 1) % (options.MAX_SEED + 1), time_limit=None,
                   output_bytes=None, scripted=None)


def standing(tests: Sequence[tuple[str, Evidence]], games: int,
             short: Sequence[Shortfall] | None = None) -> str:
    """In a line, how far a run's statistical checks have 99% power against their alternatives,
    and, apart, those that act on part of the observations."""
    short = shortfalls(tests, games) if short is None else short
    counted = [(e, k) for _, e in tests if e.passed and e.expected
               for k, sized in enumerate(e.sized) if sized]
    if any(not e.passed for _, e in tests):
        return "thorough: a statistical check rejected the program"
    parts = sorted({_strength(e, k) for e, k in counted if _strength(e, k) < 1})
    apart = "".join(
        f"; at {part:.0%} strength, {total - missing} of {total}"
        for part in parts
        for total in [sum(_strength(e, k) == part for e, k in counted)]
        for missing in [sum(s.strength == part for s in short)])
    if not short:
        return (f"thorough: after {games:,} games, each of the {len(counted)} alternatives with a "
                f"stated size has {POWER:.0%} power against its own law{apart}")
    weakest = sorted(short, key=lambda s: s.power)[:3]
    return (f"thorough: after {games:,} games, {len(counted) - len(short)} of {len(counted)} "
            f"alternatives with a stated size have {POWER:.0%} power against their own "
            f"law{apart}; short: "
            + "; ".join(f"{s.check} {s.name} ({s.power:.0%})" for s in weakest)
            + (f" and {len(short) - 3} more" if len(short) > 3 else ""))


def false_alarm_line() -> str:
    """The thorough judgement's false-alarm rate, in a line."""
    return (f"thorough: each run's statistical checks reject a correct program with chance at "
            f"most {FALSE_ALARM / RUNS:g}, the judgement at most {FALSE_ALARM:g}")


def in_plain_words(verdict: str, tests: Sequence[tuple[str, Evidence]], games: int, *,
                   second: bool) -> str:
    """What a thorough judgement found, in plain words, the last line of its report: what was
    tested, how much power the tests had, and what that means for the answer."""
    runs = "two runs" if second else "one run"
    if verdict != "accepted":
        statistical = any(not evidence.passed for _, evidence in tests)
        why = ("a statistical check found its draws or refills unlike SPEC section 5's, with a "
               f"chance of at most {FALSE_ALARM:g} of doing so to a correct program"
               if statistical else "a check failed, which no amount of games changes")
        return (f"thorough, in short: rejected ({verdict}) after {games:,} games in {runs}: "
                f"{why}; mend what the report names and judge it again")
    sized = sum(sum(evidence.sized) for _, evidence in tests if evidence.expected)
    short = len(shortfalls(tests, games))
    caught = (f"a program that drew or refilled in {sized - short} of them would have been "
              f"rejected with {POWER:.0%} chance or more")
    if short:
        caught += (f"; the other {short} needed more games than the time allowed "
                   "(--thorough-time), so this judgement says little about them")
    return (f"thorough, in short: accepted after {games:,} games in {runs}. Its bead draws and "
            f"refills were weighed against {sized} wrong ways of making them, and {caught}. A "
            f"correct program is rejected by these tests with a chance of at most "
            f"{FALSE_ALARM:g}.")
