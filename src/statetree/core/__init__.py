"""The core runtime: states, transitions, the machine, state values and tracing.

Its modules, and the chart's per-agent runtime (``statetree.chart``: machine, runtime,
states, conditions, actions), are compiled with Cython when the package is installed on a
machine with a C compiler, and run as plain Python otherwise: the same source, the same
behaviour and the same messages (``statetree.__compiled__`` says which runs). The ``.pxd``
file beside a compiled module declares, for Cython only, the C types of its hot classes and
functions.
"""

from __future__ import annotations

from statetree.core.cause import Cause
from statetree.core.machine import StateMachine
from statetree.core.state import State
from statetree.core.state_value import StateValue
from statetree.core.trace import Step, StepKind, TraceLevel, format_step
from statetree.core.transition import (
    Transition,
    TransitionKind,
    concurrent,
    inner,
    inner_entry,
    sibling,
)

__all__ = [
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
]
