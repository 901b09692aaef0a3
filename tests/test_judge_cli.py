"""The judge's command line: exit statuses, reports, replays, and the leaderboard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture_folders import PROGRAM, SUBMISSIONS, assemble, assembled
from live import judge_process

from judge.cli import main

pytestmark = pytest.mark.e2e

CANONICAL = SUBMISSIONS / "accepted" / "canonical"
"""A fixture folder as it is kept, its manifest alone: enough where the program is never run."""


def last_line(capsys: pytest.CaptureFixture[str]) -> str:
    """The last line the judge printed."""
    return capsys.readouterr().out.strip().splitlines()[-1]


@pytest.mark.parametrize("argv", [[], ["/no/such/folder"], ["--games", "0", str(CANONICAL)],
                                  [str(CANONICAL), "--", "python3", "x.py"],
                                  ["--", "no-such-language-here", "x"]])
def test_bad_usage_exits_2_with_a_message(argv: list[str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing to judge, a missing folder, bad options or an unknown command: status 2."""
    assert main(argv) == 2
    assert capsys.readouterr().err.strip()


def test_a_folder_without_manifest_is_bad_usage(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A folder with neither a manifest nor submissions in it is named in the message."""
    assert main([str(tmp_path)]) == 2
    assert "submission.toml" in capsys.readouterr().err


def test_a_bad_manifest_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A manifest with a bad value gets a one-line message quoting it."""
    (tmp_path / "submission.toml").write_text(
        'command = ["python3", "m.py"]\nmoves = "semaphore"\n')
    assert main([str(tmp_path)]) == 2
    assert "'semaphore'" in capsys.readouterr().err


@pytest.mark.parametrize("transport", ["pty", "pipe"])
def test_the_reference_is_accepted_on_both_transports(transport: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The reference program passes every check over a pty and over pipes."""
    reference = assembled("accepted/reference", tmp_path)
    status = main(["--games", "30", "--seed", "5", "--transport", transport,
                   "--json", str(tmp_path / "r.json"), str(reference)])
    assert (status, last_line(capsys)) == (0, "accepted")
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["verdict"] == "accepted" and report["games_played"] == 30


def test_a_bare_command_is_judged(capsys: pytest.CaptureFixture[str]) -> None:
    """`-- COMMAND ARG...` judges a program without a manifest."""
    status = main(["--games", "3", "--seed", "1", "--", "python3", str(PROGRAM)])
    assert (status, last_line(capsys)) == (0, "accepted")


def test_a_rejection_names_its_check_and_its_replay_plays_the_same_moves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A rejection exits 1, reports game, check, expected and got; --replay replays it exactly."""
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    status = main(["--games", "8", "--seed", "3", "--save-replay", str(first),
                   "--transcript", str(tmp_path / "t.txt"),
                   str(assembled("wrong-answer/learning-loss", tmp_path))])
    out = capsys.readouterr().out
    assert status == 1 and out.strip().splitlines()[-1] == "wrong-answer learning"
    assert "expected:" in out and "got:" in out and "REJECTED at game" in out
    transcript = (tmp_path / "t.txt").read_text().splitlines()
    assert transcript[0] == "> 8" and all(line[:2] in ("> ", "< ") for line in transcript)
    assert main(["--replay", str(first), "--yes", "--save-replay", str(second)]) == 1
    assert last_line(capsys) == "wrong-answer learning"
    assert json.loads(first.read_text()) == json.loads(second.read_text())


def test_the_leaderboard_judges_each_submission(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A folder of submissions gets a table of language, bytes, verdict, games and time."""
    assemble(CANONICAL, tmp_path / "golf" / "good")
    assemble(SUBMISSIONS / "wrong-answer" / "learning-loss", tmp_path / "golf" / "bad")
    markdown = tmp_path / "board.md"
    status = main(["--games", "8", "--seed", "3", "--markdown", str(markdown),
                   str(tmp_path / "golf")])
    out = capsys.readouterr().out
    assert status == 1
    size = PROGRAM.stat().st_size
    good = next(line for line in out.splitlines() if line.startswith("good"))
    assert good.split()[1:5] == ["Python", "3", str(size), "accepted"]
    rows = markdown.read_text().splitlines()
    assert rows[0].startswith("| submission | language | bytes | verdict")
    assert "| good |" in rows[2] and "| accepted |" in rows[2]
    assert "| bad |" in rows[3] and "wrong-answer learning" in rows[3]


def test_the_leaderboard_judges_side_by_side_in_the_same_order(tmp_path: Path) -> None:
    """`-j 3` gives the rows, verdicts and order of `-j 1`, each row timed by its own run."""
    from judge.leaderboard import judge_collection
    from judge.terms.settings import Settings

    for name, fixture in (("good", "accepted/canonical"), ("bad", "wrong-answer/learning-loss"),
                          ("digits", "accepted/digit-moves")):
        assemble(SUBMISSIONS / fixture, tmp_path / name)
    settings = Settings(games=6, seed=4)
    serial = judge_collection(tmp_path, lambda manifest: settings, jobs=1)
    parallel = judge_collection(tmp_path, lambda manifest: settings, jobs=3)
    assert [row.name for row in serial] == [row.name for row in parallel]
    assert [row.name for row in serial][-1] == "bad"
    assert [(row.verdict, row.bytes, row.games) for row in serial] == [
        (row.verdict, row.bytes, row.games) for row in parallel]
    assert all(row.seconds > 0 for row in parallel)


def test_python_m_judge_prints_the_verdict_last(tmp_path: Path) -> None:
    """`python -m judge` runs as a module; its exit status and last line agree."""
    run = judge_process("--games", "2", "--seed", "1", assembled("accepted/canonical", tmp_path),
                        timeout=60)
    assert run.returncode == 0 and run.stdout.strip().splitlines()[-1] == "accepted"
