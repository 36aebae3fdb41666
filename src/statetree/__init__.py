"""statetree: hierarchical state machines for games and real-time simulations."""

from statetree.errors import (
    DecodeError,
    DefinitionError,
    NotStartedError,
    StateTreeError,
    StateValueError,
    TransitionLoopError,
    TransitionTargetError,
    UsageError,
)

__all__ = [
    "DecodeError",
    "DefinitionError",
    "NotStartedError",
    "StateTreeError",
    "StateValueError",
    "TransitionLoopError",
    "TransitionTargetError",
    "UsageError",
]
