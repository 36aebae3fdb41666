"""statetree: hierarchical state machines for games and real-time simulations.

The core (states, transitions, the machine, state values and tracing) needs only the
standard library; it runs compiled with Cython where it was installed with a C compiler, and
as Python source otherwise (``__compiled__`` says which). The other areas are subpackages:
``st.structure``, ``st.plot``, ``st.bitmask``, ``st.chart``, ``st.net``, ``st.inspect``,
``st.cli``, imported with it; each imports what is behind its names when first used.
"""

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

__version__ = "0.1.0"
"""This release's version (the package metadata reads it from here)."""

__compiled__ = COMPILED
"""Whether the core runs compiled with Cython (``False``: the Python source runs)."""

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


# Imported here: a subpackage imports the modules behind its names only when one is first
# read (statetree.exports), and what needs an extra (YAML, NumPy, the inspector's server,
# Graphviz) only when used. This module itself has no module __getattr__, which would stop
# CPython 3.11 and later from specialising the ``st.<name>`` lookups games make per frame.
from statetree import bitmask as bitmask  # noqa: E402
from statetree import chart as chart  # noqa: E402
from statetree import cli as cli  # noqa: E402
from statetree import inspect as inspect  # noqa: E402
from statetree import net as net  # noqa: E402
from statetree import plot as plot  # noqa: E402
from statetree import structure as structure  # noqa: E402


def __dir__() -> list[str]:
    # The public names only, not the modules this one imports.
    return sorted({*__all__, *_SUBPACKAGES, "__compiled__", "__version__"})
