"""The decoding error of the net package: what was wrong in a packet, and where."""

from __future__ import annotations

from statetree.errors import DecodeError

__all__ = ["PacketError"]


class PacketError(DecodeError):
    """Received bytes are not a legal packet; nothing was changed.

    Attributes:
        reason: what is wrong, in words.
        bit: the offset, in bits from the start of the packet, where the problem starts.
        state: the path of the state being read (``Alive/Locomotion/Move``), if any.
        field: the payload field being read (``Jump.started``), if any.
    """

    def __init__(
        self, reason: str, *, bit: int, state: str | None = None, field: str | None = None
    ) -> None:
        self.reason = reason
        self.bit = bit
        self.state = state
        self.field = field
        super().__init__(self._message())

    def _message(self) -> str:
        where = ", ".join(
            part
            for part in (
                f"bit {self.bit}",
                self.state and f"state {self.state}",
                self.field and f"field {self.field}",
            )
            if part
        )
        return f"bad packet at {where}: {self.reason}"

    def under(self, outer: str) -> PacketError:
        """Put the state path of this error inside ``outer`` (decoders add each outer state
        as the error leaves it, so paths cost nothing unless a packet is bad)."""
        self.state = f"{outer}/{self.state}" if self.state else outer
        self.args = (self._message(),)
        return self

    def within(self, state: str, field: str | None = None) -> PacketError:
        """The same error, located in ``state`` (and ``field``) when it was not yet."""
        return PacketError(
            self.reason, bit=self.bit, state=self.state or state, field=self.field or field
        )
