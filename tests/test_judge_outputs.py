"""Output paths a script can use: `-` for stdout, and devices, fifos and descriptors written
through, never replaced; and the leaderboard's reasons, in its table and its JSON."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import stat
import tempfile
import threading
from pathlib import Path

import pytest
from fixture_folders import assembled
from live import judge_process

import judge.running.launch
from judge.cli import main
from judge.leaderboard import Row, markdown_lines, table_lines
from judge.telling.outputs import writes_through

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(tempfile.mkdtemp(prefix="menace-test-outputs-"))
atexit.register(shutil.rmtree, FIXTURES, ignore_errors=True)
CANONICAL = assembled("accepted/canonical", FIXTURES)
LEARNING_LOSS = assembled("wrong-answer/learning-loss", FIXTURES)
STALLS = assembled("idle/reads-all-input-first", FIXTURES)


@pytest.fixture
def never_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the judge starts a program."""
    def start(*args: object) -> None:
        raise AssertionError("a program was started")
    monkeypatch.setattr(judge.running.launch, "start_program", start)


@pytest.mark.e2e
def test_json_to_stdout_is_parsed_from_stdout_and_the_report_goes_to_stderr() -> None:
    done = judge_process("--games", "5", "--seed", "2", "--json", "-", str(CANONICAL))
    assert done.returncode == 0
    report = json.loads(done.stdout)
    assert report["verdict"] == "accepted" and report["games_played"] == 5
    size = (CANONICAL / "menace.py").stat().st_size
    assert report["bytes"] == size and report["submission"] == "canonical"
    assert done.stderr.splitlines()[-1] == "accepted"
    assert done.stderr.splitlines()[0].startswith(f"judging canonical (Python 3, {size} bytes)")
    assert not (ROOT / "-").exists()


@pytest.mark.e2e
def test_a_rejection_with_json_to_stdout_keeps_stdout_json_only() -> None:
    done = judge_process("--games", "8", "--seed", "3", "--json", "-", str(LEARNING_LOSS))
    assert done.returncode == 1
    assert json.loads(done.stdout)["check"] == "learning"
    assert done.stderr.splitlines()[-1] == "wrong-answer learning"


@pytest.mark.e2e
def test_the_transcript_to_stdout() -> None:
    done = judge_process("--games", "2", "--seed", "2", "--transcript", "-", str(CANONICAL))
    assert done.returncode == 0 and done.stderr.splitlines()[-1] == "accepted"
    lines = done.stdout.splitlines()
    assert lines[0] == "> 2" and lines[1] == "< new game"
    assert all(line[:2] in ("> ", "< ") for line in lines)


@pytest.mark.e2e
def test_a_fifo_as_the_transcript_is_written_through_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "transcript"
    os.mkfifo(fifo)
    received: list[bytes] = []

    def read() -> None:
        """The other end of the fifo: a script reading the transcript."""
        with fifo.open("rb") as stream:
            received.append(stream.read())

    reader = threading.Thread(target=read)
    reader.start()
    done = judge_process("--games", "2", "--seed", "2", "--transcript", fifo, CANONICAL)
    reader.join(timeout=60)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "accepted"
    assert received and received[0].decode().startswith("> 2\n< new game\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["transcript"]


@pytest.mark.e2e
def test_a_link_to_the_judges_stdout_is_written_through_where_stdout_goes(
        tmp_path: Path) -> None:
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")  # as /dev/stdout is
    out = tmp_path / "out.txt"
    with out.open("w") as stdout:
        done = judge_process("--games", "2", "--seed", "2", "--json", link, CANONICAL,
                             stdout=stdout)
    assert done.returncode == 0
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"
    text = out.read_text()
    assert text.splitlines()[0].startswith("judging canonical")  # not overwritten by the JSON
    assert text.splitlines()[-1] == "accepted" and '"verdict": "accepted"' in text


def test_which_paths_are_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "to-fifo").symlink_to(fifo)
    (tmp_path / "regular").write_text("")
    (tmp_path / "to-regular").symlink_to(tmp_path / "regular")
    (tmp_path / "dangling").symlink_to(tmp_path / "nothing")
    assert writes_through(Path("/dev/null")) and writes_through(Path("/dev/stdout"))
    assert writes_through(Path("/dev/fd/1")) and writes_through(fifo)
    assert writes_through(tmp_path / "to-fifo")
    for name in ("regular", "to-regular", "dangling", "new"):
        assert not writes_through(tmp_path / name), name


def test_dev_null_is_written_through_and_stays_a_device(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--seed", "2", "--json", "/dev/null", str(CANONICAL)]) == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert capsys.readouterr().out.splitlines()[-1] == "accepted"


@pytest.mark.usefixtures("never_run")
@pytest.mark.parametrize("argv, problem", [
    (["--json", "-", "--transcript", "-"], "--json and --transcript cannot both be -"),
    (["--save-replay", "-"], "--save-replay: a replay is saved to a file, not to -"),
])
def test_stdout_named_twice_or_for_a_replay_is_refused(
        argv: list[str], problem: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, str(CANONICAL)]) == 2
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert problem in err[0] and "Traceback" not in captured.err + captured.out
    assert captured.out == "" or "--save-replay" in argv  # stdout, if taken, stays empty


# -- the leaderboard's reasons -----------------------------------------------------------------


@pytest.mark.e2e
def test_every_leaderboard_row_not_accepted_gives_its_reason_in_the_table_and_json(
        tmp_path: Path) -> None:
    board = tmp_path / "golf"
    shutil.copytree(CANONICAL, board / "good")
    shutil.copytree(LEARNING_LOSS, board / "bad")
    shutil.copytree(STALLS, board / "stalls")
    (board / "broken").mkdir()
    (board / "broken" / "submission.toml").write_text('command = "python3"\n')
    done = judge_process("--games", "8", "--seed", "3", "--idle-limit", "1", "--json", "-",
                         board)
    assert done.returncode == 1
    table = json.loads(done.stdout)
    rows = {row["name"]: row for row in table["rows"]}
    assert table["seed"] == 3 and table["accepted"] == 1 and table["submissions"] == 4
    assert rows["good"]["verdict"] == "accepted" and rows["good"]["reason"] == ""
    assert rows["bad"]["verdict"] == "wrong-answer learning"
    assert rows["bad"]["reason"].startswith("game ") and "expected box " in \
        rows["bad"]["reason"] and ", got " in rows["bad"]["reason"]
    assert rows["stalls"]["verdict"].startswith("idle")
    assert "it printed nothing for" in rows["stalls"]["reason"]
    assert rows["broken"]["verdict"] == "bad-manifest"
    assert "command must be a list of strings" in rows["broken"]["reason"]
    lines = done.stderr.splitlines()
    assert lines[0].startswith("sandbox: ")  # then what the sandbox says of itself, then the table
    header = next(line for line in lines if not line.startswith(("sandbox:", "control groups:",
                                                                  "warning:")))
    assert header.split() == ["submission", "language", "bytes", "verdict", "games", "time",
                              "reason"]
    for name in ("bad", "stalls", "broken"):
        line = next(line for line in lines if line.startswith(name))
        assert rows[name]["reason"][:30] in line


def test_the_reason_column_shows_only_when_a_row_has_a_reason() -> None:
    """A leaderboard where every answer is accepted has no empty reason column."""
    good = Row("good", "Python 3", 10, "accepted", 200, 1.0, "")
    bad = Row("bad", "Ruby", 9, "wrong-answer learning", 3, 0.5, "game 3: expected box ...")
    assert table_lines([good])[0].split() == ["submission", "language", "bytes", "verdict",
                                              "games", "time"]
    assert markdown_lines([good])[0].endswith("| time |")
    assert table_lines([good, bad])[0].split()[-1] == "reason"
    assert markdown_lines([good, bad])[0].endswith("| reason |")
