"""The errors of the net package: what was wrong in a packet, and where; a peer refused."""

from __future__ import annotations

from statetree.errors import DecodeError, StateTreeError

__all__ = ["HandshakeError", "PacketError"]


class PacketError(DecodeError):
    """Received bytes are not a legal packet; nothing was changed.

    Attributes:
        reason: what is wrong, in words.
        bit: the offset, in bits from the start of the packet, where the problem starts.
        state: the path of the state being read (``Alive/Locomotion/Move``), if any.
        field: the payload field being read (``Jump.started``), if any.
        machine: in a stream of several machines, the index of the one being read.
    """

    def __init__(
        self,
        reason: str,
        *,
        bit: int,
        state: str | None = None,
        field: str | None = None,
        machine: int | None = None,
    ) -> None:
        self.reason = reason
        self.bit = bit
        self.state = state
        self.field = field
        self.machine = machine
        super().__init__(self._message())

    def _message(self) -> str:
        where = ", ".join(
            part
            for part in (
                f"bit {self.bit}",
                self.machine is not None and f"machine {self.machine}",
                self.state and f"state {self.state}",
                self.field and f"field {self.field}",
            )
            if part
        )
        return f"bad packet at {where}: {self.reason}"

    def moved(self, offset: int) -> PacketError:
        """The same error, ``offset`` bits further (a header read in the middle of a stream)."""
        return PacketError(
            self.reason,
            bit=self.bit + offset,
            state=self.state,
            field=self.field,
            machine=self.machine,
        )

    def of_machine(self, index: int) -> PacketError:
        """The same error, in the machine at ``index`` of a stream."""
        return PacketError(
            self.reason, bit=self.bit, state=self.state, field=self.field, machine=index
        )

    def under(self, outer: str) -> PacketError:
        """Put the state path of this error inside ``outer`` (decoders add each outer state
        as the error leaves it, so paths cost nothing unless a packet is bad)."""
        self.state = f"{outer}/{self.state}" if self.state else outer
        self.args = (self._message(),)
        return self

    def within(self, state: str, field: str | None = None) -> PacketError:
        """The same error, located in ``state`` (and ``field``) when it was not yet."""
        return PacketError(
            self.reason,
            bit=self.bit,
            state=self.state or state,
            field=self.field or field,
            machine=self.machine,
        )


class HandshakeError(StateTreeError, ConnectionError):
    """The server refused this client, or did not answer its hello in time.

    Attributes:
        reason: what happened, in words.
        peer: the server's address, as ``host:port``.
        ours: this side's wire-schema fingerprint.
        theirs: the server's fingerprint, when it answered.
    """

    def __init__(self, reason: str, *, peer: str, ours: str, theirs: str | None = None) -> None:
        self.reason = reason
        self.peer = peer
        self.ours = ours
        self.theirs = theirs
        super().__init__(f"handshake with the server at {peer} failed: {reason}")
