"""The boxes file: refused whole when bad, written through links, one writer, never corrupted."""

from __future__ import annotations

import errno
import io
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from reference.__main__ import main
from reference.beads import counts_of
from reference.boxes_file import BoxesLock, load_boxes
from reference.menace import initial_contents

pytestmark = pytest.mark.e2e

MOVES = "\n".join(["LL", "LM", "LR", "ML", "MM", "MR", "RL", "RM", "RR"] * 5) + "\n"
"""Enough moves for any game: a taken square is asked again, so every game takes what it needs."""

ROOT = Path(__file__).resolve().parent.parent
ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "PYTHONPATH": str(ROOT)}


def play(argv: list[str], stdin: str) -> tuple[int, str, str]:
    """Run the program in process with this input; status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(stdin)), redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def dumps(stdout: str) -> list[dict[str, tuple[int, ...]]]:
    """The boxes of each dump printed, their beads counted per square, by label (a dump line is
    longer than a board row)."""
    lines = [line.split() for line in stdout.splitlines() if len(line) > 9]
    assert len(lines) % 304 == 0
    return [{label: counts_of(int(b) for b in beads) for label, *beads in lines[i:i + 304]}
            for i in range(0, len(lines), 304)]


def last_dump(stdout: str) -> dict[str, tuple[int, ...]]:
    """The boxes of the last dump printed, by label."""
    return dumps(stdout)[-1]


@pytest.mark.parametrize("argv", [["--boxes", "FILE"],
                                  ["train", "--games", "10", "--boxes", "FILE"],
                                  ["evaluate", "--games", "10", "--boxes", "FILE"]])
def test_deeply_nested_json_is_refused_with_a_message_and_left_untouched(
        tmp_path: Path, argv: list[str]) -> None:
    boxes = tmp_path / "deep.json"
    boxes.write_text("[" * 100_000)
    status, out, err = play([str(boxes) if a == "FILE" else a for a in argv], "1\n" + MOVES)
    assert status == 2 and out == ""
    assert "nested too deeply" in err and len(err.splitlines()) == 1
    assert boxes.read_text() == "[" * 100_000


def test_a_number_of_thousands_of_digits_in_a_boxes_file_is_refused(tmp_path: Path) -> None:
    boxes = tmp_path / "big.json"
    boxes.write_text('{"format": "menace-boxes", "version": 1, "player": "X", "games": '
                     + "9" * 5000 + "}")
    status, _, err = play(["--boxes", str(boxes)], "1\n" + MOVES)
    assert status == 2 and "is not a MENACE boxes file" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_boxes_file_that_is_a_device_is_refused_before_reading_it(device: str) -> None:
    for argv in (["--boxes", device], ["evaluate", "--games", "10", "--boxes", device]):
        status, out, err = play(argv, "1\n" + MOVES)
        assert status == 2 and out == "" and "not a regular file" in err


def test_a_dangling_link_is_refused_before_the_first_game(tmp_path: Path) -> None:
    link = tmp_path / "menace.json"
    link.symlink_to(tmp_path / "gone" / "menace.json")
    for argv in (["--boxes", str(link)], ["train", "--games", "10", "--boxes", str(link)]):
        status, out, err = play(argv, "1\n" + MOVES)
        assert status == 2 and out == "" and "new game" not in out
        assert "its folder does not exist" in err and "a link to" in err
        assert link.is_symlink() and not link.exists()


@pytest.mark.parametrize("make", ["folder", "read-only folder"])
def test_a_boxes_path_that_cannot_be_written_is_refused_before_the_first_game(
        tmp_path: Path, make: str) -> None:
    if make == "folder":
        boxes = tmp_path / "menace.json"
        boxes.mkdir()
        problem = "not a regular file"
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only folder")
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o500)
        boxes = folder / "menace.json"
        problem = "Permission denied"
    status, out, err = play(["--boxes", str(boxes)], "1\n" + MOVES)
    assert status == 2 and out == "" and problem in err


def test_a_linked_boxes_file_is_written_through_and_keeps_its_mode(tmp_path: Path) -> None:
    real = tmp_path / "store" / "menace.json"
    real.parent.mkdir()
    link = tmp_path / "menace.json"
    link.symlink_to(real)
    status, out, _ = play(["--boxes", str(link), "--seed", "3"], "1\n" + MOVES)
    assert status == 0
    assert link.is_symlink() and real.is_file()
    assert load_boxes(link, "X")[0] == last_dump(out)
    real.chmod(0o640)
    status, _, _ = play(["train", "--games", "20", "--boxes", str(link), "--quiet"], "")
    assert status == 0
    assert link.is_symlink() and stat.S_IMODE(real.stat().st_mode) == 0o640
    assert load_boxes(real, "X")[1] == 21
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["menace.json", "menace.json", "store"]


def test_a_version_1_file_that_lists_every_bead_is_read_and_saved_back_as_counts(
        tmp_path: Path) -> None:
    listed = {label: list(beads) for label, beads in initial_contents().items()}
    listed["........."] = [4] * 500 + [0, 0, 8]  # MENACE nearly always opens in the centre
    boxes = tmp_path / "menace.json"
    boxes.write_text(json.dumps({"format": "menace-boxes", "version": 1, "player": "X",
                                 "games": 7, "boxes": listed}))
    counts, games = load_boxes(boxes, "X")
    assert games == 7 and counts["........."] == (2, 0, 0, 0, 500, 0, 0, 0, 1)
    assert all(counts[label] == counts_of(beads) for label, beads in listed.items())
    status, out, _ = play(["--boxes", str(boxes), "--seed", "1"], "1\n" + MOVES)
    assert status == 0 and "X" in out.splitlines()[2]  # the centre, row 2 of the first board
    saved = json.loads(boxes.read_text())
    assert saved["version"] == 2 and saved["games"] == 8
    assert load_boxes(boxes, "X")[0] == last_dump(out)


def test_a_new_boxes_file_gets_the_mode_the_umask_allows(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        status, _, _ = play(["--boxes", str(tmp_path / "new.json")], "1\n" + MOVES)
    finally:
        os.umask(old)
    assert status == 0 and stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640


def test_a_second_process_with_the_same_boxes_is_refused_and_the_first_keeps_playing(
        tmp_path: Path) -> None:
    boxes = tmp_path / "menace.json"
    first = subprocess.Popen([sys.executable, "-m", "reference", "--boxes", str(boxes)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=ENV, cwd=tmp_path)
    assert first.stdin is not None and first.stdout is not None
    first.stdin.write("2\n")
    first.stdin.flush()
    assert first.stdout.readline() == "new game\n"  # the first session holds the file now
    second = subprocess.run([sys.executable, "-m", "reference", "--boxes", str(boxes)],
                            input="1\n" + MOVES, capture_output=True, text=True, env=ENV,
                            timeout=60, check=False)
    assert second.returncode == 2 and second.stdout == ""
    assert f"is in use by another session (pid {first.pid})" in second.stderr
    out, _ = first.communicate(MOVES, timeout=60)
    assert first.returncode == 0
    assert load_boxes(boxes, "X")[1] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["menace.json"]


def test_a_training_whose_save_fails_says_so_and_keeps_the_old_boxes(tmp_path: Path) -> None:
    boxes = tmp_path / "menace.json"
    assert play(["train", "--games", "5", "--boxes", str(boxes), "--quiet"], "")[0] == 0
    before = boxes.read_bytes()
    with interrupted("disk full", after=0):
        status, out, err = play(["train", "--games", "5", "--boxes", str(boxes), "--quiet"], "")
    assert status == 1 and out == "" and len(err.splitlines()) == 1
    assert "No space left on device; it still holds the boxes from before this run" in err
    assert boxes.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["menace.json"]


def test_the_lock_is_free_again_once_released(tmp_path: Path) -> None:
    boxes = tmp_path / "menace.json"
    with BoxesLock(boxes):
        with pytest.raises(ValueError, match="in use by another session"):
            BoxesLock(boxes).acquire()
    with BoxesLock(boxes):
        pass
    assert not any(tmp_path.iterdir())


@contextmanager
def interrupted(where: str, after: int) -> Iterator[None]:
    """Make the save after game `after` + 1 fail at `where`: Ctrl-C mid-write, before the
    rename, or a full disk."""
    calls = {"n": 0}
    real_fsync, real_replace = os.fsync, os.replace

    def fail(real: object, *args: object) -> object:
        """Pass through the first calls, then fail."""
        calls["n"] += 1
        if calls["n"] > after:
            if where == "disk full":
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            raise KeyboardInterrupt
        return real(*args)  # type: ignore[operator]

    if where == "before the rename":
        with mock.patch("reference.boxes_file.os.replace", lambda *a: fail(real_replace, *a)):
            yield
    else:
        with mock.patch("reference.boxes_file.os.fsync", lambda *a: fail(real_fsync, *a)):
            yield


class BoxesFileMachine(RuleBasedStateMachine):
    """Sessions, interrupted saves and a second writer on one boxes file (through a link)."""

    @initialize()
    def start(self) -> None:
        import tempfile

        self.folder = Path(tempfile.mkdtemp(prefix="menace-boxes-test-"))
        (self.folder / "store").mkdir()
        self.real = self.folder / "store" / "menace.json"
        self.path = self.folder / "menace.json"
        self.path.symlink_to(self.real)
        self.games = 0
        self.boxes: dict[str, tuple[int, ...]] | None = None
        self.saved = b""

    def teardown(self) -> None:
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)

    def _session(self, games: int, seed: int) -> tuple[int, str, str]:
        """A session of `games` games with the boxes file."""
        return play(["--boxes", str(self.path), "--seed", str(seed)], f"{games}\n" + MOVES * games)

    @rule(games=st.integers(1, 3), seed=st.integers(0, 99))
    def a_session(self, games: int, seed: int) -> None:
        status, out, _ = self._session(games, seed)
        assert status == 0
        self.games += games
        self.boxes = last_dump(out)
        self.saved = self.real.read_bytes()

    @rule(games=st.integers(1, 3), seed=st.integers(0, 99), data=st.data(),
          where=st.sampled_from(["mid-write", "before the rename", "disk full"]))
    def an_interrupted_session(self, games: int, seed: int, data: st.DataObject,
                               where: str) -> None:
        after = data.draw(st.integers(0, games - 1), label="saves that succeed")
        with interrupted(where, after):
            status, out, err = self._session(games, seed)
        assert status == 1 and len(err.splitlines()[-1:]) == 1
        assert ("No space left" if where == "disk full" else "interrupted") in err
        printed = dumps(out)
        assert len(printed) == after + 1  # the game whose save failed was played and shown
        if after:
            self.games += after
            self.boxes = printed[after - 1]
            self.saved = self.real.read_bytes()

    @rule(seed=st.integers(0, 99))
    def a_second_writer_is_refused(self, seed: int) -> None:
        before = self.real.read_bytes() if self.real.exists() else None
        with BoxesLock(self.path):
            status, out, err = self._session(1, seed)
        assert status == 2 and out == "" and "in use by another session" in err
        assert (self.real.read_bytes() if self.real.exists() else None) == before

    @invariant()
    def the_file_holds_the_last_saved_boxes(self) -> None:
        if not hasattr(self, "real"):
            return
        if self.boxes is None:
            assert not self.real.exists()
            return
        assert self.real.read_bytes() == self.saved
        boxes, games = load_boxes(self.path, "X")
        assert games == self.games and boxes == self.boxes
        assert json.loads(self.saved)["games"] == self.games

    @invariant()
    def nothing_is_left_beside_it(self) -> None:
        if hasattr(self, "real"):
            assert self.path.is_symlink()
            assert [p.name for p in (self.folder / "store").iterdir()] in ([], ["menace.json"])


BoxesFileMachine.TestCase.settings = settings(max_examples=15, stateful_step_count=5, deadline=None)
test_the_boxes_file_survives_interruptions_and_a_second_writer = BoxesFileMachine.TestCase
