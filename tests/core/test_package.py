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


def _printed(probe: str) -> list[str]:
    """The words ``probe`` prints, run in a fresh interpreter (nothing imported yet)."""
    return subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()


def test_the_subpackages_are_the_modules_themselves() -> None:
    probe = (
        "import sys, statetree as st; "
        "print('statetree.chart.batch' in sys.modules, st.chart is sys.modules['statetree.chart'], "
        "st.chart.ChartMachine.__module__)"
    )
    assert _printed(probe) == ["False", "True", "statetree.chart.machine"]


SUBPACKAGES = ("structure", "plot", "bitmask", "chart", "net", "inspect", "cli")


def test_import_statetree_imports_what_is_behind_a_subpackages_names_when_first_read() -> None:
    probe = (
        "import sys, statetree as st; "
        "before = 'statetree.chart.machine' in sys.modules; "
        "st.chart.ChartMachine; "
        "print(before, 'statetree.chart.machine' in sys.modules, 'asyncio' in sys.modules)"
    )
    assert _printed(probe) == ["False", "True", "False"]


def test_a_subpackages_function_is_not_shadowed_by_its_module_once_that_is_imported() -> None:
    import statetree.chart.loading
    import statetree.structure.validation

    assert st.chart.load is statetree.chart.loading.load
    assert st.structure.validate is statetree.structure.validation.validate


def test_help_of_every_subpackage_works_without_the_optional_extras() -> None:
    # NumPy, Ray and JAX made unimportable (None in sys.modules): names needing them stay
    # out of dir(), so help() documents the rest.
    probe = (
        "import sys, pydoc; sys.modules.update(numpy=None, ray=None, jax=None); "
        "import statetree as st; "
        f"print(*[len(pydoc.render_doc(getattr(st, name))) > 500 for name in {SUBPACKAGES}])"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"] * len(SUBPACKAGES)


def test_dir_of_a_subpackage_lists_its_public_names() -> None:
    for name in SUBPACKAGES:
        package = getattr(st, name)
        assert set(package.__all__) <= set(dir(package)), name
    assert "ChartBatch" not in st.chart.__all__  # needs NumPy: read on demand, not starred
