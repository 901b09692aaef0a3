"""The pictures: PNG files of the expected size from short runs of the commands that make them."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from reference.study.cli import main

pytest.importorskip("matplotlib", reason="matplotlib is not installed (the optional extra 'plot')")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height in pixels, read from the PNG's header chunk."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG file"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


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


@pytest.mark.parametrize("player, rows", [("X", 22), ("O", 20)])
def test_boxes_draws_every_matchbox_grouped_by_move_number(
    tmp_path: Path, player: str, rows: int,
) -> None:
    """20 boards a row, four units (3 squares and a gap) of 0.2 inch each, a heading row per move
    number, and 0.8 inch for the title: X's 1 + 12 + 108 + 183 boxes take 4 heading rows and
    1 + 1 + 6 + 10 rows of boards; O's 3 + 38 + 153 + 95 take 4 and 1 + 2 + 8 + 5."""
    saved = tmp_path / "boxes.json"
    assert main(["train", "--player", player, "--games", "200", "--seed", "2",
                 "--boxes", str(saved)]) == 0
    picture = tmp_path / "boxes.png"
    assert main(["boxes", str(picture), "--player", player, "--boxes", str(saved)]) == 0
    assert png_size(picture) == (1600, round((rows * 4 * 0.2 + 0.8) * 100))
