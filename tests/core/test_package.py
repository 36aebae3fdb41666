"""The package's surface: public names only, its version, and which core runs."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import statetree as st
from statetree import core
from statetree.core import build


def test_dir_lists_public_names_only() -> None:
    names = dir(st)
    assert set(st.__all__) <= set(names)
    assert {"__version__", "__compiled__", "chart", "plot", "inspect"} <= set(names)
    assert "importlib" not in names
    assert "ModuleType" not in names
    assert "COMPILED" not in names


def test_version_is_the_package_metadata_version() -> None:
    assert st.__version__ == importlib.metadata.version("statetree")


def test_compiled_says_what_the_core_modules_are() -> None:
    from statetree.core import machine, settle, state

    compiled_files = {not module.__file__.endswith(".py") for module in (machine, settle, state)}
    assert compiled_files == {st.__compiled__}
    assert build.COMPILED is st.__compiled__
    assert build.build_name() == ("compiled with Cython" if st.__compiled__ else "pure Python")


def test_the_core_package_lists_its_concepts_only() -> None:
    assert set(core.__all__) == {
        "Cause",
        "State",
        "StateMachine",
        "StateValue",
        "Step",
        "StepKind",
        "TraceLevel",
        "Transition",
        "TransitionKind",
        "concurrent",
        "format_step",
        "inner",
        "inner_entry",
        "sibling",
    }
    assert all(getattr(st, name) is getattr(core, name) for name in core.__all__)


def test_the_subpackages_are_the_modules_themselves() -> None:
    probe = (
        "import sys, statetree as st; "
        "print('statetree.chart.batch' in sys.modules, st.chart is sys.modules['statetree.chart'], "
        "st.chart.ChartMachine.__module__)"
    )
    output = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert output == ["False", "True", "statetree.chart.machine"]
