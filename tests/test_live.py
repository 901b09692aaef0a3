"""Real programs judged in the first tier, as a golfer judges them: `python3 -m judge`, a
process of its own, started in a fresh folder and contained as by default.

A few short runs: a correct program accepted, a faulty one rejected with the check it fails,
and a reader that stops after the report's first line (`| head -1`), which leaves the judge
quiet and its exit status the verdict's. The second tier (`--e2e`) judges every fixture, every
golfed answer and every attack.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest
from fixture_folders import ROOT, assembled
from live import judge_command, judge_environment, judge_process

from judge.telling.commands import interpreter

GAMES = "12"
"""Games of each run: enough for the faulty program to show its fault, few enough to be quick."""
JUDGE_TIMEOUT = 120.0


def test_a_correct_program_is_accepted(tmp_path: Path) -> None:
    done = judge_process("--games", GAMES, "--seed", "1", assembled("accepted/canonical", tmp_path),
                         timeout=JUDGE_TIMEOUT)
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert lines[0].startswith("judging canonical (Python 3, ") and lines[-1] == "accepted"
    assert lines[1].startswith("sandbox: ") and done.stderr == ""


def test_a_faulty_program_is_rejected_with_the_check_it_fails(tmp_path: Path) -> None:
    done = judge_process("--games", GAMES, "--seed", "1",
                         assembled("wrong-answer/learning-loss", tmp_path), timeout=JUDGE_TIMEOUT)
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stdout + done.stderr
    assert lines[-1] == "wrong-answer learning"
    assert any(line.startswith("REJECTED at game ") and "check learning failed" in line
               for line in lines), done.stdout
    assert any(line.startswith(f"  replay: {interpreter()} -m judge --replay ") for line in lines)


@pytest.mark.parametrize(("fixture", "status"), [("accepted/canonical", 0),
                                                 ("wrong-answer/learning-loss", 1)])
def test_a_reader_that_stops_after_one_line_leaves_the_verdicts_status(
        fixture: str, status: int, tmp_path: Path) -> None:
    """`python3 -m judge ... | head -1`: the first line, nothing on stderr, and the verdict's
    exit status (0 accepted, 1 rejected), never 2: a closed standard output is no bad usage."""
    command = shlex.join(judge_command("--games", GAMES, "--seed", "1",
                                       str(assembled(fixture, tmp_path))))
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {command} | head -1"], cwd=ROOT,
                          env=judge_environment(), capture_output=True, text=True,
                          timeout=JUDGE_TIMEOUT, check=False)
    assert done.stdout.startswith("judging ") and done.stdout.count("\n") == 1, done.stdout
    assert (done.returncode, done.stderr) == (status, "")
