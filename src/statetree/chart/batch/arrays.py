"""NumPy for the batch engine: imported once here, with the array types its modules share.

NumPy is an optional dependency (the ``batch`` extra); importing any batch module without it
raises an ``ImportError`` that says how to install it.
"""

from __future__ import annotations

from typing import TypeAlias

try:
    import numpy as np
    from numpy.typing import NDArray
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "statetree.chart.ChartBatch needs NumPy: install it with pip install 'statetree[batch]'"
    ) from exc

__all__ = ["Bools", "Floats", "Indexes", "NDArray", "np", "read_only"]

Bools: TypeAlias = NDArray[np.bool_]
Floats: TypeAlias = NDArray[np.float64]
Indexes: TypeAlias = NDArray[np.intp]
"""Agent indexes, or positions in a working set."""


def read_only(array: Indexes) -> Indexes:
    """``array`` marked read-only (handed to host code, which must not change it)."""
    array.setflags(write=False)  # cheaper than setting array.flags.writeable
    return array
