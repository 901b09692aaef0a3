"""The judge's own memory is bounded whatever the program prints: floods of long lines and of
many short lines leave the judge under 150 MB resident, its transcript included, with a note
where lines were cut (six million blank lines, counted, are the hostile battery's attack m:
tests/test_hostile.py).

Each flood comes before `new game`, where the judge skips blank and border lines, so every
line reaches the game's log and the transcript. Before the bound, the judge held every line:
166 MB for 4 million blank lines, 601 MB for the long ones and 342 MB for the short ones.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from live import judge_command, judge_environment

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parent.parent
MOST_RESIDENT_MB = 150
FLOODS = {
    "long": 'w(("-" * 100_000 + "\\n") * 38)\n',   # 1,520 border lines of 100,000 characters
    "short": 'w("-\\n" * 50_000)\n',        # 2 million border lines of one character
}


def flood_program(folder: Path, kind: str) -> Path:
    """A program that reads the game count, floods 40 times, then starts a game and ends."""
    path = folder / f"{kind}.py"
    path.write_text("import sys\nw = sys.stdout.write\ninput()\nfor _ in range(40):\n    "
                    + FLOODS[kind] + 'print("new game", flush=True)\n')
    return path


MEASURED = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)")
"""A small process that runs a command and prints its tree's peak resident memory in KiB. It
stands between the test and the judge: a child's peak counts the memory of the process it was
forked from, here this small one, not the test's."""


def peak_resident_mb(args: list[str]) -> tuple[int, str]:
    """The judge's peak resident memory in MB (its programs' included) and its last line."""
    done = subprocess.run([sys.executable, "-c", MEASURED, *judge_command(*args)], cwd=ROOT,
                          env=judge_environment(), capture_output=True, text=True, timeout=900)
    return int(done.stderr.split()[-1]) >> 10, done.stdout.strip().splitlines()[-1]


@pytest.mark.e2e
@pytest.mark.parametrize("kind", sorted(FLOODS))
def test_a_flood_leaves_the_judge_under_150_mb(kind: str, tmp_path: Path) -> None:
    transcript = tmp_path / "transcript.txt"
    resident, verdict = peak_resident_mb([
        "--games", "1", "--seed", "1", "--transport", "pipe", "--output-limit", "4096",
        "--time-limit", "600", "--idle-limit", "120", "--transcript", str(transcript), "--",
        "python3", str(flood_program(tmp_path, kind))])
    assert resident < MOST_RESIDENT_MB, f"{resident} MB"
    assert verdict == "wrong-answer exit", verdict  # the flood was read to its end
    notes = [line for line in transcript.read_text().splitlines() if line.startswith("  (")]
    assert any("lines not kept here" in line for line in notes), notes
