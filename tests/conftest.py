"""The test session: two tiers, hypothesis profiles, and a private cache folder (strategies:
the testing toolkit's, `judge/strategies.py`).

`python3 -m pytest -q` runs the first tier, what a developer runs all day: the rules, the
model, the judge's logic in process (fake channels), each property on a few examples. `--e2e`
adds the second tier: real programs judged end to end, the sandbox, the slow statistics, every
property on 50 examples. CI runs both.
"""

from __future__ import annotations

import compileall
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "repeatable", max_examples=50, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
"""Both tiers (CI): the same 50 examples per property each time, so a run is repeatable."""
settings.register_profile(
    "quick", max_examples=10, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
"""The first tier alone: the same 10 examples per property each time."""
settings.register_profile("thorough", max_examples=1000, deadline=None)
"""`HYPOTHESIS_PROFILE=thorough`: many fresh examples, for a search by hand."""


def pytest_addoption(parser: pytest.Parser) -> None:
    """The option that adds the second tier."""
    parser.addoption("--e2e", action="store_true",
                     help="also run the second tier (marked e2e): real programs judged end to "
                          "end, the sandbox, the slow statistics; CI runs both tiers")


LONGEST_FIRST = ("test_statistics_e2e.py", "test_shrink.py", "test_hostile.py",
                 "test_judge_memory.py", "test_property_example.py", "test_bookkeeping.py")
"""The modules whose tests take tens of seconds each, longest first, after the kernel tier's
boots (marked kernel_tier, some minutes each): under `-n` they start first and are handed out
one at a time, so that the workers finish together rather than one worker playing the slowest
tests alone at the end."""


PACKAGES = ("judge", "reference")
"""The project's packages, compiled once before the tests start the judge and the reference
many hundreds of times (where PYTHONDONTWRITEBYTECODE is set, each start would compile them
again; the kernel tier's guest, whose user cannot write here, reads them too)."""


def pytest_configure(config: pytest.Config) -> None:
    """Each property's examples: a few in the first tier alone, 50 with both; under `-n`, tests
    handed to the workers one at a time; the project's bytecode written first."""
    if not hasattr(config, "workerinput"):
        root = Path(__file__).resolve().parent.parent
        for package in PACKAGES:
            compileall.compile_dir(root / package, quiet=2)
    default = "repeatable" if config.getoption("--e2e") else "quick"
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", default))
    if config.pluginmanager.hasplugin("xdist") and config.getoption("maxschedchunk") is None:
        config.option.maxschedchunk = 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave the second tier out unless --e2e asks for it; the longest tests first."""
    items.sort(key=lambda item: ("kernel_tier" not in item.keywords,
                                 LONGEST_FIRST.index(item.path.name)
                                 if item.path.name in LONGEST_FIRST else len(LONGEST_FIRST)))
    if config.getoption("--e2e"):
        return
    second = [item for item in items if "e2e" in item.keywords]
    if second:
        config.hook.pytest_deselected(items=second)
        items[:] = [item for item in items if "e2e" not in item.keywords]


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The judge's replays of rejected runs go to a folder of the test session, not the home."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def normal_user() -> Iterator[object]:
    """How to run the judge as a normal user (tests/normal_user.py); skips, saying why, where
    it cannot be done."""
    from normal_user import normal_user as found
    from normal_user import shared_folder

    folder = shared_folder("menace-normal-user-")
    try:
        user = found(folder)
        if isinstance(user, str):
            pytest.skip(user)
        yield user
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def tier(tmp_path: Path) -> Path:
    """A folder for one boot of the kernel tier (tests/kernel/); the test is skipped when the
    tier cannot run here, and fails under CI (CI=true), which must run it."""
    from kernel import guest  # only where a test boots it

    why = guest.missing()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the kernel tier cannot run, and CI must run it: {why}")
        pytest.skip(f"the kernel tier cannot run here: {why}")
    return tmp_path
