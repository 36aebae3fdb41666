"""An example run without an extra it needs says in one line what to install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Run as `python examples/NAME ARGS` would, with MODULES missing: Python refuses to import a
# module whose entry in sys.modules is None, as if it were not installed.
PROGRAM = """
import runpy, sys
for name in {modules!r}:
    sys.modules[name] = None
sys.argv = [{path!r}, *{args!r}]
sys.path.insert(0, {folder!r})
runpy.run_path({path!r}, run_name="__main__")
"""


@pytest.mark.parametrize(
    ("example", "args", "modules", "line"),
    [
        (
            "crowd.py",
            [],
            ["numpy"],
            "crowd.py needs numpy: pip install '.[batch]' in the statetree folder "
            "(the batch extra)",
        ),
        (
            "inspector_demo.py",
            ["--headless"],
            ["ruamel", "ruamel.yaml"],
            "inspector_demo.py needs ruamel.yaml: pip install '.[chart,inspect]' in the "
            "statetree folder (the chart, inspect extras)",
        ),
        (
            "chart_platformer.py",
            [],
            ["ruamel", "ruamel.yaml"],
            "chart_platformer.py needs ruamel.yaml: pip install '.[chart]' in the statetree "
            "folder (the chart extra)",
        ),
        (
            "jax_guards.py",
            [],
            ["jax"],
            "jax_guards.py needs jax: pip install '.[chart,jax]' in the statetree folder "
            "(the chart, jax extras)",
        ),
        (
            "demo.py",
            ["--headless"],
            ["numpy"],
            "demo.py needs numpy: pip install '.[plot,chart,inspect,batch,game]' in the "
            "statetree folder (the plot, chart, inspect, batch, game extras)",
        ),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(
    example: str, args: list[str], modules: list[str], line: str
) -> None:
    path = str(EXAMPLES / example)
    code = PROGRAM.format(modules=modules, path=path, args=args, folder=str(EXAMPLES))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )

    assert done.returncode == 1
    assert done.stderr == f"{line}\n"
