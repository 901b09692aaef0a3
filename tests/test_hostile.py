"""Hostile submissions: each gets its verdict under `--sandbox require`, and nothing leaks.

One fixture per attack class of tests/submissions/hostile/ (see tests/submissions/README.md):
each is the canonical program with an `attack()` run before it plays. Every test asserts the
verdict and also what must not have happened on this machine: a changed project, a file left
outside the run, a secret in the report, a process still alive, a connection made.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import pytest

from judge.sandbox import Level, support

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "submissions" / "hostile"
TOKEN = "menace-hostile-token"
SECRET = "menace-hostile-secret-4f1c9a"
FOUND = support()
pytestmark = pytest.mark.skipif(FOUND.level is not Level.FULL,
                                reason=f"full containment unavailable: {FOUND.describe()}")


def expected(name: str) -> dict[str, str]:
    """The [expected] table of a hostile fixture."""
    manifest = tomllib.loads((HOSTILE / name / "submission.toml").read_text())
    table: dict[str, str] = manifest["expected"]
    return table


IDLE_LIMIT = "10"
"""Seconds of silence before a run is idle: wider than the judge's default, since no fixture here
is meant to go idle and the machine that runs the tests may be loaded."""


def judge(name: str, tmp_path: Path, games: int = 3,
          env: dict[str, str] | None = None) -> tuple[dict[str, object], str]:
    """The JSON report and the printed report of a hostile fixture judged under full."""
    result, transcript = tmp_path / "result.json", tmp_path / "transcript.txt"
    run = subprocess.run(
        [sys.executable, "-m", "judge", "--sandbox", "require", "--games", str(games),
         "--seed", "2026", "--idle-limit", IDLE_LIMIT, "--json", str(result), "--transcript", str(transcript),
         "--save-replay", str(tmp_path / "replay.json"), str(HOSTILE / name)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, **(env or {})})
    assert run.returncode in (0, 1), run.stdout + run.stderr
    assert "sandbox: full" in run.stdout.splitlines()[1]
    report: dict[str, object] = json.loads(result.read_text())
    assert report["sandbox"] == {"level": "full", "missing": []}
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


def token_processes(seed: int) -> list[int]:
    """Processes whose command line carries the token of a run of `hostile/escapes` with this
    judge seed (each test uses its own seed, so tests run side by side do not see each other's)."""
    token = f"{TOKEN}-{seed}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if token + b"\x00" in Path(f"/proc/{entry}/cmdline").read_bytes() + b"\x00":
                    found.append(int(entry))
            except OSError:
                continue
    return found


def test_every_attack_class_has_a_fixture() -> None:
    """Attack classes (a) to (i) of the sandbox's tests, one folder each."""
    classes = sorted(expected(manifest.parent.name)["attack"]
                     for manifest in HOSTILE.glob("*/submission.toml"))
    assert classes == list("abcdefghi")


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
    assert "process(es) running after it exited" in str(report["got"])
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
    folder = HOSTILE / "escapes"
    process = subprocess.Popen(
        [sys.executable, "-m", "judge", "--sandbox", "require", "--games", "20000", "--seed", "7",
         "--idle-limit", "30", str(folder)], cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not token_processes(7):
        assert time.monotonic() < deadline, "the daemon never started"
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 5
    while token_processes(7):
        assert time.monotonic() < deadline, f"survivors: {token_processes(7)}"
        time.sleep(0.05)
