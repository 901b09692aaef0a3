"""The type hints hold: mypy in strict mode finds nothing in the files pyproject.toml names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_mypy_strict_is_clean_on_the_reference_and_the_judge() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT,
        capture_output=True, text=True, check=False, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout
