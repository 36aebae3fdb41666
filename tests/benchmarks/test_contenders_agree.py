"""The benchmark contenders do the same work, so their timings can be compared.

statetree and the hand-written baseline must end every sequence of controls with the same
enter/exit counters and the same active states; every installed peer must match the
baseline on the benchmark's script. Nothing here is timed.
"""

from __future__ import annotations

import importlib
import itertools
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

CONTROLS = list(itertools.product((False, True), repeat=3))
"""Every (move, jump, dead) snapshot."""

PEERS = [
    ("transitions_impl", "transitions"),
    ("statemachine_impl", "statemachine"),
    ("sismic_impl", "sismic"),
    ("xstate_impl", "xstate_statemachine"),
]


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """The benchmark modules, imported from the benchmarks folder."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return SimpleNamespace(
        script=importlib.import_module("corebench.script"),
        verify=importlib.import_module("corebench.verify"),
        baseline=importlib.import_module("corebench.contenders.baseline"),
        statetree=importlib.import_module("corebench.contenders.statetree_impl"),
    )


def _pair(bench: SimpleNamespace) -> list[tuple[Any, Any]]:
    """A freshly built baseline and statetree character, each with its own counters."""
    built = []
    for module in (bench.baseline, bench.statetree):
        counters = bench.script.Counters()
        built.append((module.Character(counters), counters))
    return built


def _assert_same(built: list[tuple[Any, Any]], history: object) -> None:
    (baseline, baseline_counters), (ours, our_counters) = built
    assert ours.active() == baseline.active(), history
    assert our_counters.totals() == baseline_counters.totals(), history


@pytest.mark.parametrize("cycles", [1, 3])
def test_statetree_matches_the_baseline_on_the_script(bench: SimpleNamespace, cycles: int) -> None:
    expected = bench.verify.script_outcome(bench.baseline.CONTENDER, cycles)
    outcome = bench.verify.script_outcome(bench.statetree.CONTENDER, cycles)

    assert outcome == expected
    assert outcome.active == bench.verify.SETTLED


def test_the_event_driven_baseline_matches_the_polling_one(bench: SimpleNamespace) -> None:
    events = importlib.import_module("corebench.contenders.events")
    bench.verify.check_script([bench.baseline.CONTENDER, events.CONTENDER])
    bench.verify.check_switches([events.CONTENDER])
    counters = bench.script.Counters()
    character = events.Character(counters)
    counters.reset()
    character.idle(3)
    assert character.active() == bench.verify.SETTLED
    assert counters.totals() == bench.script.Counters().totals()


def test_the_script_visits_every_state(bench: SimpleNamespace) -> None:
    outcome = bench.verify.script_outcome(bench.baseline.CONTENDER, 1)

    assert all(entered > 0 for entered, _ in outcome.totals.values()), outcome.totals


def test_statetree_matches_the_baseline_on_every_three_steps(bench: SimpleNamespace) -> None:
    # Every sequence of three control snapshots from the start covers each hierarchical
    # re-entry, e.g. reviving with jump held: enter Alive, Locomotion, leave it for Jump.
    for sequence in itertools.product(CONTROLS, repeat=3):
        built = _pair(bench)
        for controls in sequence:
            for character, _ in built:
                character.control(*controls)
            _assert_same(built, sequence)


def test_statetree_matches_the_baseline_on_a_long_random_walk(bench: SimpleNamespace) -> None:
    choose = random.Random(20240601).choice
    built = _pair(bench)
    history = []
    for _ in range(2000):
        controls = choose(CONTROLS)
        history.append(controls)
        for character, _ in built:
            character.control(*controls)
        _assert_same(built, history[-5:])


def test_the_switches_follow_their_toggles(bench: SimpleNamespace) -> None:
    bench.verify.check_switches([bench.baseline.CONTENDER, bench.statetree.CONTENDER])


@pytest.mark.parametrize(("module", "package"), PEERS)
def test_an_installed_peer_matches_the_baseline(
    bench: SimpleNamespace, module: str, package: str
) -> None:
    pytest.importorskip(package, reason=f"the {package} peer is only installed with '.[bench]'")
    peer = importlib.import_module(f"corebench.contenders.{module}")

    bench.verify.check_script([bench.baseline.CONTENDER, peer.CONTENDER])
    bench.verify.check_switches([peer.CONTENDER])
