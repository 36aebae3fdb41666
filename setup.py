"""Build: the core (``src/statetree/core``) and the chart's per-agent runtime are compiled
with Cython when they can be.

Everything else about the package is in ``pyproject.toml``. The modules in ``COMPILED`` are
compiled to C extensions when Cython (a build requirement) and a working C compiler with the
Python headers are there, and left as Python source otherwise, so an install never fails for
want of a compiler: it says so in one line. ``STATETREE_PURE=1`` at install time skips
compiling. Either way the ``.py`` files are installed; the ``.pxd`` file beside a compiled
module declares, for Cython only, the C types of its hot classes and functions.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "statetree.core.arguments",
    "statetree.core.cause",
    "statetree.core.events",
    "statetree.core.loops",
    "statetree.core.machine",
    "statetree.core.options",
    "statetree.core.settle",
    "statetree.core.state",
    "statetree.core.state_value",
    "statetree.core.trace",
    "statetree.core.transition",
    "statetree.core.tree",
    # The chart runtime a chart machine runs per event (the rest of the chart package, its
    # loaders and its compiler, runs once per chart and stays Python).
    "statetree.chart.actions",
    "statetree.chart.conditions",
    "statetree.chart.machine",
    "statetree.chart.runtime",
    "statetree.chart.states",
]

POLICIES = Path("src/statetree/chart/policy")
"""Each policy's module holds the functions its states run, so each is compiled too: every
module of the package but the shared definition, so a new policy needs no change here."""


def compiled_modules() -> list[str]:
    """``COMPILED`` and the policy modules."""
    policies = [path.stem for path in sorted(POLICIES.glob("*.py"))]
    left_out = ("__init__", "definition")
    return [*COMPILED, *(f"statetree.chart.policy.{p}" for p in policies if p not in left_out)]

# Cython reads only the .pxd files' declarations: the annotations of the Python source are
# for type checkers, and give the same behaviour in both builds. Pickling too is the source's
# (``__reduce__``, ``__getstate__``, or Python's default), not a reduction Cython would add.
DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,
    "embedsignature": False,
    "auto_pickle": False,
}

PURE_HINT = (
    "statetree: installing the pure Python core (the same behaviour, 2-3 times slower) "
    "because {reason}; {remedy}"
)
NEEDS_COMPILER = (
    "for the compiled core, install a C compiler and the Python headers "
    "(Debian/Ubuntu: apt-get install gcc python3-dev) and reinstall statetree"
)


# Written into the installed package when compiling failed: pip shows a build's output only
# with -v, so statetree says it again, once, when imported (see statetree/core/build.py).
NOTE = "statetree/core/not-compiled.txt"


def _say_pure(reason: str, remedy: str = NEEDS_COMPILER) -> str:
    line = PURE_HINT.format(reason=reason, remedy=remedy)
    print(line, file=sys.stderr)
    return line


class OptionalBuildExt(build_ext):
    """Compile the core if possible; on any failure, say so in one line and keep the source."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:  # the modules compile on every core (``-j`` says otherwise)
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        if self.inplace and self.extensions:
            # An editable install (or ``build_ext --inplace``) would put compiled modules
            # beside the sources, where they would shadow every later edit of them.
            _say_pure(
                "this is an editable install, whose modules must follow your edits",
                "``make test``, ``make bench`` and ``make demo`` build the compiled core apart, in "
                "build/compiled",
            )
            self.extensions = []
            self.distribution.ext_modules = []
            return
        note = os.path.join(self.build_lib, NOTE)
        if os.path.exists(note):  # left in build/ by an earlier build that failed
            os.remove(note)
        try:
            super().run()
        except Exception as error:  # a missing compiler or header fails in many ways
            # Half a compiled core would mix two builds: every module built goes too.
            for name in self.get_outputs():
                if os.path.exists(name):
                    os.remove(name)
            print(f"{type(error).__name__}: {error}", file=sys.stderr)  # for the build's log
            line = _say_pure(f"compiling it failed ({type(error).__name__})")
            self.extensions = []
            self.distribution.ext_modules = []
            if not self.inplace:
                os.makedirs(os.path.dirname(note), exist_ok=True)
                with open(note, "w", encoding="utf-8") as out:
                    out.write(line.replace("installing", "running", 1) + "\n")


def core_extensions() -> list[object]:
    """The compiled core's extensions, or none when it cannot or must not be compiled."""
    if os.environ.get("STATETREE_PURE", "") not in ("", "0"):
        return []
    if sys.implementation.name != "cpython":
        _say_pure(
            f"Cython's extensions are built for CPython, not {sys.implementation.name}",
            "the compiled core needs CPython",
        )
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        _say_pure(
            "Cython is not installed in the build environment",
            "for the compiled core, install Cython>=3.1 there (pip's isolated build does)",
        )
        return []
    sources = [f"src/{name.replace('.', '/')}.py" for name in compiled_modules()]
    try:
        return list(
            cythonize(sources, compiler_directives=DIRECTIVES, build_dir="build/cython", quiet=True)
        )
    except Exception as error:  # Cython reports what it cannot translate by raising
        _say_pure(
            f"Cython could not translate it ({error})",
            "please report this as a bug of statetree",
        )
        return []


setup(ext_modules=core_extensions(), cmdclass={"build_ext": OptionalBuildExt})
