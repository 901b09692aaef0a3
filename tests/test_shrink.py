"""Shrinking a rejection: late faults that depend on the position shrink to the few games and
moves they need and replay; a fault tied to the count of games keeps exactly that count; a
fault that comes in a particular game under one seed comes sooner under another; a program
that takes no seed is shrunk only when it repeats itself, else the report says how to seed it;
`--shrink` without hypothesis is a one-line message.

The faulty program is the canonical MENACE with one of its late faults each
(`tests/submissions/menace.py`), fast Python, so each shrink takes a few dozen short runs.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from live import judge_process

from judge.deciding.judging import Run, judge
from judge.telling.report import shrunk_lines
from judge.telling.shrinking.case import choices_source
from judge.telling.shrinking.case import test_body as shrunk_test_body
from judge.telling.shrinking.search import (
    NotShrunk,
    Shrunk,
    normal,
    same_fault,
    shrink,
    size,
)
from judge.terms.manifest import Manifest
from judge.terms.replay import read_replay
from judge.terms.settings import Settings
from judge.terms.text import plural
from judge.terms.verdicts import Check, Verdict

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parent.parent
FAULTS = ROOT / "tests" / "submissions" / "menace.py"
SECONDS = 600.0
"""A budget no shrink here reaches: each ends on its own, so its result does not depend on the
machine's load (a loaded machine only makes it take longer)."""


def faulty(fault: str, *extra: str, seeded: bool = True) -> Manifest:
    """The canonical MENACE with `fault`, taking the judge's seed when `seeded`."""
    return Manifest(command=("python3", FAULTS.name, "--fault", fault, *extra),
                    seed_args=("--seed", "{seed}") if seeded else (), files=(FAULTS,))


def rejected(manifest: Manifest, games: int, seed: int) -> tuple[Settings, Run]:
    """The settings of a judged run and the run, which must be rejected for learning."""
    settings = Settings(games=games, seed=seed, time_limit=120.0, idle_seconds=10.0)
    run = judge(manifest, settings)
    assert run.decision.verdict is Verdict.WRONG_ANSWER, run.decision
    assert run.decision.check is Check.LEARNING
    return settings, run


def shrunk_case(manifest: Manifest, games: int, seed: int) -> tuple[Settings, Run, Shrunk]:
    """A rejected run and its shrink."""
    settings, run = rejected(manifest, games, seed)
    found = shrink(manifest, settings, run, seconds=SECONDS)
    assert isinstance(found, Shrunk), found
    return settings, run, found


@pytest.mark.parametrize(("fault", "seed", "moves_needed"), [
    ("fourth-move", 5, 3),     # MENACE's 4th move comes after O's 3rd
    ("after-refill", 5, 4),    # a box emptied and refilled, then a win
    ("one-symmetry", 5, 4),    # a board that is its label turned a quarter, then a win or loss
    ("one-diagonal", 5, 3),    # MENACE completes the 2-4-6 diagonal: O moves at most 3 times
])
def test_a_late_positional_fault_shrinks_to_two_games_and_replays(
        fault: str, seed: int, moves_needed: int) -> None:
    manifest = faulty(fault)
    settings, run, found = shrunk_case(manifest, 120, seed)
    games, scripted, _ = size(found.choices)
    assert games <= 2 and scripted <= moves_needed, found.choices
    assert games <= run.decision.place.game
    assert found.repeatability.repeatable and found.repeatability.reproduced == 5
    assert same_fault(found.run, run.decision)
    replay = found.run.replay
    again = judge(manifest, replace(settings, seed=found.seed, games=replay.games,
                                    scripted=replay.moves))
    assert same_fault(again, run.decision) and again.decision.place == found.run.decision.place


def test_a_fault_after_the_30th_game_keeps_exactly_31_games_of_the_simplest_moves() -> None:
    manifest = faulty("after-game", "--after", "30")
    _, run, found = shrunk_case(manifest, 60, 5)
    assert run.decision.place.game == 31
    assert found.choices == ((),) * 31
    assert found.count_matters
    text = "\n".join(shrunk_lines(found, manifest))
    assert "\nSHRUNK: nothing shorter than 31 games found, in " in text
    assert ": every shorter run tried passed, so the fault needs that many games" in text
    assert "the count of games is what matters" in text
    assert "games 1-30: O on the lowest empty square" in text


def test_a_shrink_out_of_time_says_it_found_nothing_shorter_and_why() -> None:
    manifest = faulty("learning-loss")
    settings, run = rejected(manifest, 20, 3)
    found = shrink(manifest, settings, run, seconds=0.001)
    assert isinstance(found, Shrunk) and found.out_of_time
    text = "\n".join(shrunk_lines(found, manifest))
    games = plural(run.decision.place.game, "game")
    assert f"\nSHRUNK: nothing shorter than {games} found, in " in text
    assert "the time budget ran out first (--shrink-time 0.001); allow it more" in text


def test_a_program_that_takes_no_seed_and_does_not_repeat_itself_is_not_shrunk() -> None:
    manifest = faulty("unseeded", seeded=False)
    settings, run = rejected(manifest, 200, 3)
    found = shrink(manifest, settings, run, seconds=SECONDS)
    assert isinstance(found, NotShrunk)
    assert "takes no seed from the judge" in found.reason
    assert "printed different transcripts" in found.reason
    assert 'seed_args = ["--seed", "{seed}"] in submission.toml' in found.reason
    assert "--seed-args '--seed {seed}'" in found.reason


def test_a_program_that_takes_no_seed_but_repeats_itself_is_shrunk() -> None:
    manifest = faulty("fourth-move", "--seed", "5", seeded=False)  # its own fixed seed
    _, _, found = shrunk_case(manifest, 120, 5)
    assert size(found.choices)[0] <= 2 and found.repeatability.repeatable
    assert found.repeatability.describe() == (
        "reproduced 5 of 5 runs (the program printed the same transcript every time)")


def test_a_fault_in_a_particular_game_comes_sooner_under_another_seed() -> None:
    manifest = faulty("unlucky-game")
    nine = judge(manifest, Settings(games=9, seed=12, time_limit=120.0, idle_seconds=10.0))
    assert nine.decision.verdict is Verdict.ACCEPTED  # under seed 12 the fault needs game 10
    settings, run, found = shrunk_case(manifest, 30, 12)
    assert run.decision.place.game == 10
    assert size(found.choices)[0] <= 2 and found.seed != 12 and found.original_seed == 12
    assert found.repeatability.repeatable
    replay = found.run.replay
    assert replay.seed == found.seed
    again = judge(manifest, replace(settings, seed=replay.seed, games=replay.games,
                                    scripted=replay.moves))
    assert same_fault(again, run.decision)
    text = "\n".join(shrunk_lines(found, manifest))
    assert f"under the judge's seed {found.seed}, not the rejected run's 12" in text
    body = shrunk_test_body(found, manifest, found.seed)
    assert f"seed={found.seed}, seed_args='--seed {{seed}}')" in body


def test_the_command_line_says_plainly_why_an_unseeded_program_is_not_shrunk(
        tmp_path: Path) -> None:
    done = judge_process("--games", "200", "--seed", "3", "--shrink", "--save-replay",
                         tmp_path / "replay.json", "--", "python3", FAULTS, "--fault", "unseeded")
    assert done.returncode == 1 and done.stdout.splitlines()[-1] == "wrong-answer learning"
    line = next(line for line in done.stdout.splitlines() if line.startswith("shrink: "))
    assert line.startswith("shrink: not shrunk: the program takes no seed from the judge")
    assert "SHRUNK" not in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["replay.json"]  # no shrunk case


def test_shrink_without_hypothesis_is_one_line_naming_the_install_command(
        tmp_path: Path) -> None:
    hidden = ("import sys; sys.modules['hypothesis'] = None; from judge.cli import main; "
              f"sys.exit(main(['--shrink', '--save-replay', {str(tmp_path / 'r.json')!r}, "
              f"'--', 'python3', {str(FAULTS)!r}]))")
    done = subprocess.run([sys.executable, "-c", hidden], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    err = done.stderr.splitlines()
    assert len(err) == 1 and "Traceback" not in done.stdout + done.stderr
    assert "--shrink needs hypothesis" in err[0] and "python3 -m pip install hypothesis" in err[0]
    assert not any(tmp_path.iterdir())  # nothing was run


def test_the_pytest_body_rebuilds_the_choices_exactly() -> None:
    for choices in [((),) * 29 + ((1,),), ((1, 2),), ((), (3,), ()), ((0, 4),) * 2]:
        assert eval(choices_source(normal(choices))) == normal(choices)  # noqa: S307


def test_the_command_line_shrinks_saves_a_replay_and_a_test_that_fail_again(
        tmp_path: Path) -> None:
    replay_path = tmp_path / "replay.json"
    done = judge_process("--games", "60", "--seed", "5", "--shrink", "--save-replay",
                         replay_path, "--", "python3", FAULTS, "--fault", "fourth-move",
                         "--seed", "5")
    lines = done.stdout.splitlines()
    assert done.returncode == 1 and lines[-1] == "wrong-answer learning", done.stdout
    assert any(line.startswith("SHRUNK: from ") for line in lines)
    assert "reproduced 5 of 5 runs" in done.stdout
    assert "shrink: " in done.stderr  # progress while it works
    shrunk_replay = tmp_path / "replay-shrunk.json"
    replay = read_replay(shrunk_replay)
    assert replay.games <= 2
    again = judge_process("--replay", shrunk_replay, "--yes", timeout=120)
    assert again.stdout.splitlines()[-1] == "wrong-answer learning", again.stdout
    test_file = tmp_path / "test_replay_shrunk.py"
    assert "assert_accepted(" in test_file.read_text()
    pasted = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             str(test_file)], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert pasted.returncode == 1 and "wrong-answer learning" in pasted.stdout


@pytest.mark.parametrize("budget", ["nan", "-1", "0", "inf", "soon"])
def test_a_bad_shrink_budget_is_a_usage_error(budget: str) -> None:
    done = judge_process("--shrink", "--shrink-time", budget, "--", "true", timeout=60)
    assert done.returncode == 2
    assert "--shrink-time" in done.stderr and "not a number of seconds" in done.stderr
