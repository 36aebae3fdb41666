"""Data-driven charts: policy-based hierarchical state machines defined as data.

A chart (YAML, TOML, JSON, Python data, or built with :mod:`statetree.chart.builder`) is
loaded into an immutable, validated model, compiled into ``State`` classes and run by a
:class:`ChartMachine` on the core ``StateMachine``: tracing, structure and plots work on it
unchanged. YAML needs ``ruamel.yaml`` and TOML before Python 3.11 needs ``tomli`` (the
``chart`` extra); they are imported only when such a file is read.

:class:`ChartBatch` runs one chart for many agents as NumPy arrays (the ``batch`` extra),
and :class:`ShardedBatch` splits them into shards held by Ray actors (the ``shard`` extra);
they and their companions are loaded on first access and left out of ``__all__``, so a star
import works without NumPy or Ray.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from statetree.chart.actions import ActionCall, Handler
from statetree.chart.compile import CompiledChart, compile_chart
from statetree.chart.document import Document
from statetree.chart.dump import dump_json, dump_yaml, fingerprint, to_data
from statetree.chart.errors import ChartError, HandlerError, Problem, ScriptError, UsedAt
from statetree.chart.events import Event, ScriptStep, read_script
from statetree.chart.load import EXTENSIONS, format_of, from_data, load, loads, read_document
from statetree.chart.machine import ChartMachine, EventListener
from statetree.chart.machine_snapshot import MachineSnapshot
from statetree.chart.model import (
    ActionDef,
    AllOf,
    AnyOf,
    Chart,
    Condition,
    NotOf,
    Origin,
    PatternDef,
    Place,
    Policy,
    StateDef,
    TransitionDef,
    TriggerDef,
    UseDef,
    UseSite,
)
from statetree.chart.registry import (
    DEFAULT_REGISTRY,
    ActionType,
    Param,
    ParamValue,
    Registry,
    TriggerType,
)
from statetree.chart.reload import Reloaded
from statetree.chart.schema import schema
from statetree.chart.states import ChartState
from statetree.chart.structure import chart_structure
from statetree.chart.validate import validate
from statetree.chart.watch import ChartWatcher

if TYPE_CHECKING:
    from statetree.chart.batch import AgentView as AgentView
    from statetree.chart.batch import BatchCall as BatchCall
    from statetree.chart.batch import BatchCodec as BatchCodec
    from statetree.chart.batch import BatchLoopError as BatchLoopError
    from statetree.chart.batch import BatchSnapshot as BatchSnapshot
    from statetree.chart.batch import ChartBatch as ChartBatch
    from statetree.chart.shard import Shard as Shard
    from statetree.chart.shard import ShardedBatch as ShardedBatch
    from statetree.chart.shard import ShardError as ShardError
    from statetree.chart.shard import ShardLostError as ShardLostError
    from statetree.chart.shard import ShardPool as ShardPool

_BATCH = (
    "AgentView",
    "BatchCall",
    "BatchCodec",
    "BatchLoopError",
    "BatchSnapshot",
    "ChartBatch",
)
_SHARD = ("Shard", "ShardError", "ShardLostError", "ShardPool", "ShardedBatch")

__all__ = [
    "DEFAULT_REGISTRY",
    "EXTENSIONS",
    "ActionCall",
    "ActionDef",
    "ActionType",
    "AllOf",
    "AnyOf",
    "Chart",
    "ChartError",
    "ChartMachine",
    "ChartState",
    "ChartWatcher",
    "CompiledChart",
    "Condition",
    "Document",
    "Event",
    "EventListener",
    "Handler",
    "HandlerError",
    "MachineSnapshot",
    "NotOf",
    "Origin",
    "Param",
    "ParamValue",
    "PatternDef",
    "Place",
    "Policy",
    "Problem",
    "Registry",
    "Reloaded",
    "ScriptError",
    "ScriptStep",
    "StateDef",
    "TransitionDef",
    "TriggerDef",
    "TriggerType",
    "UseDef",
    "UseSite",
    "UsedAt",
    "chart_structure",
    "compile_chart",
    "dump_json",
    "dump_yaml",
    "fingerprint",
    "format_of",
    "from_data",
    "load",
    "loads",
    "read_document",
    "read_script",
    "schema",
    "to_data",
    "validate",
]


def __getattr__(name: str) -> Any:
    # The batch engine needs NumPy, so it is imported only when first asked for.
    if name in _BATCH:
        return getattr(importlib.import_module("statetree.chart.batch"), name)
    if name in _SHARD:  # Ray too: the shard package
        return getattr(importlib.import_module("statetree.chart.shard"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
