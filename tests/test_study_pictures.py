"""The pictures: what each figure shows (data, labels, curves), and PNG files of the right size."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="matplotlib is not installed (the optional extra 'plot')")

from matplotlib.collections import PathCollection
from matplotlib.container import BarContainer, ErrorbarContainer

from reference.board import O, X
from reference.boxes import box_labels
from reference.menace import Menace
from reference.outcome import Outcome
from reference.study.cli import main
from reference.study.curves import curve_from_results
from reference.study.evaluation import evaluate
from reference.study.pictures import (
    COLOURS,
    POINTS,
    evaluation_figure,
    learning_curve_figure,
    matchboxes_figure,
)

pytestmark = pytest.mark.e2e

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
RESULTS = [bytes([Outcome.LOSS, Outcome.DRAW, Outcome.WIN, Outcome.DRAW, Outcome.WIN] * 4),
           bytes([Outcome.WIN, Outcome.LOSS, Outcome.LOSS, Outcome.DRAW, Outcome.DRAW] * 4)]
"""Two learners' results over 20 games, for curves with known values."""


def png_size(path: Path) -> tuple[int, int]:
    """Width and height in pixels, read from the PNG's header chunk."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG file"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_learning_curve_plots_each_rate_and_the_score_game_by_game() -> None:
    curve = curve_from_results(RESULTS[:1], [bytes(20)])
    figure = learning_curve_figure(curve, "one learner")
    rates, score = figure.axes
    lines = {line.get_label(): line for line in rates.get_lines()}
    assert sorted(lines) == ["draw rate", "loss rate", "win rate"]
    for measure in ("win", "draw", "loss"):
        line = lines[f"{measure} rate"]
        assert list(line.get_xdata()) == list(range(1, 21))  # every game of a short run
        assert list(line.get_ydata()) == pytest.approx(curve.mean(measure))
        assert line.get_color() == COLOURS[measure]
    assert curve.mean("win")[4] == pytest.approx(2 / 5)  # game 5: two wins, two draws, a loss
    (michie,) = [line for line in score.get_lines() if line.get_label().startswith("wins")]
    assert list(michie.get_ydata()) == pytest.approx(curve.mean("score"))
    assert rates.get_title() == "one learner" and rates.get_ylabel() == "share of games so far"
    assert (score.get_xlabel(), score.get_ylabel()) == ("game", "Michie's score")
    assert rates.get_ylim() == (0, 1) and score.get_xscale() == "linear"
    assert not rates.collections  # one learner: no band


def test_many_learners_get_mean_curves_with_bands_and_a_log_scale_on_request() -> None:
    curve = curve_from_results(RESULTS, [bytes(20), bytes(20)])
    figure = learning_curve_figure(curve, "two learners", log_games=True)
    rates, score = figure.axes
    assert {line.get_label() for line in rates.get_lines()} == {
        "win rate (mean)", "draw rate (mean)", "loss rate (mean)"}
    assert len(rates.collections) == 3 and len(score.collections) == 1  # a band per measure
    assert score.get_xscale() == "log" and score.get_xlabel() == "game (log scale)"
    assert any("2 learners" in text.get_text() for text in figure.texts)


def test_a_long_run_is_drawn_at_a_bounded_number_of_points() -> None:
    """POINTS evenly spread games, as many on a log scale, and the last: fewer than the games."""
    games = 4 * POINTS
    curve = curve_from_results([bytes([Outcome.DRAW]) * games], [bytes(games)])
    (line, *_) = learning_curve_figure(curve, "long").axes[0].get_lines()
    xs = list(line.get_xdata())
    assert len(xs) <= 2 * POINTS + 1 < games and (xs[0], xs[-1]) == (1, games)
    assert set(line.get_ydata()) == {0.0}


def test_the_evaluation_chart_shows_each_rate_its_interval_and_the_exact_odds() -> None:
    menace = Menace(rng=random.Random(3))
    evaluations = evaluate(menace, ["random", "perfect"], 60, seed=4)
    axes = evaluation_figure(evaluations, "fresh MENACE").axes[0]
    assert [t.get_text() for t in axes.get_xticklabels()] == ["random", "perfect"]
    bars = [c for c in axes.containers if isinstance(c, BarContainer)]
    errors = [c for c in axes.containers if isinstance(c, ErrorbarContainer)]
    assert [b.get_label() for b in bars] == ["win", "draw", "loss"] and len(errors) == 3
    dots = [c for c in axes.collections if isinstance(c, PathCollection)]
    assert len(dots) == 3
    for outcome, bar, dot in zip(Outcome, bars, dots, strict=True):
        heights = [patch.get_height() for patch in bar.patches]
        assert heights == pytest.approx([e.interval(outcome).rate for e in evaluations])
        exact = [getattr(e.odds, outcome.word) for e in evaluations]
        assert list(dot.get_offsets()[:, 1]) == pytest.approx(exact)
    assert axes.get_title() == "fresh MENACE" and axes.get_ylim() == (0, 1)


@pytest.mark.parametrize("player, boxes, rows", [(X, (1, 12, 108, 183), 22),
                                                 (O, (3, 38, 153, 95), 20)])
def test_the_matchbox_picture_has_a_board_per_box_under_a_heading_per_move(
    player: str, boxes: tuple[int, ...], rows: int,
) -> None:
    """20 boards a row, each 4 units (3 squares and a gap) wide and high, under a heading row per
    move number: X's 1 + 12 + 108 + 183 boxes take 4 heading rows and 1 + 1 + 6 + 10 rows of
    boards; O's 3 + 38 + 153 + 95 take 4 and 1 + 2 + 8 + 5. A dry box is outlined in red."""
    counts = {label: [int(mark == ".") for mark in label] for label in box_labels(player)}
    first = next(iter(counts))
    counts[first] = [0] * 9
    figure = matchboxes_figure(counts, player, "boxes")
    axes = figure.axes[0]
    headings = [t.get_text() for t in axes.texts if t.get_text().startswith("MENACE's")]
    assert headings == [f"MENACE's {nth} move: {n} box{'es' if n > 1 else ''}"
                        for nth, n in zip(("1st", "2nd", "3rd", "4th"), boxes, strict=True)]
    (image,) = axes.get_images()
    assert image.get_array().shape == (rows * 4, 20 * 4)
    assert tuple(figure.get_size_inches()) == pytest.approx((16, rows * 4 * 0.2 + 0.8))
    assert [p.get_edgecolor()[:3] for p in axes.patches] == [(1.0, 0.0, 0.0)]
    marks = [t.get_text() for t in axes.texts if t.get_text() in ("X", "O")]
    assert len(marks) == sum(9 - label.count(".") for label in counts)


def test_train_draws_the_learning_curve(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "curve.png"
    assert main(["train", "--opponent", "perfect", "--games", "300", "--seed", "1", "--log",
                 "--plot", str(picture)]) == 0
    assert png_size(picture) == (900, 700)  # 9 x 7 inches at 100 dots per inch
    assert f"Learning curve drawn to {picture}." in capsys.readouterr().out


def test_many_learners_draw_a_mean_curve_with_bands(tmp_path: Path) -> None:
    picture = tmp_path / "band.png"
    assert main(["train", "--learners", "20", "--opponent", "perfect", "--games", "100",
                 "--seed", "1", "--plot", str(picture)]) == 0
    assert png_size(picture) == (900, 700)


def test_evaluate_draws_the_rates_with_their_intervals(tmp_path: Path) -> None:
    picture = tmp_path / "evaluation.png"
    assert main(["evaluate", "--games", "200", "--seed", "1", "--plot", str(picture)]) == 0
    assert png_size(picture) == (900, 500)


def test_boxes_draws_every_matchbox_to_a_picture_of_its_size(tmp_path: Path) -> None:
    """X's boxes: 22 rows of 0.8 inch and 0.8 inch for the title, 16 inches wide, at 100 dpi."""
    saved = tmp_path / "boxes.json"
    assert main(["train", "--games", "200", "--seed", "2", "--boxes", str(saved)]) == 0
    picture = tmp_path / "boxes.png"
    assert main(["boxes", str(picture), "--boxes", str(saved)]) == 0
    assert png_size(picture) == (1600, round((22 * 4 * 0.2 + 0.8) * 100))
