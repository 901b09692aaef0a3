"""Runtimes found where they are: the judge run from a virtualenv under /tmp, a runtime on the
judge's PATH under /tmp, and one the sandbox cannot show, which is the judge's error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.running.probes import support
from judge.running.sandbox import Level

ROOT = Path(__file__).resolve().parent.parent
CANONICAL = ROOT / "tests" / "submissions" / "menace.py"
FOUND = support()
pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(FOUND.level is not Level.FULL,
                                 reason=f"full containment unavailable: {FOUND.describe()}")]


@pytest.fixture
def under_tmp() -> Iterator[Path]:
    """A fresh folder directly under /tmp (not pytest's, which may lie elsewhere), removed after."""
    folder = Path(tempfile.mkdtemp(prefix="menace-runtime-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def judged(python: str, *arguments: str, cwd: Path, path: str | None = None
           ) -> subprocess.CompletedProcess[str]:
    """The judge run by the interpreter `python`, with the project on its path only."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([python, "-m", "judge", "--sandbox", "require", "--games", "5",
                           "--seed", "3", "--idle-limit", "10", *arguments],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=180,
                          check=False)


def judged_by_wrapper(under_tmp: Path, interpreter: Path
                      ) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The canonical program judged in `under_tmp` through `menace-python`, a runtime installed
    under /tmp that runs `interpreter`, found on the judge's PATH: the runtime and the run."""
    runtime = under_tmp / "runtime" / "bin" / "menace-python"
    runtime.parent.mkdir(parents=True)
    runtime.write_text(f"#!/bin/sh\nexec {interpreter} \"$@\"\n")
    runtime.chmod(0o755)
    shutil.copy(CANONICAL, under_tmp / "menace.py")
    return runtime, judged(sys.executable, "--", "menace-python", "menace.py", cwd=under_tmp,
                           path=f"{runtime.parent}:{os.environ['PATH']}")


def test_a_judge_in_a_virtualenv_under_tmp_accepts_a_python_answer(under_tmp: Path) -> None:
    """The judge's Python is a virtualenv under /tmp, which the sandbox's own /tmp would
    cover: the program runs the interpreter the virtualenv was made from, and is accepted."""
    venv.create(under_tmp / "venv", with_pip=False)
    answer = under_tmp / "scratch"
    answer.mkdir()
    shutil.copy(CANONICAL, answer / "menace.py")
    run = judged(str(under_tmp / "venv" / "bin" / "python"), "--", "python3", "menace.py",
                 cwd=answer)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "accepted"


def test_a_runtime_on_the_judges_path_under_tmp_is_shown(under_tmp: Path) -> None:
    """A runtime found on the judge's PATH, installed under /tmp, runs inside the sandbox."""
    _, run = judged_by_wrapper(under_tmp, Path(sys.executable))
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_runtime_the_sandbox_cannot_show_is_a_judge_error(under_tmp: Path) -> None:
    """A runtime that needs a file the sandbox does not show fails its first try inside: a
    judge error, exit 3, that names it and the fix; never a verdict against the program."""
    hidden = Path.home() / f".menace-hidden-{under_tmp.name}"
    hidden.mkdir()
    try:
        shutil.copy(sys.executable, hidden / "python3")
        runtime, run = judged_by_wrapper(under_tmp, hidden / "python3")
    finally:
        shutil.rmtree(hidden)
    assert run.returncode == 3, run.stdout + run.stderr
    assert f"the runtime {runtime} does not run inside the sandbox" in run.stderr
    assert "--sandbox off" in run.stderr and "Traceback" not in run.stderr
    assert run.stdout.splitlines()[-1] == "judge-error"
