"""Verdicts that do not depend on load: beside a CPU burner for each of this machine's CPUs (and
whatever else runs there: the suite itself under -n), correct answers that start slowly are
accepted, while real stalls are still idle and a hang is still a hang."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixture_folders import assembled
from live import judge_process

ROOT = Path(__file__).resolve().parent.parent
BURNERS = os.cpu_count() or 2
"""One for each CPU: with the suite's own tests beside them, the machine is loaded twice over or
more, and each second a test of this module takes costs the suite that many CPU-seconds."""
SLOW_STARTERS_GAMES = 12
"""Games a slow starter plays: its start is what the load tests."""
pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def burners() -> Iterator[list[int]]:
    """Processes that burn CPU for as long as the tests of this module run."""
    started = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                start_new_session=True) for _ in range(BURNERS)]
    yield [process.pid for process in started]
    for process in started:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()


def judge(*arguments: str, json_path: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The judge run on the loaded machine, with its default idle limit."""
    extra = ["--json", str(json_path)] if json_path else []
    return judge_process("--seed", "4", *extra, *arguments, timeout=600)


def test_slow_starting_answers_are_accepted_beside_cpu_burners(burners: list[int],
                                                              tmp_path: Path) -> None:
    """Golfed answers that need over a second of CPU to start, judged two at a time while the
    burners burn CPU, are all accepted."""
    board = tmp_path / "board"
    board.mkdir()
    chosen = [name for name, runtime in (("perl", "perl"), ("ruby", "ruby"), ("python", "python3"))
              if shutil.which(runtime)]
    for name in chosen:
        shutil.copytree(ROOT / "golf" / name, board / name)
    run = judge("-j", "2", "--games", str(SLOW_STARTERS_GAMES), str(board))
    assert all(os.path.exists(f"/proc/{pid}") for pid in burners), "a burner stopped"
    assert run.stdout.splitlines()[-1] == f"{len(chosen)} of {len(chosen)} accepted", run.stdout


@pytest.mark.parametrize(("fixture", "verdict", "transport"), [
    ("idle/busy-before-second-move", "idle", "pty"),
    ("idle/reads-all-input-first", "idle interactive", "pty"),
    ("idle/no-flush-pipe", "idle interactive", "pipe"),
    ("time-limit/hangs-after-last-game", "time-limit exit", "pty"),
])
def test_real_stalls_keep_their_verdicts_beside_cpu_burners(
        burners: list[int], fixture: str, verdict: str, transport: str, tmp_path: Path) -> None:
    """A busy loop, a program that reads ahead, one that never flushes on pipes and one that
    sleeps after its last dump get the verdicts they get on a quiet machine."""
    result = tmp_path / "result.json"
    run = judge("--games", "3", "--transport", transport, str(assembled(fixture, tmp_path)),
                json_path=result)
    assert run.stdout.splitlines()[-1] == verdict, run.stdout
    report = json.loads(result.read_text())
    assert report["verdict"] == verdict.split()[0]
