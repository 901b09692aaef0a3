"""Every golfed submission under golf/ is accepted by the judge, and its README states its size.

Each submission is judged with a few games and a fixed seed, on the pseudo-terminal and, where
its manifest claims it, on the strict pipe transport too. The runs take the opponents (mixed,
perfect, random, coverage) and three judge seeds in turn, so every opponent, transport and seed
is played by some answer. A change that breaks a submission, or its claim, fails here. The judge's
statistical bead-draws check has a false-alarm rate of at most 1e-4 per run, and with the fixed
seed each run replays the same opponent moves; the programs' own draws are random, so a
correct program fails a run with probability at most 1e-4.
"""

from __future__ import annotations

import importlib.util
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from live import judge_process

from judge.terms.manifest import read_manifest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parent.parent
GOLF = ROOT / "golf"
GAMES = 20
"""Games per run: enough for wins, draws, losses and a refill or two; about a second each."""
SEEDS = (4, 5, 6)
OPPONENTS = ("mixed", "perfect", "random", "coverage")
IDLE_LIMIT = 10.0
"""The judge's idle limit here: wider than its default, since the machine that runs the tests
may be busy with other work; this test is about correctness, and the leaderboard run in
golf/README.md keeps the default."""
JUDGE_TIMEOUT = 120.0
"""Seconds after which the judge itself is taken to have hung (it answers far sooner)."""


@dataclass(frozen=True)
class Golfed:
    """A golfed submission: its folder and what its manifest declares."""

    folder: Path
    command: tuple[str, ...]
    source: Path
    transport: str
    size: int
    """Its score: the source's bytes, in the code page it declares if it declares one."""

    @property
    def name(self) -> str:
        """The submission's name: its folder's name."""
        return self.folder.name


def read_golfed(folder: Path) -> Golfed:
    """The submission in a folder, from its manifest."""
    manifest = tomllib.loads((folder / "submission.toml").read_text(encoding="utf-8"))
    size = read_manifest(folder).source_bytes()
    assert size is not None, folder
    return Golfed(folder=folder, command=tuple(manifest["command"]),
                  source=folder / manifest["source"], transport=manifest.get("transport", "pty"),
                  size=size)


def golfed() -> list[Golfed]:
    """Every submission under golf/, in name order."""
    return [read_golfed(p) for p in sorted(GOLF.iterdir()) if (p / "submission.toml").is_file()]


@dataclass(frozen=True)
class Run:
    """One judge run of a submission: its transport, opponent and judge seed."""

    submission: Golfed
    transport: str
    opponent: str
    seed: int

    @property
    def name(self) -> str:
        """The run's test id."""
        return f"{self.submission.name}-{self.transport}-{self.opponent}-{self.seed}"


def runs() -> list[Run]:
    """Each submission on the pty, and on the pipe where its manifest claims it survives that;
    the opponents and seeds taken in turn."""
    pairs = [(g, t) for g in golfed() for t in ("pty", "pipe") if t == "pty" or g.transport == t]
    return [Run(g, t, OPPONENTS[i % len(OPPONENTS)], SEEDS[i % len(SEEDS)])
            for i, (g, t) in enumerate(pairs)]


def needed_program(submission: Golfed) -> str:
    """The program a submission needs: its command's, or for `sh -c`, the script's first word."""
    if submission.command[:2] == ("sh", "-c"):
        return submission.command[2].split()[0]
    return submission.command[0]


def needed_module(submission: Golfed) -> str | None:
    """The Python module a `python3 -m MODULE` submission runs (its language's interpreter)."""
    if submission.command[:2] == ("python3", "-m"):
        return submission.command[2]
    return None


def missing(submission: Golfed) -> str | None:
    """What the submission needs that this machine lacks, or None."""
    program, module = needed_program(submission), needed_module(submission)
    if shutil.which(program) is None:
        return f"{program} is not installed"
    if module is not None and importlib.util.find_spec(module) is None:
        return f"the Python module {module} is not installed"
    return None


def test_the_runs_play_every_opponent_transport_and_seed() -> None:
    played = runs()
    assert {r.opponent for r in played} == set(OPPONENTS)
    assert {r.transport for r in played} == {"pty", "pipe"}
    assert {r.seed for r in played} == set(SEEDS)


def test_the_golf_folder_holds_submissions_in_eight_languages() -> None:
    languages = {needed_module(g) or needed_program(g) for g in golfed()}
    assert {"python3", "node", "perl", "ruby", "php", "gcc", "lua5.4", "vyxal"} <= languages


def test_the_golf_folders_hold_no_links() -> None:
    """A submission folder holds its own files: no symbolic link, which could lead out of it."""
    links = [str(p.relative_to(GOLF)) for p in GOLF.rglob("*") if p.is_symlink()]
    assert not links, links


@pytest.mark.parametrize("run", runs(), ids=lambda r: r.name)
def test_the_judge_accepts_the_submission(run: Run) -> None:
    lacking = missing(run.submission)
    if lacking is not None:
        pytest.skip(lacking)
    done = judge_process(run.submission.folder, "--games", str(GAMES), "--seed", str(run.seed),
                         "--transport", run.transport, "--opponent", run.opponent,
                         "--idle-limit", str(IDLE_LIMIT), timeout=JUDGE_TIMEOUT)
    lines = done.stdout.strip().splitlines()
    assert lines and lines[-1] == "accepted", done.stdout + done.stderr
    assert done.returncode == 0


@pytest.mark.parametrize("submission", golfed(), ids=lambda g: g.name)
def test_the_readme_states_the_exact_size(submission: Golfed) -> None:
    readme = (submission.folder / "README.md").read_text(encoding="utf-8")
    assert f"{submission.size} bytes" in readme


@pytest.mark.parametrize("submission", golfed(), ids=lambda g: g.name)
def test_the_overview_lists_the_submission_with_its_size(submission: Golfed) -> None:
    overview = (GOLF / "README.md").read_text(encoding="utf-8")
    row = next((line for line in overview.splitlines()
                if line.startswith(f"| {submission.name} |")), "")
    assert f"| {submission.size} |" in row or f"| {submission.size} (" in row
