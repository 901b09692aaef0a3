"""The command line: judge one submission, a bare command, a replay, or a folder of submissions."""

from __future__ import annotations

import argparse
import importlib
import math
import random
import shlex
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Final, NoReturn

from judge import launch, options
from judge.launch import Settings
from judge.manifest import Manifest, ManifestError, is_collection, is_submission, read_manifest
from judge.options import (
    BeadFormat,
    Choice,
    MoveFormat,
    OpponentKind,
    OptionError,
    RefillRule,
    SandboxPolicy,
    Transport,
    TransportSource,
    parse,
)
from judge.outputs import OutputError, check_output, default_replay_path, write_atomically
from judge.replay import Replay, ReplayError, read_replay, replay_text
from judge.sandbox import Level, SandboxError, support
from judge.text import printable
from judge.verdict import BAD_USAGE, Verdict, exit_status

if TYPE_CHECKING:
    from judge.referee import Run
    from judge.session import Session

GAMES_HELP: Final = (
    "games to play (default %(default)s). 200 games take a few seconds against a fast program "
    "and are enough for the rare faults: with the mixed opponent MENACE wins, draws and loses "
    "many times, boxes with symmetric labels are drawn from in every game (the empty board is "
    "one), the coverage opponent steers into nearly empty boxes so refills happen, and the "
    "pooled bead-draws test has a few hundred checked moves, enough to catch draws that ignore "
    "the bead counts")


LIMITS: Final = {"--idle-limit": options.MAX_IDLE_SECONDS, "--time-limit": options.MAX_TIME_SECONDS,
                  "--grace": options.MAX_GRACE_SECONDS,
                  "--shrink-time": options.MAX_TIME_SECONDS,
                  "--thorough-time": options.MAX_TIME_SECONDS}
"""The most seconds each time option allows; each must be above 0."""


class UsageError(ValueError):
    """A command line the judge cannot act on."""


def choice(kind: type[Choice], what: str) -> Callable[[str], Choice]:
    """An option type: one of an option's choices, or a message naming them all."""
    def read(text: str) -> Choice:
        """The choice, or a message naming the choices."""
        try:
            return parse(kind, text, what)
        except OptionError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return read


def braced(kind: type[StrEnum]) -> str:
    """An option's choices as the usage line shows them: {a,b,c}."""
    return "{" + ",".join(kind) + "}"


class OneLineParser(argparse.ArgumentParser):
    """An argument parser that names a bad option in one line, without the usage block."""

    def error(self, message: str) -> NoReturn:
        """Exit with status 2 and a one-line message naming the problem."""
        self.exit(BAD_USAGE, f"{self.prog}: {printable(message)} (see --help)\n")


def whole(low: int, high: int, what: str) -> Callable[[str], int]:
    """An option type: a whole number from `low` to `high`."""
    def parse(text: str) -> int:
        """The whole number, or a message naming the allowed range."""
        body = text.strip().removeprefix("-")
        if body.isascii() and body.isdigit() and len(body.lstrip("0")) <= len(str(high)) \
                and low <= int(text) <= high:
            return int(text)
        raise argparse.ArgumentTypeError(
            f"{_quoted(text)} is not {what} from {low:,} to {high:,}")
    return parse


def seconds(option: str) -> Callable[[str], float]:
    """An option type: a finite number of seconds in the option's range (LIMITS)."""
    low, high = 0.0, LIMITS[option]

    def parse(text: str) -> float:
        """The seconds, or a message naming the allowed range."""
        try:
            value = float(text) if len(text) < 40 else math.nan
        except ValueError:
            value = math.nan
        if math.isfinite(value) and low < value <= high:
            return value
        raise argparse.ArgumentTypeError(
            f"{_quoted(text)} is not a number of seconds above {low:g} and at most {high:,g}")
    return parse


def _quoted(text: str) -> str:
    """A value from the command line, quoted for a message and cut to a readable length."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + f"... ({len(text):,} characters)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m judge`."""
    parser = OneLineParser(
        prog="python -m judge",
        description="Judge a MENACE submission (SPEC.md) by playing it interactively. "
                    "PATH is a submission folder (with submission.toml) or a folder of them "
                    "(a leaderboard); after --, a COMMAND to judge.",
        epilog="Exit status: 0 accepted, 1 rejected, 2 bad usage (nothing was run), 3 judge "
               "error. The last line printed is the verdict.")
    parser.add_argument("path", nargs="?", type=Path, help="submission folder, or a folder of them")
    play = parser.add_argument_group("playing")
    play.add_argument("--games", type=whole(1, options.MAX_GAMES, "a number of games"),
                      default=options.GAMES, help=GAMES_HELP)
    play.add_argument("--seed", type=whole(0, options.MAX_SEED, "a seed"), default=None,
                      help="the judge's own randomness (opponents); default: random, printed. "
                           "The same seed replays the same opponent moves")
    play.add_argument("--opponent", type=choice(OpponentKind, "--opponent"),
                      default=options.OPPONENT, metavar=braced(OpponentKind),
                      help="who plays O (default %(default)s: coverage, random or perfect, "
                           "chosen per game)")
    play.add_argument("--transport", type=choice(Transport, "--transport"), default=None,
                      metavar=braced(Transport),
                      help="pty (a terminal, output line-buffered, echo off) or pipe (strict: a "
                           "program that never flushes stalls); default: the replay's, else the "
                           f"manifest's, else {options.TRANSPORT}")
    play.add_argument("--thorough", action="store_true",
                      help="after the run, if a statistical alternative has less than 99%% "
                           "power, a second run of as many games as it needs, within "
                           "--thorough-time (docs/statistics.md)")
    play.add_argument("--thorough-time", type=seconds("--thorough-time"),
                      default=options.THOROUGH_SECONDS, metavar="SECONDS",
                      help="time budget of --thorough, both runs (default %(default)s)")
    play.add_argument("--replay", type=Path, metavar="FILE",
                      help="play again the seed and opponent moves saved by a rejection; "
                           "a command taken from the file is shown and asked about first")
    play.add_argument("--yes", action="store_true",
                      help="run the command of a --replay file without asking (for scripts)")
    declare = parser.add_argument_group("declarations for a bare COMMAND (SPEC section 8)")
    declare.add_argument("--moves", type=choice(MoveFormat, "--moves"), default=MoveFormat.LETTERS,
                         metavar=braced(MoveFormat))
    declare.add_argument("--beads", type=choice(BeadFormat, "--beads"), default=BeadFormat.AUTO,
                         metavar=braced(BeadFormat))
    declare.add_argument("--refill", type=choice(RefillRule, "--refill"),
                         default=RefillRule.ON_EMPTY, metavar=braced(RefillRule))
    limits = parser.add_argument_group("limits")
    limits.add_argument("--idle-limit", type=seconds("--idle-limit"), default=options.IDLE_SECONDS,
                        metavar="SECONDS",
                        help="silence allowed while output is awaited (default %(default)s)")
    limits.add_argument("--time-limit", type=seconds("--time-limit"), default=None,
                        metavar="SECONDS",
                        help=f"wall time of the whole run (default {options.time_limit(0):g} + "
                             f"{options.time_limit(1) - options.time_limit(0):g} s per game)")
    limits.add_argument("--grace", type=seconds("--grace"), default=options.GRACE_SECONDS,
                        metavar="SECONDS",
                        help="time to exit after the last dump (default %(default)s)")
    limits.add_argument("--memory-limit", type=whole(*options.MEMORY_RANGE_MB, "a number of MB"),
                        default=options.MEMORY_MB,
                        metavar="MB",
                        help="address space (default %(default)s MB)")
    limits.add_argument("--output-limit", type=whole(*options.OUTPUT_RANGE_MB, "a number of MB"), default=None,
                        metavar="MB",
                        help=f"stdout and stderr together (default {options.output_limit(0) >> 20} MB"
                             f" + {(options.output_limit(1) - options.output_limit(0)) >> 10} KB "
                             "per game)")
    play.add_argument("-j", "--jobs", type=whole(1, options.MAX_JOBS, "a number of jobs"),
                      default=options.jobs(), metavar="N",
                      help="for a folder of submissions: judge N at once, each with its own "
                           "limits (default: the number of cores, %(default)s)")
    limits.add_argument("--sandbox", type=choice(SandboxPolicy, "--sandbox"),
                        default=options.SANDBOX, metavar=braced(SandboxPolicy),
                        help="auto (default: the best containment this machine gives, with a "
                             "warning when it is not full), require (refuse to run without "
                             "full containment) or off (trusted code only)")
    out = parser.add_argument_group("output")
    out.add_argument("--json", type=Path, metavar="FILE", help="write the report as JSON")
    out.add_argument("--transcript", type=Path, metavar="FILE",
                     help="write the whole transcript (> judge to program, < program to judge)")
    out.add_argument("--save-replay", type=Path, metavar="FILE",
                     help="where a rejection saves its replay (default: a new file in a private "
                          "folder of yours, ~/.cache/menace-judge/replays)")
    out.add_argument("--markdown", type=Path, metavar="FILE",
                     help="for a folder of submissions: write the table as Markdown")
    shrinking = parser.add_argument_group("shrinking a rejection")
    shrinking.add_argument("--shrink", action="store_true",
                           help="after a rejection, search for the smallest run that still fails "
                                "the same way, and save it as a replay and a pytest test")
    shrinking.add_argument("--shrink-time", type=seconds("--shrink-time"),
                           default=options.SHRINK_SECONDS, metavar="SECONDS",
                           help="time budget of the search (default %(default)s)")
    return parser


def _split_command(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """The judge's own arguments, and the COMMAND after `--`."""
    items = list(argv)
    if "--" in items:
        cut = items.index("--")
        return items[:cut], items[cut + 1:]
    return items, []


def settings_from(args: argparse.Namespace, manifest: Manifest, seed: int,
                  replay: Replay | None) -> Settings:
    """The run settings from the command line, the manifest and any replay."""
    games = replay.games if replay else args.games
    if args.transport is not None:
        transport, source = args.transport, TransportSource.COMMAND_LINE
    elif replay is not None:
        transport, source = replay.transport, TransportSource.REPLAY
    elif manifest.transport is not None:
        transport, source = manifest.transport, TransportSource.MANIFEST
    else:
        transport, source = options.TRANSPORT, TransportSource.DEFAULT
    return Settings(
        games=games, seed=seed, opponent=replay.opponent if replay else args.opponent,
        transport=transport, transport_source=source,
        idle_seconds=args.idle_limit, time_limit=args.time_limit, grace_seconds=args.grace,
        memory_mb=manifest.memory_mb or args.memory_limit,
        output_bytes=args.output_limit << 20 if args.output_limit else None,
        keep_transcript=args.transcript is not None,
        sandbox=args.sandbox,
        scripted=replay.moves if replay else None,
    )


def _manifest_for(args: argparse.Namespace, command: list[str],
                  replay: Replay | None) -> Manifest:
    """The manifest of what is to be judged: a folder, a bare command, or the replay's."""
    if command:
        return Manifest(command=tuple(command), moves=args.moves, beads=args.beads,
                        refill=args.refill)
    path = args.path
    if path is None and replay is not None:
        if replay.submission:
            path = Path(replay.submission)
        elif replay.command:
            return Manifest(command=replay.command, moves=args.moves, beads=args.beads,
                            refill=args.refill)
    if path is None:
        raise UsageError("nothing to judge: give a submission folder, or -- COMMAND")
    if not path.is_dir():
        raise UsageError(f"not a folder: {str(path)!r}")
    if not is_submission(path):
        raise UsageError(f"no submission.toml in {str(path)!r}")
    return read_manifest(path)


def confirm(manifest: Manifest, replay_file: Path, yes: bool) -> None:
    """Show the command a replay file would run, and ask before running it (unless --yes)."""
    where = f" (from {manifest.folder / 'submission.toml'})" if manifest.folder else ""
    shown = printable(" ".join(manifest.command)) + where
    if yes:
        print(f"the replay {printable(str(replay_file))} runs: {shown}", file=sys.stderr)
        return
    if not sys.stdin.isatty():
        raise UsageError(f"the replay {str(replay_file)!r} would run {shown}; not run without "
                         "asking: add --yes to run it from a script")
    print(f"The replay {printable(str(replay_file))} runs this command: {shown}",
          file=sys.stderr)
    try:
        answer = input("Run it? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise UsageError("the replay's command was not run")


def check_outputs(args: argparse.Namespace) -> None:
    """Fail now, before the run, on an output file that could not be written."""
    for option in ("json", "transcript", "save_replay", "markdown"):
        path = getattr(args, option)
        if path is not None:
            try:
                check_output(path)
            except OutputError as error:
                raise UsageError(f"--{option.replace('_', '-')}: {error}") from None


def judge_one(args: argparse.Namespace, command: list[str]) -> int:
    """Judge one submission or command and print its report; the exit status."""
    replay = read_replay(args.replay) if args.replay else None
    manifest = _manifest_for(args, command, replay)
    seed = replay.seed if replay else (args.seed if args.seed is not None
                                        else random.randrange(1 << 31))
    settings = settings_from(args, manifest, seed, replay)
    check_outputs(args)
    if replay is not None and not command and args.path is None:
        confirm(manifest, args.replay, args.yes)
    print(printable(f"judging {manifest.name} ({manifest.language}): {settings.games} games, "
                    f"seed {seed}, opponent {settings.opponent}, transport {settings.transport} "
                    f"(from {settings.transport_source})"),
          flush=True)
    print(sandbox_line(settings.sandbox), flush=True)
    thorough_lines: list[str] = []
    if args.thorough:
        run, settings, thorough_lines = _judged_thoroughly(manifest, settings, args)
    else:
        run = _judged(manifest, settings, shrinking=args.shrink)
    from judge.report import json_text, report_lines, transcript_text
    from judge.shrink import shrinkable

    replay_path: Path | None = None
    problems: list[str] = []
    if run.decision.verdict is not Verdict.ACCEPTED:
        try:
            replay_path = args.save_replay or default_replay_path(manifest.name, seed)
            write_atomically(replay_path, replay_text(run.replay))
        except OutputError as error:
            problems.append(f"could not write the replay: {error}")
            if replay_path is not None and args.save_replay is None:
                replay_path.unlink(missing_ok=True)  # the empty file that reserved its name
            replay_path = None
    writes: list[tuple[Path | None, str, Callable[[], str]]] = [
        (args.json, "the JSON report", lambda: json_text(run)),
        (args.transcript, "the transcript", lambda: transcript_text(run))]
    for path, what, text in writes:
        if path is not None:
            try:
                write_atomically(path, text())
            except OutputError as error:
                problems.append(f"could not write {what}: {error}")
    can_shrink = shrinkable(run)
    hint = _shrink_command(args, command, settings) if can_shrink and not args.shrink else None
    *lines, verdict = report_lines(run, replay_path, hint)
    print("\n".join(printable(line) for line in (*lines, *thorough_lines, *problems)), flush=True)
    if args.shrink and can_shrink:
        _shrink_and_report(manifest, settings, run, replay_path, args.shrink_time)
    print(printable(verdict), flush=True)
    return exit_status(run.decision.verdict)


def _judged_thoroughly(manifest: Manifest, settings: Settings,
                       args: argparse.Namespace) -> tuple[Run, Settings, list[str]]:
    """A thorough judgement (judge/thorough.py): the run that decides it, its settings, and the
    lines that say how much the statistical checks could show. The first run's report is
    printed at once when a second run follows."""
    from judge import thorough
    from judge.report import report_lines

    first_settings = thorough.first_settings(settings)
    run = _judged(manifest, first_settings, shrinking=args.shrink)
    if run.decision.verdict is not Verdict.ACCEPTED:
        return run, first_settings, [thorough.false_alarm_line()]
    tests = [("bead-draws", run.draw_test), ("refills", run.refill_test)]
    plan = thorough.plan(tests, run.games_played, run.seconds, args.thorough_time)
    if plan.games is None:
        return run, first_settings, [*plan.lines, thorough.false_alarm_line()]
    *lines, _ = report_lines(run)
    second = thorough.second_settings(settings, plan.games)
    print("\n".join(printable(line) for line in (*lines, *plan.lines, "",
                     f"thorough, second run: {second.games:,} games, seed {second.seed}")),
          flush=True)
    run = _judged(manifest, second, shrinking=args.shrink)
    tests = [("bead-draws", run.draw_test), ("refills", run.refill_test)]
    return run, second, [thorough.standing(tests, run.games_played), thorough.false_alarm_line()]


def _judged(manifest: Manifest, settings: Settings, *, shrinking: bool) -> Run:
    """The run of one submission, its program started as early as is safe.

    Inside namespaces the program cannot reach the judge's files, so it starts first and the
    rest of the judge loads while it starts up; otherwise every module of the judge is loaded
    before the program runs, so that the program cannot change what judges it.
    """
    started: tuple[Session, Path] | None = None
    if support(settings.sandbox).namespaced:
        started = launch.start_program(manifest, settings)
    try:
        from judge.referee import judge
        importlib.import_module("judge.report")  # the report and judge.shrink, used after the run
        if shrinking:
            importlib.import_module("judge.shrinker")
    except BaseException:
        if started is not None:
            started[0].close()
            shutil.rmtree(started[1], ignore_errors=True)
        raise
    return judge(manifest, settings, started=started)


def sandbox_line(policy: SandboxPolicy) -> str:
    """The report header's line on containment, a warning when it is not full."""
    found = support(policy)
    if found.level is Level.FULL:
        return "sandbox: full"
    return f"sandbox: {found.describe()}\nwarning: the program is not fully contained"


def _shrink_command(args: argparse.Namespace, command: list[str], settings: Settings) -> str:
    """The command line that judges the same run again and shrinks its rejection."""
    if args.replay is not None:
        return f"python -m judge --replay {shlex.quote(str(args.replay))} --shrink"
    own = f"--games {settings.games} --seed {settings.seed} --opponent {settings.opponent}"
    if command:
        return f"python -m judge {own} --shrink -- {shlex.join(command)}"
    return f"python -m judge {shlex.quote(str(args.path))} {own} --shrink"


def _shrink_and_report(manifest: Manifest, settings: Settings, run: Run,
                       replay_path: Path | None, seconds: float) -> None:
    """Shrink a rejection, save the smallest case as a replay and a test, and print it."""
    from judge.report import shrunk_lines
    from judge.shrink import shrink, test_body

    shrunk = shrink(manifest, settings, run, seconds=seconds,
                    progress=lambda text: print(printable(text), file=sys.stderr, flush=True))
    if shrunk is None:
        print("\nshrink: nothing to shrink: the rejection came before the first game", flush=True)
        return
    problems: list[str] = []
    try:
        base = replay_path or default_replay_path(manifest.name, settings.seed)
        shrunk_replay: Path | None = base.with_name(base.stem + "-shrunk.json")
        test_path: Path | None = base.with_name(
            "test_" + base.stem.replace("-", "_") + "_shrunk.py")
        assert shrunk_replay is not None and test_path is not None
        write_atomically(shrunk_replay, replay_text(shrunk.run.replay))
        write_atomically(test_path, test_body(shrunk, manifest, settings.seed))
    except OutputError as error:
        problems.append(f"could not write the shrunk case: {error}")
        shrunk_replay = test_path = None
    lines = shrunk_lines(shrunk, manifest, shrunk_replay, test_path)
    print("\n".join(printable(line) for line in (*lines, *problems)), flush=True)


def judge_many(args: argparse.Namespace) -> int:
    """Judge every submission in a folder and print the leaderboard table."""
    from judge.leaderboard import judge_collection, table_lines, write_markdown

    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    check_outputs(args)
    print(sandbox_line(args.sandbox), flush=True)
    rows = judge_collection(args.path, lambda m: settings_from(args, m, seed, None), jobs=args.jobs)
    lines = table_lines(rows)
    print("\n".join(printable(line) for line in lines))
    if args.markdown:
        try:
            write_markdown(rows, args.markdown)
        except OutputError as error:
            print(f"could not write the Markdown table: {printable(str(error))}")
    accepted = sum(row.verdict == Verdict.ACCEPTED.value for row in rows)
    print(f"{accepted} of {len(rows)} accepted")
    return 0 if accepted == len(rows) else 1


def _stop_on_terminate(signum: int, frame: object) -> None:
    """Turn SIGTERM into an exception, so that the program being judged is killed too."""
    raise SystemExit(128 + signum)


def run(args: argparse.Namespace, command: list[str]) -> int:
    """Act on parsed arguments: judge a folder of submissions, or one; the exit status."""
    try:
        if command and args.path is not None:
            raise UsageError("give either a PATH or -- COMMAND, not both")
        if not command and args.path is not None and is_collection(args.path) \
                and not is_submission(args.path):
            return judge_many(args)
        return judge_one(args, command)
    except (UsageError, ManifestError, ReplayError, SandboxError,
            OSError) as error:  # SpawnError included
        print(f"menace-judge: {printable(str(error))}", file=sys.stderr)
        print(f"bad usage: {printable(str(error))}")
        return BAD_USAGE
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run the judge with these arguments; the exit status."""
    own, command = _split_command(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(own)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else BAD_USAGE
    if threading.current_thread() is not threading.main_thread():
        return run(args, command)
    previous = signal.signal(signal.SIGTERM, _stop_on_terminate)
    try:
        return run(args, command)
    finally:
        signal.signal(signal.SIGTERM, previous)
