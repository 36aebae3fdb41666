"""What a machine did, as data: the cause of a change and the record of one change."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class BitCause(enum.Enum):
    """Why a state was activated or deactivated; hooks receive one of these."""

    REQUESTED = "requested"
    """A direct ``try_activate`` / ``deactivate`` call."""
    RETRIGGERED = "retriggered"
    """A retriggerable state left so that it could enter again."""
    TERMINATED = "terminated"
    """Another state that lists this one in ``terminates`` was activated."""
    LOST_REQUIREMENT = "lost requirement"
    """A state this one requires was deactivated."""
    PREDICTED = "predicted"
    """A client activated the state ahead of the server's answer."""
    NETWORK = "from the network"
    """A mask received from the authority was applied."""
    ROLLBACK = "rolled back"
    """The server rejected a prediction and the client returned to the server's mask, or
    replays a frame after returning to it (``net.Rollback``)."""

    def describe(self, by: str | None = None) -> str:
        """The cause in words, naming the responsible state if given.

        Returns:
            e.g. ``"requested"``, ``"terminated by InDialogue"``, ``"lost requirement Alive"``.
        """
        if by is None:
            return self.value
        return f"{self.value} by {by}" if self is BitCause.TERMINATED else f"{self.value} {by}"


@dataclass(frozen=True, slots=True)
class Change:
    """One activation or deactivation, as kept in a machine's history.

    Attributes:
        seq: position in the machine's sequence of changes, starting at 1.
        state: name of the state that changed.
        activated: True if it became active, False if it became inactive.
        cause: why it changed.
        by: the state responsible (the terminator, or the lost requirement), if any.
        mask: the machine's mask right after the change.
    """

    seq: int
    state: str
    activated: bool
    cause: BitCause
    by: str | None
    mask: int

    @property
    def reason(self) -> str:
        """The cause in words, e.g. ``"terminated by InDialogue"``."""
        return self.cause.describe(self.by)

    def __str__(self) -> str:
        sign = "+" if self.activated else "-"
        return f"#{self.seq} {sign}{self.state} ({self.reason})"
