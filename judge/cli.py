"""The command line: judge one submission, a bare command, a replay, or a folder of submissions."""

from __future__ import annotations

import argparse
import random
import signal
import sys
import threading
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from judge.launch import OPPONENT_NAMES, Settings, start_program
from judge.manifest import (BEAD_FORMATS, MOVE_FORMATS, REFILL_RULES, Manifest, ManifestError,
                            is_collection, is_submission, read_manifest)
from judge.replay import Replay, ReplayError, read_replay, write_replay
from judge.session import Limits, SpawnError
from judge.verdict import BAD_USAGE, Verdict, exit_status

DEFAULT_GAMES: Final = 200
GAMES_HELP: Final = (
    "games to play (default %(default)s). 200 games take a few seconds against a fast program "
    "and are enough for the rare faults: with the mixed opponent MENACE wins, draws and loses "
    "many times, boxes with symmetric labels are drawn from in every game (the empty board is "
    "one), the coverage opponent steers into nearly empty boxes so refills happen, and the "
    "pooled bead-draws test has a few hundred checked moves, enough to catch draws that ignore "
    "the bead counts")


class UsageError(ValueError):
    """A command line the judge cannot act on."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `python -m judge`."""
    parser = argparse.ArgumentParser(
        prog="python -m judge",
        description="Judge a MENACE submission (SPEC.md) by playing it interactively. "
                    "PATH is a submission folder (with submission.toml) or a folder of them "
                    "(a leaderboard); after --, a COMMAND to judge.",
        epilog="Exit status: 0 accepted, 1 rejected, 2 bad usage, 3 judge error. "
               "The last line printed is the verdict.")
    parser.add_argument("path", nargs="?", type=Path, help="submission folder, or a folder of them")
    play = parser.add_argument_group("playing")
    play.add_argument("--games", type=int, default=DEFAULT_GAMES, help=GAMES_HELP)
    play.add_argument("--seed", type=int, default=None,
                      help="the judge's own randomness (opponents); default: random, printed. "
                           "The same seed replays the same opponent moves")
    play.add_argument("--opponent", choices=OPPONENT_NAMES, default="mixed",
                      help="who plays O (default %(default)s: coverage, random or perfect, "
                           "chosen per game)")
    play.add_argument("--transport", choices=("pty", "pipe"), default=None,
                      help="pty (default: a terminal, output line-buffered, echo off) or pipe "
                           "(strict: a program that never flushes stalls); a replay keeps its own")
    play.add_argument("--replay", type=Path, metavar="FILE",
                      help="play again the seed and opponent moves saved by a rejection")
    declare = parser.add_argument_group("declarations for a bare COMMAND (SPEC section 8)")
    declare.add_argument("--moves", choices=MOVE_FORMATS, default="letters")
    declare.add_argument("--beads", choices=BEAD_FORMATS, default="auto")
    declare.add_argument("--refill", choices=REFILL_RULES, default="on-empty")
    limits = parser.add_argument_group("limits")
    limits.add_argument("--idle-limit", type=float, default=3.0, metavar="SECONDS",
                        help="silence allowed while output is awaited (default %(default)s)")
    limits.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="wall time of the whole run (default 20 + 0.2 s per game)")
    limits.add_argument("--grace", type=float, default=2.0, metavar="SECONDS",
                        help="time to exit after the last dump (default %(default)s)")
    limits.add_argument("--memory-limit", type=int, default=1024, metavar="MB",
                        help="address space (default %(default)s MB)")
    limits.add_argument("--output-limit", type=int, default=None, metavar="MB",
                        help="stdout and stderr together (default 8 MB + 128 KB per game)")
    out = parser.add_argument_group("output")
    out.add_argument("--json", type=Path, metavar="FILE", help="write the report as JSON")
    out.add_argument("--transcript", type=Path, metavar="FILE",
                     help="write the whole transcript (> judge to program, < program to judge)")
    out.add_argument("--save-replay", type=Path, metavar="FILE",
                     help="where a rejection saves its replay (default: a file in the temp folder)")
    out.add_argument("--markdown", type=Path, metavar="FILE",
                     help="for a folder of submissions: write the table as Markdown")
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
    if games < 1:
        raise UsageError(f"--games must be at least 1, not {games}")
    time_limit = args.time_limit if args.time_limit is not None else 20 + 0.2 * games
    output = (args.output_limit << 20) if args.output_limit else (8 << 20) + games * (128 << 10)
    memory = manifest.memory_mb or args.memory_limit
    return Settings(
        games=games, seed=seed, opponent=replay.opponent if replay else args.opponent,
        transport=args.transport or (replay.transport if replay else "pty"),
        idle_seconds=args.idle_limit, time_limit=time_limit,
        grace_seconds=args.grace,
        limits=Limits(cpu_seconds=int(time_limit) + 1, memory_mb=memory, file_mb=16,
                      processes=64, output_bytes=output),
        keep_transcript=args.transcript is not None,
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


def _default_replay_path(manifest: Manifest, seed: int) -> Path:
    """Where a rejection's replay goes when --save-replay is not given."""
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in manifest.name)[:40]
    return Path(tempfile.gettempdir()) / "menace-judge" / f"replay-{name}-{seed}.json"


def judge_one(args: argparse.Namespace, command: list[str]) -> int:
    """Judge one submission or command and print its report; the exit status."""
    replay = read_replay(args.replay) if args.replay else None
    manifest = _manifest_for(args, command, replay)
    seed = replay.seed if replay else (args.seed if args.seed is not None
                                        else random.randrange(1 << 31))
    settings = settings_from(args, manifest, seed, replay)
    print(f"judging {manifest.name} ({manifest.language}): {settings.games} games, "
          f"seed {seed}, opponent {settings.opponent}, transport {settings.transport}",
          flush=True)
    program = start_program(manifest, settings)
    # Loaded only now, while the program starts up: its start-up overlaps the judge's.
    from judge.referee import judge
    from judge.report import report_lines, write_json, write_transcript

    run = judge(manifest, settings, program)
    replay_path: Path | None = None
    if run.decision.verdict is not Verdict.ACCEPTED:
        replay_path = args.save_replay or _default_replay_path(manifest, seed)
        write_replay(run.replay, replay_path)
    if args.json:
        write_json(run, args.json)
    if args.transcript:
        write_transcript(run, args.transcript)
    print("\n".join(report_lines(run, replay_path)), flush=True)
    return exit_status(run.decision.verdict)


def judge_many(args: argparse.Namespace) -> int:
    """Judge every submission in a folder and print the leaderboard table."""
    from judge.leaderboard import judge_collection, table_lines, write_markdown

    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    rows = judge_collection(args.path, lambda m: settings_from(args, m, seed, None))
    lines = table_lines(rows)
    print("\n".join(lines))
    if args.markdown:
        write_markdown(rows, args.markdown)
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
    except (UsageError, ManifestError, ReplayError, SpawnError) as error:
        print(f"menace-judge: {error}", file=sys.stderr)
        print(f"bad usage: {error}")
        return BAD_USAGE
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run the judge with these arguments; the exit status."""
    own, command = _split_command(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(own)
    if threading.current_thread() is not threading.main_thread():
        return run(args, command)
    previous = signal.signal(signal.SIGTERM, _stop_on_terminate)
    try:
        return run(args, command)
    finally:
        signal.signal(signal.SIGTERM, previous)
