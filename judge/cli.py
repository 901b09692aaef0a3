"""The command line: judge one submission, a bare command, a replay, or a folder of submissions."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import math
import os
import random
import shlex
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Final, NoReturn, TextIO

from judge import launch, options
from judge.bare import LANGUAGES, bare_manifest
from judge.launch import Settings
from judge.manifest import (
    Manifest,
    ManifestError,
    declared,
    is_collection,
    is_submission,
    read_manifest,
)
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
from judge.outputs import (
    OutputError,
    check_output,
    default_replay_path,
    is_stdout,
    write_atomically,
    write_output,
)
from judge.replay import Replay, ReplayError, read_replay, replay_text
from judge.sandbox import Level, RuntimeHidden, SandboxError, support
from judge.text import printable
from judge.verdict import BAD_USAGE, Verdict, exit_status
from judge.workspace import CopyError, named_files

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
                  "--shrink-time": options.MAX_TIME_SECONDS}
"""The most seconds each time option allows; each must be above 0."""


CLOSED_STDOUT: Final = 128 + signal.SIGPIPE
"""The exit status when whoever reads the judge's output stops reading, as a shell gives it."""


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


def character(text: str) -> str:
    """An option type: a single character."""
    if len(text) != 1:
        raise argparse.ArgumentTypeError(f"{_quoted(text)} is not a single character")
    return text


def shell_words(text: str) -> str:
    """An option type: words as a shell splits them (kept as written; split where used)."""
    try:
        shlex.split(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{_quoted(text)}: {error}") from None
    return text


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


def cores(text: str) -> float:
    """An option type: a number of cores, from a tenth to MAX_CPUS."""
    try:
        value = float(text) if len(text) < 40 else math.nan
    except ValueError:
        value = math.nan
    if math.isfinite(value) and 0.1 <= value <= options.MAX_CPUS:
        return value
    raise argparse.ArgumentTypeError(
        f"{_quoted(text)} is not a number of cores from 0.1 to {options.MAX_CPUS}")


def _quoted(text: str) -> str:
    """A value from the command line, quoted for a message and cut to a readable length."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + f"... ({len(text):,} characters)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m judge`."""
    parser = OneLineParser(
        prog="python -m judge",
        description="Judge a MENACE submission (SPEC.md) by playing it interactively. "
                    "PATH is a submission folder (with submission.toml), a folder of them "
                    "(a leaderboard), or a bare source file; after --, a COMMAND to judge.",
        epilog="Exit status: 0 accepted, 1 rejected, 2 bad usage (nothing was run), 3 judge "
               "error. The last line printed is the verdict.")
    parser.add_argument("path", nargs="?", type=Path,
                        help="a submission folder, a folder of them, or a bare source file "
                             f"({', '.join(LANGUAGES)})")
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
                           f"manifest's or the file's header's, else {options.TRANSPORT}")
    play.add_argument("--replay", type=Path, metavar="FILE",
                      help="play again the seed and opponent moves saved by a rejection; "
                           "a command taken from the file is shown and asked about first")
    play.add_argument("--yes", action="store_true",
                      help="run the command of a --replay file without asking (for scripts)")
    declare = parser.add_argument_group(
        "declarations for a bare FILE or COMMAND (SPEC section 8)",
        "a bare FILE may also declare them in a header among its first five lines, e.g. "
        "`# menace-judge: moves=digits0 beads=0-8 refill=on-draw transport=pipe`; these "
        "options override it")
    declare.add_argument("--moves", type=choice(MoveFormat, "--moves"), default=None,
                         metavar=braced(MoveFormat), help="default letters")
    declare.add_argument("--beads", type=choice(BeadFormat, "--beads"), default=None,
                         metavar=braced(BeadFormat), help="default auto")
    declare.add_argument("--refill", type=choice(RefillRule, "--refill"), default=None,
                         metavar=braced(RefillRule), help="default on-empty")
    for symbol in ("x", "o", "empty"):
        declare.add_argument(f"--{symbol}", type=character, default=None,
                             metavar="CHAR", help=f"the character for {symbol.upper()}"
                             if symbol != "empty" else "the character for an empty square")
    declare.add_argument("--seed-args", type=shell_words, default=None, metavar="WORDS",
                         help="how the program takes the judge's seed, e.g. '--seed {seed}' "
                              "({seed} is replaced by the seed): its runs are then repeatable, "
                              "which --shrink and --replay need")
    limits = parser.add_argument_group("limits")
    limits.add_argument("--idle-limit", type=seconds("--idle-limit"), default=options.IDLE_SECONDS,
                        metavar="SECONDS",
                        help="silence allowed while output is awaited (default %(default)s)")
    limits.add_argument("--time-limit", type=seconds("--time-limit"), default=None,
                        metavar="SECONDS",
                        help=f"CPU time of the whole run, its processes together (default "
                             f"{options.time_limit(0):g} + "
                             f"{options.time_limit(1) - options.time_limit(0):g} s per game); "
                             f"the wall clock allows {options.WALL_FACTOR} times as much, so a "
                             "loaded machine does not fail a correct program")
    limits.add_argument("--cpus", type=cores, default=options.CPUS, metavar="N",
                        help="cores a run may use at once, a CPU quota where control groups "
                             "allow it, so runs side by side (-j) do not starve each other "
                             "(default %(default)s)")
    limits.add_argument("--grace", type=seconds("--grace"), default=options.GRACE_SECONDS,
                        metavar="SECONDS",
                        help="time to exit after the last dump (default %(default)s)")
    limits.add_argument("--memory-limit", type=whole(*options.MEMORY_RANGE_MB, "a number of MB"),
                        default=options.MEMORY_MB,
                        metavar="MB",
                        help="memory of the whole run under full containment, and address "
                             "space of each process (default %(default)s MB); a manifest's "
                             "memory_mb may lower it, never raise it")
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
    out.add_argument("--json", type=Path, metavar="FILE",
                     help="write the report as JSON (for a folder of submissions: every row); "
                          "- writes it to stdout, and the report then goes to stderr")
    out.add_argument("--transcript", type=Path, metavar="FILE",
                     help="write the whole transcript (> judge to program, < program to judge; "
                          "a flood is kept to its first 16 MB and its last lines, with a note "
                          "where it was cut); - writes it to stdout, and the report then goes "
                          "to stderr")
    out.add_argument("--save-replay", type=Path, metavar="FILE",
                     help="where a rejection saves its replay (default: a new file in a private "
                          "folder of yours, ~/.cache/menace-judge/replays)")
    out.add_argument("--markdown", type=Path, metavar="FILE",
                     help="for a folder of submissions: write the table as Markdown (- to "
                          "stdout)")
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
        transport = manifest.transport
        bare_file = manifest.folder is None and manifest.source_file() is not None
        source = TransportSource.HEADER if bare_file else TransportSource.MANIFEST
    else:
        transport, source = options.TRANSPORT, TransportSource.DEFAULT
    return Settings(
        games=games, seed=seed, opponent=replay.opponent if replay else args.opponent,
        transport=transport, transport_source=source,
        idle_seconds=args.idle_limit, time_limit=args.time_limit, grace_seconds=args.grace,
        memory_mb=min(manifest.memory_mb or args.memory_limit, args.memory_limit),
        cpus=args.cpus,
        output_bytes=args.output_limit << 20 if args.output_limit else None,
        keep_transcript=args.transcript is not None,
        sandbox=args.sandbox,
        scripted=replay.moves if replay else None,
    )


DECLARED: Final = ("moves", "beads", "refill", "x", "o", "empty", "seed_args")
"""The declaration options, by their names in args and in a manifest."""


def given_declarations(args: argparse.Namespace) -> dict[str, str]:
    """The declarations given on the command line, as words."""
    return {key: str(getattr(args, key)) for key in DECLARED if getattr(args, key) is not None}


def _declaration_options(args: argparse.Namespace) -> str:
    """The declaration options given, as they are typed again."""
    return "".join(f" --{key.replace('_', '-')} {shlex.quote(text)}"
                   for key, text in given_declarations(args).items())


def _manifest_for(args: argparse.Namespace, command: list[str],
                  replay: Replay | None) -> Manifest:
    """The manifest of what is to be judged: a folder, a bare file or command, or the replay's."""
    if command:
        words, files = named_files(tuple(command), Path.cwd())
        return declared(words, given_declarations(args), files)
    path = args.path
    if path is None and replay is not None:
        if replay.submission:
            path = Path(replay.submission)
        elif replay.command:
            return declared(replay.command, given_declarations(args),
                            replay.files_here(Path.cwd()))
    if path is None:
        raise UsageError("nothing to judge: give a submission folder or source file, "
                         "or -- COMMAND")
    if path.is_file():
        return bare_manifest(path, given_declarations(args))
    if not path.is_dir():
        raise UsageError(f"no such file or folder: {str(path)!r}")
    if not is_submission(path):
        raise UsageError(f"no submission.toml in {str(path)!r}")
    return read_manifest(path)


def confirm(manifest: Manifest, replay_file: Path, yes: bool) -> None:
    """Show the command a replay file would run, and ask before running it (unless --yes)."""
    origin = manifest.origin()
    where = (f" (from {manifest.folder / 'submission.toml'})" if manifest.folder
             else f" (on the file {origin})" if origin else "")
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


STDOUT_OUTPUTS: Final = ("json", "transcript", "markdown")
"""The outputs that `-` may send to the standard output (the report then goes to stderr)."""


def need_hypothesis() -> None:
    """Fail now, before the run, when hypothesis, which --shrink uses, is not installed."""
    try:
        importlib.import_module("hypothesis")
    except ImportError:
        raise UsageError("--shrink needs hypothesis, which is not installed: "
                         "python3 -m pip install hypothesis") from None


def check_outputs(args: argparse.Namespace) -> None:
    """Fail now, before the run, on an output file that could not be written."""
    to_stdout = [f"--{option}" for option in STDOUT_OUTPUTS if is_stdout(getattr(args, option))]
    if len(to_stdout) > 1:
        raise UsageError(f"{' and '.join(to_stdout)} cannot both be - (the standard output)")
    if is_stdout(args.save_replay):
        raise UsageError("--save-replay: a replay is saved to a file, not to - (the standard "
                         "output)")
    for option in ("json", "transcript", "save_replay", "markdown"):
        path = getattr(args, option)
        if path is not None:
            try:
                check_output(path)
            except OutputError as error:
                raise UsageError(f"--{option.replace('_', '-')}: {error}") from None


def judge_one(args: argparse.Namespace, command: list[str], stdout: TextIO) -> int:
    """Judge one submission, file or command and print its report; the exit status.

    `stdout` is where an output named `-` goes."""
    replay = read_replay(args.replay) if args.replay else None
    manifest = _manifest_for(args, command, replay)
    seed = replay.seed if replay else (args.seed if args.seed is not None
                                        else random.randrange(1 << 31))
    settings = settings_from(args, manifest, seed, replay)
    check_outputs(args)
    if args.shrink:
        need_hypothesis()
    if replay is not None and not command and args.path is None:
        confirm(manifest, args.replay, args.yes)
    size = manifest.source_bytes()
    about = manifest.language + ("" if size is None else f", {size} bytes")
    print(printable(f"judging {manifest.name} ({about}): {settings.games} games, "
                    f"seed {seed}, opponent {settings.opponent}, transport {settings.transport} "
                    f"(from {settings.transport_source})"),
          flush=True)
    print(sandbox_line(settings.sandbox), flush=True)
    run = _judged(manifest, settings, shrinking=args.shrink)
    from judge.report import json_text, report_lines, transcript_text
    from judge.shrink import shrinkable

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
    print("\n".join(printable(line) for line in (*lines, *problems)), flush=True)
    if args.shrink and can_shrink:
        _shrink_and_report(manifest, settings, run, replay_path, args.shrink_time)
    print(printable(verdict), flush=True)
    return exit_status(run.decision.verdict)


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
    own = (f"--games {settings.games} --seed {settings.seed} --opponent {settings.opponent}"
           + _declaration_options(args))
    if command:
        return f"python -m judge {own} --shrink -- {shlex.join(command)}"
    return f"python -m judge {shlex.quote(str(args.path))} {own} --shrink"


def _shrink_and_report(manifest: Manifest, settings: Settings, run: Run,
                       replay_path: Path | None, seconds: float) -> None:
    """Shrink a rejection, save the smallest case as a replay and a test, and print it."""
    from judge.report import shrunk_lines
    from judge.shrink import NotShrunk, shrink, test_body

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
    from judge.leaderboard import judge_collection, table_lines, write_json, write_markdown

    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    check_outputs(args)
    print(sandbox_line(args.sandbox), flush=True)
    rows = judge_collection(args.path, lambda m: settings_from(args, m, seed, None), jobs=args.jobs)
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


def _stop_on_terminate(signum: int, frame: object) -> None:
    """Turn SIGTERM into an exception, so that the program being judged is killed too."""
    raise SystemExit(128 + signum)


def run(args: argparse.Namespace, command: list[str]) -> int:
    """Act on parsed arguments: judge a folder of submissions, or one; the exit status.

    When an output goes to the standard output (`-`), everything else printed goes to stderr.
    """
    stdout = sys.stdout
    taken = any(is_stdout(getattr(args, option)) for option in STDOUT_OUTPUTS)
    with contextlib.redirect_stdout(sys.stderr) if taken else contextlib.nullcontext():
        return _run(args, command, stdout)


def _run(args: argparse.Namespace, command: list[str], stdout: TextIO) -> int:
    """Judge a folder of submissions, or one; a bad request is a message and status 2."""
    try:
        if command and args.path is not None:
            raise UsageError("give either a PATH or -- COMMAND, not both")
        if not command and args.path is not None and is_collection(args.path) \
                and not is_submission(args.path):
            return judge_many(args, stdout)
        return judge_one(args, command, stdout)
    except (UsageError, ManifestError, ReplayError, SandboxError, CopyError,
            OSError) as error:  # SpawnError included
        print(f"menace-judge: {printable(str(error))}", file=sys.stderr)
        print(f"bad usage: {printable(str(error))}")
        return BAD_USAGE
    except RuntimeHidden as error:
        print(f"menace-judge: {printable(str(error))}", file=sys.stderr)
        print(Verdict.JUDGE_ERROR.value)
        return exit_status(Verdict.JUDGE_ERROR)
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
    except BrokenPipeError:  # `| head` read what it wanted: stop quietly, as a filter does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_STDOUT
    finally:
        signal.signal(signal.SIGTERM, previous)
