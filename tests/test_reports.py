"""The report's words: facts that count what was printed, in correct English; the fault in the
game whose output shows it; a label's fault named; declarations written as the submission
declares them and offered only where the run passes; commands a person can type again; the
judge's side of the conversation as SPEC section 2 describes it."""

from __future__ import annotations

import random
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_judge_transcripts import TRANSCRIPTS, opponent_moves, playback, read_transcript

from reference.board import EMPTY_BOARD, Cell, is_over, play

from judge.deciding.decision import decide
from judge.deciding.deferred import Deferred
from judge.deciding.dumps import BoxReader, not_a_box, read_dump
from judge.deciding.evidence import Evidence
from judge.deciding.hints import Tried, passing_declarations
from judge.deciding.judging import facts_from
from judge.deciding.opponents import Knowledge, RandomOpponent, ScriptedOpponent, make_opponent
from judge.deciding.referee import Referee
from judge.reading.formats import CANONICAL_SYMBOLS, move_text, read_box_line, split_one_line_dump
from judge.telling.commands import judge_command, tidy
from judge.terms.boxes import box_labels
from judge.terms.manifest import DeclaredIn, Dialect, spelled
from judge.terms.options import BeadFormat, MoveFormat, OpponentKind, RefillRule
from judge.terms.settings import Settings
from judge.terms.verdicts import Place

ROOT = Path(__file__).resolve().parent.parent


def test_a_statistic_counts_its_observations_in_correct_english() -> None:
    one = Evidence(1, ("a",), (0.0,))
    assert one.describe("refill", "the law").startswith("over 1 refill, evidence")
    assert Evidence(0, (), ()).describe("refill", "the law") == "over 0 refills, nothing to test"
    many = Evidence(1234, ("a",), (0.0,))
    assert many.describe("move", "the law").startswith("over 1,234 moves, evidence")


def test_a_label_that_is_no_box_says_why_and_names_the_rule() -> None:
    """Each way a printed label can fail to be one of the 304 boxes, in words: counts, the
    line that won, the one empty square."""
    assert not_a_box("XX.......")[0] == "it has 2 Xs and 0 Os, so it is not MENACE's turn"
    why, rule = not_a_box("..O.OXOXX")
    assert why == "the game is over: O has three in a row on squares 2, 4, 6"
    assert "check the program's test for a line" in rule
    why, rule = not_a_box("XOXXOOOX.")
    assert why == "it has one empty square"
    assert rule.startswith("when only one square is left, MENACE simply takes it")


def reader() -> BoxReader:
    """A reader of canonical dump lines with beads 0 to 8."""
    return BoxReader(CANONICAL_SYMBOLS, BeadFormat.ZERO_TO_EIGHT, RefillRule.ON_EMPTY)


def canonical_dump() -> list[str]:
    """A dump of the 304 boxes, one bead on each empty square."""
    return [f"{label} " + " ".join(str(c) for c in range(9) if label[c] == ".")
            for label in box_labels()]


def test_a_dump_of_other_than_304_boxes_is_counted_as_printed() -> None:
    failure, _ = read_dump([*canonical_dump(), "XOXXOOOX. 8", "XOXXOOOX. 8"], reader())
    assert failure is not None
    assert failure.got.startswith("box 305, XOXXOOOX. (it has one empty square)")
    assert "the dump has 306 boxes" in failure.evidence


def test_a_label_run_into_its_beads_is_read_at_its_ninth_cell() -> None:
    """SPEC section 8: a label is nine cells, so beads run into it are read, a 0 after it
    being bead 0 though 0 also stands for O; nine 0s alone stay beads."""
    box = read_box_line(".........0123456788", CANONICAL_SYMBOLS)
    assert (box.label, box.beads) == (".........", "0123456788")
    box = read_box_line("X0.......2345678", CANONICAL_SYMBOLS)
    assert (box.label, box.beads) == ("XO.......", "2345678")
    assert read_box_line("0000000001", CANONICAL_SYMBOLS).label is None


def test_unlabelled_boxes_on_one_line_are_separated_by_brackets_or_spaces() -> None:
    """SPEC section 8: 304 words of beads run together are 304 boxes; a line of spaced beads
    otherwise is one box's."""
    words = ["0123", "45", "678"] * 101 + ["0"]
    assert split_one_line_dump(" ".join(words)) == words
    assert split_one_line_dump("0 1 2 3 4 5") is None
    assert split_one_line_dump(" ".join(words[:-1])) is None


@pytest.mark.parametrize("where,text", [
    (DeclaredIn.MANIFEST, 'moves = "digits0" and refill = "on-draw" in submission.toml'),
    (DeclaredIn.HEADER, "--moves digits0 --refill on-draw (or `menace-judge: moves=digits0 "
                        "refill=on-draw` in a header among the file's first five lines)"),
    (DeclaredIn.OPTIONS, "--moves digits0 --refill on-draw"),
])
def test_declarations_are_written_as_the_submission_declares(where: DeclaredIn,
                                                            text: str) -> None:
    assert spelled([("moves", "digits0"), ("refill", "on-draw")], where) == text


def test_a_declaration_is_offered_only_once_the_run_passes_under_it() -> None:
    """The search tries what a failure names, and what the failures under those name in turn
    when they come later in the run; it offers nothing the run does not pass under."""
    tried: list[Dialect] = []

    def needs_both(dialect: Dialect) -> Tried:
        tried.append(dialect)
        if dialect.moves is MoveFormat.DIGITS0 and dialect.refill is RefillRule.ON_DRAW:
            return Tried(True)
        if dialect.moves is MoveFormat.DIGITS0:
            return Tried(False, Place(1, 0), (("refill", "on-draw"),))
        return Tried(False, Place(1, 1))
    start = Place(1, 1)
    offered = (("moves", "digits"), ("moves", "digits0"))
    assert passing_declarations(Dialect(), start, offered, needs_both) == (
        ("moves", "digits0"), ("refill", "on-draw"))
    assert [d.moves for d in tried] == [MoveFormat.DIGITS, MoveFormat.DIGITS0,
                                        MoveFormat.DIGITS0]
    assert passing_declarations(Dialect(), start, offered,
                                lambda dialect: Tried(False, Place(1, 1))) is None
    assert passing_declarations(Dialect(refill=RefillRule.ON_DRAW), start,
                                (("refill", "on-draw"),), needs_both) is None, \
        "a declaration made already is not offered"

    def always_later(dialect: Dialect) -> Tried:
        return Tried(False, Place(9, 0), (("beads", "0-8"), ("beads", "1-9")))
    assert passing_declarations(Dialect(), start, offered, always_later) is None


def test_a_replay_command_starts_the_interpreter_that_started_the_judge(tmp_path: Path) -> None:
    """The command a report prints runs as it is, from anywhere: no `python` assumed."""
    command = judge_command("--help")
    assert command.endswith(" -m judge --help")
    run = subprocess.run(shlex.split(command), cwd=tmp_path, capture_output=True, text=True,
                         timeout=60, check=False)
    assert run.returncode == 0 and run.stdout.startswith("usage: python -m judge")


def test_checks_of_a_game_whose_dump_is_known_wrong_are_forgotten() -> None:
    made: list[int] = []
    deferred: Deferred[int] = Deferred(lambda mark, game: None)
    deferred.queue(lambda: made.append(1), 1)
    deferred.queue(lambda: made.append(2), 2)
    deferred.drop(2)
    deferred.fall_due(lambda: 0)
    deferred.make_due()
    assert made == [1]


def test_a_box_printed_after_the_304th_is_a_fault_of_that_dump_s_game() -> None:
    """A 305th box at the end of game 1's dump: rejected at game 1, which is not counted as
    played, the dump counted whole."""
    transcript = read_transcript(TRANSCRIPTS / "dump-305-boxes.txt")
    session = playback(transcript)
    opponent = ScriptedOpponent(opponent_moves(transcript), RandomOpponent(random.Random(0)))
    played = Referee(session, Dialect(), Settings(games=2), opponent, Knowledge()).play()
    decision = decide(facts_from(played.stop, session.close(), played.place))
    assert decision.line() == "wrong-answer dump"
    assert decision.place == Place(1, 0) and played.games_played == 0
    assert decision.got.endswith("(box 305)")
    assert "the dump has 305 boxes" in decision.evidence
    assert played.game_log[0] == "< new game" and "> LL" in played.game_log


@given(st.sampled_from(list(OpponentKind)), st.integers(0, 2**31 - 1), st.randoms())
def test_the_judge_types_moves_as_spec_section_2_says(kind: OpponentKind, seed: int,
                                                      rng: random.Random) -> None:
    """Every move the judge types is two upper-case letters naming an empty square of a game
    that is not over (SPEC section 2), whoever plays O for it."""
    opponent = make_opponent(kind, seed, Knowledge())
    opponent.start_game(1)
    board = play(EMPTY_BOARD, Cell(rng.randrange(9)))
    while not is_over(board):
        move = opponent.move(board)
        assert re.fullmatch("[LMR]{2}", move_text(move, MoveFormat.LETTERS))
        assert board[move] == "."
        board = play(board, move)
        if not is_over(board):
            board = play(board, rng.choice([Cell(c) for c in range(9) if board[c] == "."]))


def test_the_interpreters_path_is_shown_without_dot_dot_steps_only_where_they_are_lexical(
        tmp_path: Path) -> None:
    """A judge started as `scratch/../venv/bin/python` names `venv/bin/python` in its replay
    line; through a symbolic link, where `..` leads elsewhere, the path stays as it was given."""
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    (tmp_path / "scratch").mkdir()
    given = f"{tmp_path}/scratch/../venv/bin/python"
    assert tidy(given) == f"{venv}/python"
    elsewhere = tmp_path / "elsewhere" / "deep"
    elsewhere.mkdir(parents=True)
    (elsewhere.parent / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "link").symlink_to(elsewhere)
    through_link = f"{tmp_path}/link/../venv/bin/python"
    assert tidy(through_link) == through_link
