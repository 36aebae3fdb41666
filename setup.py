"""Build: the core (``src/statetree/core``) and the chart runtime are compiled with mypyc
when they can be.

Everything else about the package is in ``pyproject.toml``. Those modules are compiled
to C extensions when mypyc and a working C compiler are available, and left as Python source
otherwise, so an install never fails for want of a compiler. ``STATETREE_PURE=1`` at install
time skips compiling. Either way the ``.py`` files are installed, and the package runs them
when no compiled module loads.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    from mypyc.build import mypycify
except ImportError:  # without mypyc the core stays Python
    mypycify = None

PACKAGE = Path("src/statetree")
CORE = PACKAGE / "core"
CHART = PACKAGE / "chart"
REPAIR = PACKAGE / "_native_repair.c"
HELPERS = PACKAGE / "_native_transitions.c"
NOT_COMPILED = {"__init__.py"}  # it chooses between the compiled and the source modules
# The chart runtime a chart machine runs per event (the rest of the chart package, its
# loaders and its compiler, runs once per chart and stays Python).
CHART_RUNTIME = ("actions", "conditions", "machine", "runtime", "states")


class OptionalBuildExt(build_ext):
    """Compile the core if possible; on any failure, say so once and keep the source only."""

    def run(self) -> None:
        if self.inplace:
            # A failed build must not leave an older compiled core to shadow the sources.
            _remove_in_place()
        try:
            super().run()
        except Exception as error:  # a missing compiler or header fails in many ways
            print(
                f"statetree: compiling the core failed ({error}); using the pure Python core",
                file=sys.stderr,
            )
            self.extensions = []
            self.distribution.ext_modules = []
            if self.inplace:
                _remove_in_place()  # half a compiled core would not load
            return
        if self.inplace:
            # Copies keep the time of a build reused from build/: date them now, so that
            # tools comparing them with the sources see them as current.
            for built in _in_place():
                os.utime(built)


def _in_place() -> list[Path]:
    """The compiled modules' files in the source tree (after an in-place build)."""
    loaders = [
        path for folder in (CORE, CHART) for path in (*folder.glob("*.so"), *folder.glob("*.pyd"))
    ]
    native = [*PACKAGE.glob("_native_*.so"), *PACKAGE.glob("_native_*.pyd")]
    return [*loaders, *native, *Path("src").glob("*__mypyc.*")]


def _remove_in_place() -> None:
    for path in _in_place():
        path.unlink()


def core_extensions() -> list[object]:
    """The compiled core's extensions, or none when it cannot or must not be compiled."""
    if mypycify is None or os.environ.get("STATETREE_PURE", "") not in ("", "0"):
        return []
    if sys.implementation.name != "cpython" or sys.version_info[:2] > (3, 11):
        # The deallocation repair is checked on CPython 3.10 and 3.11 only; elsewhere a
        # compiled core could crash when a weakly referenced state is freed.
        print("statetree: the compiled core is built on CPython 3.10-3.11 only", file=sys.stderr)
        return []
    sources = sorted(str(path) for path in CORE.glob("*.py") if path.name not in NOT_COMPILED)
    sources += [str(CHART / f"{name}.py") for name in CHART_RUNTIME]
    try:
        compiled = list(mypycify(sources, opt_level="3", group_name="statetree_core"))
    except BaseException as error:  # mypy reports type errors by exiting
        print(f"statetree: not compiling the core ({error!r})", file=sys.stderr)
        return []
    # Fixes how instances of the compiled classes are freed, and the transition helpers
    # without the cost of a compiled function's call (see the C files).
    return [
        *compiled,
        Extension("statetree._native_repair", [str(REPAIR)]),
        Extension("statetree._native_transitions", [str(HELPERS)]),
    ]


setup(ext_modules=core_extensions(), cmdclass={"build_ext": OptionalBuildExt})
