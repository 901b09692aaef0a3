"""Tables kept on disk: read back as built, rebuilt when the file is bad, built if unwritable."""

from __future__ import annotations

from pathlib import Path

import pytest

from reference import stored
from reference.positions import _graph_data, _is_graph_data, position_graph


def test_a_stored_table_reads_back_as_it_was_built(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stored, "FOLDER", tmp_path)
    builds: list[int] = []

    def build() -> tuple[tuple[int, ...], str]:
        builds.append(1)
        return (1, 2, 3), "X.O"

    first = stored.stored("demo", ["board.py"], build, lambda data: isinstance(data, tuple))
    second = stored.stored("demo", ["board.py"], build, lambda data: isinstance(data, tuple))
    assert first == second == ((1, 2, 3), "X.O") and len(builds) == 1
    (written,) = tmp_path.glob("demo-*.marshal")
    written.write_bytes(b"\x00not marshal")
    assert stored.stored("demo", ["board.py"], build, lambda data: isinstance(data, tuple)) == first
    assert len(builds) == 2 and [p.name for p in tmp_path.glob("demo-*")] == [written.name]
    assert stored.stored("demo", ["board.py"], build, lambda data: False) == first
    assert len(builds) == 3  # read back but refused by the check: built again


def test_a_folder_that_cannot_be_written_only_costs_a_build(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("a file, where the folder would go")
    monkeypatch.setattr(stored, "FOLDER", tmp_path / "file" / "tables")
    assert stored.stored("demo", ["board.py"], lambda: (7,), lambda data: True) == (7,)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_the_stored_position_graph_is_the_graph_built_afresh() -> None:
    data = _graph_data()
    assert _is_graph_data(data)
    graph = position_graph()
    assert (graph.boards, graph.children, tuple(map(int, graph.results)), graph.labels,
            tuple(map(int, graph.to_label))) == data
