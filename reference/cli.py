"""The command line: `python -m reference` plays the challenge against a person."""

from __future__ import annotations

import argparse
import io
import random
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from reference.board import X
from reference.challenge import play_session
from reference.commandline import OneLineParser, UsageError
from reference.console import Console, EndOfInput
from reference.menace import InvalidBoxesError, Menace
from reference.numbers import NumberTextError, whole_number
from reference.outcome import Tally
from reference.rules import MAX_BEADS, PRESETS, EmptyBox, InvalidRulesError, Rules

DESCRIPTION = """\
Play noughts and crosses against MENACE, Donald Michie's 1961 machine that learns from
304 matchboxes of beads. MENACE plays X and moves first. The program reads the number of
games, then your moves as two letters from L, M, R (row: L top, M middle, R bottom; then
column: L left, M middle, R right). It prints every board and, after each game, all 304
matchboxes: each box's label (a board, nine cells of X, O and .) and its beads (cells 0-8).
Prompts, messages and the score go to stderr; stdout holds only the transcript."""

EPILOG = """\
rules: 'challenge' (default) starts every box with one bead per empty square, returns the
drawn bead plus one more after a win, returns it after a draw, keeps it after a loss, and
refills a box the moment it is emptied with three random legal beads. 'michie' is Michie's
own: 4, 3, 2, 1 beads per distinct move for MENACE's 1st to 4th move, +3 win, +1 draw,
-1 loss, and resignation when a box is empty.

examples:
  python -m reference                      play, typing the number of games first
  python -m reference --seed 7 < moves.txt replay a game from a file, deterministically
  python -m reference --boxes menace.json  keep what MENACE learns between sessions

more: 'python -m reference train', 'evaluate' and 'boxes' train MENACE against other players,
measure it and draw its matchboxes (each has its own --help).

exit status: 0 after the last game; 1 when input ends early, is interrupted, or the boxes
cannot be saved after a game; 2 for bad options, or a boxes file that cannot be used, cannot be
written or is in use by another session (it is left untouched)."""


def beads_option(text: str) -> tuple[int, int, int, int]:
    """Four bead counts, for MENACE's 1st to 4th move, from text like '4,3,2,1'."""
    parts = text.split(",")
    try:
        if len(parts) != 4:
            raise NumberTextError(f"{len(parts)} counts")
        a, b, c, d = (whole_number(p, 1, MAX_BEADS, "a bead count") for p in parts)
    except NumberTextError as error:
        raise argparse.ArgumentTypeError(
            f"not four whole numbers from 1 to {MAX_BEADS:,} separated by commas, e.g. 4,3,2,1 "
            f"({error})") from None
    return (a, b, c, d)


def incentive_option(text: str) -> int:
    """Beads added after a game's outcome: -1 (the drawn bead stays out) up to MAX_BEADS."""
    try:
        return whole_number(text, -1, MAX_BEADS, "a number of beads")
    except NumberTextError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """The options that choose the rules: a preset and overrides of its parts."""
    parser.add_argument("--rules", choices=sorted(PRESETS), default="challenge",
                        help="the rules preset (default: challenge)")
    parser.add_argument("--beads", type=beads_option, metavar="A,B,C,D",
                        help="initial beads per square for MENACE's 1st, 2nd, 3rd, 4th move")
    parser.add_argument("--win", type=incentive_option, metavar="N", help="beads added after a win")
    parser.add_argument("--draw", type=incentive_option, metavar="N",
                        help="beads added after a draw")
    parser.add_argument("--loss", type=incentive_option, metavar="N",
                        help="beads added after a loss (-1 keeps the drawn bead out)")
    parser.add_argument("--empty-box", choices=[e.value for e in EmptyBox],
                        help="what an emptied box does: refill with three random beads, "
                        "resign, or play a random move")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the challenge program."""
    parser = OneLineParser(
        prog="python -m reference",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seed", type=int, help="seed MENACE's random draws: the same seed and "
                        "the same moves give the same transcript (default: unpredictable)")
    add_rules_options(parser)
    parser.add_argument("--boxes", type=Path, metavar="FILE",
                        help="load the matchboxes from FILE at the start (a missing file starts "
                        "fresh) and save them there after every game")
    return parser


def rules_from(options: argparse.Namespace) -> Rules:
    """The rules the options ask for: a preset with any overrides."""
    rules = PRESETS[options.rules]
    changes: dict[str, object] = {}
    if options.beads is not None:
        changes["initial_beads"] = options.beads
    for name in ("win", "draw", "loss"):
        if getattr(options, name) is not None:
            changes[name] = getattr(options, name)
    if options.empty_box is not None:
        changes["empty_box"] = EmptyBox(options.empty_box)
    try:
        return replace(rules, **changes)  # type: ignore[arg-type]
    except InvalidRulesError as error:
        raise UsageError(str(error)) from error


def load_menace(
    rules: Rules, rng: random.Random, path: Path | None, player: str = X
) -> tuple[Menace, int]:
    """A MENACE under `rules`, with the boxes saved at `path` if there are any; games learned."""
    menace = Menace(rules, player=player, rng=rng)
    if path is None or not path.exists():
        return menace, 0
    from reference.boxes_file import BoxFileError, load_boxes  # JSON only when a file is used

    try:
        counts, games = load_boxes(path, player)
        menace.load_counts(counts)
    except (BoxFileError, InvalidBoxesError) as error:
        raise UsageError(f"cannot use the boxes file: {error} (the file is left as it is)"
                         ) from error
    return menace, games


@contextmanager
def saving_to(path: Path | None) -> Iterator[None]:
    """Hold the boxes file of a session that saves to it: checked writable first, and locked."""
    if path is None:
        yield
        return
    from reference.boxes_file import BoxesLock, BoxFileError, check_writable

    lock = BoxesLock(path)
    try:
        check_writable(path)
        lock.acquire()
    except BoxFileError as error:
        raise UsageError(f"{error} (the file is left as it is)") from None
    try:
        yield
    finally:
        lock.release()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the challenge program; the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        options = build_parser().parse_args(arguments)
    except SystemExit as stop:
        return int(stop.code or 0)
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # a line that is not text is not a move either
    console = Console(sys.stdin, sys.stdout, sys.stderr, interactive=sys.stdin.isatty())
    try:
        rules = rules_from(options)
        with saving_to(options.boxes):
            menace, games_before = load_menace(rules, random.Random(options.seed), options.boxes)
            return play(menace, games_before, options.boxes, console)
    except UsageError as error:
        console.say(f"menace: {error}")
        return 2


def play(menace: Menace, games_before: int, path: Path | None, console: Console) -> int:
    """Play the session, saving the boxes to `path` after every game; the exit status."""
    from reference.boxes_file import BoxFileError, save_boxes

    if path is not None and console.interactive:
        learned = f"{games_before} games learned" if games_before else "fresh boxes"
        console.say(f"Boxes: {path} ({learned}); saved after every game.")

    def save(score: Tally) -> None:
        """Save the boxes after a game, when a boxes file is in use."""
        if path is not None:
            save_boxes(path, X, menace.counts(), games_before + score.games)

    try:
        play_session(menace, console, after_game=save)
    except EndOfInput:
        kept = f"; the boxes learned so far are in {path}" if path is not None else ""
        console.say(f"menace: input ended before the session was over{kept}")
        return 1
    except KeyboardInterrupt:
        kept = f"; the boxes learned so far are in {path}" if path is not None else ""
        console.say(f"\nmenace: interrupted{kept}")
        return 1
    except BrokenPipeError:
        sys.stderr.write("menace: the output was closed\n")
        return 1
    except BoxFileError as error:
        console.say(f"menace: {error}; it holds the boxes as of the last game saved")
        return 1
    return 0
