"""The judge's error paths: its own exception is a judge error, never a verdict against the
program; files it cannot write after a run are named and the verdict kept; dumps that change
form between games are caught."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from fixture_folders import assembled

from reference.board import EMPTY

import judge.deciding.checks
from judge.cli import main
from judge.invariants import check_step
from judge.terms.boxes import box_labels

pytestmark = pytest.mark.e2e


def lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The lines the judge printed on stdout."""
    return capsys.readouterr().out.strip().splitlines()


def test_the_judges_own_exception_is_a_judge_error_and_the_program_is_ended(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug of the judge's, met mid-run, ends in `judge-error` with exit 3 and says what failed;
    the program's processes are gone and the report is whole."""
    def broken(*args: object) -> None:
        raise RuntimeError("a check the judge got wrong")

    monkeypatch.setattr(judge.deciding.checks, "true_board", broken)
    report = tmp_path / "report.json"
    status = main(["--games", "2", "--seed", "1", "--json", str(report),
                   str(assembled("accepted/canonical", tmp_path))])
    out = lines(capsys)
    assert status == 3 and out[-1] == "judge-error"
    assert any("the judge failed: RuntimeError: a check the judge got wrong" in line
               for line in out)
    assert json.loads(report.read_text())["verdict"] == "judge-error"


def full_disk_for(suffix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every file the judge writes whose name ends with `suffix` fail: the disk is full."""
    real = os.replace

    def replace(source: str, destination: Path) -> None:
        if str(destination).endswith(suffix):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(source, destination)
    monkeypatch.setattr("judge.telling.outputs.os.replace", replace)


def test_a_markdown_table_that_cannot_be_written_is_named_and_the_table_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The leaderboard is printed whole, and one line says what could not be written."""
    board = tmp_path / "board"
    board.mkdir()
    assembled("accepted/canonical", board)
    full_disk_for("board.md", monkeypatch)
    status = main(["--games", "2", "--seed", "1", "--markdown", str(tmp_path / "board.md"),
                   str(board)])
    out = lines(capsys)
    assert status == 0 and out[-1] == "1 of 1 accepted"
    assert any(line.startswith("could not write the Markdown table: ") and
               "No space left on device" in line for line in out)
    assert not (tmp_path / "board.md").exists()


def test_a_shrunk_case_that_cannot_be_written_is_named_and_the_verdict_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Shrinking still reports its smallest case; the case's files are said not written."""
    pytest.importorskip("hypothesis")
    full_disk_for("shrunk.py", monkeypatch)
    status = main(["--games", "4", "--seed", "3", "--shrink", "--shrink-time", "10",
                   "--save-replay", str(tmp_path / "replay.json"),
                   str(assembled("wrong-answer/learning-loss", tmp_path))])
    out = lines(capsys)
    assert status == 1 and out[-1] == "wrong-answer learning"
    assert any(line.startswith("could not write the shrunk case: ") and
               "No space left on device" in line for line in out)
    assert not list(tmp_path.glob("*shrunk.py"))


def test_dumps_that_change_form_between_games_fail() -> None:
    """A labelled dump, then the same beads without labels: the judge cannot compare them."""
    labelled = [f"{label} {label.index(EMPTY)}" for label in box_labels()]
    unlabelled = [line.split(" ", 1)[1] for line in labelled]
    drawn_game = [4, 0, 2, 6, 3, 5, 1, 7, 8]
    failure = check_step(labelled, unlabelled, drawn_game, "draw")
    assert failure is not None and failure.check is None
    assert (failure.expected, failure.got) == ("dumps all labelled or all unlabelled",
                                               "a change of form between dumps")
    same_form = check_step(labelled, labelled, drawn_game, "draw")
    assert same_form is not None and same_form.check is not None  # a learning failure, not form
