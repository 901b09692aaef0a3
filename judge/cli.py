"""The command line: judge one submission, a bare file or command, a replay, or a folder of
submissions (a leaderboard). The parser is judge/parser.py; what a command line asks for is
made ready in judge/invocation.py."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import random
import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final, TextIO

from reference.commandline import BAD_USAGE, UsageError

from judge.deciding import thorough
from judge.deciding.judging import Run, judge
from judge.invocation import (
    STDOUT_OUTPUTS,
    check_outputs,
    confirm,
    declaration_options,
    given_declarations,
    manifest_for,
    need_hypothesis,
    settings_from,
)
from judge.leaderboard import (
    entries,
    is_leaderboard,
    judge_collection,
    table_lines,
    write_json,
    write_markdown,
)
from judge.parser import build_parser, split_command
from judge.running import scope
from judge.running.claim import cgroup_v2_unclaimed
from judge.running.probes import RuntimeHidden, support
from judge.running.sandbox import Level, SandboxError
from judge.running.workspace import CopyError
from judge.telling.commands import judge_command
from judge.telling.outputs import (
    OutputError,
    default_replay_path,
    is_stdout,
    reader_may_leave,
    write_atomically,
    write_output,
)
from judge.telling.report import json_text, report_lines, shrunk_lines, transcript_text
from judge.telling.shrinking.case import test_body
from judge.telling.shrinking.search import NotShrunk, shrink, shrinkable
from judge.terms.manifest import Manifest, ManifestError
from judge.terms.options import SandboxPolicy
from judge.terms.replay import ReplayError, read_replay, replay_text
from judge.terms.settings import Settings
from judge.terms.text import plural, printable
from judge.terms.verdicts import Verdict, exit_status


def judge_one(args: argparse.Namespace, command: list[str], stdout: TextIO) -> int:
    """Judge one submission, file or command and print its report; the exit status.

    `stdout` is where an output named `-` goes."""
    replay = read_replay(args.replay) if args.replay else None
    manifest = manifest_for(args, command, replay)
    seed = replay.seed if replay else (args.seed if args.seed is not None
                                        else random.randrange(1 << 31))
    settings = settings_from(args, manifest, seed, replay)
    check_outputs(args)
    if args.shrink:
        need_hypothesis()
    if replay is not None and not command and args.path is None:
        confirm(manifest, args.replay, args.yes)
    size = manifest.bytes_text()
    about = manifest.language + (f", {size}" if size else "")
    print(printable(f"judging {manifest.name} ({about}): {plural(settings.games, 'game')}, "
                    f"seed {seed}, opponent {settings.opponent}, transport {settings.transport} "
                    f"(from {settings.transport_source})"),
          flush=True)
    print(sandbox_line(settings.sandbox), flush=True)
    thorough_lines: list[str] = []
    if args.thorough:
        run, settings, thorough_lines = _judged_thoroughly(manifest, settings, args)
    else:
        run = _judged(manifest, settings, shrinking=args.shrink)

    replay_path: Path | None = None
    problems: list[str] = []
    if run.decision.verdict is not Verdict.ACCEPTED:
        try:
            replay_path = args.save_replay or default_replay_path(manifest.name, seed)
            write_output(replay_path, replay_text(run.replay), stdout)
        except OutputError as error:
            problems.append(f"could not write the replay: {error}")
            if replay_path is not None and args.save_replay is None:
                replay_path.unlink(missing_ok=True)  # the empty file that reserved its name
            replay_path = None
    writes: list[tuple[Path | None, str, Callable[[], str]]] = [
        (args.json, "the JSON report", lambda: json_text(run, manifest)),
        (args.transcript, "the transcript", lambda: transcript_text(run))]
    for path, what, text in writes:
        if path is not None:
            try:
                write_output(path, text(), stdout)
            except OutputError as error:
                problems.append(f"could not write {what}: {error}")
    can_shrink = shrinkable(run)
    hint = _shrink_command(args, command, settings) if can_shrink and not args.shrink else None
    *lines, verdict = report_lines(run, replay_path, hint)
    print("\n".join(printable(line) for line in (*lines, *thorough_lines, *problems)),
          flush=True)
    if args.shrink and can_shrink:
        _shrink_and_report(manifest, settings, run, replay_path, args.shrink_time)
    print(printable(verdict), flush=True)
    return exit_status(run.decision.verdict)


def _judged_thoroughly(manifest: Manifest, settings: Settings,
                       args: argparse.Namespace) -> tuple[Run, Settings, list[str]]:
    """A thorough judgement (judge/deciding/thorough.py): the run that decides it, its settings, and
    the lines that say how much the statistical checks could show, the last in plain words.
    Each run's progress goes to stderr as it plays; the first run's report is printed at once
    when a second run follows."""
    first_settings = thorough.first_settings(settings)
    run = _judged(manifest, first_settings, shrinking=args.shrink,
                  on_game=_progress("first run", first_settings.games))
    tests = [("bead-draws", run.bead_draws), ("refills", run.refill_beads)]
    if run.decision.verdict is not Verdict.ACCEPTED:
        return run, first_settings, [thorough.false_alarm_line(),
                                     thorough.in_plain_words(run.decision.line(), tests,
                                                             run.games_played, second=False)]
    plan = thorough.plan(tests, run.games_played, run.seconds, args.thorough_time)
    if plan.games is None:
        return run, first_settings, [*plan.lines, thorough.false_alarm_line(),
                                     thorough.in_plain_words(run.decision.line(), tests,
                                                             run.games_played, second=False)]
    *lines, _ = report_lines(run)
    second = thorough.second_settings(settings, plan.games)
    print("\n".join(printable(line) for line in (*lines, *plan.lines, "",
                     f"thorough, second run: {plural(second.games, 'game')}, "
                     f"seed {second.seed}")),
          flush=True)
    run = _judged(manifest, second, shrinking=args.shrink,
                  on_game=_progress("second run", second.games))
    tests = [("bead-draws", run.bead_draws), ("refills", run.refill_beads)]
    return run, second, [thorough.standing(tests, run.games_played), thorough.false_alarm_line(),
                         thorough.in_plain_words(run.decision.line(), tests, run.games_played,
                                                 second=True)]


PROGRESS_EVERY: Final = 5.0
"""Seconds between two progress lines of a long run."""


def _progress(which: str, games: int) -> Callable[[int], None]:
    """What tells, on stderr every PROGRESS_EVERY seconds and at its last game, how far a
    thorough judgement's run of `games` games has come."""
    started = time.monotonic()
    due = started + PROGRESS_EVERY

    def show(game: int) -> None:
        nonlocal due
        now = time.monotonic()
        if now >= due or game == games:
            due = now + PROGRESS_EVERY
            print(f"thorough, {which}: game {game:,} of {games:,} played, "
                  f"{now - started:.0f} s", file=sys.stderr, flush=True)
    return show


def _judged(manifest: Manifest, settings: Settings, *, shrinking: bool,
            on_game: Callable[[int], None] | None = None) -> Run:
    """The run of one submission. Every module of the judge the rest of the command needs is
    loaded before the program starts, so that a program that is not fully contained cannot
    change what judges it."""
    if shrinking:
        importlib.import_module("judge.telling.shrinking.by_hypothesis")
    return judge(manifest, settings, on_game=on_game)


def sandbox_line(policy: SandboxPolicy) -> str:
    """The report header's lines on containment: the level (with what is missing and why, the
    way to full among it), how the judge got its control groups, and below full a warning that
    says what the level does not hold."""
    found = support(policy)
    groups = f"\ncontrol groups: {found.groups}" if found.groups else ""
    if found.level is Level.FULL:
        return "sandbox: full" + groups
    return (f"sandbox: {found.describe()}{groups}\nwarning: the program is not fully contained: "
            + "; ".join(found.not_held()))


def _shrink_command(args: argparse.Namespace, command: list[str], settings: Settings) -> str:
    """The command line that judges the same run again and shrinks its rejection."""
    if args.replay is not None:
        return judge_command(f"--replay {shlex.quote(str(args.replay))} --shrink")
    own = (f"--games {settings.games} --seed {settings.seed} --opponent {settings.opponent}"
           + declaration_options(args))
    if command:
        return judge_command(f"{own} --shrink -- {shlex.join(command)}")
    return judge_command(f"{shlex.quote(str(args.path))} {own} --shrink")


def _shrink_and_report(manifest: Manifest, settings: Settings, run: Run,
                       replay_path: Path | None, seconds: float) -> None:
    """Shrink a rejection, save the smallest case as a replay and a test, and print it."""
    shrunk = shrink(manifest, settings, run, seconds=seconds,
                    progress=lambda text: print(printable(text), file=sys.stderr, flush=True))
    if isinstance(shrunk, NotShrunk):
        print("\n" + printable(f"shrink: not shrunk: {shrunk.reason}"), flush=True)
        return
    problems: list[str] = []
    shrunk_replay: Path | None = None
    test_path: Path | None = None
    try:
        if shrunk.failed_again:  # else there is no failing case to save
            base = replay_path or default_replay_path(manifest.name, settings.seed)
            shrunk_replay = base.with_name(base.stem + "-shrunk.json")
            test_path = base.with_name("test_" + base.stem.replace("-", "_") + "_shrunk.py")
            write_atomically(shrunk_replay, replay_text(shrunk.run.replay))
            write_atomically(test_path, test_body(shrunk, manifest, shrunk.seed))
    except OutputError as error:
        problems.append(f"could not write the shrunk case: {error}")
        shrunk_replay = test_path = None
    lines = shrunk_lines(shrunk, manifest, shrunk_replay, test_path)
    print("\n".join(printable(line) for line in (*lines, *problems)), flush=True)


def judge_many(args: argparse.Namespace, stdout: TextIO) -> int:
    """Judge every submission in a folder and print the leaderboard table."""
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    check_outputs(args)
    print(sandbox_line(args.sandbox), flush=True)
    left_out = entries(args.path).left_out
    if left_out:
        print(printable(f"not judged, bare files beside submission folders: "
                        f"{', '.join(path.name for path in left_out)}"), flush=True)
    rows = judge_collection(args.path, lambda m: settings_from(args, m, seed, None),
                            jobs=args.jobs, given=given_declarations(args))
    lines = table_lines(rows)
    print("\n".join(printable(line) for line in lines))
    if args.markdown:
        try:
            write_markdown(rows, args.markdown, stdout)
        except OutputError as error:
            print(f"could not write the Markdown table: {printable(str(error))}")
    if args.json:
        try:
            write_json(rows, seed, args.json, stdout)
        except OutputError as error:
            print(f"could not write the JSON table: {printable(str(error))}")
    accepted = sum(row.verdict == Verdict.ACCEPTED.value for row in rows)
    print(f"{accepted} of {len(rows)} accepted")
    return 0 if accepted == len(rows) else 1


def _wants_scope(args: argparse.Namespace) -> bool:
    """True when this judge would be fully contained only in a scope of its own: cgroup v2
    gave it no delegated group, and neither the options nor an earlier try say no."""
    if args.sandbox is SandboxPolicy.OFF or args.no_systemd_run or scope.entered():
        return False
    return cgroup_v2_unclaimed()


def _stop_on_terminate(signum: int, frame: object) -> None:
    """Turn SIGTERM into an exception, so that the program being judged is killed too."""
    raise SystemExit(128 + signum)


def run(args: argparse.Namespace, command: list[str]) -> int:
    """Act on parsed arguments: judge a folder of submissions, or one; the exit status.

    When an output goes to the standard output (`-`), everything else printed goes to stderr;
    a reader of the standard output that stops early (`| head -1`) changes nothing else.
    """
    stdout = reader_may_leave(sys.stdout)
    taken = any(is_stdout(getattr(args, option)) for option in STDOUT_OUTPUTS)
    try:
        with contextlib.redirect_stdout(sys.stderr if taken else stdout):
            return _run(args, command, stdout)
    finally:
        stdout.flush()


def _run(args: argparse.Namespace, command: list[str], stdout: TextIO) -> int:
    """Judge a folder of submissions, or one; a bad request is a message and status 2."""
    try:
        if command and args.path is not None:
            raise UsageError("give either a PATH or -- COMMAND, not both")
        if not command and args.path is not None and is_leaderboard(args.path):
            return judge_many(args, stdout)
        return judge_one(args, command, stdout)
    except (UsageError, ManifestError, ReplayError, SandboxError, CopyError,
            OSError) as error:  # SpawnError included
        print(f"menace-judge: {printable(str(error))}", file=sys.stderr)
        return BAD_USAGE
    except RuntimeHidden as error:
        print(f"menace-judge: {printable(str(error))}", file=sys.stderr)
        print(Verdict.JUDGE_ERROR.value)
        return exit_status(Verdict.JUDGE_ERROR)
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run the judge with these arguments; the exit status.

    The command line's judge (`argv` None), where cgroup v2 gives it no delegated group, runs
    itself again in a scope of its own from systemd-run (judge/running/scope.py)."""
    given = scope.enter() if argv is None else None
    words = list(given if given is not None else sys.argv[1:] if argv is None else argv)
    own, command = split_command(words)
    try:
        args = build_parser().parse_args(own)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else BAD_USAGE
    if threading.current_thread() is not threading.main_thread():
        return run(args, command)
    if argv is None and _wants_scope(args):
        status = scope.run_in_scope(words)
        if status is not None:
            return status
    previous = signal.signal(signal.SIGTERM, _stop_on_terminate)
    try:
        return run(args, command)
    finally:
        signal.signal(signal.SIGTERM, previous)
