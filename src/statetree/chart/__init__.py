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

from typing import TYPE_CHECKING

from statetree.exports import Exports

if TYPE_CHECKING:
    from statetree.chart.actions import ActionCall as ActionCall
    from statetree.chart.actions import Handler as Handler
    from statetree.chart.batch import AgentView as AgentView
    from statetree.chart.batch import BatchCall as BatchCall
    from statetree.chart.batch import BatchCodec as BatchCodec
    from statetree.chart.batch import BatchLoopError as BatchLoopError
    from statetree.chart.batch import BatchSnapshot as BatchSnapshot
    from statetree.chart.batch import ChartBatch as ChartBatch
    from statetree.chart.compile import CompiledChart as CompiledChart
    from statetree.chart.compile import compile_chart as compile_chart
    from statetree.chart.document import Document as Document
    from statetree.chart.dump import dump_json as dump_json
    from statetree.chart.dump import dump_yaml as dump_yaml
    from statetree.chart.dump import fingerprint as fingerprint
    from statetree.chart.dump import to_data as to_data
    from statetree.chart.errors import ChartError as ChartError
    from statetree.chart.errors import HandlerError as HandlerError
    from statetree.chart.errors import Problem as Problem
    from statetree.chart.errors import ScriptError as ScriptError
    from statetree.chart.errors import UsedAt as UsedAt
    from statetree.chart.events import Event as Event
    from statetree.chart.events import ScriptStep as ScriptStep
    from statetree.chart.events import read_script as read_script
    from statetree.chart.json_schema import schema as schema
    from statetree.chart.loading import EXTENSIONS as EXTENSIONS
    from statetree.chart.loading import format_of as format_of
    from statetree.chart.loading import from_data as from_data
    from statetree.chart.loading import load as load
    from statetree.chart.loading import loads as loads
    from statetree.chart.loading import read_document as read_document
    from statetree.chart.machine import ChartMachine as ChartMachine
    from statetree.chart.machine import EventListener as EventListener
    from statetree.chart.machine_snapshot import MachineSnapshot as MachineSnapshot
    from statetree.chart.model import ActionDef as ActionDef
    from statetree.chart.model import AllOf as AllOf
    from statetree.chart.model import AnyOf as AnyOf
    from statetree.chart.model import Chart as Chart
    from statetree.chart.model import Condition as Condition
    from statetree.chart.model import NotOf as NotOf
    from statetree.chart.model import Origin as Origin
    from statetree.chart.model import PatternDef as PatternDef
    from statetree.chart.model import Place as Place
    from statetree.chart.model import StateDef as StateDef
    from statetree.chart.model import TransitionDef as TransitionDef
    from statetree.chart.model import TriggerDef as TriggerDef
    from statetree.chart.model import UseDef as UseDef
    from statetree.chart.model import UseSite as UseSite
    from statetree.chart.registry import DEFAULT_REGISTRY as DEFAULT_REGISTRY
    from statetree.chart.registry import ActionType as ActionType
    from statetree.chart.registry import Param as Param
    from statetree.chart.registry import ParamValue as ParamValue
    from statetree.chart.registry import Registry as Registry
    from statetree.chart.registry import TriggerType as TriggerType
    from statetree.chart.reload import Reloaded as Reloaded
    from statetree.chart.shard import Shard as Shard
    from statetree.chart.shard import ShardedBatch as ShardedBatch
    from statetree.chart.shard import ShardError as ShardError
    from statetree.chart.shard import ShardLostError as ShardLostError
    from statetree.chart.shard import ShardPool as ShardPool
    from statetree.chart.states import ChartState as ChartState
    from statetree.chart.structure import chart_structure as chart_structure
    from statetree.chart.validation import validate as validate
    from statetree.chart.watch import ChartWatcher as ChartWatcher

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

_EXPORTS = Exports(
    __name__,
    {
        "statetree.chart.actions": ("ActionCall", "Handler"),
        "statetree.chart.compile": ("CompiledChart", "compile_chart"),
        "statetree.chart.document": ("Document",),
        "statetree.chart.dump": ("dump_json", "dump_yaml", "fingerprint", "to_data"),
        "statetree.chart.errors": (
            "ChartError",
            "HandlerError",
            "Problem",
            "ScriptError",
            "UsedAt",
        ),
        "statetree.chart.events": ("Event", "ScriptStep", "read_script"),
        "statetree.chart.loading": (
            "EXTENSIONS",
            "format_of",
            "from_data",
            "load",
            "loads",
            "read_document",
        ),
        "statetree.chart.machine": ("ChartMachine", "EventListener"),
        "statetree.chart.machine_snapshot": ("MachineSnapshot",),
        "statetree.chart.model": (
            "ActionDef",
            "AllOf",
            "AnyOf",
            "Chart",
            "Condition",
            "NotOf",
            "Origin",
            "PatternDef",
            "Place",
            "StateDef",
            "TransitionDef",
            "TriggerDef",
            "UseDef",
            "UseSite",
        ),
        "statetree.chart.registry": (
            "DEFAULT_REGISTRY",
            "ActionType",
            "Param",
            "ParamValue",
            "Registry",
            "TriggerType",
        ),
        "statetree.chart.reload": ("Reloaded",),
        "statetree.chart.json_schema": ("schema",),
        "statetree.chart.states": ("ChartState",),
        "statetree.chart.structure": ("chart_structure",),
        "statetree.chart.validation": ("validate",),
        "statetree.chart.watch": ("ChartWatcher",),
        "statetree.chart.batch": (
            "AgentView",
            "BatchCall",
            "BatchCodec",
            "BatchLoopError",
            "BatchSnapshot",
            "ChartBatch",
        ),
        "statetree.chart.shard": (
            "Shard",
            "ShardedBatch",
            "ShardError",
            "ShardLostError",
            "ShardPool",
        ),
    },
)
__getattr__ = _EXPORTS.attribute
__dir__ = _EXPORTS.dir
