"""Bitmask multi-state machines: many states active at once, one bit each.

Each state declares the states it requires, the states it terminates when it activates and
the states that block it. Rules are validated when the definition is built; a machine then
answers ``try_activate`` with a few integer operations, explains refusals, keeps a bounded
history, replicates as bytes, supports client prediction, and runs in bulk over NumPy arrays
(``statetree.bitmask.BitmaskBatch``, loaded on first access and left out of ``__all__`` so
that a star import works without the ``statetree[batch]`` extra).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from statetree.exports import Exports

if TYPE_CHECKING:
    from statetree.bitmask.batch import BitmaskBatch as BitmaskBatch
    from statetree.bitmask.codec import decode_mask as decode_mask
    from statetree.bitmask.codec import encode_mask as encode_mask
    from statetree.bitmask.codec import mask_problem as mask_problem
    from statetree.bitmask.definition import BitmaskDefinition as BitmaskDefinition
    from statetree.bitmask.errors import DuplicateStateError as DuplicateStateError
    from statetree.bitmask.errors import NoSuchStateError as NoSuchStateError
    from statetree.bitmask.errors import NotPredictableError as NotPredictableError
    from statetree.bitmask.errors import ReentrantRequestError as ReentrantRequestError
    from statetree.bitmask.errors import RequirementCycleError as RequirementCycleError
    from statetree.bitmask.errors import RuleConflictError as RuleConflictError
    from statetree.bitmask.errors import SelfReferenceError as SelfReferenceError
    from statetree.bitmask.errors import StateDataError as StateDataError
    from statetree.bitmask.errors import UnknownStateError as UnknownStateError
    from statetree.bitmask.explanation import Explanation as Explanation
    from statetree.bitmask.explanation import explain as explain
    from statetree.bitmask.explanation import format_history as format_history
    from statetree.bitmask.explanation import format_states as format_states
    from statetree.bitmask.machine import BitmaskMachine as BitmaskMachine
    from statetree.bitmask.prediction import PredictingClient as PredictingClient
    from statetree.bitmask.prediction import PredictionRequest as PredictionRequest
    from statetree.bitmask.prediction import Verdict as Verdict
    from statetree.bitmask.prediction import serve_prediction as serve_prediction
    from statetree.bitmask.records import BitCause as BitCause
    from statetree.bitmask.records import Change as Change
    from statetree.bitmask.spec import StateRule as StateRule
    from statetree.bitmask.state import BitState as BitState
    from statetree.bitmask.state import StateRef as StateRef

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

_EXPORTS = Exports(
    __name__,
    {
        "statetree.bitmask.codec": ("decode_mask", "encode_mask", "mask_problem"),
        "statetree.bitmask.definition": ("BitmaskDefinition",),
        "statetree.bitmask.errors": (
            "DuplicateStateError",
            "NoSuchStateError",
            "NotPredictableError",
            "ReentrantRequestError",
            "RequirementCycleError",
            "RuleConflictError",
            "SelfReferenceError",
            "StateDataError",
            "UnknownStateError",
        ),
        "statetree.bitmask.explanation": (
            "Explanation",
            "explain",
            "format_history",
            "format_states",
        ),
        "statetree.bitmask.machine": ("BitmaskMachine",),
        "statetree.bitmask.prediction": (
            "PredictingClient",
            "PredictionRequest",
            "Verdict",
            "serve_prediction",
        ),
        "statetree.bitmask.records": ("BitCause", "Change"),
        "statetree.bitmask.spec": ("StateRule",),
        "statetree.bitmask.state": ("BitState", "StateRef"),
        "statetree.bitmask.batch": ("BitmaskBatch",),
    },
)
__getattr__ = _EXPORTS.attribute
__dir__ = _EXPORTS.dir
