"""Settings shared by the whole suite."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings
from saving_support import OtherCore, running_other_core

import statetree

if TYPE_CHECKING:
    from statetree.chart import ShardPool

# Property tests judge behaviour, never speed: a loaded CI machine must not turn a slow
# example into a failure.
settings.register_profile("statetree", deadline=None, print_blob=True)
# ``make test`` draws the full number of examples once, on the compiled core of the default
# Python; its other runs (the Python source, the other CPythons: see the Makefile and
# noxfile.py) check the same properties on a quarter of them (tests that ask for a number
# scale it: see budget.py).
settings.register_profile("brief", parent=settings.get_profile("statetree"), max_examples=25)
settings.load_profile(os.environ.get("STATETREE_HYPOTHESIS", "statetree"))


SOURCE = Path(__file__).resolve().parents[1] / "src" / "statetree"


def _stale_build() -> list[str]:
    """Modules whose source changed since the build that runs was made from it.

    ``make test`` runs the suite on a compiled build of the package (``build/compiled``,
    the sources copied beside the compiled modules), rebuilt when a source changes; run
    directly, an older build would test older code.
    """
    package = Path(statetree.__file__).resolve().parent
    if package == SOURCE:
        return []
    return sorted(
        str(source.relative_to(SOURCE))
        for source in SOURCE.rglob("*.py")
        if not (package / source.relative_to(SOURCE)).is_file()
        or (package / source.relative_to(SOURCE)).read_bytes() != source.read_bytes()
    )


if _stale_build():
    pytest.exit(
        f"the build under test is older than {', '.join(_stale_build()[:5])}: run `make test` "
        "(it rebuilds), or run pytest without PYTHONPATH to test the source",
        returncode=2,
    )


@pytest.fixture(scope="session")
def other_core() -> Iterator[OtherCore]:
    """A process running the other core (the source when this one is compiled, and the
    reverse), for tests of saves that go from one core to the other."""
    with running_other_core() as worker:
        yield worker


# -- Ray, for sharded batches ------------------------------------------------------------------


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[None]:
    """One small local Ray cluster for the whole session (started on first use), on this
    machine alone: its workers import the test modules whose functions handlers name."""
    from statetree.chart.shard.cluster import start_local

    # Logical CPUs: three for the session pool, the rest for batches making their own (the
    # guide's page has two of two shards at once). The cluster's output stays in its log
    # files: Ray's warnings (a disk filling up, say) would land in the output tests compare.
    with warnings.catch_warnings():
        # Ray starts its processes with a function to run before each exec, so JAX (when a
        # test imported it first) warns of a fork in a threaded process; they exec at once.
        warnings.filterwarnings("ignore", r"os\.fork\(\) was called", RuntimeWarning)
        start_local(8, object_store_memory=128 << 20, log_to_driver=False)
    yield
    import ray  # imported by start_local, which must come first

    ray.shutdown()


@pytest.fixture(scope="session")
def session_pool(ray_cluster: None) -> Iterator[ShardPool]:
    """Three shard actors, borrowed by one sharded batch after another."""
    from statetree.chart import ShardPool

    with ShardPool(3) as pool:
        yield pool


@pytest.fixture
def shard_pool(session_pool: ShardPool) -> Iterator[ShardPool]:
    """The session's shard actors, free again after the test whatever it left open."""
    yield session_pool
    session_pool.user = None
