"""Fuzzing every entry point in process: arbitrary arguments, and arbitrary bytes as its files.

For any argument list and any bytes in the boxes file, manifest or replay it reads, each
`main` must return a documented exit status without a traceback; a refusal (status 2) is one
line on stderr; and no file the user gave is changed by a refusal (a manifest or a replay by
anything). No fuzzed run plays for real: the runners are replaced by one that stops at once
(`WouldRun`), after everything that checks the input has been done; only the challenge
program plays, as many moves as its fuzzed stdin holds.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import reference.study.cli
import reference.study.evaluation
import reference.study.learners
import reference.study.pictures
from reference.__main__ import main as reference_main

import judge.cli
import judge.deciding.referee
import judge.leaderboard
import judge.running.launch
from judge.cli import main as judge_main

pytestmark = pytest.mark.e2e

EXAMPLES = os.environ.get("FUZZ_EXAMPLES")
"""More examples on request (`FUZZ_EXAMPLES=400`, random each time); else few, derandomized."""
FUZZ = settings(max_examples=int(EXAMPLES or 40), deadline=None, derandomize=EXAMPLES is None,
                suppress_health_check=[HealthCheck.too_slow])
"""The default runs the whole module in a few seconds."""

FILE = "FILE"
"""In a fuzzed argument list, the path of the file whose bytes are fuzzed."""

AWKWARD = ["0", "-1", "1", "2", "nan", "inf", "-inf", "1e400", "9" * 5000, "1000000000", "",
           " ", "²", "1,1,1,1", "1000000000,1,1,1", "x.png", "no/such/dir/x.png", "/", ".",
           "random", "perfect", "menace", "X", "O", "michie", "refill", "\x1b[2J", "--", FILE]
"""Values that have broken command lines before, and the fuzzed file's placeholder."""


class WouldRun(Exception):
    """A fuzzed command line got past every check: here the real run would start."""


def stop(*args: object, **kwargs: object) -> None:
    """A runner that stops at once."""
    raise WouldRun


def argument_lists(options: list[str], first: tuple[str, ...] = ()) -> st.SearchStrategy[list[str]]:
    """Argument lists of the given options, awkward values and any text, after `first`."""
    token = st.one_of(st.sampled_from(options), st.sampled_from(AWKWARD), st.text(max_size=10),
                      st.integers().map(str))
    return st.lists(token, max_size=8).map(lambda tokens: [*first, *tokens])


@dataclass(frozen=True)
class Outcome:
    """What one in-process call of a `main` did."""

    status: int | None
    """None when it got past every check (WouldRun)."""
    out: str
    err: str


@contextmanager
def sandbox_folder() -> Iterator[Path]:
    """A fresh current folder for one example, so that nothing is written anywhere else."""
    before = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="menace-fuzz-") as folder:
        os.chdir(folder)
        try:
            yield Path(folder)
        finally:
            os.chdir(before)


def call(main: Callable[[list[str]], int], argv: list[str], stdin: bytes = b"") -> Outcome:
    """Call `main` in process with this stdin; what it returned and printed."""
    out, err = io.StringIO(), io.StringIO()
    stream = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    with mock.patch("sys.stdin", stream), redirect_stdout(out), redirect_stderr(err):
        try:
            status: int | None = main(argv)
        except WouldRun:
            status = None
        except SystemExit as exit_:  # argparse's --help and --version end this way
            status = exit_.code if isinstance(exit_.code, int) else 2
    return Outcome(status, out.getvalue(), err.getvalue())


def assert_documented(outcome: Outcome, statuses: set[int | None]) -> None:
    """A documented status, no traceback, and a refusal in one line that says something."""
    assert outcome.status in statuses, outcome
    assert "Traceback" not in outcome.out + outcome.err
    if outcome.status == 2:
        lines = outcome.err.splitlines()
        assert len(lines) == 1 and len(lines[0]) > len("menace: "), outcome.err


REFERENCE_OPTIONS = ["--seed", "--boxes", "--rules", "--beads", "--win", "--draw", "--loss",
                     "--empty-box", "--help", "--player"]
STUDY_OPTIONS = REFERENCE_OPTIONS + ["--opponent", "--games", "--learners", "--engine",
                                     "--windows", "--plot", "--log", "--quiet", "--against"]
BOXES_BYTES = st.one_of(
    st.binary(max_size=200),
    st.sampled_from([b"[" * 100_000, b'{"format": "menace-boxes", "version": 1, "player": "X", '
                     b'"games": ' + b"9" * 5000 + b"}", b'{"format": "menace-boxes", "version": 1, '
                     b'"player": "X", "games": 0, "boxes": {".........": [1]}}', b"", b"null"]),
)


def with_file(argv: list[str], path: Path) -> list[str]:
    """The argument list with the placeholder replaced by the fuzzed file's path."""
    return [str(path) if token == FILE else token for token in argv]


@FUZZ
@given(argv=argument_lists(REFERENCE_OPTIONS), boxes=BOXES_BYTES,
       stdin=st.one_of(st.binary(max_size=60), st.just(b"1\nMM\nLL\nRR\nLR\nRL\nML\nMR\n")))
@example(argv=["--boxes", FILE], boxes=b"[" * 100_000, stdin=b"1\n")
@example(argv=["--beads", "1000000000,1,1,1"], boxes=b"", stdin=b"")
def test_the_challenge_program_never_fails_with_a_traceback(
        argv: list[str], boxes: bytes, stdin: bytes) -> None:
    with sandbox_folder() as folder:
        path = folder / "boxes.json"
        path.write_bytes(boxes)
        outcome = call(reference_main, with_file(argv, path), stdin)
        assert_documented(outcome, {0, 1, 2})
        if outcome.status == 2:
            assert path.read_bytes() == boxes


@contextmanager
def study_runners_stopped() -> Iterator[None]:
    """The study commands stop where they would start playing or drawing."""
    with mock.patch.object(reference.study.cli, "train_one", stop), \
            mock.patch.object(reference.study.learners, "train_learners", stop), \
            mock.patch.object(reference.study.evaluation, "evaluate", stop), \
            mock.patch.object(reference.study.pictures, "matchboxes", stop):
        yield


@FUZZ
@given(command=st.sampled_from(["train", "evaluate", "boxes"]), data=st.data(),
       boxes=BOXES_BYTES)
@example(command="train", data=None, boxes=b"[" * 100_000)
def test_the_study_commands_never_fail_with_a_traceback(
        command: str, data: st.DataObject | None, boxes: bytes) -> None:
    argv = (data.draw(argument_lists(STUDY_OPTIONS, (command,)), label="argv") if data
            else [command, "--boxes", FILE])
    with sandbox_folder() as folder, study_runners_stopped():
        path = folder / "boxes.json"
        path.write_bytes(boxes)
        outcome = call(reference_main, with_file(argv, path))
        assert_documented(outcome, {0, 1, 2, None})
        assert path.read_bytes() == boxes  # no run happened, so nothing was saved


JUDGE_OPTIONS = ["--games", "--seed", "--opponent", "--transport", "--replay", "--yes", "--moves",
                 "--beads", "--refill", "--idle-limit", "--time-limit", "--grace", "--memory-limit",
                 "--output-limit", "--json", "--transcript", "--save-replay", "--markdown",
                 "--help", "-j", "--jobs", "SUBMISSION", "BOARD", "python3", "x.py"]
MANIFESTS = st.one_of(
    st.binary(max_size=200),
    st.sampled_from([b'command = ["../../x.sh"]\n',
                     b'command = ["python3", "m.py"]\nmemory_mb = 0\n',
                     b'command = ["python3"]\nmemory_mb = -1\n', b"a = " + b"[" * 100_000,
                     b"a = " + b"9" * 5000, b'command = []\n', b'language = "\x1b[2J"\n']),
)
REPLAYS = st.one_of(
    st.binary(max_size=200),
    st.sampled_from([b"[" * 100_000,
                     b'{"seed": 1e400, "games": 1, "opponent": "mixed", "moves": []}',
                     b'{"seed": 1, "games": 1, "opponent": "grandmaster", "moves": []}',
                     b'{"seed": 1, "games": 1, "opponent": "mixed", "moves": [[9]]}',
                     b'{"seed": 1, "games": 1, "opponent": "mixed", "moves": [], '
                     b'"command": ["python3", "x.py"]}']),
)


@FUZZ
@given(argv=argument_lists(JUDGE_OPTIONS), manifest=MANIFESTS, replay=REPLAYS)
@example(argv=["SUBMISSION"], manifest=b'command = ["../../x.sh"]\n', replay=b"")
@example(argv=["--replay", FILE], manifest=b"", replay=b'{"seed": 1, "games": 1, '
         b'"opponent": "mixed", "moves": [], "command": ["python3", "x.py"]}')
@example(argv=["--time-limit", "nan", "SUBMISSION"], manifest=b'command = ["python3"]\n',
         replay=b"")
def test_the_judge_never_fails_with_a_traceback(argv: list[str], manifest: bytes,
                                                 replay: bytes) -> None:
    with sandbox_folder() as folder, \
            mock.patch.object(judge.running.launch, "start_program", stop), \
            mock.patch.object(judge.leaderboard, "judge_collection", stop):
        submission = folder / "submission"
        submission.mkdir()
        (submission / "submission.toml").write_bytes(manifest)
        board = folder / "board"
        (board / "one").mkdir(parents=True)
        (board / "one" / "submission.toml").write_bytes(manifest)
        replay_path = folder / "replay.json"
        replay_path.write_bytes(replay)
        names = {"SUBMISSION": str(submission), "BOARD": str(board), FILE: str(replay_path)}
        outcome = call(judge_main, [names.get(token, token) for token in argv])
        assert_documented(outcome, {0, 1, 2, 3, None})
        assert (submission / "submission.toml").read_bytes() == manifest
        assert (board / "one" / "submission.toml").read_bytes() == manifest
        assert replay_path.read_bytes() == replay
