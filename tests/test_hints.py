"""Each hint of a rejection, shown by a small faulty program of its own: the facts first, then the
likely fix, in the report and in the JSON's `hints`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture_folders import PROGRAM

from judge.cli import main

pytestmark = pytest.mark.e2e
GOLF = Path(__file__).resolve().parent.parent / "golf"


def judged(tmp_path: Path, capsys: pytest.CaptureFixture[str], faults: tuple[str, ...],
           *options: str, games: int = 3, seed: int = 2026) -> tuple[list[str], dict[str, object]]:
    """The report's lines and the JSON report of the faulty program with `faults`."""
    report = tmp_path / "report.json"
    command = ["python3", str(PROGRAM), *(word for name in faults for word in ("--fault", name))]
    main(["--games", str(games), "--seed", str(seed), "--json", str(report), "--save-replay",
          str(tmp_path / "replay.json"), "--idle-limit", "10", *options,
          "--seed-args", "--seed {seed}", "--", *command])
    return capsys.readouterr().out.splitlines(), json.loads(report.read_text())


def hinted(lines: list[str], report: dict[str, object], text: str) -> bool:
    """True when a hint holding `text` is in the report, on one line (a hint is never cut,
    nor broken in the middle of a phrase), and in the JSON."""
    hints = report["hints"]
    assert isinstance(hints, list)
    shown = [line.removeprefix("  hint: ") for line in lines if line.startswith("  hint: ")]
    assert shown == hints
    return any(text in hint for hint in hints)


def test_a_box_made_when_its_board_is_first_met(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    lines, report = judged(tmp_path, capsys, ("boxes-when-met",))
    assert report["check"] == "dump" and "304 boxes" in str(report["expected"])
    assert any("it holds 1 of 1 for MENACE's first move" in line for line in lines)
    assert hinted(lines, report, "every one of the 304 boxes is there from the first game on")


def test_a_box_kept_twice_under_a_symmetry(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    lines, report = judged(tmp_path, capsys, ("box-repeated-under-symmetry",))
    assert report["check"] == "dump"
    assert any("under a reflection in the vertical axis (left and right swapped)" in line
               for line in lines)
    assert any("the dump has 304 boxes" in line for line in lines)
    assert hinted(lines, report, "a board and its 7 rotations and reflections share one box")


def test_a_missed_diagonal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines, report = judged(tmp_path, capsys, ("misses-a-diagonal",), "--opponent", "random",
                           games=60, seed=3)
    assert report["check"] == "game-end"
    assert any("has three in a row on squares 2, 4, 6" in line for line in lines)
    assert hinted(lines, report, "a game ends at once when a side has three in a row")


def test_the_literal_refill_reading_undeclared(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A bare command is told the option to declare it with, once the run passed under it."""
    lines, report = judged(tmp_path, capsys, ("refill-on-draw", "one-bead-boxes"), games=6)
    assert report["verdict"] == "wrong-answer"
    assert hinted(lines, report, "(the challenge's literal reading): declare --refill on-draw "
                                 "(SPEC section 10)")
    assert report["declarations_offered"] == {"refill": "on-draw"}


def test_digit_moves_undeclared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It waits for a move it can read after the first one typed: the judge says how to declare
    its moves."""
    lines, report = judged(tmp_path, capsys, ("digit-moves",), "--idle-limit", "1")
    assert report["verdict"] == "idle" and (report["game"], report["move"]) == (1, 1)
    assert hinted(lines, report, "as two letters, row then column, such as MM (SPEC section 2): "
                                 "it waited for another line after the first one")
    assert hinted(lines, report, "this run passes with O's moves typed as a digit 1 to 9: "
                                 "declare --moves digits (SPEC section 10)")


def test_a_golfed_answer_with_digit_moves_undeclared(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever it makes of the letters (a crash, a wait or a wrong board), a rejection at the
    first move typed to a program whose moves are undeclared says how to declare them: in a
    bare file, with the options or its header, and with the refill reading it also needs."""
    answer = tmp_path / "menace.py"
    answer.write_bytes((GOLF / "python" / "menace.py").read_bytes())
    report_path = tmp_path / "report.json"
    main(["--games", "3", "--seed", "3", "--idle-limit", "10", "--json", str(report_path),
          str(answer)])
    lines = capsys.readouterr().out.splitlines()
    report = json.loads(report_path.read_text())
    assert report["verdict"] != "accepted" and (report["game"], report["move"]) == (1, 1)
    assert hinted(lines, report, "declare --moves digits0 --refill on-draw (or `menace-judge: "
                                 "moves=digits0 refill=on-draw` in a header among the file's "
                                 "first five lines)")
    hints = report["hints"]
    assert isinstance(hints, list)
    # The cause first: the moves as typed, then the declarations it passes under; what the
    # check saw under the wrong reading (a game ended too soon, say) only after them.
    assert hints[0].startswith("the judge types O's moves as two letters"), hints
    assert "this run passes with O's moves typed as a digit 0 to 8" in hints[1], hints


def test_beads_in_a_form_the_judge_does_not_know(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    lines, report = judged(tmp_path, capsys, ("beads-a-to-i",))
    assert report["verdict"] == "presentation-error"
    assert hinted(lines, report, "the judge reads beads as cell numbers 0 to 8 or 1 to 9")


def test_a_slow_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines, report = judged(tmp_path, capsys, ("slow-start",), "--idle-limit", "1")
    assert report["verdict"] == "idle"
    assert hinted(lines, report, "allow it more with --idle-limit SECONDS (now 1)")


def test_a_learning_failure_shows_the_box_it_should_hold(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines, report = judged(tmp_path, capsys, ("learning-win",), games=20)
    assert report["check"] == "learning"
    assert "before the game, one more bead of square" in str(report["expected"])
    assert any(line.startswith("  difference: square ") for line in lines)


def test_a_process_left_behind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines, report = judged(tmp_path, capsys, ("leaves-child-process",))
    assert report["check"] == "exit"
    assert hinted(lines, report, "every process it starts must end before it exits")


def test_an_accepted_run_has_no_hints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines, report = judged(tmp_path, capsys, ())
    assert report["verdict"] == "accepted" and report["hints"] == []
    assert not any("hint:" in line for line in lines)
