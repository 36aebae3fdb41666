"""The package's face to a type checker: the subpackages are the real, typed modules.

``st.chart.ChartMachine`` and the other names reached through ``import statetree as st``
carry their own types, so ``mypy --strict`` refuses a wrong call made through them (it would
pass unchecked were the subpackages typed as plain modules).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

WRONG = """
import statetree as st

st.chart.ChartMachine(42, wrong=1)
st.net.Codec.auto("not a structure")
machine: st.StateMachine[int] = st.StateMachine(st.State, owner="not an int")
"""

RIGHT = """
import statetree as st

chart = st.chart.loads('{"name": "C", "root": {"name": "R"}}', "json")
machine = st.chart.ChartMachine(chart)
machine.send(st.chart.Event("event", "go"))
active: tuple[str, ...] = machine.active
"""


def _mypy(tmp_path: Path, source: str) -> tuple[str, int]:
    module = tmp_path / "client.py"
    module.write_text(source, encoding="utf-8")
    out, err, status = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(module)])
    return out + err, status


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("typing")


def test_a_wrong_call_through_the_package_fails_the_type_check(tmp: Path) -> None:
    report, status = _mypy(tmp, WRONG)

    assert status == 1
    # (line, mypy's error code) of each error: mypy's wording is its own to change.
    found = [
        (int(line.split(":")[1]), line.rsplit("[", 1)[1].rstrip("]"))
        for line in report.splitlines()
        if ": error:" in line
    ]
    assert sorted(found) == [(4, "arg-type"), (4, "call-arg"), (5, "arg-type"), (6, "arg-type")]
    assert "ChartMachine" in report and "Codec" in report and "StateMachine" in report


def test_a_right_call_through_the_package_passes(tmp: Path) -> None:
    report, status = _mypy(tmp, RIGHT)

    assert status == 0, report
