"""Pictures with matplotlib (the extra `plot`): learning curves, evaluations and the matchboxes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from reference.board import EMPTY, Board, O, X
from reference.outcome import Outcome
from reference.study.curves import Curve, checkpoints
from reference.study.evaluation import Evaluation

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

DPI = 100
CURVE_SIZE = (9.0, 7.0)
"""The learning curve's size in inches: 900 x 700 pixels."""
EVALUATION_SIZE = (9.0, 5.0)
"""The evaluation chart's size in inches: 900 x 500 pixels."""
POINTS = 2_000
"""Points drawn along a learning curve, evenly and on a log scale: enough for any width."""
BOXES_COLUMNS = 20
BOX_CELL = 0.2
"""Inches per square of a small board in the matchbox picture."""

COLOURS = {"win": "tab:green", "draw": "tab:blue", "loss": "tab:red", "score": "black"}
ORDINALS = ("1st", "2nd", "3rd", "4th")


class PlottingUnavailableError(RuntimeError):
    """matplotlib is not installed, so no picture can be drawn."""


def _figure(size: tuple[float, float]) -> Figure:
    """A new figure of this size in inches, drawn without a window."""
    try:
        from matplotlib.figure import Figure
    except ImportError as error:
        raise PlottingUnavailableError(
            "drawing pictures needs matplotlib: pip install 'menace-golf[plot]' "
            "(or pip install matplotlib)"
        ) from error
    return Figure(figsize=size, dpi=DPI)


def require_matplotlib() -> None:
    """Check that pictures can be drawn, before a long run that ends with one."""
    _figure((1.0, 1.0))


def _save(figure: Figure, path: Path) -> None:
    """Write the figure as a PNG of exactly its size."""
    figure.savefig(path, format="png", dpi=DPI)


def learning_curve(curve: Curve, path: Path, title: str, *, log_games: bool = False) -> None:
    """Draw the learning curve to a PNG file."""
    _save(learning_curve_figure(curve, title, log_games=log_games), path)


def learning_curve_figure(curve: Curve, title: str, *, log_games: bool = False) -> Figure:
    """The cumulative win, draw and loss rates (top) and Michie's score (bottom) after each game."""
    figure = _figure(CURVE_SIZE)
    rates, score = figure.subplots(2, 1, sharex=True)
    if log_games:
        score.set_xscale("log")
    games = checkpoints(curve.games, POINTS)  # every game of a short run, a sample of a long one

    def at_games(values: list[float]) -> list[float]:
        return [values[g - 1] for g in games]

    many = curve.learners > 1
    for measure in ("win", "draw", "loss"):
        label = f"{measure} rate" + (" (mean)" if many else "")
        rates.plot(games, at_games(curve.mean(measure)), color=COLOURS[measure], label=label,
                   linewidth=1.6)
        _band(rates, curve, measure)
    rates.set_ylim(0, 1)
    rates.set_ylabel("share of games so far")
    rates.legend(loc="upper right", frameon=False)
    rates.set_title(title)
    score.plot(games, at_games(curve.mean("score")), color=COLOURS["score"], linewidth=1.6,
               label="wins + draws - losses" + (" (mean)" if many else ""))
    _band(score, curve, "score")
    score.axhline(0, color="grey", linewidth=0.8)
    score.set_xlabel("game (log scale)" if log_games else "game")
    score.set_ylabel("Michie's score")
    score.legend(loc="upper left", frameon=False)
    if many:
        figure.text(0.99, 0.005, f"{curve.learners:,} learners; bands: middle 80% of them",
                    ha="right", va="bottom", fontsize=8)
    figure.tight_layout()
    return figure


def _band(axes: Axes, curve: Curve, measure: str) -> None:
    """Shade the spread between learners of one measure, if there is one."""
    band = curve.bands.get(measure)
    if band is not None and band.games:
        axes.fill_between(band.games, band.low, band.high, color=COLOURS[measure], alpha=0.2,
                          linewidth=0)


def evaluation_chart(evaluations: Sequence[Evaluation], path: Path, title: str) -> None:
    """Draw the evaluation chart to a PNG file."""
    _save(evaluation_figure(evaluations, title), path)


def evaluation_figure(evaluations: Sequence[Evaluation], title: str) -> Figure:
    """Each opponent's win, draw and loss rates as bars with 95% intervals, and the exact odds."""
    figure = _figure(EVALUATION_SIZE)
    axes = figure.subplots()
    width = 0.26
    for i, result in enumerate(Outcome):
        xs = [k + (i - 1) * width for k in range(len(evaluations))]
        intervals = [e.interval(result) for e in evaluations]
        heights = [iv.rate for iv in intervals]
        errors = [[iv.rate - iv.low for iv in intervals], [iv.high - iv.rate for iv in intervals]]
        axes.bar(xs, heights, width=width, color=COLOURS[result.word], label=result.word,
                 yerr=errors, capsize=3)
        exact = [getattr(e.odds, result.word) for e in evaluations]
        axes.scatter(xs, exact, marker="D", s=16, color="black", zorder=3,
                     label="exact odds" if i == 0 else None)
    axes.set_xticks(range(len(evaluations)), [e.opponent for e in evaluations])
    axes.set_ylim(0, 1)
    axes.set_ylabel("share of games (95% interval)")
    axes.set_title(title)
    axes.legend(loc="upper right", frameon=False, ncol=4)
    figure.tight_layout()
    return figure


def matchboxes(counts: Mapping[Board, Sequence[int]], player: str, path: Path, title: str) -> None:
    """Draw the matchboxes, given their beads counted per square, to a PNG file."""
    _save(matchboxes_figure(counts, player, title), path)


def matchboxes_figure(counts: Mapping[Board, Sequence[int]], player: str, title: str) -> Figure:
    """Every box as a small board, its empty squares shaded by their share of the box's beads.

    Boxes are grouped by MENACE's move number, in the given order; each square shows its bead
    count, and a box with no beads at all is outlined in red.
    """
    import numpy as np
    from matplotlib.patches import Rectangle

    groups: dict[int, list[Board]] = {}
    for label in counts:
        groups.setdefault(label.count(player), []).append(label)
    rows = sum(1 + -(-len(labels) // BOXES_COLUMNS) for labels in groups.values())
    unit = 4  # three squares and a gap
    width, height = BOXES_COLUMNS * unit, rows * unit
    figure = _figure((width * BOX_CELL, height * BOX_CELL + 0.8))
    axes = figure.add_axes((0.0, 0.0, 1.0, height * BOX_CELL / (height * BOX_CELL + 0.8)))
    axes.set_xlim(-0.5, width - 0.5)
    axes.set_ylim(height - 0.5, -0.5)
    axes.axis("off")
    shares = np.full((height, width), np.nan)
    marks: list[tuple[int, int, str]] = []
    numbers: list[tuple[int, int, int]] = []
    dry: list[tuple[int, int]] = []
    row = 0
    other = O if player == X else X
    for move, labels in sorted(groups.items()):
        boxes = "box" if len(labels) == 1 else "boxes"
        axes.text(-0.3, row * unit + 1.2, f"MENACE's {ORDINALS[move]} move: {len(labels)} {boxes}",
                  fontsize=10, va="center", ha="left")
        row += 1
        for i, label in enumerate(labels):
            top, left = (row + i // BOXES_COLUMNS) * unit, (i % BOXES_COLUMNS) * unit
            beads = counts[label]
            total = sum(beads)
            if not total:
                dry.append((top, left))
            for cell, mark in enumerate(label):
                y, x = top + cell // 3, left + cell % 3
                if mark == EMPTY:
                    n = beads[cell]
                    shares[y, x] = n / total if total else 0.0
                    if n:
                        numbers.append((y, x, n))
                else:
                    shares[y, x] = -1.0
                    marks.append((y, x, mark))
        row += -(-len(labels) // BOXES_COLUMNS)
    from matplotlib import colormaps

    palette = colormaps["Oranges"].with_extremes(under="#d9d9d9", bad="white")
    axes.imshow(shares, cmap=palette, vmin=0.0, vmax=1.0, interpolation="nearest")
    for y, x, mark in marks:
        axes.text(x, y, mark, ha="center", va="center", fontsize=7, fontweight="bold",
                  color="black" if mark == player else "#7b3f00")
    for y, x, n in numbers:
        axes.text(x, y, str(n), ha="center", va="center", fontsize=5,
                  color="white" if shares[y, x] > 0.6 else "#303030")
    for top, left in dry:
        axes.add_patch(Rectangle((left - 0.5, top - 0.5), 3, 3, fill=False, edgecolor="red",
                                 linewidth=1.5))
    figure.suptitle(f"{title}  ({player}: MENACE, {other}: its opponent; shade: share of the "
                    "box's beads, number: beads)", fontsize=11, y=0.995)
    return figure
