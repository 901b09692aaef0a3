"""Shrinking a rejection: the smallest run of scripted games that the program still fails.

A candidate is O's scripts (`ChoiceOpponent`: per game, the squares O takes in turn, the
lowest empty one where a square is taken or the script has ended), so every candidate is a
legal run whatever MENACE plays.
The search starts from the rejected run's own scripts, cut at the failing game, and a few
quick guesses (the failing game alone, or with one game before it; as many games of default
moves); when those leave more than two games, the failing game after each of eight other
first games. Then hypothesis's shrinker takes the smallest failing run: it is put in an
example database as a choice sequence (the game count, then each game's script length and
squares), and hypothesis deletes games, shortens scripts and lowers squares while the judge,
with every check, still rejects the candidate the same way (same verdict, same check).

A program that takes the judge's seed (`seed_args`) repeats a run under the same seed. When
its smallest run still has more than two games, the same games are played under a few other
seeds: a fault that needs a particular turn of the program's random numbers may come sooner
under one, and the search goes on from there, under that seed. A program that takes no seed
repeats a run only if it is deterministic by itself: the rejected games are played three
times first, and if the program's transcripts differ, it is not shrunk, and the report says
how to declare `seed_args`. The smallest candidate is then run several times to say honestly
whether it repeats.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Final

from judge.deciding.decision import Decision
from judge.deciding.judging import Run, judge
from judge.deciding.opponents import Choices
from judge.terms.manifest import Manifest
from judge.terms.options import MAX_SEED, SHRINK_SECONDS
from judge.terms.settings import Settings
from judge.terms.text import plural
from judge.terms.verdicts import Verdict

REPEATS: Final = 5
"""Runs of the smallest candidate that say whether it repeats."""
SMALL_GAMES: Final = 2
"""A run of this many games or fewer is small; a longer one gets more guesses before shrinking."""
GUESS_ROUNDS: Final = 3
"""Times hypothesis shrinks at most: again when guesses made from what it found beat it."""
SHRINKABLE: Final = (Verdict.WRONG_ANSWER, Verdict.PRESENTATION_ERROR, Verdict.RUNTIME_ERROR)
OTHER_SEEDS: Final = 8
"""Seeds after the run's own under which a seeded program's smallest failing run is played."""
FIRST_RUNS: Final = 3
"""Runs of the rejected games that show whether an unseeded program repeats itself."""
SEED_ADVICE: Final = (
    "to make its runs repeatable, have it seed its random numbers from its command line and "
    "declare how: seed_args = [\"--seed\", \"{seed}\"] in submission.toml, "
    "--seed-args '--seed {seed}' for a bare file or command, or seed_args='--seed {seed}' in "
    "a bare file's menace-judge: header; the judge then passes its seed ({seed}) on every run")
"""How a program that takes no seed is made repeatable, for the reports that need it."""


def shrinkable(run: Run) -> bool:
    """True for a rejection in a game that a smaller run could show: a failed check, a crash."""
    place = run.decision.place
    return run.decision.verdict in SHRINKABLE and (place.game > 1 or place.move > 1)


def normal(choices: Choices) -> Choices:
    """The same games without the trailing zeros of each script (square 0 is the default)."""
    games = []
    for game in choices:
        script = list(game)
        while script and script[-1] == 0:
            script.pop()
        games.append(tuple(script))
    return tuple(games)


def size(choices: Choices) -> tuple[int, int, int]:
    """How big a candidate is: games, then scripted moves, then the squares' sum."""
    return len(choices), sum(len(g) for g in choices), sum(sum(g) for g in choices)


def same_fault(run: Run, target: Decision) -> bool:
    """True when a run is rejected as the target was: the same verdict and check."""
    return run.decision.verdict is target.verdict and run.decision.check is target.check


@dataclass(frozen=True)
class Repeatability:
    """How often the smallest candidate was rejected again; whether the program repeats itself."""

    runs: int
    reproduced: int
    seeded: bool
    """True when the manifest declares a seed argument."""
    same_transcript: bool
    """True when every run printed the same transcript."""

    @property
    def repeatable(self) -> bool:
        """True when every run reproduced it and the program behaved the same each time."""
        return self.reproduced == self.runs and self.same_transcript

    def describe(self) -> str:
        """The finding in words, never claiming more than was seen."""
        counted = f"reproduced {self.reproduced} of {self.runs} runs"
        if self.repeatable:
            why = ("the manifest's seed argument fixes its randomness" if self.seeded
                   else "the program printed the same transcript every time")
            return f"{counted} ({why})"
        own = ("its moves differ from run to run under the same seed argument" if self.seeded
               else "it declares no seed argument and its moves differ from run to run")
        if self.reproduced == self.runs:
            return f"{counted}, but the program's own randomness changes its play ({own})"
        return f"not repeatable: the program's own randomness decides ({own}); {counted}"


@dataclass(frozen=True)
class NotShrunk:
    """Why a rejection was not shrunk."""

    reason: str


@dataclass(frozen=True)
class Shrunk:
    """The smallest rejected run found, with what the search and the repeat runs showed."""

    original_games: int
    choices: Choices
    run: Run
    """A run of the smallest candidate, rejected as the original was if any repeat was."""
    attempts: int
    seconds: float
    repeatability: Repeatability
    count_matters: bool
    """True when only the number of games matters: one game fewer passes, other moves fail too."""
    seed: int
    """The judge's seed of the smallest case (another than the rejected run's when the program's
    seed arguments gave a smaller case under it)."""
    original_seed: int
    """The rejected run's seed."""
    budget: float = SHRINK_SECONDS
    """The search's time budget, in seconds."""
    out_of_time: bool = False
    """True when the budget ran out before the search ended."""

    @property
    def failed_again(self) -> bool:
        """True when some run of the smallest case was rejected as the original run was."""
        return self.repeatability.reproduced > 0


class Search:
    """Candidates judged so far, the smallest that still fails, and the budget."""

    def __init__(self, manifest: Manifest, settings: Settings, target: Decision,
                 seconds: float, progress: Callable[[str], None]) -> None:
        self.manifest = manifest
        self.settings = settings
        self.target = target
        self.started = time.monotonic()
        self.deadline = self.started + seconds
        self.progress = progress
        self.seed = settings.seed
        """The judge's seed under which candidates are judged."""
        self.seen: dict[tuple[int, Choices], bool] = {}
        self.best: tuple[Choices, Run] | None = None
        self.out_of_time = False
        """True once a candidate went unjudged because the budget was spent."""

    def run(self, choices: Choices, *, keep_transcript: bool = False,
            seed: int | None = None) -> Run:
        """Judge the program under these choices, one game per script (under `seed`, if given)."""
        settings = replace(self.settings, games=len(choices), keep_transcript=keep_transcript,
                           seed=self.seed if seed is None else seed)
        return judge(self.manifest, settings, choices=choices, offer_declarations=False)

    def fails(self, choices: Choices) -> bool:
        """True when the candidate is rejected the same way (False once the budget is spent)."""
        choices = normal(choices)
        if not choices:
            return False
        if (self.seed, choices) in self.seen:
            return self.seen[self.seed, choices]
        if time.monotonic() > self.deadline:
            self.out_of_time = True
            return False
        return self._note(choices, self.run(choices))

    def fail_all(self, candidates: list[Choices], *, budget: bool = True) -> None:
        """Judge candidates side by side, one per core, and note each as `fails` does."""
        self.judge_all([(self.seed, choices) for choices in candidates], budget=budget)

    def judge_all(self, candidates: list[tuple[int, Choices]], *,
                  budget: bool = True) -> list[tuple[int, Choices, Run]]:
        """Judge candidates, each under its seed, side by side, one per core; note each as
        `fails` does, and return those judged now."""
        fresh = list(dict.fromkeys((seed, normal(c)) for seed, c in candidates
                                   if normal(c) and (seed, normal(c)) not in self.seen))
        if fresh and budget and time.monotonic() > self.deadline:
            self.out_of_time = True
        if not fresh or (budget and time.monotonic() > self.deadline):
            return []
        with ThreadPoolExecutor(max_workers=min(len(fresh), os.cpu_count() or 1)) as pool:
            runs = list(pool.map(lambda c: self.run(c[1], seed=c[0]), fresh))
        for (_, choices), run in zip(fresh, runs, strict=True):
            self._note(choices, run)
        return [(seed, choices, run) for (seed, choices), run in zip(fresh, runs, strict=True)]

    def _note(self, choices: Choices, run: Run) -> bool:
        """Record a judged candidate, and whether it is the smallest failing one yet."""
        failed = same_fault(run, self.target)
        self.seen[run.replay.seed, choices] = failed
        if failed and (self.best is None or size(choices) < size(self.best[0])):
            self.best = (choices, run)
            games, moves, _ = size(choices)
            self.progress(f"shrink: {len(self.seen)} runs, {self.elapsed():.1f} s: "
                          f"{plural(games, 'game')}, {plural(moves, 'scripted move')} still fail")
        elif len(self.seen) % 10 == 0:
            self.progress(f"shrink: {len(self.seen)} runs, {self.elapsed():.1f} s")
        return failed

    def repeats(self, choices: Choices, count: int) -> list[Run]:
        """`count` runs of the same candidate, side by side, each keeping its transcript."""
        with ThreadPoolExecutor(max_workers=min(count, os.cpu_count() or 1)) as pool:
            return list(pool.map(lambda _: self.run(choices, keep_transcript=True), range(count)))

    def repeats_by_itself(self, choices: Choices) -> tuple[bool, int]:
        """Whether a program that takes no seed repeated these games exactly, in FIRST_RUNS
        runs, and in how many it was rejected the same way; the runs are noted."""
        runs = self.repeats(choices, FIRST_RUNS)
        for run in runs:
            self._note(choices, run)
        failing = sum(same_fault(run, self.target) for run in runs)
        return len({_until_failure(run) for run in runs}) == 1, failing

    def elapsed(self) -> float:
        """Seconds since the search began."""
        return time.monotonic() - self.started


def _first_guesses(start: Choices) -> list[Choices]:
    """Small candidates worth one run each before the shrinker starts from the smallest failing.

    The failing game alone, after one default game, and as many games of default moves.
    """
    last = start[-1]
    return [(last,), ((), last), tuple(() for _ in start)]


def _second_guesses(start: Choices) -> list[Choices]:
    """The failing game second, after a first game of each opening square of O.

    A seeded program's draws in a game depend on how many it made before: each first game
    leaves MENACE's randomness elsewhere, so the failing game meets other draws.
    """
    return [((square,), start[-1]) for square in range(1, 9)]


def _guess_from(search: Search, failing: Choices) -> bool:
    """Try the guesses made from a failing candidate; True when one is smaller than it."""
    search.fail_all(_first_guesses(failing))
    assert search.best is not None
    if len(search.best[0]) > SMALL_GAMES:
        search.fail_all(_second_guesses(failing))
    return size(search.best[0]) < size(failing)


def _other_seeds(search: Search) -> bool:
    """Play the smallest failing run under OTHER_SEEDS other seeds, and where it fails sooner,
    its games up to there; True when a smaller run fails, the search then under its seed."""
    assert search.best is not None
    failing = search.best[0]
    seeds = [(search.seed + step) % (MAX_SEED + 1) for step in range(1, OTHER_SEEDS + 1)]
    judged = search.judge_all([(seed, failing) for seed in seeds])
    sooner = [(seed, choices[:run.decision.place.game]) for seed, choices, run in judged
              if same_fault(run, search.target) and run.decision.place.game < len(choices)]
    search.judge_all(sooner)
    seed = search.best[1].replay.seed
    if seed == search.seed:
        return False
    search.progress(f"shrink: under seed {seed}, {plural(len(search.best[0]), 'game')} fail")
    search.seed = seed
    return True


def _count_matters(search: Search, choices: Choices) -> bool:
    """True when games of default moves fail only from this count on, and other moves fail too."""
    if len(choices) < 3 or any(choices):
        return False
    fewer, other = choices[:-1], tuple((1,) for _ in choices)
    search.fail_all([fewer, other], budget=False)
    return not search.seen[search.seed, fewer] and search.seen[search.seed, other]


def shrink(manifest: Manifest, settings: Settings, rejected: Run, *,
           seconds: float = SHRINK_SECONDS,
           progress: Callable[[str], None] = lambda text: None) -> Shrunk | NotShrunk:
    """The smallest run found within `seconds` that the program fails as in `rejected`.

    NotShrunk when the rejection cannot be shrunk: it happened before any game, or the program
    takes no seed and does not repeat itself. When the rejected games never fail again, they
    are the case, and their repeatability says so.
    """
    if not shrinkable(rejected):
        return NotShrunk("the rejection came before the first game")
    target = rejected.decision
    search = Search(manifest, settings, target, seconds, progress)
    played = rejected.replay.moves[:target.place.game]
    start = normal(tuple(played) + ((),) * (target.place.game - len(played)))
    progress(f"shrink: from {plural(len(start), 'game')}, within {seconds:.0f} s")
    if manifest.seed_args:
        failed = any(search.fails(start) for _ in range(FIRST_RUNS))
    else:
        progress("shrink: the program takes no seed: do its runs repeat by themselves?")
        same, failing = search.repeats_by_itself(start)
        if not same:
            return NotShrunk(
                "the program takes no seed from the judge, and its own randomness changed its "
                f"play: {FIRST_RUNS} runs of the rejected games printed different transcripts "
                f"({failing} of them rejected the same way), so a smaller run that passes or "
                f"fails would show nothing; {SEED_ADVICE}")
        failed = failing > 0
    if failed:
        _search(search, start, seeded=bool(manifest.seed_args))
    choices = search.best[0] if search.best is not None else start
    count_matters = search.best is not None and _count_matters(search, choices)
    runs = search.repeats(choices, REPEATS)
    failing_runs = [run for run in runs if same_fault(run, target)]
    transcripts = {_until_failure(run) for run in runs}
    repeat = Repeatability(REPEATS, len(failing_runs), bool(manifest.seed_args),
                           len(transcripts) == 1)
    return Shrunk(target.place.game, choices, (failing_runs or runs)[0], len(search.seen),
                  search.elapsed(), repeat, count_matters, search.seed, settings.seed,
                  seconds, search.out_of_time)


def _search(search: Search, start: Choices, *, seeded: bool) -> None:
    """Shrink from `start`, known to fail: guesses, hypothesis's shrinker, other seeds."""
    from judge.telling.shrinking.by_hypothesis import (
        shrink_with_hypothesis,  # hypothesis loads only to shrink
    )

    _guess_from(search, start)
    for _ in range(GUESS_ROUNDS):
        assert search.best is not None
        shrink_with_hypothesis(search.fails, search.best[0])
        shrunk = search.best[0]
        if len(shrunk) <= SMALL_GAMES or not _guess_from(search, shrunk):
            break
    assert search.best is not None
    if seeded and len(search.best[0]) > SMALL_GAMES and _other_seeds(search):
        shrink_with_hypothesis(search.fails, search.best[0])


def _until_failure(run: Run) -> tuple[str, ...]:
    """The program's lines of a run, as far as the games it played."""
    return tuple(line for line in run.transcript if line.startswith("<"))
