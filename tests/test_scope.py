"""The judge run again in a scope of its own (judge/running/scope.py), with stand-ins for
systemd-run: everything passes through as without it (input, output, errors, the exit status,
a signal, Ctrl-C), a failing systemd-run leaves the judge to judge in its own process with the
reason, and the child never tries again. tests/test_kernel_tier.py runs the whole judge so,
on a real kernel, with a stand-in user manager."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from judge.cli import main
from judge.running import scope

ROOT = Path(__file__).resolve().parent.parent
DRIVER = textwrap.dedent("""\
    import os, signal, sys
    from judge.running import scope

    given = scope.enter()
    if given is None:  # the judge as started: run again in a scope
        status = scope.run_in_scope(sys.argv[1:])
        if status is None:
            print(f"fallback: {scope.failure()}", flush=True)
            sys.exit(99)
        sys.exit(status)
    act, *rest = given
    if act == "wait":  # Ctrl-C ends it with 130 from here on, even while it prints
        signal.signal(signal.SIGINT, lambda number, frame: sys.exit(130))
    print(f"in a scope: {scope.entered()}, told: {os.environ.get(scope.ENV)}", flush=True)
    if act == "echo":
        print("read " + sys.stdin.read().strip() + " " + " ".join(rest), flush=True)
        print("on stderr", file=sys.stderr, flush=True)
        sys.exit(int(rest[0]))
    if act == "wait":
        signal.pause()
    if act == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    """)
STAND_IN = textwrap.dedent("""\
    #!/bin/sh
    echo "$@" > "${0%/*}/arguments"
    while [ "$1" != -- ]; do shift; done
    shift
    exec "$@"
    """)
FAILING = textwrap.dedent("""\
    #!/bin/sh
    echo "Failed to connect to bus: No medium found" >&2
    exit 1
    """)


def driver(tmp_path: Path, systemd_run: str | None) -> tuple[list[str], dict[str, str]]:
    """The driver's command and environment, with `systemd_run` (a script) first on the PATH,
    or no systemd-run at all."""
    (tmp_path / "driver.py").write_text(DRIVER)
    folder = tmp_path / "bin"
    folder.mkdir()
    if systemd_run is not None:
        (folder / "systemd-run").write_text(systemd_run)
        (folder / "systemd-run").chmod(0o755)
    env = {**os.environ, "PATH": str(folder), "PYTHONPATH": str(ROOT)}
    return [sys.executable, str(tmp_path / "driver.py")], env


def test_input_output_errors_and_the_status_pass_through(tmp_path: Path) -> None:
    command, env = driver(tmp_path, STAND_IN)
    done = subprocess.run([*command, "echo", "3", "$HOME"], input="a move", env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 3, done
    assert done.stdout == "in a scope: True, told: None\nread a move 3 $HOME\n", done
    assert done.stderr == "on stderr\n"
    user = "" if os.geteuid() == 0 else "--user "
    assert (tmp_path / "bin" / "arguments").read_text() == (
        f"{user}--scope -p Delegate=yes --quiet -- {sys.executable} {tmp_path}/driver.py\n")


def test_a_child_killed_by_a_signal_ends_the_judge_by_the_same(tmp_path: Path) -> None:
    command, env = driver(tmp_path, STAND_IN)
    done = subprocess.run([*command, "die"], env=env, capture_output=True, timeout=60,
                          check=False)
    assert done.returncode == -signal.SIGKILL, done


@pytest.mark.parametrize(("number", "to_group", "status"), [
    (signal.SIGINT, True, 130), (signal.SIGTERM, False, -signal.SIGTERM)])
def test_ctrl_c_and_sigterm_reach_the_child(tmp_path: Path, number: int, to_group: bool,
                                            status: int) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) reaches the child,
    which acts on it once; SIGTERM to the judge alone is passed on to the child."""
    command, env = driver(tmp_path, STAND_IN)
    judge = subprocess.Popen([*command, "wait"], env=env, stdout=subprocess.PIPE,
                             start_new_session=True)
    try:
        assert judge.stdout is not None
        assert judge.stdout.readline().startswith(b"in a scope: True")
        if to_group:
            os.killpg(judge.pid, number)
        else:
            judge.send_signal(number)
        assert judge.wait(timeout=60) == status
    finally:
        if judge.poll() is None:
            os.killpg(judge.pid, signal.SIGKILL)
            judge.wait()


@pytest.mark.parametrize(("systemd_run", "why"), [
    (FAILING, "Failed to connect to bus: No medium found"), (None, "systemd-run not found")])
def test_a_failing_systemd_run_leaves_the_judge_to_judge_here(
        tmp_path: Path, systemd_run: str | None, why: str) -> None:
    """Nothing of systemd-run's message reaches the judge's stderr: it becomes the reason."""
    command, env = driver(tmp_path, systemd_run)
    done = subprocess.run([*command, "echo", "0"], env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (99, f"fallback: {why}\n", ""), done


def test_a_judge_told_nothing_it_can_use_is_a_judge_of_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An environment variable of that name that no judge set is taken out and ignored."""
    monkeypatch.setenv(scope.ENV, '{"argv": ["x"], "started": 987, "stderr": 986}')
    assert scope.enter() is None and not scope.entered() and scope.ENV not in os.environ
    monkeypatch.setenv(scope.ENV, "not json")
    assert scope.enter() is None and not scope.entered()


def test_the_option_that_turns_it_off_takes_no_value(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-systemd-run=yes", "menace.py"]) == 2
    assert "--no-systemd-run" in capsys.readouterr().err
