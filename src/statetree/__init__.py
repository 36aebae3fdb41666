"""statetree: hierarchical state machines for games and real-time simulations.

The core (states, transitions, the machine, state values and tracing) needs only the
standard library. The other areas are subpackages, imported on first use:
``st.structure``, ``st.plot``, ``st.bitmask``, ``st.chart``, ``st.net``, ``st.inspect``.
"""

import importlib
from types import ModuleType

from statetree.cause import Cause
from statetree.errors import (
    DecodeError,
    DefinitionError,
    NotStartedError,
    StateArgumentError,
    StateTreeError,
    StateValueError,
    TransitionLoopError,
    TransitionTargetError,
    UsageError,
)
from statetree.machine import StateMachine
from statetree.state import State
from statetree.state_value import StateValue
from statetree.trace import Step, StepKind, TraceLevel, format_step
from statetree.transition import (
    Transition,
    TransitionKind,
    concurrent,
    inner,
    inner_entry,
    sibling,
)

__all__ = [
    "Cause",
    "DecodeError",
    "DefinitionError",
    "NotStartedError",
    "State",
    "StateArgumentError",
    "StateMachine",
    "StateTreeError",
    "StateValue",
    "StateValueError",
    "Step",
    "StepKind",
    "TraceLevel",
    "Transition",
    "TransitionKind",
    "TransitionLoopError",
    "TransitionTargetError",
    "UsageError",
    "concurrent",
    "format_step",
    "inner",
    "inner_entry",
    "sibling",
]

_SUBPACKAGES = frozenset({"structure", "plot", "bitmask", "chart", "net", "inspect", "cli"})


def __getattr__(name: str) -> ModuleType:
    # Subpackages load lazily so that ``import statetree`` stays cheap and dependency-free.
    if name in _SUBPACKAGES:
        return importlib.import_module(f"statetree.{name}")
    raise AttributeError(f"module 'statetree' has no attribute {name!r}")
