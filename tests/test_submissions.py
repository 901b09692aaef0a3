"""Every fixture under tests/submissions/<verdict>/<name>/ gets exactly its verdict from the judge.

Each fixture is judged with a few games and a fixed seed, so a run replays the same opponent
moves and, since every fixture takes the judge's seed, the same MENACE draws. The faulty ones
misbehave early and on every occasion they can, so a few games are enough to catch them.

Fixtures whose fault shows only in some games (a win, a draw) or only statistically (check
`bead-draws`) are judged with more games, set by `[expected] games` in their manifest with the
margin measured over other judge seeds; `[expected] seeds` names more than one judge seed where
the verdict must hold for each. Every correct fixture is also subject to the statistical checks,
whose false-alarm rate is at most 1e-4 per run each; with a fixed seed each fixture's result is
the same on every run.
"""

from __future__ import annotations

import difflib
import json
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"
VERDICTS = ("accepted", "wrong-answer", "presentation-error", "idle", "time-limit",
            "runtime-error", "output-limit", "memory-limit", "process-limit", "disk-limit",
            "judge-error")
CHECKS = ("new-game", "true-board", "game-end", "interactive", "dump", "learning",
          "bead-draws", "exit")
GAMES = 6
"""Games per fixture: every faulty fixture shows its fault within the first few games."""
SEED = 2026
IDLE_LIMIT = "2"
"""Seconds of silence before a fixture meant to go idle is idle: two thirds of the judge's
default, so those fixtures end sooner."""
LOADED_IDLE_LIMIT = "10"
"""Seconds of silence before any other fixture is idle: none of them is meant to go silent, and
the machine that runs the tests may be loaded enough to stall one for a few seconds."""
GRACE = "1"
"""Seconds to exit after the last dump: half the judge's default."""
JUDGE_TIMEOUT = 120.0
"""Seconds after which the judge itself is taken to have hung (it should answer far sooner)."""


@dataclass(frozen=True)
class Fixture:
    """A test submission and what the judge must say of it."""

    folder: Path
    verdict: str
    check: str | None
    transport: str | None
    games: int
    seeds: tuple[int, ...]
    """Judge seeds to run it with: each must give the same verdict and check."""

    @property
    def name(self) -> str:
        """The fixture's id in test reports: verdict/name."""
        return f"{self.verdict}/{self.folder.name}"


def read_fixture(folder: Path) -> Fixture:
    """The fixture in a folder, its expectations read from the manifest's [expected] table."""
    manifest = tomllib.loads((folder / "submission.toml").read_text())
    expected = manifest.get("expected", {})
    return Fixture(folder=folder, verdict=folder.parent.name, check=expected.get("check"),
                   transport=expected.get("transport"), games=expected.get("games", GAMES),
                   seeds=tuple(expected.get("seeds", [expected.get("seed", SEED)])))


def fixtures() -> list[Fixture]:
    """Every fixture folder, in a stable order; the hostile ones have tests of their own."""
    return [read_fixture(manifest.parent)
            for manifest in sorted(SUBMISSIONS.glob("*/*/submission.toml"))
            if manifest.parent.parent.name != "hostile"]


FIXTURES = fixtures()


def judge(fixture: Fixture, result: Path, transport: str | None = None,
          seed: int | None = None) -> dict[str, object]:
    """The judge's machine-readable result for a fixture, on the given or the fixture's transport."""
    command = [sys.executable, "-m", "judge", "--games", str(fixture.games),
               "--seed", str(fixture.seeds[0] if seed is None else seed), "--json", str(result),
               "--idle-limit", IDLE_LIMIT if fixture.verdict == "idle" else LOADED_IDLE_LIMIT,
               "--grace", GRACE]
    transport = transport or fixture.transport
    if transport:
        command += ["--transport", transport]
    command.append(str(fixture.folder))
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                         timeout=JUDGE_TIMEOUT, check=False)
    assert run.returncode in (0, 1), f"judge exit status {run.returncode}:\n{run.stderr[-2000:]}"
    report: dict[str, object] = json.loads(result.read_text())
    assert run.returncode == (report["verdict"] != "accepted"), report
    last_line = run.stdout.strip().splitlines()[-1]
    assert last_line.split()[0] == report["verdict"], last_line
    return report


def test_fixture_tree_is_well_formed() -> None:
    """Every fixture sits under a verdict folder and names a source that exists."""
    assert len(FIXTURES) >= 30
    for fixture in FIXTURES:
        manifest = tomllib.loads((fixture.folder / "submission.toml").read_text())
        assert fixture.verdict in VERDICTS, fixture.name
        assert (fixture.folder / manifest["source"]).is_file(), fixture.name
        assert manifest["command"], fixture.name
        assert fixture.check is None or fixture.check in CHECKS, fixture.name
        assert (fixture.verdict == "wrong-answer") <= (fixture.check is not None), fixture.name
        assert fixture.transport in (None, "pty", "pipe"), fixture.name


CANONICAL = SUBMISSIONS / "accepted" / "canonical" / "menace.py"
VARIANTS = [f for f in FIXTURES if (f.folder / "menace.py").is_file() and f.folder != CANONICAL.parent]
MOST_CHANGED_LINES = 16


@pytest.mark.parametrize("fixture", VARIANTS, ids=[f.name for f in VARIANTS])
def test_python_fixture_is_a_small_variant_of_canonical(fixture: Fixture) -> None:
    """Each Python fixture differs from the canonical program in a few lines: its one behaviour."""
    canonical = CANONICAL.read_text().splitlines()
    variant = (fixture.folder / "menace.py").read_text().splitlines()
    changed = [line for line in difflib.unified_diff(canonical, variant, lineterm="", n=0)
               if line[:1] in "+-" and line[:3] not in ("+++", "---") and line[1:].strip()]
    assert 2 <= len(changed) <= MOST_CHANGED_LINES, "\n".join(changed)


SEEDED = [(f, seed) for f in FIXTURES for seed in f.seeds]


@pytest.mark.parametrize("fixture,seed", SEEDED,
                         ids=[f"{f.name}-{seed}" if len(f.seeds) > 1 else f.name for f, seed in SEEDED])
def test_fixture_gets_its_verdict(fixture: Fixture, seed: int, tmp_path: Path) -> None:
    """The judge gives the fixture the verdict of its folder, and its expected check."""
    report = judge(fixture, tmp_path / "result.json", seed=seed)
    assert report["verdict"] == fixture.verdict, report
    if fixture.check is not None:
        assert report["check"] == fixture.check, report


FLUSHING = [f for f in FIXTURES if f.verdict == "accepted" and f.transport is None]


@pytest.mark.parametrize("fixture", FLUSHING, ids=[f.name for f in FLUSHING])
def test_flushing_fixture_is_accepted_on_pipe(fixture: Fixture, tmp_path: Path) -> None:
    """A correct fixture that flushes before every read is accepted on the strict transport too."""
    report = judge(fixture, tmp_path / "result.json", transport="pipe")
    assert report["verdict"] == "accepted", report
