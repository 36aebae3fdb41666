"""Choosing the adapter of a machine, and listing what it can do."""

from __future__ import annotations

import importlib
import sys
from typing import Any

from statetree.bitmask import BitmaskMachine
from statetree.core.machine import StateMachine
from statetree.inspect.adapters import (
    DecodesPackets,
    EditsSource,
    Explains,
    InspectError,
    ReceivesEvents,
    WatchedMachine,
)
from statetree.inspect.batch_adapter import ChartAgentAdapter, ChartBatchAdapter
from statetree.inspect.bitmask_adapter import BitmaskAdapter
from statetree.inspect.class_adapter import StateMachineAdapter
from statetree.inspect.net_adapter import NetMachineAdapter
from statetree.net.codec import Codec

__all__ = ["adapt", "capabilities"]


def _chart_adapter(machine: object) -> WatchedMachine | None:
    """The chart adapter, when the chart package is present and ``machine`` is a chart."""
    try:
        module = importlib.import_module("statetree.inspect.chart_adapter")
    except ImportError:
        return None
    found: WatchedMachine | None = module.adapt_chart(machine)
    return found


def _batch_adapter(machine: object) -> WatchedMachine | None:
    """The population adapter of a chart batch, or the adapter of one of its agents (their
    module is loaded if one exists)."""
    batches = sys.modules.get("statetree.chart.batch")
    if batches is None:
        return None
    if isinstance(machine, batches.ChartBatch):
        return ChartBatchAdapter(machine)
    if isinstance(machine, batches.AgentView):
        return ChartAgentAdapter(machine)
    return None


def adapt(machine: object, *, codec: Codec | None = None) -> WatchedMachine:
    """The adapter through which the inspector watches ``machine``.

    Args:
        machine: a :class:`~statetree.StateMachine`, a
            :class:`~statetree.bitmask.BitmaskMachine`, a chart machine, a chart batch
            (shown as a population), one agent of a batch (``batch.agent(i)``), or an
            object that already is a :class:`WatchedMachine` (returned as it is, unless a
            codec is given).
        codec: the ``statetree.net`` codec the program replicates a state machine or a
            chart with: its packets are then decoded field by field
            (:class:`NetMachineAdapter`).

    Raises:
        InspectError: no adapter fits ``machine``, or ``codec`` is not a net codec.
    """
    if codec is not None:
        return NetMachineAdapter(adapt(machine), codec)
    if isinstance(machine, WatchedMachine):
        return machine
    if isinstance(machine, StateMachine):
        return StateMachineAdapter(machine)
    if isinstance(machine, BitmaskMachine):
        return BitmaskAdapter(machine)
    found = _chart_adapter(machine) or _batch_adapter(machine)
    if found is not None:
        return found
    raise InspectError(
        f"cannot inspect {machine!r}: give a StateMachine, a BitmaskMachine, a chart machine, "
        "a ChartBatch, a batch's agent or an object implementing statetree.inspect.WatchedMachine"
    )


def capabilities(adapter: Any) -> list[str]:
    """What the page may ask of ``adapter`` besides watching: explain, packets, edit,
    events."""
    found = []
    if isinstance(adapter, Explains):
        found.append("explain")
    if isinstance(adapter, DecodesPackets):
        found.append("packets")
    if isinstance(adapter, EditsSource):
        found.append("edit")
    if isinstance(adapter, ReceivesEvents):
        found.append("events")
    return found
