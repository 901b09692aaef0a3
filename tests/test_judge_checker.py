"""The checks no move depends on, made in a process of their own: sent a game at a time, answered
in turn, and reported as if made in the judge's own process."""

from __future__ import annotations

import os
import select
import socket
import threading
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from fixture_folders import SUBMISSIONS, assembled
from hypothesis import given
from hypothesis import strategies as st

from reference.board import EMPTY_BOARD
from reference.outcome import Outcome

from judge.deciding import judging
from judge.deciding.checker import (
    InProcess,
    InWorker,
    Link,
    checker_for,
    in_worker,
    lines_received,
    lines_sent,
    serve,
)
from judge.deciding.ledger import DrawMade, Entry, GameLearnt, Pooled
from judge.deciding.randomness import Evidence
from judge.terms.manifest import Dialect, read_manifest
from judge.terms.settings import Settings
from judge.terms.stops import Failed
from judge.terms.verdicts import Check, Failure, Place

texts = st.lists(st.sampled_from(["[X........ 1 2]", "[X........ 3]", "", "[.X....... 4]"]),
                 max_size=12).map(tuple)


@given(last=texts, now=texts)
def test_a_dump_is_sent_as_the_lines_that_changed_and_read_back_whole(
        last: tuple[str, ...], now: tuple[str, ...]) -> None:
    sent = lines_sent(now, last)
    assert lines_received(sent, last) == now
    assert all(k >= len(last) or now[k] != last[k] for k, _ in sent[1])


def evidence(observations: int) -> Evidence:
    """Evidence that counts its observations, and nothing else."""
    return Evidence(observations=observations, names=(), log_values=())


@dataclass
class CountingLedger:
    """A ledger whose checks count, and fail at the games in `failing`."""

    failing: frozenset[int]
    made: int = 0
    reader: object = None
    learning_fails: bool = False

    def make(self, entry: Entry) -> Failure | None:
        """Count the check; fail it at a failing game, or where it is a game's learning and
        those fail."""
        self.made += 1
        if entry.place.game in self.failing or \
                (self.learning_fails and isinstance(entry, GameLearnt)):
            return Failure(Check.BEAD_DRAWS, entry.place, "a square with beads", "none")
        return None

    def tests(self) -> Pooled:
        """The checks made so far, as evidence."""
        return Pooled(evidence(self.made), evidence(0))


def draws(games: range) -> list[DrawMade]:
    """One move's check for each game."""
    return [DrawMade("X........", frozenset({4}), game, 0, Place(game, 1)) for game in games]


def served(ledger: CountingLedger) -> tuple[InWorker, threading.Thread]:
    """A checker whose checking process is a thread of this one, serving `ledger`."""
    mine, theirs = socket.socketpair()
    thread = threading.Thread(target=serve, args=(Link(theirs), ledger, Dialect()))
    thread.start()
    return InWorker(Link(mine), os.getpid()), thread


def test_the_evidence_reported_is_that_of_the_checks_made_not_of_those_made_ahead() -> None:
    checker, thread = served(CountingLedger(frozenset({3})))
    checks = [checker.queue(entry) for entry in draws(range(1, 7))]
    checker._send_unsent()  # as at a game's end: all six sent, made there at once
    checks[0]()
    checks[1]()
    with pytest.raises(Failed) as failed:
        checks[2]()
    assert failed.value.failure.place == Place(3, 1)
    assert checker.tests().bead_draws.observations == 3, "the three made, not the six sent"
    checker.close()
    thread.join()


def learnt(game: int) -> GameLearnt:
    """A game's learning to check, from a one-line dump."""
    return GameLearnt(("[X........ 4]",), (), Outcome.WIN, EMPTY_BOARD, Place(game, 0))


def test_a_game_s_checks_are_sent_once_it_is_over_when_the_program_is_next_given_a_line(
        ) -> None:
    checker, thread = served(CountingLedger(frozenset(), reader=object()))
    checks = [checker.queue(draws(range(2, 3))[0]), checker.queue(learnt(2))]
    checker.hand_over()
    assert select.select([checker.link.end], [], [], 30)[0], "answered without being asked"
    checker.queue(draws(range(3, 4))[0])
    checker.hand_over()
    assert checker.unsent, "a game not over yet keeps its checks"
    for check in checks:
        check()
    assert checker.tests().bead_draws.observations == 2
    checker.close()
    thread.join()


def test_a_game_s_learning_dropped_after_it_was_made_there_does_not_count() -> None:
    checker, thread = served(CountingLedger(frozenset(), reader=object(), learning_fails=True))
    move = checker.queue(draws(range(2, 3))[0])
    checker.queue(learnt(2))
    checker.drop(2)  # its dump went on past its last box: the learning it failed never counts
    move()
    assert checker.tests().bead_draws.observations == 1, "the move's check, not the learning's"
    checker.close()
    thread.join()


def test_the_evidence_after_every_check_made_is_asked_for_at_the_end() -> None:
    checker, thread = served(CountingLedger(frozenset()))
    for check in [checker.queue(entry) for entry in draws(range(1, 5))]:
        check()
    assert checker.tests().bead_draws.observations == 4
    checker.close()
    thread.join()


def test_a_run_stopped_within_a_game_sends_that_game_s_checks_when_they_are_made() -> None:
    checker, thread = served(CountingLedger(frozenset({2})))
    first, second = (checker.queue(entry) for entry in draws(range(1, 3)))
    assert not checker.ready(), "nothing sent before the game's end"
    first()
    with pytest.raises(Failed):
        second()
    checker.close()
    thread.join()


def test_a_fault_of_the_checking_process_is_the_judge_s_own_and_it_ends_with_the_run() -> None:
    checker = in_worker(Settings(), Dialect())
    check = checker.queue(draws(range(2, 3))[0])  # a move checked with no dump read before
    checker._send_unsent()
    with pytest.raises(Exception) as raised:
        check()
    assert type(raised.value).__name__ == "AssertionError"
    assert not isinstance(raised.value, Failed)
    checker.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(checker.pid, os.WNOHANG)


def test_a_judge_held_to_one_cpu_makes_its_checks_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert isinstance(checker_for(Settings(), Dialect()), InProcess)


def test_a_judge_beside_other_threads_makes_its_checks_itself() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert isinstance(checker_for(Settings(), Dialect()), InProcess)
    finally:
        stop.set()
        other.join()


def test_the_evidence_of_no_checks_is_the_same_either_way() -> None:
    apart, here = in_worker(Settings(), Dialect()), InProcess(Settings(), Dialect())
    assert apart.tests() == here.tests()
    apart.close()
    assert replace(here.tests()).bead_draws.observations == 0


FIXTURES = ("accepted/reference", "accepted/refill-on-draw", "wrong-answer/learning-win",
            "wrong-answer/learning-loss", "wrong-answer/draws-printed-first",
            "wrong-answer/refills-pair-and-one", "wrong-answer/empty-box",
            "wrong-answer/illegal-bead", "wrong-answer/dump-before-learning",
            "wrong-answer/box-for-the-last-square")
"""Runs accepted, and rejected by each kind of check that the checking process makes: learning,
the statistical bead-draws and refill tests, and those the referee makes itself (one where a
dump goes on past its last box, whose game's learning is never checked)."""


def report_of(fixture: str, folder: Path, monkeypatch: pytest.MonkeyPatch,
              apart: bool) -> tuple[object, ...]:
    """Everything the report of a judged run of `fixture` shows but its times, with the checks
    made in a process of their own or in the judge's."""
    manifest = read_manifest(assembled(fixture, folder))
    expected = tomllib.loads((SUBMISSIONS / fixture / "submission.toml").read_text())
    games = expected.get("expected", {}).get("games", 6)
    settings = Settings(games=games, seed=2026, idle_seconds=10.0)
    make = in_worker if apart else InProcess
    monkeypatch.setattr(judging, "checker_for", make)
    run = judging.judge(manifest, settings)
    ending = run.facts.ending
    assert ending is not None
    return (run.decision, run.games_played, run.coverage, run.bead_draws, run.refill_beads,
            run.not_checked, run.transcript, run.game_log, run.replay.moves, ending.status,
            replace(run.facts, ending=None))


@pytest.mark.e2e
@pytest.mark.parametrize("fixture", FIXTURES)
def test_a_judged_run_is_reported_the_same_with_its_checks_in_a_process_of_their_own(
        fixture: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = report_of(fixture, tmp_path / "here", monkeypatch, apart=False)
    apart = report_of(fixture, tmp_path / "apart", monkeypatch, apart=True)
    assert apart == here
