"""statetree: hierarchical state machines for games and real-time simulations.

The core (states, transitions, the machine, state values and tracing) needs only the
standard library; it runs compiled with Cython where it was installed with a C compiler, and
as Python source otherwise (``__compiled__`` says which). The other areas are subpackages:
``st.structure``, ``st.plot``, ``st.bitmask``, ``st.chart``, ``st.net``, ``st.inspect``,
``st.cli``; what they need from optional extras is imported only when used.
"""

import importlib.util
import sys
from types import ModuleType
from typing import TYPE_CHECKING

from statetree.core import (
    Cause,
    State,
    StateMachine,
    StateValue,
    Step,
    StepKind,
    TraceLevel,
    Transition,
    TransitionKind,
    concurrent,
    format_step,
    inner,
    inner_entry,
    sibling,
)
from statetree.core.build import COMPILED
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
"""Whether the core runs compiled with Cython (``False``: the Python source runs)."""

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

_SUBPACKAGES = ("structure", "plot", "bitmask", "chart", "net", "inspect", "cli")


def _on_first_use(name: str) -> ModuleType:
    """The subpackage ``statetree.<name>``, whose code runs when it is first used.

    The standard library's lazy loader: ``import statetree`` stays quick, and the module is
    the real one, in ``sys.modules`` and here, from the start. (A module ``__getattr__``
    would do the same, but CPython 3.11 and 3.12 then stop specialising every ``st.<name>``
    lookup, and games make one per ``st.sibling(...)``.)
    """
    qualified = f"{__name__}.{name}"
    loaded = sys.modules.get(qualified)
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec(qualified)
    if spec is None or spec.loader is None:
        raise ImportError(f"statetree is missing its subpackage {name!r}; reinstall it")
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[qualified] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    from statetree import bitmask, chart, cli, inspect, net, plot, structure
else:
    structure = _on_first_use("structure")
    plot = _on_first_use("plot")
    bitmask = _on_first_use("bitmask")
    chart = _on_first_use("chart")
    net = _on_first_use("net")
    inspect = _on_first_use("inspect")
    cli = _on_first_use("cli")


def __dir__() -> list[str]:
    # The public names only, not the modules this one imports.
    return sorted({*__all__, *_SUBPACKAGES, "__compiled__", "__version__"})
