"""The test session: hypothesis profiles, and a private cache folder (strategies: the testing
toolkit's, `judge/strategies.py`)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "repeatable", max_examples=50, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
"""Every run, CI's included: the same 50 examples per property each time, so a run is repeatable."""
settings.register_profile("thorough", max_examples=1000, deadline=None)
"""`HYPOTHESIS_PROFILE=thorough`: many fresh examples, for a search by hand."""
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The judge's replays of rejected runs go to a folder of the test session, not the home."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
