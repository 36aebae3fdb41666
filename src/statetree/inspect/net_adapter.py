"""Machines replicated with a ``statetree.net`` codec: their packets, field by field.

A :class:`NetMachineAdapter` wraps the adapter of a class-based or chart machine and adds
packet decoding with the machine's :class:`~statetree.net.Codec`: the page shows the last
update's bytes, then its header, each payload field and the padding, with their bits and
meaning (from :func:`statetree.net.explain_packet`). A packet the codec refuses shows the
codec's error.
"""

from __future__ import annotations

from typing import Any

from statetree.inspect.adapters import (
    DecodedPacket,
    InspectError,
    MachineView,
    Note,
    PacketField,
    ShowsValues,
    Value,
    WatchedMachine,
)
from statetree.inspect.adapters import Event as TimelineEvent
from statetree.net.codec import Codec
from statetree.net.errors import PacketError
from statetree.net.layout import explain_packet

__all__ = ["NetMachineAdapter"]


class NetMachineAdapter:
    """Watch a machine through ``inner`` and decode its packets with ``codec``.

    Everything but packets is ``inner``'s: the view, the active states, the timeline.
    Editing a chart's file is not offered: the codec was built for the chart's structure
    as it is, and an edited chart would no longer match it.

    Args:
        inner: the machine's adapter (``StateMachineAdapter``, ``ChartAdapter``...), as
            ``adapt(machine)`` gives it; ``adapt(machine, codec=codec)`` builds both.
        codec: the codec the program encodes the machine's configuration with.
        name: the label on the page (default: ``inner``'s).

    Raises:
        InspectError: ``inner`` is not a watched-machine adapter, or ``codec`` is not a
            ``statetree.net.Codec``.
    """

    def __init__(self, inner: WatchedMachine, codec: Codec, *, name: str | None = None) -> None:
        if not isinstance(inner, WatchedMachine):
            raise InspectError(
                f"{inner!r} is not an adapter; give adapt(machine), or call "
                "adapt(machine, codec=codec)"
            )
        if not isinstance(codec, Codec):
            raise InspectError(
                f"{codec!r} is not a statetree.net.Codec (bitmask machines decode their own "
                "packets: give them no codec)"
            )
        self.inner = inner
        self.codec = codec
        self.name = name if name is not None else inner.name
        self.kind = inner.kind

    def view(self) -> MachineView:
        """``inner``'s view."""
        return self.inner.view()

    def active(self) -> tuple[str, ...]:
        """``inner``'s active states."""
        return self.inner.active()

    def attach(self, note: Note) -> None:
        """Attach ``inner``."""
        self.inner.attach(note)

    def detach(self) -> None:
        """Detach ``inner``."""
        self.inner.detach()

    def poll(self) -> None:
        """Poll ``inner``."""
        self.inner.poll()

    def values(self) -> tuple[Value, ...]:
        """``inner``'s values, if it shows any."""
        inner = self.inner
        return inner.values() if isinstance(inner, ShowsValues) else ()

    def describe(self, raw: Any) -> TimelineEvent:
        """``inner``'s timeline line for ``raw``."""
        return self.inner.describe(raw)

    def decode_packet(self, data: bytes) -> DecodedPacket:
        """The header, payload fields and padding of ``data`` (bits most significant first),
        or the codec's error for a bad packet."""
        try:
            layout = explain_packet(self.codec, data)
        except PacketError as error:
            return DecodedPacket(bytes(data), (), "msb", "", str(error))
        fields = tuple(
            PacketField(field.label, field.start, field.width, field.meaning)
            for field in layout.fields
            if field.width
        )
        return DecodedPacket(layout.data, fields, "msb", f"active: {layout.configuration}")
