"""Hostile submissions as a normal user: at level `partial` (namespaces, no control groups, as
on a machine with cgroup v1), under `--sandbox off`, and on a real cgroup-v2 kernel (the kernel
tier), at full in a delegated group.

Each attack that applies there gets its verdict, and the report says what the level does not
hold. The judge runs as a normal user (tests/normal_user.py): root drops to one with setpriv.
A killed judge's working folder is removed by the next judge, whatever the level.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest
from kernel import guest
from kernel.guest import Outcome, Step
from live import judge_command, judge_environment, judge_process
from normal_user import NormalUser, readable_by_all, shared_folder
from test_hostile import SANDBOX_OWN, expected, hostile_folder, processes_with, threads_with

from judge.running.workspace import PREFIX, remove_abandoned

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.e2e
IDLE_LIMIT = "10"
"""Seconds of silence before a run is idle, where no fixture is meant to go idle."""
CPU_FIGURE = r"(\d+\.\d+) s of CPU"
"""A CPU time as a report quotes it."""
ROUND_THREE_LIMITS = ("--idle-limit", "2", "--time-limit", "5")
"""An idle limit of 2 s under a wall-clock cap of 50 s, as in tests/test_hostile.py."""


@pytest.fixture
def home() -> Iterator[Path]:
    """A folder the normal user may read and write, removed after the test."""
    folder = shared_folder("menace-hostile-partial-")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def at_partial(user: NormalUser, name: str, home: Path, *options: str,
               games: int = 3) -> tuple[dict[str, object], str]:
    """The JSON report and the printed report of a hostile fixture judged as a normal user;
    skips where that user gets another level than partial."""
    folder = hostile_folder(name, home)
    readable_by_all(folder)
    result = home / "result.json"
    run = user.judge("--games", str(games), "--seed", "2026", "--idle-limit", IDLE_LIMIT,
                     "--json", str(result), *options, str(folder), home=home)
    assert run.returncode in (0, 1), run.stdout + run.stderr
    header = run.stdout.splitlines()[1]
    if not header.startswith("sandbox: partial"):
        pytest.skip(f"a normal user here does not get partial: {header}")
    report: dict[str, object] = json.loads(result.read_text())
    table = expected(name)
    assert report["verdict"] == table["verdict"], run.stdout
    if "check" in table:
        assert report["check"] == table["check"], run.stdout
    return report, run.stdout


def test_partial_says_what_it_does_not_hold(normal_user: NormalUser, home: Path) -> None:
    """The warning under the sandbox line says in words what partial lacks: a CPU quota, and a
    memory cap across processes; the JSON lists the same; the line gives the way to full."""
    report, printed = at_partial(normal_user, "writes-shared-memory", home, games=1)
    warning = printed.splitlines()[2]
    assert warning.startswith("warning: the program is not fully contained: ")
    assert "no CPU quota" in warning and "memory is capped for each process alone" in warning
    sandbox = report["sandbox"]
    assert isinstance(sandbox, dict) and sandbox["level"] == "partial"
    assert [phrase for phrase in sandbox["not_held"] if phrase in warning] == sandbox["not_held"]
    assert "for full containment" in printed.splitlines()[1] or "systemd-run" in printed


def test_q_a_leftover_whose_first_thread_ended_is_counted(normal_user: NormalUser,
                                                          home: Path) -> None:
    """(q) At partial the warden counts a process by its live threads too."""
    report, _ = at_partial(normal_user, "hides-a-leftover", home)
    assert "it left 1 process running after it exited" in str(report["got"])


def test_r_a_vfork_wait_is_not_progress(normal_user: NormalUser, home: Path) -> None:
    """(r) Idle near the idle limit at partial too."""
    report, _ = at_partial(normal_user, "parks-in-vfork", home, *ROUND_THREE_LIMITS, games=1)
    assert isinstance(report["seconds"], float) and report["seconds"] < 15


def test_s_bytes_without_a_newline_do_not_hold_the_judge(normal_user: NormalUser,
                                                         home: Path) -> None:
    """(s) Idle near the idle limit at partial too; the CPU time its reason quotes is at most
    the run's, which the first line and the JSON give alike."""
    report, printed = at_partial(normal_user, "drips-spaces", home, *ROUND_THREE_LIMITS, games=1)
    assert isinstance(report["seconds"], float) and report["seconds"] < 15
    lines = printed.splitlines()
    total = re.search(CPU_FIGURE, next(line for line in lines if line.startswith("played ")))
    quoted = re.search(CPU_FIGURE, next(line for line in lines if line.startswith("REJECTED ")))
    assert total is not None and quoted is not None, printed
    assert float(total[1]) == pytest.approx(report["cpu_seconds"], abs=0.006), printed
    assert float(quoted[1]) <= float(total[1]) + 0.05, printed


def test_t_cpu_burned_in_reaped_children_counts(normal_user: NormalUser, home: Path) -> None:
    """(t) Without a control group the judge still counts the CPU time of reaped children: the
    time limit holds and the report's figure is right."""
    report, printed = at_partial(normal_user, "burns-in-children", home, "--time-limit", "2",
                                 games=1)
    assert isinstance(report["cpu_seconds"], float) and report["cpu_seconds"] >= 2, printed


def test_u_the_sandboxs_own_folders_take_no_file(normal_user: NormalUser, home: Path) -> None:
    """(u) As a normal user the sandbox's own tmpfs is the user's: still, /dev/shm, /dev, / and
    /etc take not one byte."""
    report, _ = at_partial(normal_user, "writes-shared-memory", home, "--memory-limit", "128",
                           games=1)
    wrote = [line for line in report["stderr_tail"] if line.startswith("wrote ")]
    assert wrote == [f"wrote {place} 0" for place in SANDBOX_OWN]


def test_f_children_together_pass_the_memory_limit(normal_user: NormalUser, home: Path) -> None:
    """(f) Four children of 150 MB, each under the cap of 256 MB, are over it together: without
    a control group the judge sees it when it looks, kills the run, and its figure is the
    tree's, not one process's."""
    report, printed = at_partial(normal_user, "memory-tree", home, games=1)
    assert isinstance(report["peak_memory_kb"], int) and report["peak_memory_kb"] > 256 << 10
    played = next(line for line in printed.splitlines() if line.startswith("played"))
    assert "MB of memory at once" in played and "at least" in played


def test_off_counts_a_leftover_whose_first_thread_ended(tmp_path: Path) -> None:
    """Under --sandbox off the report says a process of the program outlived it, though its
    first thread has ended, and the judge ends it."""
    folder = hostile_folder("hides-a-leftover", tmp_path)
    result = tmp_path / "result.json"
    run = judge_process("--sandbox", "off", "--games", "2", "--seed", "2102", "--json", result,
                        folder, timeout=120)
    report = json.loads(result.read_text())
    assert (report["verdict"], report["check"]) == ("wrong-answer", "exit"), run.stdout
    assert "it left 1 process running after it exited" in report["got"]
    assert not set(threads_with(b"attack.py")) & set(threads_with(b"2102"))


def working_folders() -> set[str]:
    """The working folders of runs in the shared temporary folder now."""
    return {name for name in os.listdir(tempfile.gettempdir()) if name.startswith(PREFIX)}


TOKEN = "menace-killed-judge-token"


def working_folder_of(pid: int) -> str:
    """The name of the folder a process runs in, empty when it is gone."""
    try:
        return Path(os.readlink(f"/proc/{pid}/cwd")).name
    except OSError:
        return ""


def test_a_killed_judges_working_folder_goes_with_the_next_judge(tmp_path: Path) -> None:
    """SIGKILL to a judge whose program runs in its working folder (--sandbox off) leaves the
    folder; once it has settled, the next judge removes it, since no one holds its lock; the
    folder of a judge still running stays."""
    folder = tmp_path / "slow"
    folder.mkdir()
    (folder / "slow.py").write_text("import time\ntime.sleep(60)\n")
    (folder / "submission.toml").write_text(
        f'command = ["python3", "slow.py", "{TOKEN}"]\nsource = "slow.py"\n')
    made: list[str] = []

    def started() -> subprocess.Popen[bytes]:
        """A judge of the slow program, once the program runs in its working folder."""
        process = subprocess.Popen(
            judge_command("--sandbox", "off", "--games", "1", "--idle-limit", "60", str(folder)),
            cwd=ROOT, env=judge_environment(), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            new = {name for pid in processes_with(TOKEN.encode())
                   if (name := working_folder_of(pid)) and name not in made}
            if new:
                made.extend(new)
                return process
            assert time.monotonic() < deadline, "the program never started"
            time.sleep(0.05)

    killed = started()
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    left = {made[0]}
    assert left <= working_folders()
    alive = started()  # which may remove it already, if it took long enough to settle
    kept = {made[1]}
    try:
        for name in (left | kept) & working_folders():
            os.utime(Path(tempfile.gettempdir()) / name, (0, 0))
        remove_abandoned(Path(tempfile.gettempdir()))
        assert not left & working_folders()
        assert kept <= working_folders()
    finally:
        alive.send_signal(signal.SIGTERM)
        alive.wait()
        for pid in processes_with(TOKEN.encode()):
            os.kill(pid, signal.SIGKILL)
    assert not kept & working_folders()


ON_THE_KERNEL_TIER = {"hides-a-leftover": "--idle-limit 120 --time-limit 600",
                      "parks-in-vfork": "--idle-limit 10 --time-limit 600",
                      "burns-in-children": "--idle-limit 120 --time-limit 3"}
"""The attacks of round three whose answer a delegated group of cgroup v2 gives (live tasks
counted by the group, its CPU time with reaped children's, its members' states), with limits
for Python under TCG; the others depend on no control group and are judged at full here."""


UNDER_PYTEST = "f_children or killing_the_judge"
"""The attacks of tests/test_hostile.py the tier runs under pytest: under TCG the whole file
takes too long (its fork bomb alone takes over a minute there), so two that lean on the control
groups: children over the memory cap together (f), and a judge killed mid-run, nothing of its
run surviving it."""
SLOWNESS = 40
"""How much longer the hostile tests wait for a judge in the guest (MENACE_TEST_SLOWNESS)."""
PYTEST_SCRIPT = f"""
cd {guest.PROJECT}
PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {guest.PYTHON} -m pytest -q -p no:cacheprovider --e2e \\
    tests/test_hostile.py -k '{UNDER_PYTEST}' \\
    --junitxml=$OUT/hostile.xml > $OUT/pytest.txt; echo "pytest $?"
{guest.PYTHON} -c 'from judge.running.claim import find_layout; print(find_layout()[0].how)'
"""


@pytest.mark.kernel_tier
def test_hostile_attacks_in_a_delegated_group_of_cgroup_v2(tier: Path) -> None:
    """On a real cgroup-v2 kernel (the kernel tier, one boot), as a normal user in a delegated
    group of its own, the judge is at full and each attack of round three that the group
    answers gets its verdict: the leftover is seen, the parked program is idle near its idle
    limit rather than the wall-clock cap (2,430 s), the CPU burned in reaped children counts.
    No process of any run is left behind, nor any group (the judge gives back what it made when
    it ends). Then two attacks of tests/test_hostile.py under pytest (`under_pytest`)."""
    fixtures = tier / "fixtures"
    fixtures.mkdir()
    steps = []
    for name, limits in ON_THE_KERNEL_TIER.items():
        readable_by_all(hostile_folder(name, fixtures))
        steps.append(Step(name, f"cd {guest.PROJECT} && exec {guest.PYTHON} -m judge "
                                f"--sandbox require --games 1 --seed 2026 {limits} "
                                f"--json $OUT/run.json /tier/fixtures/{name}"))
    readable_by_all(fixtures)
    steps.append(Step("under-pytest", PYTEST_SCRIPT, seconds=1800,
                      env={"MENACE_TEST_SLOWNESS": str(SLOWNESS)}))
    outcomes = guest.run(steps, tier)
    found = {}
    for name in ON_THE_KERNEL_TIER:
        outcome = outcomes[name]
        found[name] = json.loads((outcome.files / "run.json").read_text())
        table = expected(name)
        assert (found[name]["sandbox"]["level"], found[name]["verdict"],
                found[name]["check"]) == ("full", table["verdict"], table.get("check")), \
            str(outcome)
        assert outcome.processes == (), str(outcome)
        assert outcome.groups == (), str(outcome)
    assert found["parks-in-vfork"]["seconds"] < 120, str(outcomes["parks-in-vfork"])
    assert found["burns-in-children"]["cpu_seconds"] >= 3, str(outcomes["burns-in-children"])
    under_pytest(outcomes["under-pytest"])


def under_pytest(outcome: Outcome) -> None:
    """tests/test_hostile.py through pytest as the normal user, pytest itself in the delegated
    group: it probes the sandbox in its own process, which claims the group, and every judge it
    starts claims the same group beside it; all at full. The judge the test kills leaves its
    groups, which the next judge to claim the group removes: then nothing is left."""
    ran = (outcome.files / "pytest.txt").read_text() if (outcome.files / "pytest.txt").is_file() \
        else ""
    assert outcome.status == 0 and outcome.stdout.startswith("pytest 0\n"), f"{ran}\n{outcome}"
    suite = ElementTree.parse(outcome.files / "hostile.xml").getroot().find("testsuite")
    assert suite is not None, str(outcome)
    counts = {key: int(suite.get(key, "-1")) for key in ("tests", "failures", "errors", "skipped")}
    assert counts == {"tests": 2, "failures": 0, "errors": 0, "skipped": 0}, str(outcome)
    claimed = outcome.stdout.splitlines()[1]
    assert claimed.startswith("its own in the delegated group ") and claimed.endswith(
        "; 1 left by judges that are gone removed"), str(outcome)
    assert outcome.processes == () and outcome.groups == (), str(outcome)
