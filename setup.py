"""Build: the core (``src/statetree/core``) and the chart runtime are compiled with mypyc
when they can be.

Everything else about the package is in ``pyproject.toml``. Those modules are compiled
to C extensions when mypyc and a working C compiler are available, and left as Python source
otherwise, so an install never fails for want of a compiler. ``STATETREE_PURE=1`` at install
time skips compiling. Either way the ``.py`` files are installed, and the package runs them
when no compiled module loads.
"""

from __future__ import annotations

import ast
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
DOCS = PACKAGE / "_native_docs.c"
# The compiled modules' docstrings, which mypyc leaves out: written by each build beside the
# compiled modules (never committed), given back by statetree.core at import.
DOCSTRINGS = "_compiled_docs.py"
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
        if self.extensions:
            folder = PACKAGE if self.inplace else Path(self.build_lib) / "statetree"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / DOCSTRINGS).write_text(docstring_table(), encoding="utf-8")
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
    table = [PACKAGE / DOCSTRINGS] if (PACKAGE / DOCSTRINGS).exists() else []
    return [*loaders, *native, *table, *Path("src").glob("*__mypyc.*")]


def _remove_in_place() -> None:
    for path in _in_place():
        path.unlink()


def compiled_sources() -> list[Path]:
    """The modules mypyc compiles: the core's and the chart runtime's."""
    sources = sorted(path for path in CORE.glob("*.py") if path.name not in NOT_COMPILED)
    return sources + [CHART / f"{name}.py" for name in CHART_RUNTIME]


def _docstrings(body: list[ast.stmt], prefix: str, table: dict[str, str]) -> None:
    """The docstrings of the classes and functions in body, and in those classes, by name.

    A name defined twice keeps the docstring it has (a property's setter has none), and
    special methods are left out: their compiled versions are CPython's slot wrappers, whose
    docstrings are CPython's.
    """
    for node in body:
        if not isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if node.name.startswith("__") and node.name.endswith("__"):
            continue
        docstring = ast.get_docstring(node, clean=False)
        if docstring:
            table[prefix + node.name] = docstring
        if isinstance(node, ast.ClassDef):
            _docstrings(node.body, f"{prefix}{node.name}.", table)


def docstring_table() -> str:
    """The source of the module holding the compiled modules' docstrings: module name ->
    qualified name ("" for the module) -> the docstring as written."""
    modules: dict[str, dict[str, str]] = {}
    for source in compiled_sources():
        tree = ast.parse(source.read_text(encoding="utf-8"))
        table: dict[str, str] = {}
        docstring = ast.get_docstring(tree, clean=False)
        if docstring:
            table[""] = docstring
        _docstrings(tree.body, "", table)
        modules[".".join(source.relative_to("src").with_suffix("").parts)] = table
    lines = ["DOCSTRINGS: dict[str, dict[str, str]] = {"]
    for module, table in modules.items():
        lines.append(f"    {module!r}: {{")
        lines.extend(f"        {name!r}: {docstring!r}," for name, docstring in table.items())
        lines.append("    },")
    return (
        '"""The compiled modules\' docstrings (written by setup.py when it compiles them)."""\n\n'
        + "\n".join([*lines, "}"])
        + "\n"
    )


def core_extensions() -> list[object]:
    """The compiled core's extensions, or none when it cannot or must not be compiled."""
    if mypycify is None or os.environ.get("STATETREE_PURE", "") not in ("", "0"):
        return []
    if sys.implementation.name != "cpython" or sys.version_info[:2] > (3, 11):
        # The deallocation repair is checked on CPython 3.10 and 3.11 only; elsewhere a
        # compiled core could crash when a weakly referenced state is freed.
        print("statetree: the compiled core is built on CPython 3.10-3.11 only", file=sys.stderr)
        return []
    sources = [str(path) for path in compiled_sources()]
    try:
        compiled = list(mypycify(sources, opt_level="3", group_name="statetree_core"))
    except BaseException as error:  # mypy reports type errors by exiting
        print(f"statetree: not compiling the core ({error!r})", file=sys.stderr)
        return []
    # Fixes how instances of the compiled classes are freed, the transition helpers without
    # the cost of a compiled function's call, and the docstrings mypyc leaves out (see the C
    # files).
    return [
        *compiled,
        Extension("statetree._native_repair", [str(REPAIR)]),
        Extension("statetree._native_transitions", [str(HELPERS)]),
        Extension("statetree._native_docs", [str(DOCS)]),
    ]


setup(ext_modules=core_extensions(), cmdclass={"build_ext": OptionalBuildExt})
