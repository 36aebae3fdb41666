"""Bitmask multi-state machines: many states active at once, one bit each.

Each state declares the states it requires, the states it terminates when it activates and
the states that block it. Rules are validated when the definition is built; a machine then
answers ``try_activate`` with a few integer operations, explains refusals, keeps a bounded
history, replicates as bytes, supports client prediction, and runs in bulk over NumPy arrays
(``statetree.bitmask.BitmaskBatch``, loaded on first access and left out of ``__all__`` so
that a star import works without the ``statetree[batch]`` extra).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from statetree.bitmask.codec import decode_mask, encode_mask, mask_problem
from statetree.bitmask.definition import BitmaskDefinition
from statetree.bitmask.errors import (
    DuplicateStateError,
    NoSuchStateError,
    NotPredictableError,
    ReentrantRequestError,
    RequirementCycleError,
    RuleConflictError,
    SelfReferenceError,
    StateDataError,
    UnknownStateError,
)
from statetree.bitmask.explain import Explanation, explain, format_history, format_states
from statetree.bitmask.machine import BitmaskMachine
from statetree.bitmask.prediction import (
    PredictingClient,
    PredictionRequest,
    Verdict,
    serve_prediction,
)
from statetree.bitmask.records import BitCause, Change
from statetree.bitmask.spec import StateRule
from statetree.bitmask.state import BitState, StateRef

if TYPE_CHECKING:
    from statetree.bitmask.batch import BitmaskBatch as BitmaskBatch

__all__ = [
    "BitCause",
    "BitState",
    "BitmaskDefinition",
    "BitmaskMachine",
    "Change",
    "DuplicateStateError",
    "Explanation",
    "NoSuchStateError",
    "NotPredictableError",
    "PredictingClient",
    "PredictionRequest",
    "ReentrantRequestError",
    "RequirementCycleError",
    "RuleConflictError",
    "SelfReferenceError",
    "StateDataError",
    "StateRef",
    "StateRule",
    "UnknownStateError",
    "Verdict",
    "decode_mask",
    "encode_mask",
    "explain",
    "format_history",
    "format_states",
    "mask_problem",
    "serve_prediction",
]


def __getattr__(name: str) -> Any:
    # BitmaskBatch needs NumPy, so it is imported only when first asked for.
    if name == "BitmaskBatch":
        return importlib.import_module("statetree.bitmask.batch").BitmaskBatch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
