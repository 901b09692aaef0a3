"""The study commands as a teacher meets them: train, evaluate, boxes, their files, messages."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reference.board import X
from reference.boxes_file import load_boxes
from reference.study.cli import main
from reference.study.progress import ProgressBar

pytestmark = pytest.mark.e2e

ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/"),
       "LANG": "C.UTF-8"}
"""An explicit, minimal environment for the one subprocess test."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run a study command in this process; its status, stdout and stderr."""
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_reference_program_dispatches_train_and_saves_boxes_the_challenge_program_reads(
    tmp_path: Path,
) -> None:
    boxes = tmp_path / "menace.json"
    for _ in range(2):
        result = subprocess.run(
            [sys.executable, "-m", "reference", "train", "--opponent", "perfect", "--games", "300",
             "--seed", "4", "--boxes", str(boxes)],
            capture_output=True, text=True, env=ENV, timeout=60, check=False,
        )
        assert result.returncode == 0, result.stderr
    assert "against perfect: 300 games" in result.stdout
    contents, games = load_boxes(boxes, X)
    assert games == 600 and len(contents) == 304
    play = subprocess.run(
        [sys.executable, "-m", "reference", "--boxes", str(boxes), "--seed", "1"],
        input="1\nMM\nLL\nRR\nLR\nRL\nML\nMR\nLM\nRM\n", capture_output=True, text=True,
        env=ENV, timeout=60, check=False,
    )
    assert play.returncode == 0, play.stderr
    assert json.loads(boxes.read_text())["games"] == 601


def test_the_summary_has_a_row_per_window_and_one_for_all_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "train", "--opponent", "random", "--games", "1000", "--seed", "2",
                         "--windows", "4")
    assert status == 0
    rows = [line.split() for line in out.splitlines() if line.split()[0][0].isdigit()
            or line.startswith("all") or line.split()[0] == "all"]
    assert [r[0] for r in rows] == ["1-250", "251-500", "501-750", "751-1,000", "all"]
    for row in rows:
        rates = [float(cell.rstrip("%")) for cell in row[1:4]]
        assert sum(rates) == pytest.approx(100, abs=0.15)
    assert "Michie's score" in out
    assert "ran dry" not in out


def test_a_dry_first_box_is_reported_plainly_with_what_menace_then_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Michie's rules, one bead per distinct move, the perfect player (seed 001's story).

    Seeded; over seeds 0-999 the first box ran dry within 300 games in 87% of runs."""
    status, out, _ = run(capsys, "train", "--rules", "michie", "--beads", "1,1,1,1",
                         "--opponent", "perfect", "--games", "1000", "--seed", "0")
    assert status == 0
    assert "A box ran dry: MENACE found a box with no beads" in out
    assert "Under the resign rule MENACE gave up each of those games" in out
    assert ("The first box ('.........', MENACE's first move) is empty: MENACE now resigns "
            "every game before it makes a move.") in out
    status, out, _ = run(capsys, "train", "--rules", "michie", "--beads", "1,1,1,1",
                         "--empty-box", "random", "--opponent", "perfect", "--games", "1000",
                         "--seed", "0")
    assert "MENACE then played a uniformly random legal move, drawing no bead." in out


def test_evaluation_leaves_the_boxes_file_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    boxes = tmp_path / "menace.json"
    assert run(capsys, "train", "--opponent", "perfect", "--games", "3000", "--seed", "7",
               "--boxes", str(boxes))[0] == 0
    saved = boxes.read_bytes()
    status, out, _ = run(capsys, "evaluate", "--boxes", str(boxes), "--games", "500", "--seed", "1")
    assert status == 0
    assert boxes.read_bytes() == saved
    assert "(3,000 games learned)" in out
    for name in ("random", "perfect", "positional", "defensive"):
        assert any(line.split()[0] == name for line in out.splitlines() if line.strip())
    assert "It lost 0 of 500 games to the perfect player; it can never lose to it" in out
    status, out, _ = run(capsys, "evaluate", "--against", "random", "--games", "100")
    assert "it can lose to it: the exact chance is" in out


@pytest.mark.parametrize("argv, message", [
    (["train", "--opponent", "minimax"], "unknown opponent 'minimax'"),
    (["train", "--games", "0"], "'0' is not a whole number from 1 to 1,000,000,000"),
    (["train", "--learners", "3", "--boxes", "x.json"], "cannot be used with --learners"),
    (["train", "--plot", "curve.jpg"], "'curve.jpg' does not end in .png"),
    (["train", "--plot", "no/such/folder/curve.png"], "does not exist"),
    (["train", "--beads", "1,1,0,1"], "'0' is not a bead count from 1 to 1,000"),
    (["evaluate", "--against", "menace"], "unknown opponent 'menace'"),
    (["train", "--games", "9" * 5000],
     "'9999999999999999999999999999999999999999'... (5,000 characters) "
     "is not a whole number from 1 to 1,000,000,000"),
    (["train", "--learners", "1000000000"], "'1000000000' is not a whole number from 1 to 100,000"),
    (["train", "--beads", "1000000000,1,1,1"], "'1000000000' is not a bead count from 1 to 1,000"),
    (["train", "--win", "1000000000"], "'1000000000' is not a number of beads from -1 to 1,000"),
    (["train", "--games", "50000", "--learners", "50000"], "at most 100,000,000 in one run"),
    (["evaluate", "--games", "²"], "'²' is not a whole number from 1 to 1,000,000,000"),
    (["boxes", "b.png", "--boxes", "missing.json"], "'missing.json' does not exist"),
    (["evaluate", "--boxes", "missing.json"], "'missing.json' does not exist"),
])
def test_bad_options_are_named_in_one_line_with_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str],
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert out == ""
    assert not any(tmp_path.iterdir())


def test_a_boxes_file_that_does_not_fit_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    boxes = tmp_path / "menace.json"
    boxes.write_text('{"format": "menace-boxes", "version": 1, "player": "O", "games": 3, '
                     '"boxes": {}}')
    before = boxes.read_bytes()
    status, _, err = run(capsys, "train", "--boxes", str(boxes), "--games", "10")
    assert status == 2
    assert "holds boxes for player 'O', not 'X'" in err and "left as it is" in err
    assert boxes.read_bytes() == before


def test_missing_matplotlib_gives_a_clear_message_before_any_training(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    for argv in (["train", "--plot", str(tmp_path / "c.png")], ["boxes", str(tmp_path / "b.png")]):
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == ""
        assert "needs matplotlib: pip install 'menace-golf[plot]'" in err
    assert not any(tmp_path.iterdir())


def test_the_progress_bar_redraws_in_place_and_ends_its_line() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, 200, enabled=True, interval=0.0, delay=0.0)
    bar.update(50)
    bar.update(200)
    bar.finish()
    text = stream.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n")
    assert " 25%" in text and "100%" in text and "200 of 200 games" in text
    for bar in (ProgressBar(quiet := io.StringIO(), 10, enabled=False),
                ProgressBar(quiet, 10, enabled=True, delay=60.0)):  # a short run shows no bar
        bar.update(10)
        bar.finish()
        assert quiet.getvalue() == ""
