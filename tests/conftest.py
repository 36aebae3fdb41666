"""Settings shared by the whole suite."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

import statetree
import statetree.core

# Property tests judge behaviour, never speed: a loaded CI machine must not turn a slow
# example into a failure.
settings.register_profile("statetree", deadline=None, print_blob=True)
settings.load_profile("statetree")


def _stale_compiled_core() -> list[str]:
    """Core modules edited after the core was compiled (Python would run the old build).

    The compiled code of every core module is in one library beside the package.
    """
    folder = Path(statetree.core.__file__).parent
    built = min(path.stat().st_mtime for path in folder.parent.parent.glob("*__mypyc.*"))
    sources = [path for path in folder.glob("*.py") if path.name != "__init__.py"]  # not compiled
    return sorted(path.name for path in sources if path.stat().st_mtime > built)


if statetree.__compiled__ and _stale_compiled_core():
    pytest.exit(
        f"the compiled core is older than {', '.join(_stale_compiled_core())}: run `make test` "
        "(it recompiles), or set STATETREE_PURE=1 to test the Python source",
        returncode=2,
    )
