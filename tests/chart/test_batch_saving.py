"""Saving chart batches: pickle and deepcopy go through the batch's snapshot bytes, with
its chart's data and its handlers by name; a shallow copy shares the handlers."""

from __future__ import annotations

import copy
import pickle

import pytest
from batch_strategies import REGISTRY
from saved_charts import BatchHost

import statetree as st
from statetree.chart import BatchCall, ChartBatch, Event, from_data
from statetree.chart.batch import batch as batch_module
from statetree.chart.batch.step import backend_names

CHART = from_data(
    {
        "name": "Crowd",
        "root": {
            "name": "Crowd",
            "states": [
                {"name": "Calm", "transitions": [{"on": {"input": "X"}, "to": "Busy"}]},
                {
                    "name": "Busy",
                    "enter": [{"host": {"tag": 1}}, {"start_timer": {"name": "T", "delay": 1}}],
                    "transitions": [{"on": {"timer": "T"}, "to": "Calm"}],
                },
            ],
        },
    },
    REGISTRY,
)
X = Event("input", "X")


def busy_host() -> BatchHost:
    host = BatchHost(CHART, 3)
    host.batch.send(X, [0, 2])
    host.batch.tick(0.5)
    return host


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_saved_batch_is_its_own_and_goes_on_as_the_original(how: str) -> None:
    host = busy_host()
    twin = pickle.loads(pickle.dumps(host)) if how == "pickle" else copy.deepcopy(host)
    assert twin.calls == host.calls == [("enter Crowd.Busy: host(tag=1)", [0, 2])]
    assert twin.batch.snapshot().to_bytes() == host.batch.snapshot().to_bytes()
    assert twin.batch.compiled is host.batch.compiled
    assert (twin.batch.name, twin.batch.offset) == ("Crowd", 0)
    for each in (host, twin):
        each.batch.send(X, [1])
        each.batch.tick(0.5)
    assert twin.calls == host.calls
    assert twin.batch.active(0) == ("Crowd", "Crowd.Calm")
    assert twin.batch.snapshot().to_bytes() == host.batch.snapshot().to_bytes()


@pytest.mark.parametrize("backend", backend_names())
def test_a_batch_loads_with_its_backend_where_it_runs(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    batch = ChartBatch(CHART, 2, {"host": print, "echo": print}, backend=backend)
    batch.send(X, [1])
    assert pickle.loads(pickle.dumps(batch)).backend == backend
    data = pickle.dumps(batch)
    monkeypatch.setattr(batch_module, "backend_names", lambda: ("numpy",))  # numba missing
    loaded = pickle.loads(data)
    assert loaded.backend == "numpy"
    assert loaded.snapshot().to_bytes() == batch.snapshot().to_bytes()


def test_a_batch_saved_alone_brings_the_owner_of_its_handlers() -> None:
    host = busy_host()
    batch = copy.deepcopy(host.batch)
    batch.send(X, [1])
    assert host.calls == [("enter Crowd.Busy: host(tag=1)", [0, 2])]  # not the original's


def test_a_shallow_copy_shares_the_handlers() -> None:
    host = busy_host()
    fork = copy.copy(host.batch)
    fork.send(X, [1])
    assert host.calls[-1] == ("enter Crowd.Busy: host(tag=1)", [1])
    assert host.batch.active(1) == ("Crowd", "Crowd.Calm")


def test_a_handler_made_inside_a_function_is_refused_by_name() -> None:
    batch = ChartBatch(CHART, 1, {"host": lambda call: None, "echo": print})
    with pytest.raises(
        st.SaveError,
        match=r"^cannot save the function .*<lambda> of module test_batch_saving \(the handler "
        r"'host' of batch 'Crowd'\): it was made inside a function",
    ):
        pickle.dumps(batch)


def test_saving_from_a_handler_is_refused() -> None:
    refused: list[str] = []

    def host(call: BatchCall) -> None:
        try:
            pickle.dumps(batch)
        except st.SaveError as error:
            refused.append(str(error))

    batch = ChartBatch(CHART, 1, {"host": host, "echo": host})
    batch.send(X)
    assert refused == [
        "cannot save batch 'Crowd' while it processes (from one of its handlers): save between "
        "two calls, e.g. after the frame"
    ]
