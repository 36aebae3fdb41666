"""The suite's areas that run the core, on every other supported CPython found here.

``make test`` runs the whole suite on its own Python (compiled, then pure) and meanwhile
this file's ``versions`` session: for each other supported CPython on the machine (on the
``PATH``, or installed with pyenv), the compiled build is made with that Python and the
core, book, chart and net tests run on it (their property tests on fewer examples; the
chart shards, which need Ray, left to the default CPython). A version that is not installed
is skipped; ``nox -s versions-pure`` runs the same tests on the Python source.
Run one alone with ``.venv/bin/nox -s versions -p 3.13``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nox

SUPPORTED = ("3.10", "3.11", "3.12", "3.13")
OTHERS = [
    version for version in SUPPORTED if version != f"{sys.version_info[0]}.{sys.version_info[1]}"
]
AREAS = ("tests/core", "tests/book", "tests/chart", "tests/net")
# The chart shards' tests start a Ray cluster of worker processes: they run on the default
# CPython only (Ray is not installed here).
LEFT_OUT = ("--ignore-glob=tests/chart/test_shard_*.py",)
TEST_NEEDS = (
    "pytest>=8",
    "hypothesis>=6.100",
    "numpy>=1.24",
    "numba>=0.61",
    "jsonschema>=4",
    "ruamel.yaml>=0.18",
    "tomli>=2; python_version < '3.11'",
)
BUILD_NEEDS = ("setuptools>=77", "Cython>=3.1")

nox.options.sessions = ["versions"]
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = False  # a version not installed is skipped


def _with_pyenv_versions() -> None:
    """Put the newest pyenv install of each supported version on the ``PATH`` (pyenv's
    shims only run the versions it is told to, so nox would not find the others)."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = []
    for version in OTHERS:
        installs = sorted(root.glob(f"{version}.*/bin/python{version}"))
        if installs:
            found.append(str(installs[-1].parent))
    os.environ["PATH"] = os.pathsep.join([*found, os.environ.get("PATH", "")])


_with_pyenv_versions()


@nox.session(python=OTHERS)
def versions(session: nox.Session) -> None:
    """The core, book, chart and net tests on one CPython, compiled."""
    session.install(*BUILD_NEEDS, *TEST_NEEDS)
    # The package's metadata (the tests read its version), without compiling anything.
    session.install("--no-build-isolation", "--no-deps", "-e", ".", env={"STATETREE_PURE": "1"})
    built = f"build/compiled-{session.python}"
    _prune(Path(built))
    session.run(
        "python",
        "setup.py",
        "--quiet",
        "build",
        "--build-lib",
        built,
        "--build-temp",
        f"build/temp-{session.python}",
    )
    compiled = {"PYTHONPATH": built, "STATETREE_HYPOTHESIS": "brief"}
    session.run(
        "python",
        "-c",
        "import statetree, sys; sys.exit(0 if statetree.__compiled__ else 'not compiled')",
        env=compiled,
    )
    session.run("pytest", "-p", "no:cacheprovider", *LEFT_OUT, *AREAS, env=compiled)


def _prune(built: Path) -> None:
    """Remove the copied files of an earlier build (a module deleted from the source must
    not linger), keeping its extensions, which the build brings up to date, and caches."""
    for path in built.rglob("*"):
        if path.is_file() and path.suffix != ".so" and "__pycache__" not in path.parts:
            path.unlink()


@nox.session(name="versions-pure", python=OTHERS)
def versions_pure(session: nox.Session) -> None:
    """The core, book, chart and net tests on one CPython, on the Python source."""
    session.install(*BUILD_NEEDS, *TEST_NEEDS)
    session.install("--no-build-isolation", "--no-deps", "-e", ".", env={"STATETREE_PURE": "1"})
    session.run(
        "pytest",
        "-p",
        "no:cacheprovider",
        *LEFT_OUT,
        *AREAS,
        env={"STATETREE_HYPOTHESIS": "brief"},
    )
