"""The package's surface: public names only, its version, and which core runs."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys

import statetree as st
from statetree import core


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
    from statetree.core import machine

    compiled_file = not machine.__file__.endswith(".py")
    assert st.__compiled__ is core.COMPILED is compiled_file


def test_the_pure_variable_runs_the_python_source() -> None:
    probe = (
        "import statetree, statetree.core.machine as m; print(statetree.__compiled__, m.__file__)"
    )
    environment = {**os.environ, core.PURE_VARIABLE: "1"}
    output = subprocess.run(
        [sys.executable, "-c", probe], env=environment, capture_output=True, text=True, check=True
    ).stdout.split()
    assert output[0] == "False"
    assert output[1].endswith("machine.py")
