"""Every fixture under tests/submissions/<verdict>/<name>/ gets exactly its verdict from the judge.

A fixture folder holds a manifest; most name the faulty program `tests/submissions/menace.py`
and their faults in its command, and each run judges a fresh folder that holds the manifest and
the program (`fixture_folders.assemble`).

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

import ast
import json
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from fixture_folders import PROGRAM, ROOT, SHARED, SUBMISSIONS, assemble
from live import judge_process

from judge.deciding.rereading import reread_transcript
from judge.terms.manifest import dialect_of

pytestmark = pytest.mark.e2e

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
    stderr: str | None
    """A line the end of the program's stderr must hold."""
    runtime: str
    """The program its command starts: a fixture whose runtime is not installed is skipped."""
    game: int | None = None
    """The game the rejection must be reported at."""
    fact: str = ""
    """Text a line of the rejection's facts must hold."""
    hint: str = ""
    """Text a hint must hold."""
    absent: str = ""
    """Text no line of the rejection may hold."""

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
                   seeds=tuple(expected.get("seeds", [expected.get("seed", SEED)])),
                   stderr=expected.get("stderr"), runtime=manifest["command"][0],
                   game=expected.get("game"), fact=expected.get("fact", ""),
                   hint=expected.get("hint", ""), absent=expected.get("absent", ""))


def fixtures() -> list[Fixture]:
    """Every fixture folder, in a stable order; the hostile ones have tests of their own."""
    return [read_fixture(manifest.parent)
            for manifest in sorted(SUBMISSIONS.glob("*/*/submission.toml"))
            if manifest.parent.parent.name != "hostile"]


FIXTURES = fixtures()


@dataclass(frozen=True)
class Judged:
    """A fixture judged: the JSON report, the printed report's lines, the transcript's."""

    report: dict[str, object]
    lines: list[str]
    transcript: list[str]


def judge(fixture: Fixture, tmp_path: Path, transport: str | None = None,
          seed: int | None = None) -> dict[str, object]:
    """The judge's machine-readable result for a fixture, on the given or its own transport."""
    return judged(fixture, tmp_path, transport, seed).report


def judged(fixture: Fixture, tmp_path: Path, transport: str | None = None,
           seed: int | None = None) -> Judged:
    """A fixture judged on the given or its own transport."""
    if fixture.runtime not in ("python", "python3") and shutil.which(fixture.runtime) is None:
        pytest.skip(f"{fixture.runtime} is not installed")
    result = tmp_path / "result.json"
    transcript = tmp_path / "transcript.txt"
    command = ["--games", str(fixture.games),
               "--seed", str(fixture.seeds[0] if seed is None else seed), "--json", str(result),
               "--transcript", str(transcript),
               "--idle-limit", IDLE_LIMIT if fixture.verdict == "idle" else LOADED_IDLE_LIMIT,
               "--grace", GRACE]
    transport = transport or fixture.transport
    if transport:
        command += ["--transport", transport]
    command.append(str(assemble(fixture.folder, tmp_path / fixture.folder.name)))
    run = judge_process(*command, timeout=JUDGE_TIMEOUT)
    assert run.returncode in (0, 1), f"judge exit status {run.returncode}:\n{run.stderr[-2000:]}"
    report: dict[str, object] = json.loads(result.read_text())
    assert run.returncode == (report["verdict"] != "accepted"), report
    last_line = run.stdout.strip().splitlines()[-1]
    assert last_line.split()[0] == report["verdict"], last_line
    return Judged(report, run.stdout.splitlines(), transcript.read_text().splitlines())


def test_fixture_tree_is_well_formed() -> None:
    """Every fixture sits under a verdict folder, holds no link, and names a source it holds or
    a shared program."""
    assert len(FIXTURES) >= 30
    for fixture in FIXTURES:
        manifest = tomllib.loads((fixture.folder / "submission.toml").read_text())
        assert fixture.verdict in VERDICTS, fixture.name
        source = Path(manifest["source"])
        assert (fixture.folder / source).is_file() or source.parts[0] in SHARED, fixture.name
        assert not any(path.is_symlink() for path in fixture.folder.rglob("*")), fixture.name
        assert manifest["command"], fixture.name
        assert fixture.check is None or fixture.check in CHECKS, fixture.name
        assert (fixture.verdict == "wrong-answer") <= (fixture.check is not None), fixture.name
        assert fixture.transport in (None, "pty", "pipe"), fixture.name


def known_faults() -> set[str]:
    """The faults the faulty program knows: its FAULTS."""
    tree = ast.parse(PROGRAM.read_text())
    value = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                 and [getattr(t, "id", None) for t in node.targets] == ["FAULTS"])
    assert isinstance(value, ast.Call) and len(value.args) == 1
    return set(ast.literal_eval(value.args[0]))


def faults_of(manifest: Path) -> list[str]:
    """The faults a manifest's command switches on."""
    command = tomllib.loads(manifest.read_text())["command"]
    return [command[i + 1] for i, arg in enumerate(command[:-1]) if arg == "--fault"]


def hinted_faults() -> set[str]:
    """The faults tests/test_hints.py judges to show each hint."""
    text = (ROOT / "tests" / "test_hints.py").read_text()
    return {name for group in re.findall(r"judged\(tmp_path, capsys, \(([^)]*)\)", text)
            for name in re.findall(r'"([\w-]+)"', group)}


def shrunk_faults() -> set[str]:
    """The faults tests/test_shrink.py judges and shrinks."""
    text = (ROOT / "tests" / "test_shrink.py").read_text()
    return set(re.findall(r'(?:faulty\(|\(")([\w-]+)"', text)) & known_faults()


def test_every_fault_is_known_to_the_program_and_used_by_a_fixture() -> None:
    """No manifest names a fault the program lacks, and no fault of the program is left unjudged
    (by a fixture, by the test of a hint, or by a test of shrinking)."""
    known = known_faults()
    used = {fault for manifest in SUBMISSIONS.glob("*/*/submission.toml")
            for fault in faults_of(manifest)} | hinted_faults() | shrunk_faults()
    branches = {node.args[0].value for node in ast.walk(ast.parse(PROGRAM.read_text()))
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "fault"
                and isinstance(node.args[0], ast.Constant)}
    assert len(known) >= 50
    assert used == known, (used - known, known - used)
    assert branches == known, (branches - known, known - branches)


def test_the_program_refuses_an_unknown_fault() -> None:
    """A misspelt fault is not taken for the canonical program: one line, and status 1."""
    run = subprocess.run([sys.executable, str(PROGRAM), "--fault", "303-box", "--seed", "1"],
                         input="1\n", capture_output=True, text=True, timeout=30, check=False)
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr.strip().splitlines() == [
        "menace: no fault named '303-box' (FAULTS in menace.py lists them)"]


SESSION = "5\n" + ("".join(row + column + "\n" for row in "LMR" for column in "LMR")
                    + "".join(f"{digit}\n" for digit in range(1, 10))) * 20
"""Input for the faulty program run alone: 5 games, then every move in letters and in digits,
over and over (a move onto a taken square is asked for again)."""


def printed(command: list[str]) -> tuple[str, str]:
    """What a command printed on its standard output and error, given SESSION, with seed 5."""
    run = subprocess.run([sys.executable, *command[1:], "--seed", "5"], input=SESSION,
                         cwd=SUBMISSIONS, capture_output=True, text=True, timeout=60, check=False)
    return run.stdout, run.stderr


VARIATIONS = [(f, fault) for f in FIXTURES if f.verdict == "accepted"
              for fault in faults_of(f.folder / "submission.toml") if fault != "no-flush"]


@pytest.mark.e2e
@pytest.mark.parametrize("fixture,fault", VARIATIONS,
                         ids=[f"{f.name}-{fault}" for f, fault in VARIATIONS])
def test_each_fault_of_an_accepted_fixture_changes_what_it_prints(fixture: Fixture,
                                                                   fault: str) -> None:
    """An accepted fixture's every fault does something: without it, the program prints
    otherwise. (`no-flush` changes only when output leaves: idle/no-flush-pipe shows it.)"""
    command = tomllib.loads((fixture.folder / "submission.toml").read_text())["command"]
    at = command.index(fault)
    assert printed(command) != printed(command[:at - 1] + command[at + 1:])


SEEDED = [(f, seed) for f in FIXTURES for seed in f.seeds]


@pytest.mark.e2e
@pytest.mark.parametrize("fixture,seed", SEEDED,
                         ids=[f"{f.name}-{seed}" if len(f.seeds) > 1 else f.name
                              for f, seed in SEEDED])
def test_fixture_gets_its_verdict(fixture: Fixture, seed: int, tmp_path: Path) -> None:
    """The judge gives the fixture the verdict of its folder, and its expected check, place,
    fact and hint; every declaration a hint offers, the same transcript passes under."""
    found = judged(fixture, tmp_path, seed=seed)
    report = found.report
    assert report["verdict"] == fixture.verdict, report
    if fixture.check is not None:
        assert report["check"] == fixture.check, report
    if fixture.stderr is not None:
        assert fixture.stderr in report["stderr_tail"], report["stderr_tail"]
    if fixture.game is not None:
        assert report["game"] == fixture.game and report["games_played"] == fixture.game - 1
    rejection = rejection_lines(found.lines)
    facts = [line for line in rejection if not line.startswith("  hint: ")]
    hints = [line for line in rejection if line.startswith("  hint: ")]
    assert fixture.fact in "\n".join(facts), "\n".join(rejection)
    assert fixture.hint in "\n".join(hints), "\n".join(rejection)
    assert not fixture.absent or fixture.absent not in "\n".join(rejection), "\n".join(rejection)
    assert hints == [f"  hint: {hint}" for hint in report["hints"]]  # type: ignore[union-attr]
    offered = report["declarations_offered"]
    assert isinstance(offered, dict)
    if offered:
        assert_passes_under(fixture, offered, found, tmp_path)
    assert_figures_agree(found)


CPU_FIGURE = re.compile(r"(\d+\.\d+) s of CPU")


def assert_figures_agree(found: Judged) -> None:
    """The CPU time quoted in a reason or hint (of a silence) is at most the run's, which the
    first line and the JSON give alike: one count, whatever the sandbox's level."""
    report = found.report
    played = next(line for line in found.lines if line.startswith("played "))
    total = CPU_FIGURE.search(played)
    if total is None:
        assert report["cpu_seconds"] is None, played
        return
    assert float(total.group(1)) == pytest.approx(report["cpu_seconds"], abs=0.006), played
    for line in rejection_lines(found.lines):
        for figure in CPU_FIGURE.findall(line):
            assert float(figure) <= float(total.group(1)) + 0.05, (line, played)


def rejection_lines(lines: list[str]) -> list[str]:
    """The lines of a printed report from `REJECTED` to the hints, the game's log left out."""
    start = next((i for i, line in enumerate(lines) if line.startswith("REJECTED ")), len(lines))
    return [line for line in lines[start:-1] if not line.startswith("    ")
            and not line.startswith(("  replay: ", "  a smaller case"))]


def assert_passes_under(fixture: Fixture, offered: dict[str, str], found: Judged,
                        tmp_path: Path) -> None:
    """The run passes under the declarations offered: the same transcript read again under
    them (or, for moves typed in another form, which the transcript cannot show, the fixture
    judged again with them)."""
    manifest = tomllib.loads((fixture.folder / "submission.toml").read_text())
    declared = {key: manifest[key] for key in ("moves", "beads", "refill") if key in manifest}
    if "moves" in offered:
        again = tmp_path / "declared"
        assemble(fixture.folder, again)
        text = (again / "submission.toml").read_text()
        (again / "submission.toml").write_text(text.split("[expected]")[0] + "".join(
            f'{key} = "{value}"\n' for key, value in offered.items()))
        rerun = judge_process("--games", str(fixture.games), "--seed",
                              str(found.report["seed"]), again, timeout=JUDGE_TIMEOUT)
        assert rerun.stdout.strip().splitlines()[-1] == "accepted", rerun.stdout[-3000:]
        return
    dialect = dialect_of({**declared, **offered})
    again = reread_transcript(found.transcript, dialect, fixture.games)
    assert again is not None and again.passes, again


FLUSHING = [f for f in FIXTURES if f.verdict == "accepted" and f.transport is None]


@pytest.mark.e2e
@pytest.mark.parametrize("fixture", FLUSHING, ids=[f.name for f in FLUSHING])
def test_flushing_fixture_is_accepted_on_pipe(fixture: Fixture, tmp_path: Path) -> None:
    """A correct fixture that flushes before every read is accepted on the strict transport too."""
    report = judge(fixture, tmp_path, transport="pipe")
    assert report["verdict"] == "accepted", report
