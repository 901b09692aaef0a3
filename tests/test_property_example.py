"""The README's property-testing example, run exactly as written there."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def example_source() -> str:
    """The first Python block of the README's "Property testing" section."""
    section = README.read_text().split("## Property testing", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def test_the_readme_example_passes_the_reference_and_catches_the_faulty_class(
        tmp_path: Path) -> None:
    path = tmp_path / "readme_example.py"
    path.write_text(example_source())
    spec = importlib.util.spec_from_file_location("readme_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.test_the_reference_keeps_every_invariant()
    with pytest.raises(AssertionError, match="check learning failed"):
        module.test_a_faulty_menace()
