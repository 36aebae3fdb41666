"""Why a state is being entered or exited: its hooks can skip what must not run twice."""

from __future__ import annotations

import enum

from statetree.errors import UsageError

__all__ = ["Cause", "require_cause"]


class Cause(enum.Enum):
    """What drives the current change of the stack (``machine.cause`` / ``state.cause``).

    Hooks use it to skip effects that are published elsewhere or cannot be predicted: a
    sound already played before a rollback, a hit confirmed by the server.
    """

    TRANSITION = "transition"
    """Ordinary processing of transitions (the default)."""
    DESERIALIZATION = "deserialization"
    """A configuration received from elsewhere (a network update) is being applied."""
    PREDICTION = "prediction"
    """A client runs ahead of the authority on its own inputs."""
    RESIMULATION = "resimulation"
    """Frames are replayed after a rollback to a confirmed configuration."""


def require_cause(cause: object, call: str) -> Cause:
    """``cause``, checked to be a :class:`Cause` (``call`` names the call given it).

    Raises:
        UsageError: it is something else.
    """
    if not isinstance(cause, Cause):
        raise UsageError(f"{call}: the cause must be a st.Cause, such as st.Cause.RESIMULATION")
    return cause
