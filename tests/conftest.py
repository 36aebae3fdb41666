"""Settings shared by the whole suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

import statetree

# Property tests judge behaviour, never speed: a loaded CI machine must not turn a slow
# example into a failure.
settings.register_profile("statetree", deadline=None, print_blob=True)
# The other CPythons' runs of ``make test`` (noxfile.py) check the same properties on fewer
# examples each: the full number runs on the default Python.
settings.register_profile("versions", parent=settings.get_profile("statetree"), max_examples=25)
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
