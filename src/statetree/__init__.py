"""statetree: hierarchical state machines for games and real-time simulations.

The core (states, transitions, the machine, state values and tracing) needs only the
standard library; it runs compiled with mypyc where it was built with a C compiler, and as
Python source otherwise (``__compiled__`` says which). The other areas are subpackages,
imported on first use: ``st.structure``, ``st.plot``, ``st.bitmask``, ``st.chart``, ``st.net``,
``st.inspect``.
"""

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING

from statetree.core import COMPILED, fast_helpers
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
    LoadError,
    NotStartedError,
    SaveError,
    StateArgumentError,
    StateTreeError,
    StateValueError,
    TransitionLoopError,
    TransitionTargetError,
    UsageError,
)
from statetree.saves import read_save, write_save

# The compiled core's helpers in C where it runs (the same results and errors, a cheaper
# call); type checkers and readers see the Python functions imported above.
globals().update(fast_helpers())

__version__ = "0.1.0"
"""This release's version (the package metadata reads it from here)."""

__compiled__ = COMPILED
"""Whether the core runs compiled with mypyc (``False``: the Python source runs)."""

__all__ = [
    "Cause",
    "DecodeError",
    "DefinitionError",
    "LoadError",
    "NotStartedError",
    "SaveError",
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
    "read_save",
    "sibling",
    "write_save",
]

_SUBPACKAGES = ("structure", "plot", "bitmask", "chart", "net", "inspect", "cli")


class _Subpackage(ModuleType):
    """Stands for ``statetree.<name>`` until first used, then imports it and steps aside.

    A module ``__getattr__`` would do the same, but CPython (3.11, 3.12) then stops
    specialising every ``st.<name>`` lookup, and games make one per ``st.sibling(...)``.
    Importing the subpackage (``import statetree.chart``) replaces this placeholder.
    """

    def _load(self) -> ModuleType:
        module = importlib.import_module(self.__name__)
        setattr(sys.modules[__name__], self.__name__.rpartition(".")[2], module)
        return module

    def __getattr__(self, name: str) -> object:
        return getattr(self._load(), name)

    def __setattr__(self, name: str, value: object) -> None:
        setattr(self._load(), name, value)

    def __dir__(self) -> list[str]:
        return dir(self._load())


globals().update({name: _Subpackage(f"{__name__}.{name}") for name in _SUBPACKAGES})

if TYPE_CHECKING:
    # Declared, not imported: type checkers see modules, and compiling the core with mypyc
    # (which type-checks what the package imports) stays limited to the core.
    bitmask: ModuleType
    chart: ModuleType
    cli: ModuleType
    inspect: ModuleType
    net: ModuleType
    plot: ModuleType
    structure: ModuleType


def __dir__() -> list[str]:
    # The public names only, not the modules this one imports.
    return sorted({*__all__, *_SUBPACKAGES, "__compiled__", "__version__"})
