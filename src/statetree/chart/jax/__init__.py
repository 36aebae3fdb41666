"""Charts as JAX step functions: many agents of one chart inside the caller's ``jax.jit``,
``jax.vmap`` and ``lax.scan``, on a CPU, GPU or TPU.

Needs JAX (the ``jax`` extra: ``pip install 'statetree[jax]'``). Clocks and timer
deadlines are float64, as in every engine of a chart, so that agents fire timers at the
very same instants: the program's functions switch JAX's 64-bit types on for themselves
(``jax.enable_x64``), and the caller's own code keeps JAX's default 32-bit types.
"""

from __future__ import annotations

try:
    import jax as _jax  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "statetree.chart.jax needs JAX: install it with pip install 'statetree[jax]'"
    ) from exc

from statetree.chart.jax.engine import (
    FREE,
    FRESH,
    NONE,
    SETTLED,
    TIMERS,
    UNRECORDED,
    Agents,
    Frame,
)
from statetree.chart.jax.program import ChartProgram

__all__ = [
    "FREE",
    "FRESH",
    "NONE",
    "SETTLED",
    "TIMERS",
    "UNRECORDED",
    "Agents",
    "ChartProgram",
    "Frame",
]
