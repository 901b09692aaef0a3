"""Every golfed submission under golf/ is accepted by the judge, and its README states its size.

Each submission is judged with a few games and a fixed seed (the mixed opponent, so MENACE
wins, draws and loses), on the pseudo-terminal and, where its manifest claims it, on the strict
pipe transport too. A change that breaks a submission, or its claim, fails here. The judge's
statistical bead-draws check has a false-alarm rate of at most 1e-4 per run, and with the fixed
seed each run replays the same opponent moves; the programs' own draws are random, so a
correct program fails a run with probability at most 1e-4.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLF = ROOT / "golf"
GAMES = 20
"""Games per run: enough for wins, draws, losses and a refill or two; about a second each."""
SEED = 4
JUDGE_TIMEOUT = 120.0
"""Seconds after which the judge itself is taken to have hung (it answers far sooner)."""


@dataclass(frozen=True)
class Golfed:
    """A golfed submission: its folder and what its manifest declares."""

    folder: Path
    command: tuple[str, ...]
    source: Path
    transport: str

    @property
    def name(self) -> str:
        """The submission's name: its folder's name."""
        return self.folder.name


def read_golfed(folder: Path) -> Golfed:
    """The submission in a folder, from its manifest."""
    manifest = tomllib.loads((folder / "submission.toml").read_text(encoding="utf-8"))
    return Golfed(folder=folder, command=tuple(manifest["command"]),
                  source=folder / manifest["source"], transport=manifest.get("transport", "pty"))


def golfed() -> list[Golfed]:
    """Every submission under golf/, in name order."""
    return [read_golfed(p) for p in sorted(GOLF.iterdir()) if (p / "submission.toml").is_file()]


def runs() -> list[tuple[Golfed, str]]:
    """Each submission on the pty, and on the pipe where its manifest claims it survives that."""
    return [(g, t) for g in golfed() for t in ("pty", "pipe") if t == "pty" or g.transport == t]


def test_the_golf_folder_holds_a_python_javascript_and_perl_submission() -> None:
    languages = {g.command[0] for g in golfed()}
    assert {"python3", "node", "perl"} <= languages


@pytest.mark.parametrize("submission,transport", runs(),
                         ids=[f"{g.name}-{t}" for g, t in runs()])
def test_the_judge_accepts_the_submission(submission: Golfed, transport: str) -> None:
    if shutil.which(submission.command[0]) is None:
        pytest.skip(f"{submission.command[0]} is not installed")
    done = subprocess.run(
        [sys.executable, "-m", "judge", str(submission.folder), "--games", str(GAMES),
         "--seed", str(SEED), "--transport", transport],
        cwd=ROOT, capture_output=True, text=True, timeout=JUDGE_TIMEOUT)
    lines = done.stdout.strip().splitlines()
    assert lines and lines[-1] == "accepted", done.stdout + done.stderr
    assert done.returncode == 0


@pytest.mark.parametrize("submission", golfed(), ids=lambda g: g.name)
def test_the_readme_states_the_exact_size(submission: Golfed) -> None:
    size = submission.source.stat().st_size
    readme = (submission.folder / "README.md").read_text(encoding="utf-8")
    assert f"{size} bytes" in readme


@pytest.mark.parametrize("submission", golfed(), ids=lambda g: g.name)
def test_the_overview_lists_the_submission_with_its_size(submission: Golfed) -> None:
    overview = (GOLF / "README.md").read_text(encoding="utf-8")
    row = next((line for line in overview.splitlines() if f"`{submission.name}`" in line), "")
    assert f"| {submission.source.stat().st_size} |" in row
