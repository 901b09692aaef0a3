"""Hostile submissions: each gets its verdict under `--sandbox require`, and nothing leaks.

One fixture per attack class of tests/submissions/hostile/ (see tests/submissions/README.md):
each is an `attack()` run before the canonical program plays, which the test copies beside it.
Every test asserts the verdict and also what must not have happened on this machine: a changed
project, a file left outside the run, a secret in the report, a process still alive, a
connection made, a forged count accepted, a neighbour starved.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import tomllib
from pathlib import Path

import pytest
from fixture_folders import PROGRAM, assembled
from live import judge_command, judge_environment, judge_process, paced

from judge.running.probes import support
from judge.running.sandbox import Level

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "submissions" / "hostile"
"""The canonical program, which the faulty one is without `--fault`."""
TOKEN = "menace-hostile-token"
SECRET = "menace-hostile-secret-4f1c9a"
FOUND = support()
pytestmark = [pytest.mark.e2e, pytest.mark.skipif(FOUND.level is not Level.FULL,
                                reason=f"full containment unavailable: {FOUND.describe()}")]


def expected(name: str) -> dict[str, str]:
    """The [expected] table of a hostile fixture."""
    manifest = tomllib.loads((HOSTILE / name / "submission.toml").read_text())
    table: dict[str, str] = manifest["expected"]
    return table


IDLE_LIMIT = str(round(paced(10)))
"""Seconds of silence before a run is idle: wider than the judge's default, since no fixture here
is meant to go idle and the machine that runs the tests may be loaded."""


def hostile_folder(name: str, tmp_path: Path) -> Path:
    """A submission folder of the hostile fixture `name`: its files and the program it runs
    once its attack is made (with the faults its command names, if any)."""
    folder = assembled(f"hostile/{name}", tmp_path)
    shutil.copy(PROGRAM, folder / "menace.py")
    return folder


def judge(name: str, tmp_path: Path, games: int = 3, env: dict[str, str] | None = None,
          options: tuple[str, ...] = (),
          folder: Path | None = None) -> tuple[dict[str, object], str]:
    """The JSON report and the printed report of a hostile fixture (or of `folder`, a copy of
    it) judged under full."""
    folder = folder or hostile_folder(name, tmp_path)
    result, transcript = tmp_path / "result.json", tmp_path / "transcript.txt"
    run = judge_process("--sandbox", "require", "--games", str(games), "--seed", "2026",
                        "--idle-limit", IDLE_LIMIT, "--json", result, "--transcript", transcript,
                        "--save-replay", tmp_path / "replay.json", *options, folder,
                        timeout=paced(180), env=env)
    assert run.returncode in (0, 1), run.stdout + run.stderr
    assert "sandbox: full" in run.stdout.splitlines()[1]
    report: dict[str, object] = json.loads(result.read_text())
    assert {key: value for key, value in report["sandbox"].items() if key != "groups"} == \
        {"level": "full", "missing": [], "not_held": []}
    assert report["sandbox"]["groups"].startswith("its own ")
    table = expected(name)
    assert report["verdict"] == table["verdict"], run.stdout
    if "check" in table:
        assert report["check"] == table["check"], run.stdout
    text = run.stdout + run.stderr + result.read_text() + transcript.read_text()
    return report, text


def tree_hash(root: Path) -> str:
    """A hash of every file of the project but caches and git's own."""
    digest = hashlib.sha256()
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            path = Path(here) / name
            if path.is_file():
                digest.update(str(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def processes_with(word: bytes) -> list[int]:
    """Processes whose command line holds `word` as one of its arguments."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                arguments = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\x00")
            except OSError:
                continue
            if word in arguments:
                found.append(int(entry))
    return found


def token_processes(seed: int) -> list[int]:
    """Processes whose command line carries the token of a run of `hostile/escapes` with this
    judge seed (each test uses its own seed, so tests run side by side do not see each other's)."""
    return [pid for pid in processes_with(f"sleep 600; : {TOKEN}-{seed}".encode())]


def test_every_attack_class_has_a_fixture() -> None:
    """Attack classes (a) to (v) of the sandbox's tests: a folder each, none a link."""
    classes = sorted(expected(manifest.parent.name)["attack"]
                     for manifest in HOSTILE.glob("*/submission.toml"))
    assert classes == list("abcdefghijklmnopqrstuv")
    assert not [path for path in HOSTILE.rglob("*") if path.is_symlink()]


def test_a_edits_to_the_judge_do_not_stay(tmp_path: Path) -> None:
    """(a) The project is the same after the run, and the run is judged on its own faults."""
    before = tree_hash(ROOT)
    judge("edits-judge", tmp_path)
    assert tree_hash(ROOT) == before


def test_b_writes_outside_do_not_stay(tmp_path: Path) -> None:
    """(b) Nothing written to home, the shared temp folder or the project is left."""
    places = [Path.home(), Path("/root"), Path(tempfile.gettempdir()), Path("/tmp"),
              Path("/var/tmp"), Path("/dev/shm"), ROOT]
    judge("writes-outside", tmp_path)
    assert not [p for p in places if (p / "menace-hostile-written").exists()]


def test_c_secrets_stay_out_of_every_report(tmp_path: Path) -> None:
    """(c) The judge's environment and a planted file never reach the report or transcript."""
    planted = [Path(tempfile.gettempdir()) / "menace-hostile-secret",
               Path.home() / "menace-hostile-secret"]
    for path in planted:
        path.write_text(SECRET + "-file")
    try:
        _, text = judge("reads-secrets", tmp_path, env={"MENACE_HOSTILE_SECRET": SECRET})
    finally:
        for path in planted:
            path.unlink()
    assert "found:" in text  # it did print what it read
    assert SECRET not in text


def test_d_escapes_are_caught_and_killed(tmp_path: Path) -> None:
    """(d) A daemon in its own session, without its environment, fails the exit check and dies."""
    report, _ = judge("escapes", tmp_path)
    assert "processes running after it exited" in str(report["got"])
    assert token_processes(2026) == []


def test_e_signals_to_the_parent_change_nothing(tmp_path: Path) -> None:
    """(e) The judge and the warden ignore its signals; it plays and is judged."""
    judge("signals-judge", tmp_path)


def test_f_children_together_pass_the_memory_cap(tmp_path: Path) -> None:
    """(f) Four children under the cap each, over it together: memory-limit."""
    judge("memory-tree", tmp_path, games=1)


def test_g_a_disk_fill_is_a_limit_and_leaves_nothing(tmp_path: Path) -> None:
    """(g) Filling its folder or /tmp ends in disk-limit; none of its files remain."""
    judge("fills-disk", tmp_path, games=1)
    assert not list(Path(tempfile.gettempdir()).glob("menace-hostile-fill-*"))


def test_h_the_network_is_unreachable(tmp_path: Path) -> None:
    """(h) A connection to the host's loopback, or beyond, fails inside."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            server.bind(("127.0.0.1", 47813))
        except OSError:
            pytest.skip("port 47813 is taken")
        server.listen()
        server.setblocking(False)
        judge("network", tmp_path)
        with pytest.raises(BlockingIOError):
            server.accept()


def test_i_a_fork_bomb_as_root_is_contained(tmp_path: Path) -> None:
    """(i) Forking without end hits the process cap, and the run still gets a verdict."""
    judge("fork-bomb", tmp_path, games=1)


def test_killing_the_judge_kills_the_tree(tmp_path: Path) -> None:
    """If the judge is killed, nothing of the run it was judging survives it (the run is long
    enough, 20,000 games, to be caught in the middle)."""
    folder = hostile_folder("escapes", tmp_path)
    process = subprocess.Popen(
        judge_command("--sandbox", "require", "--games", "20000", "--seed", "7", "--idle-limit",
                      "30", str(folder)), cwd=ROOT, env=judge_environment(),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + paced(30)
    while not token_processes(7):
        assert time.monotonic() < deadline, "the daemon never started"
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + paced(30)  # the tree goes at once; a loaded machine is slow
    while token_processes(7):
        assert time.monotonic() < deadline, f"survivors: {token_processes(7)}"
        time.sleep(0.05)


def test_j_arguments_name_nothing_of_the_host(tmp_path: Path) -> None:
    """(j) Host paths among a manifest's arguments are data: the host's secret file, its unix
    socket, its /proc/1, /root and /etc/passwd are not what the program finds there."""
    secret, address = Path("/tmp/menace-hostile-arg-secret"), "/tmp/menace-hostile-arg.sock"
    secret.write_text(SECRET + "-argument")
    Path(address).unlink(missing_ok=True)
    try:
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(address)
            server.listen()
            server.setblocking(False)
            _, text = judge("names-host-paths", tmp_path)
            with pytest.raises(BlockingIOError):
                server.accept()
    finally:
        secret.unlink()
        Path(address).unlink(missing_ok=True)
    assert SECRET not in text


def test_k_links_out_of_the_folder_are_refused_before_anything_runs(tmp_path: Path) -> None:
    """(k) A link to a private file of the judge's user, or to /dev/zero, refuses the copy: a
    one-line message names the link, nothing is read through it, the host's /tmp keeps its size."""
    planted = tmp_path / "private"
    planted.write_text(SECRET + "-link")
    planted.chmod(0o600)
    for name, target in (("secret", planted), ("zero", Path("/dev/zero"))):
        folder = hostile_folder("links-out", tmp_path / name)
        (folder / name).symlink_to(target)
        before = shutil.disk_usage(tempfile.gettempdir()).used
        run = judge_process("--sandbox", "require", "--games", "1", folder, timeout=60)
        assert run.returncode == 2, run.stdout + run.stderr
        assert f"{name} is a link that leads out of the submission folder" in run.stderr
        assert SECRET not in run.stdout + run.stderr and "Traceback" not in run.stderr
        assert shutil.disk_usage(tempfile.gettempdir()).used - before < 16 << 20


def test_l_a_manifest_cannot_raise_its_memory_cap(tmp_path: Path) -> None:
    """(l) memory_mb = 1 TB in the manifest, 512 MB on the command line: 512 MB holds."""
    report, _ = judge("raises-its-cap", tmp_path, games=1, options=("--memory-limit", "512"))
    sandbox = report["sandbox"]
    assert isinstance(sandbox, dict)
    assert report["verdict"] == "memory-limit"


@pytest.mark.parametrize("forged", ["0 0\n", "\u00b2\n"])
def test_n_the_wardens_count_cannot_be_forged(forged: str, tmp_path: Path) -> None:
    """(n) A program that leaves a process behind and writes a report of nothing left (or bytes
    that are no report) into every pipe it can take from the sandbox's processes is still
    caught: the warden's pipe is out of its reach."""
    folder = hostile_folder("forges-report", tmp_path)
    manifest = folder / "submission.toml"
    manifest.write_text(manifest.read_text().replace(
        '"attack.py"]', f'"attack.py", "--forge", {json.dumps(forged)}]', 1))
    report, text = judge("forges-report", tmp_path, folder=folder)
    assert report["check"] == "exit" and "processes running after it exited" in str(report["got"])
    assert "Traceback" not in text


SLOW_START = ("# Start up as a golfed Ruby or Perl answer does, with 1.5 s of CPU.\n"
              "import runpy, time\nwhile time.process_time() < 1.5:\n    pass\n"
              "runpy.run_path('menace.py', run_name='__main__')\n")
"""A correct program that needs much CPU before its first board: starved, it would be silent.
Half the idle limit by its own CPU clock, not a fixed sum: on a loaded machine the same sum
costs twice the CPU time, and a program that uses the idle limit's CPU in silence is idle."""


def test_o_a_cpu_burner_does_not_starve_its_neighbours(tmp_path: Path) -> None:
    """(o) Judged two at a time beside a program that burns CPU in eight new sessions, two
    correct programs that start slowly are accepted: each run has its own CPU quota, and a
    silence is judged by the program's own CPU time and progress."""
    board = tmp_path / "board"
    board.mkdir()
    hostile_folder("burns-cpu", board)
    for name in ("first", "second"):
        folder = board / name
        folder.mkdir()
        shutil.copy(PROGRAM, folder / "menace.py")
        (folder / "slow.py").write_text(SLOW_START)
        manifest = (HOSTILE / "burns-cpu" / "submission.toml").read_text()
        (folder / "submission.toml").write_text(manifest.replace("attack.py", "slow.py"))
    run = judge_process("--sandbox", "require", "-j", "2", "--games", "12", "--seed", "2031",
                        board, timeout=300)
    verdicts = {line.split()[0]: line for line in run.stdout.splitlines()
                if line.split() and line.split()[0] in ("first", "second", "burns-cpu")}
    assert "accepted" in verdicts["first"] and "accepted" in verdicts["second"], run.stdout
    assert "accepted" not in verdicts["burns-cpu"], run.stdout
    assert not set(processes_with(b"attack.py")) & set(processes_with(b"2031"))


def test_m_a_flood_leaves_the_judge_small(tmp_path: Path) -> None:
    """(m) Six million blank lines before the first game: the judge counts them, keeps its
    memory under 150 MB (its own and its program's, together), and judges the run. Counting
    them takes the judge some 20 s of CPU, which a loaded machine stretches past the wall-clock
    cap of 3 games (112 s): the time limit is raised for the cap, not for the program."""
    from test_judge_memory import MOST_RESIDENT_MB, peak_resident_mb

    resident, verdict = peak_resident_mb([
        "--sandbox", "require", "--games", "3", "--seed", "2026", "--idle-limit", IDLE_LIMIT,
        "--time-limit", "600",
        "--transcript", str(tmp_path / "transcript.txt"),
        str(hostile_folder("floods-the-judge", tmp_path))])
    assert verdict == expected("floods-the-judge")["verdict"]
    assert resident < MOST_RESIDENT_MB, f"{resident} MB"
    notes = [line for line in (tmp_path / "transcript.txt").read_text().splitlines()
             if line.startswith("  (")]
    assert any(line.endswith("more blank lines)") for line in notes), notes


def test_p_control_sequences_act_on_no_file(tmp_path: Path) -> None:
    """(p) A clipboard write, a window title and a clear screen in its output: escaped in the
    report and the transcript file, exact in the JSON."""
    report, text = judge("controls-the-terminal", tmp_path)
    shown = (tmp_path / "transcript.txt").read_text() + text.replace(
        (tmp_path / "result.json").read_text(), "")
    assert "\x1b" not in shown and "\x07" not in shown
    assert "\\x1b]52;c;aGFja2Vk\\x07" in shown
    assert "\x1b]52;c;aGFja2Vk\x07" in str(report["got"])


def test_v_the_judges_own_code_is_out_of_reach(tmp_path: Path) -> None:
    """(v) Beside the packages the program may import, the judge and the reference fail to
    import as if they were not installed, and what installed them reads empty."""
    report, _ = judge("imports-the-judge", tmp_path)
    assert report["stderr_tail"] == ["refused: No module named 'judge'",
                                     "refused: No module named 'reference'"]


def threads_with(word: bytes) -> list[int]:
    """Processes with a live thread whose command line holds `word` as one of its arguments (a
    process whose first thread has ended shows no command line of its own, its threads do)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                threads = os.listdir(f"/proc/{entry}/task")
            except OSError:
                continue
            for thread in threads:
                try:
                    arguments = Path(f"/proc/{entry}/task/{thread}/cmdline").read_bytes()
                except OSError:
                    continue
                if word in arguments.split(b"\x00"):
                    found.append(int(entry))
                    break
    return found


ROUND_THREE_LIMITS = ("--idle-limit", "2", "--time-limit", "5")
"""An idle limit of 2 s under a wall-clock cap of 50 s (4 times 5 s, and 30 s): a silence
stopped near the first is told apart from one held to the second."""


def test_q_a_leftover_whose_first_thread_ended_is_counted(tmp_path: Path) -> None:
    """(q) A child whose first thread ended with the raw `exit` system call while another runs
    on reads as a zombie in /proc/PID/stat: it is counted as left behind all the same, and it
    does not outlive the run."""
    report, _ = judge("hides-a-leftover", tmp_path, options=("--seed", "2101"))
    assert "it left 1 process running after it exited" in str(report["got"])
    assert not set(threads_with(b"attack.py")) & set(threads_with(b"2101"))


def test_r_a_vfork_wait_is_not_progress(tmp_path: Path) -> None:
    """(r) A parent parked in a vfork wait (state D) whose child pauses uses no CPU: idle near
    the idle limit, not at the wall-clock cap."""
    report, _ = judge("parks-in-vfork", tmp_path, games=1, options=ROUND_THREE_LIMITS)
    assert isinstance(report["seconds"], float) and report["seconds"] < 15, report["seconds"]


@pytest.mark.parametrize("every", ["0.3", "2"])
def test_s_bytes_without_a_newline_do_not_hold_the_judge(every: str, tmp_path: Path) -> None:
    """(s) A space every `every` seconds and never a newline (faster or slower than the judge
    looks): idle near the idle limit, not at the wall-clock cap, nor never."""
    folder = hostile_folder("drips-spaces", tmp_path)
    manifest = folder / "submission.toml"
    manifest.write_text(manifest.read_text().replace(
        '"attack.py"]', f'"attack.py", "--every", "{every}"]', 1))
    report, _ = judge("drips-spaces", tmp_path, games=1, options=ROUND_THREE_LIMITS,
                      folder=folder)
    assert isinstance(report["seconds"], float) and report["seconds"] < 15, report["seconds"]


def test_t_cpu_burned_in_reaped_children_counts(tmp_path: Path) -> None:
    """(t) CPU time burned in children that are reaped at once counts against the time limit."""
    report, _ = judge("burns-in-children", tmp_path, games=1, options=("--time-limit", "2"))
    assert isinstance(report["cpu_seconds"], float) and report["cpu_seconds"] >= 2


SANDBOX_OWN = ("/dev/shm", "/dev", "/", "/etc")
"""The folders of the sandbox's own tmpfs that hostile/writes-shared-memory tries."""


def test_u_the_sandboxs_own_folders_take_no_file(tmp_path: Path) -> None:
    """(u) /dev/shm, /dev, / and /etc of the sandbox take not one byte."""
    report, _ = judge("writes-shared-memory", tmp_path, games=1,
                      options=("--memory-limit", "128"))
    wrote = [line for line in report["stderr_tail"] if line.startswith("wrote ")]
    assert wrote == [f"wrote {place} 0" for place in SANDBOX_OWN]
