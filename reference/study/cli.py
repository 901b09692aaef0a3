"""`python -m reference train|evaluate|boxes`: train MENACE against others, measure it, draw it."""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from reference.board import Board, O, X
from reference.boxes_file import BoxFileError, save_boxes
from reference.cli import (
    add_rules_options,
    load_menace,
    rules_from,
    saving_to,
)
from reference.commandline import OneLineParser, UsageError
from reference.menace import Menace, initial_counts
from reference.numbers import NumberTextError, whole_number
from reference.outcome import Outcome
from reference.rules import PRESETS, EmptyBox, Rules
from reference.study.curves import Curve, curve_from_results, windows
from reference.study.learners import first_move_boxes_empty
from reference.study.progress import ProgressBar
from reference.study.training import (
    OPPONENTS,
    Training,
    UnknownOpponentError,
    opponent_names,
    opponent_sides,
    parse_opponents,
)
from reference.tables import box_table

CHUNK = 5_000
"""Games per call of the training loop for one learner, between progress updates."""

MAX_GAMES = 1_000_000_000
"""The most games a command may be asked to play (per learner, per opponent)."""

MAX_LEARNERS = 100_000
"""The most learners trained side by side: each holds its 304 boxes in memory."""

MAX_TRAINING = 100_000_000
"""The most games of one training run in all (games x learners): the curve keeps each result."""

MAX_WINDOWS = 1_000
"""The most rows of the summary table."""

EPILOG = """\
opponents: random (any free square), perfect (minimax: never loses, picks at random among
its best moves), positional (the centre, else a corner, else a side), defensive (completes its
own line, else blocks MENACE's, else random), menace (another MENACE that learns as it plays,
the other player). A comma-separated list is a pool, played in turn: random,perfect,menace.

examples:
  python -m reference train --opponent perfect --games 5000 --seed 1 --plot curve.png
  python -m reference train --opponent menace --boxes menace.json --games 20000
  python -m reference train --rules michie --beads 1,1,1,1 --opponent perfect --games 2000
  python -m reference train --learners 1000 --opponent perfect --games 2000 --plot band.png
  python -m reference evaluate --boxes menace.json --games 1000 --plot evaluation.png
  python -m reference boxes boxes.png --boxes menace.json

exit status: 0 when done; 1 when interrupted (no file is written) or the boxes could not be
saved; 2 for bad options, a boxes file that cannot be used, written or is in use by another
session (it is left as it is), or pictures asked for without matplotlib."""


class SaveError(Exception):
    """The boxes could not be saved after training."""


def counts_up_to(high: int) -> Callable[[str], int]:
    """An option type: a whole number from 1 to `high`."""
    def count(text: str) -> int:
        """A whole number from 1 to the option's largest, from the command line."""
        try:
            return whole_number(text, 1, high)
        except NumberTextError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return count


def png_path(text: str) -> Path:
    """A path for a PNG picture, in a folder that exists."""
    path = Path(text)
    if path.suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(f"{text!r} does not end in .png")
    if not path.resolve().parent.is_dir():
        raise argparse.ArgumentTypeError(f"the folder of {text!r} does not exist")
    return path


def opponents_option(text: str) -> tuple[str, ...]:
    """Opponent names from a comma-separated list."""
    try:
        return parse_opponents(text)
    except UnknownOpponentError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def tables_option(text: str) -> tuple[str, ...]:
    """Names of opponents given as data (not `menace`) from a comma-separated list."""
    try:
        return parse_opponents(text, allowed=tuple(OPPONENTS))
    except UnknownOpponentError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def _add_seed(parser: argparse.ArgumentParser) -> None:
    """The --seed option of the commands that play games."""
    parser.add_argument("--seed", type=int, help="seed the random draws: the same seed gives the "
                        "same games (default: unpredictable)")


def _add_common(parser: argparse.ArgumentParser) -> None:
    """The options every study command shares: the player and the rules."""
    parser.add_argument("--player", choices=(X, O), default=X,
                        help="the side MENACE plays: X moves first (default X)")
    add_rules_options(parser)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the study commands."""
    parser = OneLineParser(
        prog="python -m reference",
        description="Train MENACE against other players, measure it and draw its matchboxes.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    train = commands.add_parser(
        "train", help="train MENACE and show how it learned",
        description="Train MENACE for a number of games; print win, draw and loss rates per\n"
        "window of games, and say plainly if a box ran dry.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_common(train)
    _add_seed(train)
    train.add_argument("--opponent", type=opponents_option, default=("random",), metavar="LIST",
                       help=f"whom MENACE plays: {', '.join(opponent_names())}, or a "
                       "comma-separated pool played in turn (default: random)")
    train.add_argument("--games", type=counts_up_to(MAX_GAMES), default=10_000,
                       help="games to play (default 10000)")
    train.add_argument("--boxes", type=Path, metavar="FILE",
                       help="continue from the boxes saved in FILE (a missing file starts fresh) "
                       "and save them there at the end; the challenge program's format")
    train.add_argument("--learners", type=counts_up_to(MAX_LEARNERS), default=1, metavar="K",
                       help="train K independent MENACEs and show their mean and spread")
    train.add_argument("--engine", choices=("auto", "numpy", "python"), default="auto",
                       help="for --learners: vectorised with numpy, or pure Python (default: "
                       "numpy when installed and K is 50 or more)")
    train.add_argument("--windows", type=counts_up_to(MAX_WINDOWS), default=10, metavar="N",
                       help="rows of the summary table (default 10)")
    train.add_argument("--plot", type=png_path, metavar="FILE.png",
                       help="draw the learning curve (needs matplotlib)")
    train.add_argument("--log", action="store_true",
                       help="draw the games on a log scale, to show the first few clearly")
    train.add_argument("--quiet", action="store_true", help="no progress bar")
    evaluate = commands.add_parser(
        "evaluate", help="measure a trained MENACE without teaching it",
        description="Play a frozen copy of MENACE against each opponent; its boxes do not change.\n"
        "Prints win, draw and loss rates with 95% intervals, the exact odds, and whether it\n"
        "can ever lose to the perfect player.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_common(evaluate)
    _add_seed(evaluate)
    evaluate.add_argument("--boxes", type=Path, metavar="FILE",
                          help="the saved boxes to measure (default: fresh boxes)")
    evaluate.add_argument("--against", type=tables_option, metavar="LIST",
                          default=tuple(OPPONENTS),
                          help=f"opponents, comma-separated, from {', '.join(OPPONENTS)} "
                          "(default: all four)")
    evaluate.add_argument("--games", type=counts_up_to(MAX_GAMES), default=1_000,
                          help="games against each opponent (default 1000)")
    evaluate.add_argument("--plot", type=png_path, metavar="FILE.png",
                          help="draw the rates as bars with their intervals (needs matplotlib)")
    boxes = commands.add_parser(
        "boxes", help="draw all the matchboxes as a picture",
        description="Draw every matchbox as a small board whose empty squares are shaded by\n"
        "their share of the box's beads, grouped by MENACE's move number.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    boxes.add_argument("picture", type=png_path, metavar="FILE.png", help="the picture to write")
    _add_common(boxes)
    boxes.add_argument("--boxes", type=Path, metavar="FILE",
                       help="the saved boxes to draw (default: fresh boxes under the rules)")
    return parser


def _require_plotting() -> None:
    """Fail early, before a long run, when pictures are asked for and matplotlib is missing."""
    from reference.study.pictures import PlottingUnavailableError, require_matplotlib

    try:
        require_matplotlib()
    except PlottingUnavailableError as error:
        raise UsageError(str(error)) from error


def describe_rules(rules: Rules) -> str:
    """The rules in a few words: the preset's name, or 'custom'."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return f"{name} rules"
    return (f"custom rules: beads {','.join(map(str, rules.initial_beads))}"
            f"{' per distinct move' if rules.distinct_moves_only else ''}, win {rules.win:+d}, "
            f"draw {rules.draw:+d}, loss {rules.loss:+d}, empty box: {rules.empty_box.value}")


def summary_table(curve: Curve, count: int) -> list[str]:
    """The win, draw and loss rates per window of games, and over all games."""
    lines = [f"{'games':>17}  {'win':>6}  {'draw':>6}  {'loss':>6}  {'empty boxes':>11}"]
    rows = windows(curve, count)
    everything = windows(curve, 1)
    for window, name in [(w, f"{w.first:,}-{w.last:,}") for w in rows] + [(everything[0], "all")]:
        n = window.games
        lines.append(
            f"{name:>17}  {window.wins / n:6.1%}  {window.draws / n:6.1%}  {window.losses / n:6.1%}"
            f"  {window.empty_boxes:>11,}"
        )
    score = sum(curve.wins) + sum(curve.draws) - sum(curve.losses)
    per = " per learner, on average" if curve.learners > 1 else ""
    lines.append(f"Michie's score (wins + draws - losses){per}: {score / curve.learners:+,.1f}"
                 if curve.learners > 1 else f"Michie's score (wins + draws - losses): {score:+,}")
    return lines


def empty_box_report(curve: Curve, rules: Rules, player: str, menace: Menace | None) -> list[str]:
    """Plain sentences on boxes that ran dry: how often, what MENACE did, which are empty now."""
    met = sum(curve.empty_boxes)
    if not met:
        return ["No box ran dry."] if rules.empty_box is not EmptyBox.REFILL else []
    first = next(g for g, n in enumerate(curve.empty_boxes) if n) + 1
    who = "MENACE" if curve.learners == 1 else f"the {curve.learners:,} MENACEs"
    menace = menace if curve.learners == 1 else None
    lines = [f"A box ran dry: {who} found a box with no beads {met:,} times, first in game "
             f"{first:,}."]
    if rules.empty_box is EmptyBox.RESIGN:
        lines.append("Under the resign rule MENACE gave up each of those games: they count as "
                     "losses.")
        then_x, then_o = ("resigns every game before it makes a move",
                          "resigns at once whenever X's opening leads to one of them")
    else:
        lines.append("MENACE then played a uniformly random legal move, drawing no bead.")
        then_x, then_o = ("opens every game with a random move, and can no longer learn its "
                          "opening",
                          "plays a random move whenever X's opening leads to one of them")
    if menace is not None:
        counts = menace.counts()
        empty = [label for label, row in counts.items() if not any(row)]
        if empty:
            lines.append(f"{len(empty)} of the {len(counts)} boxes are empty now"
                         + (f": {', '.join(map(repr, empty))}." if len(empty) <= 4 else "."))
        dry = first_move_boxes_empty(menace)
        if dry and menace.player == X:
            lines.append(f"The first box ({dry[0]!r}, MENACE's first move) is empty: MENACE now "
                         f"{then_x}. More beads in it (--beads) make this rarer, and learning "
                         "slower.")
        elif dry:
            lines.append(f"{len(dry)} of its boxes for its first move are empty "
                         f"({', '.join(map(repr, dry))}): MENACE now {then_o}.")
    elif curve.first_move_dry:
        lines.append(f"{curve.first_move_dry:,} of the {curve.learners:,} MENACEs ended with an "
                     f"empty box for their first move: each now "
                     f"{then_x if player == X else then_o}.")
    return lines


def train_one(options: argparse.Namespace, rules: Rules, names: tuple[str, ...],
              bar: ProgressBar) -> tuple[Menace, Curve]:
    """Train one MENACE, from and back to its boxes file if there is one; it and its curve."""
    rng = random.Random(options.seed)
    menace, before = load_menace(rules, rng, options.boxes, options.player)
    training = Training(menace, opponent_sides(names, menace, rng))
    results, empties = bytearray(), bytearray()
    while len(results) < options.games:
        record = training.play(min(CHUNK, options.games - len(results)))
        results += record.results
        empties += record.empty_boxes
        bar.update(len(results))
    if options.boxes is not None:
        try:
            save_boxes(options.boxes, options.player, menace.counts(), before + options.games)
        except BoxFileError as error:
            raise SaveError(f"{error}; it still holds the boxes from before this run") from None
    return menace, curve_from_results([results], [empties])


def train(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run the train command."""
    rules = rules_from(options)
    if options.plot is not None:
        _require_plotting()
    if options.learners > 1 and options.boxes is not None:
        raise UsageError("--boxes keeps one MENACE's boxes; it cannot be used with --learners")
    names: tuple[str, ...] = options.opponent
    total = options.games * options.learners
    if total > MAX_TRAINING:
        raise UsageError(f"--games {options.games:,} x --learners {options.learners:,} is "
                         f"{total:,} games; at most {MAX_TRAINING:,} in one run")
    for name in names:  # build the tables before the clock starts
        if name in OPPONENTS:
            OPPONENTS[name]()
    box_table(X), box_table(O)
    bar = ProgressBar(err, total, enabled=err.isatty() and not options.quiet)
    start = time.perf_counter()
    menace: Menace | None = None
    if options.learners > 1:
        from reference.study.learners import numpy_available, train_learners

        if options.engine == "numpy" and not numpy_available():
            raise UsageError("--engine numpy needs numpy: pip install 'menace-golf[fast]' "
                             "(or pip install numpy)")
        curve = train_learners(rules, options.player, names, options.games, options.learners,
                               seed=options.seed, engine=options.engine, progress=bar.update)
    else:
        with saving_to(options.boxes):
            menace, curve = train_one(options, rules, names, bar)
    seconds = time.perf_counter() - start
    bar.finish()
    who = (f"{options.learners:,} MENACEs" if options.learners > 1 else "MENACE")
    against = ", ".join(names) + (" in turn" if len(names) > 1 else "")
    print(f"{who} ({options.player}, {describe_rules(rules)}) against {against}: "
          f"{options.games:,} games{' each' if options.learners > 1 else ''} "
          f"in {seconds:.2f} s ({total / max(seconds, 1e-9):,.0f} games/s)", file=out)
    if options.learners > 1:
        print("Rates are over all learners' games in each window.", file=out)
    report = empty_box_report(curve, rules, options.player, menace)
    for line in summary_table(curve, options.windows) + report:
        print(line, file=out)
    if options.boxes is not None and menace is not None:
        print(f"Boxes saved to {options.boxes}.", file=out)
    if options.plot is not None:
        from reference.study.pictures import learning_curve

        title = f"{who} ({options.player}) against {against}, {describe_rules(rules).split(':')[0]}"
        learning_curve(curve, options.plot, title, log_games=options.log)
        print(f"Learning curve drawn to {options.plot}.", file=out)
    return 0


def evaluate(options: argparse.Namespace, out: TextIO) -> int:
    """Run the evaluate command."""
    from reference.study.evaluation import evaluate as measure
    from reference.study.evaluation import exact_odds

    rules = rules_from(options)
    if options.boxes is not None and not options.boxes.exists():
        raise UsageError(f"cannot use the boxes file: {str(options.boxes)!r} does not exist")
    if options.plot is not None:
        _require_plotting()
    menace, learned = load_menace(rules, random.Random(), options.boxes, options.player)
    source = f"{options.boxes} ({learned:,} games learned)" if options.boxes else "fresh boxes"
    print(f"MENACE ({options.player}, {describe_rules(rules)}) from {source}, frozen: "
          f"{options.games:,} games against each opponent, no learning.", file=out)
    print(f"{'opponent':>10}  {'win (95% interval)':>22}  {'draw (95% interval)':>22}  "
          f"{'loss (95% interval)':>22}  {'exact odds w/d/l':>19}", file=out)
    results = measure(menace, options.against, options.games, seed=options.seed)
    for e in results:
        cells = []
        for result in Outcome:
            iv = e.interval(result)
            cells.append(f"{iv.rate:6.1%} ({iv.low:5.1%}-{iv.high:5.1%})")
        odds = f"{e.odds.win:.3f}/{e.odds.draw:.3f}/{e.odds.loss:.3f}"
        print(f"{e.opponent:>10}  {cells[0]:>22}  {cells[1]:>22}  {cells[2]:>22}  {odds:>19}",
              file=out)
    perfect = next((e for e in results if e.opponent == "perfect"), None)
    loss = exact_odds(menace, OPPONENTS["perfect"]()).loss
    played = (f"It lost {perfect.tally.losses:,} of {perfect.tally.games:,} games to the perfect "
              "player; " if perfect is not None else "")
    if loss == 0:
        print(f"{played}it can never lose to it: every game its beads allow ends in a draw or "
              "better.", file=out)
    else:
        print(f"{played}it can lose to it: the exact chance is {loss:.2%} a game.", file=out)
    if options.plot is not None:
        from reference.study.pictures import evaluation_chart

        evaluation_chart(results, options.plot, f"MENACE ({options.player}) from {source}, frozen")
        print(f"Chart drawn to {options.plot}.", file=out)
    return 0


def boxes(options: argparse.Namespace, out: TextIO) -> int:
    """Run the boxes command."""
    from reference.study.pictures import matchboxes

    rules = rules_from(options)
    if options.boxes is not None and not options.boxes.exists():
        raise UsageError(f"cannot use the boxes file: {str(options.boxes)!r} does not exist")
    _require_plotting()
    counts: dict[Board, Sequence[int]]
    if options.boxes is not None:
        menace, learned = load_menace(rules, random.Random(), options.boxes, options.player)
        counts = dict(menace.counts())
        title = f"MENACE's matchboxes after {learned:,} games ({options.boxes})"
    else:
        counts = dict(initial_counts(rules, options.player))
        title = f"MENACE's matchboxes, fresh ({describe_rules(rules)})"
    matchboxes(counts, options.player, options.picture, title)
    print(f"{len(counts)} matchboxes drawn to {options.picture}.", file=out)
    return 0


def main(argv: list[str]) -> int:
    """Run a study command; argv[0] is its name. The exit status."""
    try:
        options = build_parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    try:
        if options.command == "train":
            return train(options, sys.stdout, sys.stderr)
        if options.command == "evaluate":
            return evaluate(options, sys.stdout)
        return boxes(options, sys.stdout)
    except UsageError as error:
        sys.stderr.write(f"menace {options.command}: {error}\n")
        return 2
    except SaveError as error:
        sys.stderr.write(f"menace {options.command}: {error}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write(f"\nmenace {options.command}: interrupted; no file was written\n")
        return 1
    except BrokenPipeError:
        sys.stderr.write(f"menace {options.command}: the output was closed\n")
        return 1
