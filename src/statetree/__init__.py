"""statetree: hierarchical state machines for games and real-time simulations.

The core (states, transitions, the machine, state values and tracing) needs only the
standard library; it runs compiled with mypyc where it was built with a C compiler, and as
Python source otherwise (``__compiled__`` says which). The other areas are subpackages,
imported on first use: ``st.structure``, ``st.plot``, ``st.bitmask``, ``st.chart``, ``st.net``,
``st.inspect``.
"""

import importlib

from statetree.core import COMPILED
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

__version__ = "0.1.0"
"""This release's version (the package metadata reads it from here)."""

__compiled__ = COMPILED
"""Whether the core runs compiled with mypyc (``False``: the Python source runs)."""

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


def __getattr__(name: str) -> object:
    # Subpackages load lazily so that ``import statetree`` stays cheap and dependency-free.
    if name in _SUBPACKAGES:
        return importlib.import_module(f"statetree.{name}")
    raise AttributeError(f"module 'statetree' has no attribute {name!r}")


def __dir__() -> list[str]:
    # The public names only, not the modules this one imports.
    return sorted({*__all__, *_SUBPACKAGES, "__compiled__", "__version__"})
