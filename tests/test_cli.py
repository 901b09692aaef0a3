"""The challenge program as a person or a golfer meets it: a subprocess on stdin and stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from reference.board import CELLS, EMPTY
from reference.boxes import box_labels

pytestmark = pytest.mark.e2e

GOLDEN = Path(__file__).parent / "golden"
ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/"),
       "LANG": "C.UTF-8"}
"""An explicit, minimal environment: no PYTHONUNBUFFERED to hide a missing flush."""


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run `python -m reference` with these arguments and this input."""
    return subprocess.run(
        [sys.executable, "-m", "reference", *args], input=stdin, capture_output=True,
        text=True, env=ENV, cwd=cwd, timeout=60, check=False,
    )


def dumps(stdout: str) -> list[list[str]]:
    """The matchbox dumps of a transcript, each a list of 304 lines."""
    lines = stdout.splitlines()
    return [lines[i:i + 304] for i, line in enumerate(lines) if line.startswith(".........")]


def test_the_golden_transcript_is_reproduced_by_its_seed() -> None:
    result = run("--seed", "5", stdin=(GOLDEN / "seed5.in").read_text())
    assert result.returncode == 0, result.stderr
    assert result.stdout == (GOLDEN / "seed5.out").read_text()
    assert "Score: MENACE 2, you 1, draws 0." in result.stderr


def test_the_transcript_is_spec_section_6_and_nothing_else() -> None:
    result = run("--seed", "1", stdin="1\nMM\nLL\nRR\nLR\nRL\nML\nMR\nLM\nRM\n")
    lines = result.stdout.splitlines()
    assert lines[0] == "new game"
    boards = lines[1:-304]
    assert len(boards) % 3 == 0
    for row in boards:
        assert len(row) == 5 and all(row[i] in "XO." for i in (0, 2, 4)) and row[1::2] == "  "
    dump = lines[-304:]
    assert [line[:9] for line in dump] == list(box_labels("X"))
    for line in dump:
        label, *beads = line.split(" ")
        assert beads and all(label[int(b)] == EMPTY for b in beads)


def test_bad_input_is_named_re_asked_and_changes_nothing() -> None:
    clean = run("--seed", "4", stdin=(GOLDEN / "seed5.in").read_text())
    noisy_input = (GOLDEN / "seed5.in").read_text().replace(
        "3\n", "\nthree\n0\n-2\n3\n", 1).replace("MM\n", "\nM\nmmm\nXY\nMM\n", 1)
    noisy = run("--seed", "4", stdin=noisy_input)
    assert noisy.returncode == 0
    assert noisy.stdout == clean.stdout
    for problem in ("an empty line is not a number of games", "'three' is not a number",
                    "'0' is not a number", "'-2' is not a number", "an empty line is not a move",
                    "'M' is not a move", "'mmm' is not a move", "'XY' is not a move"):
        assert problem in noisy.stderr


def test_a_game_count_of_thousands_of_digits_is_named_and_asked_again() -> None:
    result = run("--seed", "4",
                 stdin="9" * 5000 + "\n²\n1000000001\n" + (GOLDEN / "seed5.in").read_text())
    assert result.returncode == 0 and "Traceback" not in result.stderr
    for problem in ("(5,000 characters) is not a number of games from 1 to 1,000,000,000",
                    "'²' is not a number of games", "'1000000001' is not a number of games"):
        assert problem in result.stderr


def test_an_occupied_square_is_refused() -> None:
    result = run("--seed", "2", stdin="1\n" + "".join(f"{r}{c}\n" for r in "LMR" for c in "LMR"))
    assert result.returncode == 0
    assert "is taken by X: choose an empty square" in result.stderr


def test_moves_ignore_case_and_surrounding_space() -> None:
    plain = run("--seed", "9", stdin="1\nMM\nLL\nRR\nLR\nRL\nML\nMR\nLM\nRM\n")
    loose = run("--seed", "9", stdin="1\n mm \n\tll\nrR\nLr \nrl\nml\nmr\nlm\nrm\n")
    assert loose.stdout == plain.stdout and loose.returncode == 0


def test_input_ending_mid_game_stops_with_a_message_and_status_1(tmp_path: Path) -> None:
    boxes = tmp_path / "boxes.json"
    moves = "MM\nLL\nRR\nLR\nRL\nML\nMR\nLM\nRM\n"
    result = run("--seed", "5", "--boxes", str(boxes), stdin="50\n" + moves + "MM\n")
    assert result.returncode == 1
    assert "input ended before the session was over" in result.stderr
    saved = json.loads(boxes.read_text())
    assert saved["games"] == result.stderr.count(" of 50: ") >= 1
    last_dump = dumps(result.stdout)[-1]
    assert saved["version"] == 2
    assert [f"{label} " + " ".join(str(c) for c in CELLS for _ in range(row[c]))
            for label, row in saved["boxes"].items()] == last_dump


def test_no_input_at_all_is_an_error_not_a_crash() -> None:
    result = run()
    assert result.returncode == 1
    assert "input ended" in result.stderr and "Traceback" not in result.stderr


def test_boxes_round_trip_between_sessions(tmp_path: Path) -> None:
    boxes = tmp_path / "boxes.json"
    games = (GOLDEN / "seed5.in").read_text()
    fresh = run("--seed", "7", stdin=games)
    first = run("--seed", "7", "--boxes", str(boxes), stdin=games)
    assert first.returncode == 0 and first.stdout == fresh.stdout
    learned = dumps(first.stdout)[-1]
    assert json.loads(boxes.read_text())["games"] == 3
    second = run("--seed", "7", "--boxes", str(boxes), stdin=games)
    assert second.returncode == 0
    assert second.stdout != fresh.stdout, "the second session starts from the learned boxes"
    after_one_game = dumps(second.stdout)[0]
    assert sum(a != b for a, b in zip(learned, after_one_game, strict=True)) <= 4
    assert json.loads(boxes.read_text())["games"] == 6


@pytest.mark.parametrize("content, problem", [
    ("{not json", "is not valid JSON"),
    ('{"format": "something-else"}', "is not a MENACE boxes file"),
    ('{"format": "menace-boxes", "version": 99}', "has version 99"),
    ('{"format": "menace-boxes", "version": 1, "player": "X", "games": 0, '
     '"boxes": {".........": [1]}}', "boxes are missing"),
    ('{"format": "menace-boxes", "version": 1, "player": "X", "games": 0, '
     '"boxes": {".........": [4, 9]}}', "holds a bead 9, not a square from 0 to 8"),
    ('{"format": "menace-boxes", "version": 2, "player": "X", "games": 0, '
     '"boxes": {".........": [1, 1, 1]}}', "does not hold nine bead counts"),
    ('{"format": "menace-boxes", "version": 2, "player": "X", "games": 0, '
     '"boxes": {".........": [1, 1, 1, 1, -1, 1, 1, 1, 1]}}', "does not hold nine bead counts"),
    ('{"format": "menace-boxes", "version": 2, "player": "X", "games": 0, '
     '"boxes": {".........": [1, 1, 1, 1, 1.5, 1, 1, 1, 1]}}', "does not hold nine bead counts"),
    ('{"format": "menace-boxes", "version": 2, "player": "X", "games": 0, '
     '"boxes": {"X...O....": [1, 1, 1, 1, 1, 1, 1, 1, 1]}}', "no box of player X is labelled"),
    ('{"format": "menace-boxes", "version": true}', "has version True"),
])
def test_a_bad_boxes_file_is_refused_and_left_untouched(
    tmp_path: Path, content: str, problem: str
) -> None:
    boxes = tmp_path / "boxes.json"
    boxes.write_text(content)
    result = run("--boxes", str(boxes), stdin="1\nMM\n")
    assert result.returncode == 2
    assert problem in result.stderr and "left as it is" in result.stderr
    assert result.stdout == ""
    assert boxes.read_text() == content


def test_options_are_checked() -> None:
    assert run("--beads", "1,2").returncode == 2
    assert "four whole numbers" in run("--beads", "1,2").stderr
    bad_loss = run("--loss", "-3", stdin="1\n")
    assert bad_loss.returncode == 2
    assert "--loss: '-3' is not a number of beads from -1 to 1,000" in bad_loss.stderr
    assert run("--rules", "chess").returncode == 2


def test_help_explains_moves_rules_and_exit_status() -> None:
    result = run("--help")
    assert result.returncode == 0
    for words in ("two letters from L, M, R", "--seed", "--boxes", "michie", "exit status"):
        assert words in result.stdout


def test_michie_rules_start_with_their_bead_counts() -> None:
    result = run("--rules", "michie", "--seed", "1",
                 stdin="1\nMM\nLL\nRR\nLR\nRL\nML\nMR\nLM\nRM\n")
    assert result.returncode == 0
    first_box = dumps(result.stdout)[-1][0].split()
    assert first_box[0] == "........."
    # 4 each of corner, side and centre, then learning
    assert len(first_box) - 1 in (12 - 1, 12, 12 + 3)


def test_menace_moves_before_the_next_move_is_read_through_a_pipe() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "reference", "--seed", "3"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=ENV,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write("1\n")
    child.stdin.flush()
    # Without a flush before reading, these reads would block until the timeout kills the test.
    assert child.stdout.readline() == "new game\n"
    board = [child.stdout.readline() for _ in range(3)]
    assert "".join(board).count("X") == 1
    child.stdin.close()
    assert child.wait(timeout=30) == 1


def test_a_person_can_play_a_game_in_a_terminal() -> None:
    session = pexpect.spawn(sys.executable, ["-m", "reference", "--seed", "8"], env=ENV,
                            encoding="utf-8", timeout=20)
    session.expect("MENACE plays X and moves first")
    session.expect("How many games")
    session.sendline("1")
    session.expect("new game")
    for move in ("LL", "LR", "RL", "RR", "LM", "ML", "MR", "RM", "MM"):
        index = session.expect(["Your move", "The final board of game 1"])
        if index == 1:
            break
        session.sendline(move)
    # after the 304 lines of matchboxes, the final board and the result stay on the screen
    session.expect(r"shown again below its 304 matchboxes:\r\n([XO.] [XO.] [XO.]\r\n){3}"
                   r"Game 1 of 1: (MENACE wins|a draw|you win)\. Score: ")
    session.expect(pexpect.EOF)
    session.close()
    assert session.exitstatus == 0
