"""The judge's command line as a parser: every option, its type checked where it enters, its
help; and the COMMAND after `--` split off."""

from __future__ import annotations

import argparse
import math
import shlex
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Final

from reference.commandline import OneLineParser

from judge.bare import LANGUAGES
from judge.terms import options
from judge.terms.options import (
    BeadFormat,
    Choice,
    MoveFormat,
    OpponentKind,
    OptionError,
    RefillRule,
    SandboxPolicy,
    Transport,
    parse,
)

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
    play.add_argument("--thorough", action="store_true",
                      help="after the run, if a statistical alternative has less than 99%% "
                           "power, a second run of as many games as it needs, within "
                           "--thorough-time (docs/statistics.md)")
    play.add_argument("--thorough-time", type=seconds("--thorough-time"),
                      default=options.THOROUGH_SECONDS, metavar="SECONDS",
                      help="time budget of --thorough, both runs (default %(default)s)")
    play.add_argument("--source", type=Path, metavar="FILE",
                      help="for a bare COMMAND (after --): the file whose bytes are its score "
                           "(SPEC section 9), copied into its folder like the files the "
                           "command names; a bare FILE is its own source, a folder names "
                           "its source in submission.toml")
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
    base, per_game = options.output_limit(0), options.output_limit(1) - options.output_limit(0)
    limits.add_argument("--output-limit", type=whole(*options.OUTPUT_RANGE_MB, "a number of MB"),
                        default=None, metavar="MB",
                        help=f"stdout and stderr together (default {base >> 20} MB + "
                             f"{per_game >> 10} KB per game)")
    play.add_argument("-j", "--jobs", type=whole(1, options.MAX_JOBS, "a number of jobs"),
                      default=options.jobs(), metavar="N",
                      help="for a folder of submissions: judge N at once, each with its own "
                           "limits (default: the number of cores, %(default)s)")
    limits.add_argument("--sandbox", type=choice(SandboxPolicy, "--sandbox"),
                        default=options.SANDBOX, metavar=braced(SandboxPolicy),
                        help="auto (default: the best containment this machine gives, with a "
                             "warning when it is not full), require (refuse to run without "
                             "full containment) or off (trusted code only)")
    limits.add_argument("--no-systemd-run", action="store_true",
                        help="where cgroup v2 gives the judge no delegated group, do not run it "
                             "again in a scope of its own from systemd-run --user --scope -p "
                             "Delegate=yes (which it does by default, for full containment): "
                             "the sandbox is then partial")
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


def split_command(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """The judge's own arguments, and the COMMAND after `--`."""
    items = list(argv)
    if "--" in items:
        cut = items.index("--")
        return items[:cut], items[cut + 1:]
    return items, []
