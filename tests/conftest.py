"""Settings shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings
from saving_support import OtherCore, running_other_core

import statetree
import statetree.core

if TYPE_CHECKING:
    from statetree.chart import ShardPool

# Property tests judge behaviour, never speed: a loaded CI machine must not turn a slow
# example into a failure.
settings.register_profile("statetree", deadline=None, print_blob=True)
settings.load_profile("statetree")


def _stale_compiled_core() -> list[str]:
    """Compiled modules edited after they were compiled (Python would run the old build).

    The compiled code of every compiled module is in one library beside the package; each
    compiled module also has a small loader beside its source.
    """
    package = Path(statetree.core.__file__).parent.parent
    built = min(path.stat().st_mtime for path in package.parent.glob("*__mypyc.*"))
    folders = (package / "core", package / "chart", package)
    loaders = [path for folder in folders for path in folder.glob("*.so")]
    stems = [loader.with_name(loader.name.split(".")[0]) for loader in loaders]
    sources = [stem.with_suffix(suffix) for stem in stems for suffix in (".py", ".c")]
    return sorted(path.name for path in sources if path.exists() and path.stat().st_mtime > built)


if statetree.__compiled__ and _stale_compiled_core():
    pytest.exit(
        f"the compiled core is older than {', '.join(_stale_compiled_core())}: run `make test` "
        "(it recompiles), or set STATETREE_PURE=1 to test the Python source",
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
    # guide's page has two of two shards at once).
    start_local(8, object_store_memory=128 << 20)
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
