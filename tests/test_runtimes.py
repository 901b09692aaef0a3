"""Runtimes found where they are, with what is installed for them: the judge run from a
virtualenv under /tmp, its packages and its user's visible but never the judge's own code, a
runtime on the judge's PATH under /tmp, and one the sandbox cannot show, which is the judge's
error."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.running import runtimes
from judge.running.probes import support
from judge.running.sandbox import Level

ROOT = Path(__file__).resolve().parent.parent
CANONICAL = ROOT / "tests" / "submissions" / "menace.py"
REACHES_FOR_THE_JUDGE = (ROOT / "tests" / "submissions" / "hostile" / "imports-the-judge"
                         / "attack.py")
INSTALLED = "menace_installed"
"""A module the tests install for a Python, as a golfer installs numpy."""
FOUND = support()
needs_full = pytest.mark.skipif(FOUND.level is not Level.FULL,
                                reason=f"full containment unavailable: {FOUND.describe()}")


@pytest.fixture
def under_tmp() -> Iterator[Path]:
    """A fresh folder directly under /tmp (not pytest's, which may lie elsewhere), removed after."""
    folder = Path(tempfile.mkdtemp(prefix="menace-runtime-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def judged(python: str, *arguments: str, cwd: Path, path: str | None = None,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The judge run by the interpreter `python`, with the project on its path (unless `env`
    says where the judge is)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)} if env is None else {**os.environ, **env}
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


@pytest.mark.parametrize("path", ["judge/__init__.py", "judge/running/runtimes.py",
                                  "menace_golf-0.1.0.dist-info/RECORD"])
def test_a_file_in_a_folder_of_the_judges_is_covered_by_that_folder(path: str) -> None:
    """A package or the dist-info is covered whole, at the top of the site-packages folder."""
    site_packages = Path("/venv/lib/python3.11/site-packages")
    assert runtimes.covering(site_packages / path, site_packages) == \
        site_packages / path.split("/")[0]


@pytest.mark.parametrize("path", ["__editable__.menace_golf-0.1.0.pth",
                                  "__editable___menace_golf_0_1_0_finder.py",
                                  "__pycache__/__editable___menace_golf_0_1_0_finder.cpython-311.pyc"])
def test_a_hook_of_the_judges_is_covered_alone(path: str) -> None:
    """A `.pth`, a finder and its bytecode are covered file by file: `__pycache__` and the
    site-packages folder hold other packages' files too."""
    site_packages = Path("/venv/lib/python3.11/site-packages")
    assert runtimes.covering(site_packages / path, site_packages) == site_packages / path


def test_a_file_installed_outside_the_folder_is_left_alone() -> None:
    """A console script in the virtualenv's bin is no file of a site-packages folder."""
    site_packages = Path("/venv/lib/python3.11/site-packages")
    assert runtimes.covering(Path("/venv/bin/menace-judge"), site_packages) is None


def test_the_judges_distribution_is_the_projects() -> None:
    """What the sandbox covers is found under the name pyproject.toml installs the judge as."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert runtimes.DISTRIBUTION == project["name"]


def install_like_a_wheel(site_packages: Path, record: bool = True) -> None:
    """The judge and the reference installed in `site_packages` as a wheel lays them out: the
    packages, and a dist-info that lists their files (RECORD) or only their names."""
    files = []
    for package in ("judge", "reference"):
        shutil.copytree(ROOT / package, site_packages / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
        files += [path.relative_to(site_packages).as_posix()
                  for path in sorted((site_packages / package).rglob("*.py"))]
    info = site_packages / "menace_golf-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: menace-golf\nVersion: 0.1.0\n")
    (info / "top_level.txt").write_text("judge\nreference\n")
    if record:
        listed = [*files, *(f"{info.name}/{name}" for name in ("METADATA", "top_level.txt",
                                                               "RECORD"))]
        (info / "RECORD").write_text("".join(f"{name},,\n" for name in listed))


@pytest.mark.parametrize("record", [True, False], ids=["files-listed", "names-only"])
def test_a_judge_installed_from_a_wheel_is_found_whole(tmp_path: Path, record: bool) -> None:
    """Its packages (to be covered by a module that refuses the import) and, where RECORD lists
    them, the dist-info too; another distribution beside it is left alone."""
    install_like_a_wheel(tmp_path, record)
    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy-2.0.dist-info").mkdir()
    (tmp_path / "numpy-2.0.dist-info" / "METADATA").write_text("Name: numpy\nVersion: 2.0\n")
    covered, packages = runtimes.judge_installed([tmp_path])
    assert packages == {tmp_path / "judge", tmp_path / "reference"}
    assert covered == ({tmp_path / "menace_golf-0.1.0.dist-info"} if record else set())


def with_an_installed_module(site_packages: Path) -> None:
    """A module installed in `site_packages`, as numpy is for a golfer's Python."""
    site_packages.mkdir(parents=True, exist_ok=True)
    (site_packages / f"{INSTALLED}.py").write_text("MOVES = 9\n")


def answer_that_imports(folder: Path, module: str) -> Path:
    """In `folder`, an answer that imports `module`, then reaches for the judge's own code
    (hostile/imports-the-judge), then plays as the canonical program."""
    folder.mkdir()
    shutil.copy(CANONICAL, folder / "menace.py")
    (folder / "answer.py").write_text(f"import {module}\n" + REACHES_FOR_THE_JUDGE.read_text())
    (folder / "submission.toml").write_text('command = ["python3", "answer.py"]\n')
    return folder


@pytest.mark.e2e
@needs_full
def test_a_judge_installed_in_a_virtualenv_hides_itself_among_its_packages(
        under_tmp: Path) -> None:
    """The judge installed from a wheel in a virtualenv under /tmp, with a package beside it:
    an answer run by `python3` imports that package, and neither the judge nor the
    reference."""
    venv.create(under_tmp / "venv", with_pip=False)
    site_packages = Path(sysconfig.get_path("purelib", vars={"base": str(under_tmp / "venv")}))
    install_like_a_wheel(site_packages)
    with_an_installed_module(site_packages)
    answer = answer_that_imports(under_tmp / "scratch", INSTALLED)
    run = judged(str(under_tmp / "venv" / "bin" / "python"), "--json", "-", ".", cwd=answer,
                 env={"PYTHONPATH": ""})
    assert run.returncode == 0, run.stdout + run.stderr
    assert json.loads(run.stdout)["stderr_tail"] == [
        "refused: No module named 'judge'", "refused: No module named 'reference'"]


@pytest.mark.e2e
@needs_full
def test_a_virtualenv_made_in_the_judges_project_is_shown_in_its_parts(under_tmp: Path) -> None:
    """A virtualenv made in the project's own folder: its interpreter, configuration and
    packages are shown, and the project beside them is not."""
    project = under_tmp / "project"
    for package in ("judge", "reference"):
        shutil.copytree(ROOT / package, project / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    venv.create(project, with_pip=False)
    with_an_installed_module(Path(sysconfig.get_path("purelib", vars={"base": str(project)})))
    answer = answer_that_imports(under_tmp / "scratch", INSTALLED)
    run = judged(str(project / "bin" / "python"), "--json", "-", ".", cwd=answer,
                 env={"PYTHONPATH": str(project)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert json.loads(run.stdout)["stderr_tail"] == [
        "refused: No module named 'judge'", "refused: No module named 'reference'"]


@pytest.mark.e2e
@needs_full
def test_the_users_packages_are_seen_by_a_python_that_reads_them(under_tmp: Path) -> None:
    """The judge run by a Python outside a virtualenv, which reads the user's site-packages
    (here under PYTHONUSERBASE): an answer imports a module installed there."""
    base = getattr(sys, "_base_executable", sys.executable)
    user_base = under_tmp / "user"
    user_site = subprocess.run(
        [base, "-c", "import site; print(site.getusersitepackages())"], capture_output=True,
        text=True, check=True, env={**os.environ, "PYTHONUSERBASE": str(user_base)}).stdout
    with_an_installed_module(Path(user_site.strip()))
    answer = answer_that_imports(under_tmp / "scratch", INSTALLED)
    run = judged(base, ".", cwd=answer,
                 env={"PYTHONPATH": str(ROOT), "PYTHONUSERBASE": str(user_base)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "accepted"


@pytest.mark.e2e
@needs_full
@pytest.mark.parametrize("started_as", ["venv/bin/python", "../venv/bin/python",
                                        "../linked/bin/python"])
def test_a_judge_in_a_virtualenv_under_tmp_accepts_a_python_answer(under_tmp: Path,
                                                                   started_as: str) -> None:
    """The judge's Python is a virtualenv under /tmp, which the sandbox's own /tmp would
    cover, started by its full path, by a relative one from the answer's folder, or through a
    link to the virtualenv's folder: the program runs that Python, and is accepted."""
    venv.create(under_tmp / "venv", with_pip=False)
    (under_tmp / "linked").symlink_to("venv")
    answer = under_tmp / "scratch"
    answer.mkdir()
    shutil.copy(CANONICAL, answer / "menace.py")
    python = started_as if started_as.startswith("..") else str(under_tmp / started_as)
    run = judged(python, "--", "python3", "menace.py", cwd=answer)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "accepted"


@pytest.mark.e2e
@needs_full
def test_a_runtime_on_the_judges_path_under_tmp_is_shown(under_tmp: Path) -> None:
    """A runtime found on the judge's PATH, installed under /tmp, runs inside the sandbox."""
    _, run = judged_by_wrapper(under_tmp, Path(sys.executable))
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.e2e
@needs_full
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
