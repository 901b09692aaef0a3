"""The property-testing example of docs/testing.md, run exactly as written there."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

PAGE = Path(__file__).resolve().parent.parent / "docs" / "testing.md"


def example_source() -> str:
    """The first Python block of the page's "Property testing" section."""
    section = PAGE.read_text().split("## Property testing", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def test_the_documented_example_passes_the_reference_and_catches_the_faulty_class(
        tmp_path: Path) -> None:
    path = tmp_path / "documented_example.py"
    path.write_text(example_source())
    spec = importlib.util.spec_from_file_location("documented_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.test_the_reference_keeps_every_invariant()
    with pytest.raises(AssertionError, match="check learning failed"):
        module.test_a_faulty_menace()
