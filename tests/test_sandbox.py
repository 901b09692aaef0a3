"""The containment layer on its own: what a contained program sees, may do, and leaves behind.

Tests that need `full` containment skip, saying why, where the machine lacks a part of it;
the levels themselves are tested everywhere.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from fixture_folders import assembled

from judge.running import runtimes
from judge.running.cgroups import PREFIX, TreeLimits
from judge.running.claim import LEAF, start_time
from judge.running.probes import support
from judge.running.processes import CLOCK_TICKS
from judge.running.sandbox import (
    Containment,
    Level,
    Limits,
    Sandbox,
    Support,
)
from judge.running.warden import Report, read_report, script
from judge.terms.options import SandboxPolicy

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parent.parent
FOUND = support()
needs_full = pytest.mark.skipif(FOUND.level is not Level.FULL,
                                reason=f"full containment unavailable: {FOUND.describe()}")


DEFAULT_LIMITS = Limits(cpu_seconds=60, memory_mb=1024, file_mb=16, disk_mb=64, processes=64,
                        open_files=128)


def contained(code: str, folder: Path, limits: Limits = DEFAULT_LIMITS, stdin: bytes = b"", *,
              found: Support = FOUND,
              looking: bool = False) -> tuple[subprocess.CompletedProcess[bytes], Containment]:
    """Run Python `code` contained in `folder`: its completed process and the run's facts;
    `looking`, the sandbox looks at the run's use ten times a second, as the judge does while
    it waits."""
    (folder / "program.py").write_text(textwrap.dedent(code))
    sandbox = Sandbox(found, limits)
    process = sandbox.popen([sys.executable, "program.py"], cwd=folder,
                            env={"PATH": "/usr/bin:/bin", "HOME": str(folder)},
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                out, err = process.communicate(stdin, timeout=0.1 if looking else 60)
                break
            except subprocess.TimeoutExpired:
                assert time.monotonic() < deadline, "the program ran for a minute"
                sandbox.cpu_seconds()
    finally:
        sandbox.kill()
    facts = sandbox.finish()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err), facts


NO_GROUPS = Support(cgroups="none in this test")
"""Namespaces without control groups: what a normal user gets on a machine with cgroup v1."""
needs_namespaces = pytest.mark.skipif(not FOUND.namespaced,
                                      reason=f"no namespaces: {FOUND.describe()}")


def test_each_level_says_what_it_does_not_hold() -> None:
    """Full holds everything it names; without control groups there is no CPU quota and no
    memory cap across processes; without namespaces the program runs as the judge's user."""
    assert Support().not_held() == ()
    no_groups = " ".join(Support(cgroups="x").not_held())
    assert "no CPU quota" in no_groups and "each process alone" in no_groups
    assert "runs as you" in " ".join(Support(namespaces="x").not_held())
    assert "runs as you" not in no_groups
    assert "nothing is contained" in " ".join(Support(chosen_off=True).not_held())


def test_level_is_full_only_with_namespaces_and_cgroups() -> None:
    """Each missing part lowers the level and is named; off is none."""
    assert Support().level is Level.FULL and Support().missing == ()
    partial = Support(cgroups="no cgroup hierarchy for memory")
    assert partial.level is Level.PARTIAL
    assert partial.describe() == ("partial (missing whole-tree limits: "
                                  "no cgroup hierarchy for memory)")
    assert Support(namespaces="bwrap not found", cgroups="x").level is Level.NONE
    assert support(SandboxPolicy.OFF).level is Level.NONE
    assert support(SandboxPolicy.OFF).missing == ("turned off with --sandbox off",)


def test_the_machine_reports_its_level_honestly() -> None:
    """The probed level names what is missing exactly when it is not full."""
    assert (FOUND.level is Level.FULL) == (FOUND.missing == ())
    assert FOUND.describe().startswith(FOUND.level.value)


def test_fallback_without_namespaces_reports_its_level(tmp_path: Path) -> None:
    """A run without namespaces says so in its facts, and still runs the program."""
    found = Support(namespaces="bwrap not found", cgroups=FOUND.cgroups, layout=FOUND.layout)
    sandbox = Sandbox(found, Limits())
    process = sandbox.popen([sys.executable, "-c", "print('ran')"], cwd=tmp_path,
                            env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, _ = process.communicate(timeout=60)
    facts = sandbox.finish()
    assert out == b"ran\n"
    assert facts.level is found.level is not Level.FULL
    assert facts.missing[0].startswith("namespaces: bwrap not found")


def test_warden_hides_its_pipe_from_the_program() -> None:
    """The warden closes its count's descriptor for the program and writes the count on it."""
    text = script(12)
    assert text.index("12>&-") < text.index(">&12")
    assert "12" not in script(None) and '"$@"' in script(None)


@pytest.mark.parametrize("data", [b"0 0", b"00 0\n", b"-1 0\n", "\u00b2 0\n".encode(),
                                  b"1 0\n2 0\n", b"1234567 0\n", b" 1 0\n", b"1 0 \n", b"\xff 0\n",
                                  b"0\n", b"0 00\n", b"0  1\n", b"0 -1\n",
                                  b"0 12345678901234567\n"])
def test_a_warden_report_that_is_not_one_report_is_a_judge_error(data: bytes) -> None:
    """Only one count and one CPU time, as the warden writes them, are read; anything else
    names the fault."""
    report = read_report(data)
    assert report.leftovers is None and report.cpu_seconds is None
    assert "malformed report" in report.fault


def test_the_warden_report_is_read_strictly() -> None:
    """A count, a space, clock ticks and a newline is the report; nothing at all is no report."""
    assert read_report(b"0 0\n") == Report(0, 0.0)
    assert read_report(b"12 250\n") == Report(12, 250 / CLOCK_TICKS)
    assert read_report(b"") == Report(None)


@needs_full
def test_program_runs_unprivileged_in_its_own_namespaces(tmp_path: Path) -> None:
    """A mapped unprivileged uid, no capabilities, no_new_privs, its own pid namespace."""
    done, facts = contained("""
        import os
        status = dict(line.split(":", 1) for line in open("/proc/self/status"))
        print(os.getuid(), status["CapEff"].strip(), status["NoNewPrivs"].strip())
        print(open("/proc/self/uid_map").read().split())
        print(sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    first, uid_map, pids = done.stdout.decode().splitlines()
    uid = 65534 if os.geteuid() == 0 else os.geteuid()
    assert first == f"{uid} 0000000000000000 1"
    inside, outside, count = eval(uid_map)  # a list of three numbers
    assert (int(inside), int(count)) == (uid, 1) and int(outside) != 0
    assert eval(pids)[0] == 1 and len(eval(pids)) <= 4
    assert facts.level is Level.FULL and facts.leftovers == 0


@needs_full
def test_only_the_working_folder_and_tmp_can_be_written(tmp_path: Path) -> None:
    """The project, the home folder and the system are invisible or read-only, and so are the
    sandbox's own root, /etc and /dev, /dev/shm included."""
    home = Path.home()
    done, _ = contained(f"""
        import os
        for path in ("here.txt", "/tmp/t.txt", "/usr/x", {str(ROOT / "x")!r}, {str(home / "x")!r},
                     "/x", "/etc/x", "/dev/x", "/dev/shm/x"):
            try:
                open(path, "w").write("x")
                print("wrote", path)
            except OSError as error:
                print("refused", path, type(error).__name__)
        print(os.path.exists({str(ROOT)!r}), os.path.exists({str(home / ".bashrc")!r}))
    """, tmp_path)
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "wrote here.txt" and lines[1] == "wrote /tmp/t.txt"
    assert all(line.startswith("refused") for line in lines[2:9]), lines
    assert lines[9] == "False False"
    assert not (tmp_path / "here.txt").exists() and not (ROOT / "x").exists()
    assert not Path("/tmp/t.txt").exists() or Path("/tmp/t.txt").read_text() != "x"


@needs_full
def test_no_network(tmp_path: Path) -> None:
    """A connection to the outside fails inside."""
    done, _ = contained("""
        import socket
        try:
            socket.create_connection(("1.1.1.1", 53), timeout=2)
            print("connected")
        except OSError as error:
            print("failed", type(error).__name__)
    """, tmp_path)
    assert done.stdout.decode().startswith("failed"), done.stdout


@needs_full
def test_leftovers_are_counted_and_killed(tmp_path: Path) -> None:
    """A child that outlives the program is counted, and dies with the run."""
    done, facts = contained("""
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execve("/bin/sleep", ["sleep", "600"], {})
            os._exit(0)
        time.sleep(0.2)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert facts.leftovers == 1
    assert not any(b"sleep\x00600" in _cmdline(pid) for pid in _pids())


@needs_full
def test_memory_cap_holds_the_whole_tree(tmp_path: Path) -> None:
    """Four children of 100 MB each break a 256 MB cap that each alone is under."""
    done, facts = contained("""
        import os
        children = []
        for _ in range(4):
            pid = os.fork()
            if pid == 0:
                block = b"x" * (100 << 20)
                import time; time.sleep(5)
                os._exit(0)
            children.append(pid)
        for pid in children:
            os.waitpid(pid, 0)
    """, tmp_path, Limits(memory_mb=256))
    assert facts.memory_hit, (done, facts)


@needs_full
def test_process_cap_stops_a_fork_bomb(tmp_path: Path) -> None:
    """Forking without end hits the process cap; the run still ends."""
    done, facts = contained("""
        import os, time
        for _ in range(200):
            try:
                os.fork()
            except OSError:
                break
        time.sleep(0.5)
    """, tmp_path, Limits(processes=16))
    assert facts.processes_hit, (done, facts)


@needs_full
def test_signal_deaths_are_told_from_exits(tmp_path: Path) -> None:
    """The keeper's 128 + N is read as signal N; a plain status stays a status."""
    sandbox = Sandbox(FOUND, Limits())
    try:
        assert sandbox.exit_codes(137 << 8) == (None, signal.SIGKILL)
        assert sandbox.exit_codes(3 << 8) == (3, None)
    finally:
        sandbox.release()


def _pids() -> list[int]:
    """Every process id now in /proc."""
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _cmdline(pid: int) -> bytes:
    """A process's command line, empty when it is gone."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@pytest.mark.skipif(FOUND.layout is None, reason=f"no control groups: {FOUND.cgroups}")
def test_the_groups_of_a_killed_judge_are_removed_by_the_next(tmp_path: Path) -> None:
    """A judge killed mid-run (SIGKILL: no clean-up of its own) leaves its subtree; the next
    judge to start finds its owner gone and removes it, its run's processes killed."""
    assert FOUND.layout is not None
    parents = [folder.parent for folder in FOUND.layout.parents.values()]
    (tmp_path / "sleeper.py").write_text("import time\ntime.sleep(120)\n")
    judge = subprocess.Popen(
        [sys.executable, "-m", "judge", "--games", "1", "--idle-limit", "100", "--grace", "100",
         "--", sys.executable, str(tmp_path / "sleeper.py")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    subtrees = [parent / f"{PREFIX}{judge.pid}-{start_time(judge.pid)}" for parent in parents]
    runs: list[Path] = []
    try:
        for _ in range(600):  # its run's group, once the program has joined it
            runs = [run for subtree in subtrees if subtree.is_dir() for run in subtree.iterdir()
                    if run.is_dir() and run.name != LEAF and (run / "cgroup.procs").read_text()]
            if runs:
                break
            time.sleep(0.05)
        assert runs, "the judge's run never joined a group of its own"
    finally:
        judge.kill()
        judge.wait()
    assert all(subtree.is_dir() for subtree in subtrees)
    found = subprocess.run(
        [sys.executable, "-c", "from judge.running.claim import find_layout\n"
                               "print(find_layout()[0].how)"],
        capture_output=True, text=True, check=True, timeout=60)
    assert "left by judges that are gone removed" in found.stdout
    assert not any(subtree.exists() for subtree in subtrees)


@pytest.mark.skipif(FOUND.layout is None or FOUND.layout.version != 1,
                    reason="cgroup v1 only: under v2 the subtree holds the judge's leaf")
def test_a_subtree_an_older_judge_removed_is_made_again() -> None:
    """Under v1 the judge's subtree is empty between runs, and judges of earlier versions
    remove empty groups of the judge's prefix: the next run makes it again."""
    assert FOUND.layout is not None
    for folder in FOUND.layout.parents.values():
        folder.rmdir()
    TreeLimits.create(FOUND.layout, 1 << 30, 8).remove()
    assert all(folder.is_dir() for folder in FOUND.layout.parents.values())


@pytest.mark.parametrize("policy", ["off", "auto"])
def test_the_report_header_and_json_give_the_level(policy: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The report's second line and the JSON say the run's level; below full, a warning."""
    from judge.cli import main

    result = tmp_path / "result.json"
    status = main(["--games", "2", "--seed", "1", "--sandbox", policy, "--json", str(result),
                   str(assembled("accepted/canonical", tmp_path))])
    lines = capsys.readouterr().out.splitlines()
    found = support(SandboxPolicy(policy))
    report = json.loads(result.read_text())
    assert status == 0
    assert lines[1] == f"sandbox: {found.describe()}"
    groups = [f"control groups: {found.groups}"] if found.groups else []
    assert lines[2:2 + len(groups)] == groups
    warning = "warning: the program is not fully contained: " + "; ".join(found.not_held())
    assert (lines[2 + len(groups)] == warning) == (found.level is not Level.FULL)
    assert report["sandbox"] == {"level": found.level.value, "missing": list(found.missing),
                                 "not_held": list(found.not_held()), "groups": found.groups}
    assert bool(found.groups) == (found.layout is not None and policy != "off")
    if policy == "off":
        assert report["sandbox"]["level"] == "none"


def test_require_refuses_without_full(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--sandbox require runs only under full; elsewhere it is bad usage, with the reason."""
    from judge.cli import main

    status = main(["--games", "2", "--seed", "1", "--sandbox", "require",
                   str(assembled("accepted/canonical", tmp_path))])
    out, err = capsys.readouterr()
    if FOUND.level is Level.FULL:
        assert status == 0 and "sandbox: full" in out
    else:
        assert status == 2 and "full containment is not available here" in err


def test_require_names_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without namespaces, --sandbox require fails with the reason; auto falls back to partial."""
    import judge.running.probes as probes

    monkeypatch.setattr(probes, "_probe_namespaces", lambda: "bwrap not found")
    with pytest.raises(probes.SandboxError, match="namespaces: bwrap not found"):
        probes.support.__wrapped__(SandboxPolicy.REQUIRE)
    assert probes.support.__wrapped__(SandboxPolicy.AUTO).level is not Level.FULL


@needs_full
def test_a_run_is_held_to_its_cpu_quota(tmp_path: Path) -> None:
    """Four busy children for a second and a half use at most one core's worth of CPU time."""
    done, facts = contained("""
        import os, time
        for _ in range(4):
            if os.fork() == 0:
                end = time.monotonic() + 1.5
                while time.monotonic() < end:
                    pass
                os._exit(0)
        for _ in range(4):
            os.wait()
    """, tmp_path, Limits(cpus=1.0))
    assert done.returncode == 0, done.stderr
    assert facts.cpu_seconds is not None and facts.cpu_seconds < 1.5 * 1.25


@needs_full
def test_the_program_sees_the_judges_packages_read_only_but_not_the_judge(tmp_path: Path) -> None:
    """numpy, installed for the judge's Python, imports inside from a folder the program cannot
    write to; neither the judge nor the reference imports, the project is not there, and what
    the judge's distribution installed beside numpy (an editable install's hooks, its
    dist-info) is empty."""
    own = [str(path) for path in runtimes.python_view().hidden]
    done, _ = contained(f"""
        import importlib.util, os, numpy

        def content(path):
            return os.listdir(path) if os.path.isdir(path) else open(path, "rb").read()

        print(numpy.arange(4).sum())
        print([importlib.util.find_spec(name) is None for name in ("judge", "reference")])
        try:
            open(os.path.join(os.path.dirname(numpy.__file__), "planted.py"), "w")
        except OSError as error:
            print("refused", error.strerror)
        print(os.path.exists({str(ROOT)!r}))
        print([path for path in {own!r} if content(path)])
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == [
        "6", "[True, True]", "refused Read-only file system", "False", "[]"]


@needs_full
def test_of_etc_the_program_sees_the_runtimes_configuration_only(tmp_path: Path) -> None:
    """/etc holds exactly the entries the runtimes read as their configuration (PHP's php.ini
    among them where PHP is installed), and none of them can be written."""
    done, _ = contained("""
        import os
        print(sorted(os.listdir("/etc")))
        for path in ("/etc/menace-planted", "/etc/php/menace-planted"):
            try:
                open(path, "w")
                print("written", path)
            except OSError:
                pass
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    names = sorted(path.name for path in runtimes.configuration())
    assert done.stdout.decode().splitlines() == [str(names)]
    assert ("php" in names) == Path("/etc/php").is_dir()


@needs_full
def test_the_warden_is_out_of_the_programs_reach(tmp_path: Path) -> None:
    """Neither pidfd_getfd nor /proc gives the program a descriptor of bwrap's init or of the
    warden, though it runs as the warden's user."""
    done, facts = contained("""
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        taken = []
        for pid in (1, 2):
            handle = os.pidfd_open(pid)
            taken += [(pid, fd) for fd in range(64) if libc.syscall(438, handle, fd, 0) >= 0]
            try:
                taken.append((pid, os.listdir(f"/proc/{pid}/fd")))
            except OSError:
                pass
        print(taken)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().strip() == "[]"
    assert facts.leftovers == 0 and not facts.fault


@needs_full
def test_arguments_are_never_mounts(tmp_path: Path) -> None:
    """A host path among the program's arguments names nothing inside."""
    folder = tmp_path / "run"
    folder.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("host")
    (folder / "program.py").write_text("import os, sys\nprint(os.path.exists(sys.argv[1]))\n")
    sandbox = Sandbox(FOUND, DEFAULT_LIMITS)
    process = sandbox.popen([sys.executable, "program.py", str(secret)], cwd=folder,
                            env={"PATH": "/usr/bin:/bin", "HOME": str(folder)},
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=60)
    sandbox.finish()
    assert out == b"False\n", err


HIDDEN_LEFTOVER = """
    import ctypes, os, threading, time
    if os.fork() == 0:
        threading.Thread(target=time.sleep, args=(60,)).start()
        ctypes.CDLL(None).syscall({"x86_64": 60, "aarch64": 93}[os.uname().machine], 0)
    time.sleep(0.3)
"""
"""A program that leaves a child whose first thread ended alone while another sleeps on."""


@pytest.mark.parametrize("groups", [True, False], ids=["full", "without-groups"])
def test_the_warden_counts_a_process_whose_first_thread_ended(groups: bool,
                                                             tmp_path: Path) -> None:
    """A process whose first thread ended (it reads as a zombie) is alive while its other
    thread is: the warden counts it, with or without control groups."""
    if not FOUND.namespaced or (groups and FOUND.level is not Level.FULL):
        pytest.skip(f"not at this level here: {FOUND.describe()}")
    done, facts = contained(HIDDEN_LEFTOVER, tmp_path, found=FOUND if groups else NO_GROUPS)
    assert done.returncode == 0, done.stderr
    assert facts.leftovers == 1


@needs_namespaces
def test_without_groups_the_cpu_time_of_reaped_children_counts(tmp_path: Path) -> None:
    """Two children that burn 0.6 s each and are waited for: without control groups the run's
    CPU time holds theirs (the warden's report carries it out of the namespace)."""
    done, facts = contained("""
        import os, time
        for _ in range(2):
            if os.fork() == 0:
                end = time.process_time() + 0.6
                while time.process_time() < end:
                    pass
                os._exit(0)
        os.wait()
        os.wait()
    """, tmp_path, found=NO_GROUPS)
    assert done.returncode == 0, done.stderr
    assert facts.level is Level.PARTIAL and facts.looked
    assert facts.cpu_seconds is not None and facts.cpu_seconds >= 1.15, facts


@needs_namespaces
def test_without_groups_processes_together_are_held_to_the_memory_limit(tmp_path: Path) -> None:
    """Four children of 100 MB each, each under a 256 MB limit, are over it together: without
    control groups a look sees it and kills the run, and the figure is the tree's."""
    done, facts = contained("""
        import os, time
        for _ in range(4):
            if os.fork() == 0:
                block = b"x" * (100 << 20)
                time.sleep(20)
                os._exit(0)
        time.sleep(20)
    """, tmp_path, Limits(memory_mb=256), found=NO_GROUPS, looking=True)
    assert facts.memory_hit and facts.looked, (done, facts)
    assert facts.peak_memory_kb is not None and facts.peak_memory_kb > 256 << 10


def test_inside_namespaces_the_judges_copy_goes_once_the_program_runs(tmp_path: Path) -> None:
    """The working folder on the host is the sandbox's source only: inside namespaces it is
    gone as soon as the program runs; without, it stays until the run ends."""
    from judge.running.launch import start_program
    from judge.terms.manifest import read_manifest
    from judge.terms.settings import Settings

    started = start_program(read_manifest(assembled("accepted/canonical", tmp_path)),
                            Settings(games=1))
    try:
        assert started.folder.path.exists() is not FOUND.namespaced
    finally:
        started.session.close()
        started.remove_folder()
    assert not started.folder.path.exists()


@needs_full
def test_a_descriptor_not_to_be_looked_at_is_not_taken_for_closed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside namespaces the judge asks /proc whether the program closed its stdin: a missing
    descriptor of a live process is closed; one /proc refuses to show (a process between two
    programs) is not, and a program that only starts is not told it stopped reading."""
    sandbox = Sandbox(FOUND, Limits())
    try:
        sandbox._program = os.getpid()
        assert not sandbox.closed_by_program(0)
        assert sandbox.closed_by_program(987)  # no such descriptor in this live process
        real = os.lstat

        def refused(path: str) -> os.stat_result:
            if path.startswith("/proc/"):
                raise PermissionError(13, "Permission denied", path)
            return real(path)

        monkeypatch.setattr(os, "lstat", refused)
        assert not sandbox.closed_by_program(987)
    finally:
        sandbox.release()
