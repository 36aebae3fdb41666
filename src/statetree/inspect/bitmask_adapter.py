"""The adapter of bitmask machines: active flags, ``explain`` and the replicated bytes.

A bitmask machine has no listeners; it keeps a bounded history of its changes instead. The
adapter reads that history from the inspector's thread, only while a page watches the
machine, so the program does nothing more than it already does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from statetree.bitmask import BitmaskMachine, Change, decode_mask
from statetree.errors import DecodeError
from statetree.inspect.adapters import (
    Category,
    DecodedPacket,
    Event,
    Explained,
    Flag,
    FlagsView,
    Note,
    PacketField,
    Value,
)
from statetree.inspect.values import owner_values

__all__ = ["BitmaskAdapter"]

_READ_ATTEMPTS = 3
"""How often to re-read a history the program changed while it was being copied."""


@dataclass(frozen=True, slots=True)
class _Flip:
    """A change seen by comparing masks (the machine keeps no history)."""

    state: str
    activated: bool


@dataclass(frozen=True, slots=True)
class _Missed:
    """Changes that left the machine's bounded history before they could be read."""

    count: int


class BitmaskAdapter:
    """Watch a :class:`~statetree.bitmask.BitmaskMachine`.

    Args:
        machine: the machine.
        name: the label on the page (default: the machine's name).
    """

    kind = "bitmask"

    def __init__(self, machine: BitmaskMachine[Any], *, name: str | None = None) -> None:
        self.machine = machine
        self.name = name if name is not None else machine.name
        self._note: Note | None = None
        self._view: FlagsView | None = None
        self._seen = 0
        self._mask = 0

    def view(self) -> FlagsView:
        """One flag per state, in bit order, with its rules and tags."""
        if self._view is None:
            self._view = self._flags()
        return self._view

    def _flags(self) -> FlagsView:
        definition = self.machine.definition
        flags = []
        for index, rule in enumerate(definition.rules):
            tags = [
                tag
                for tag, present in (
                    ("retriggerable", rule.retriggerable),
                    ("predictable", rule.predictable),
                    ("custom check", definition.checked[index]),
                )
                if present
            ]
            flags.append(
                Flag(rule.name, rule.requires, rule.terminates, rule.blocked_by, tuple(tags))
            )
        return FlagsView(tuple(flags))

    def active(self) -> tuple[str, ...]:
        """The active states' names, in bit order."""
        return self.machine.active_states

    def attach(self, note: Note) -> None:
        """Start reporting changes made from now on to ``note``."""
        last = self.machine.last_change
        self._seen = last.seq if last is not None else 0
        self._mask = self.machine.mask
        self._note = note

    def detach(self) -> None:
        """Stop reporting changes."""
        self._note = None

    @property
    def attached(self) -> bool:
        """Whether changes are being reported."""
        return self._note is not None

    def poll(self) -> None:
        """Report the changes made since the last poll, oldest first."""
        note = self._note
        if note is None:
            return
        mask = self.machine.mask
        last = self.machine.last_change
        if last is None:
            for flip in self._flips(self._mask, mask):
                note(flip)
        elif last.seq != self._seen:
            for change in self._changes_since(self._seen, last.seq):
                note(change)
            self._seen = last.seq
        self._mask = mask

    def _flips(self, before: int, after: int) -> list[_Flip]:
        names = self.machine.definition.names
        changed = before ^ after
        return [
            _Flip(name, bool(after >> index & 1))
            for index, name in enumerate(names)
            if changed >> index & 1
        ]

    def _changes_since(self, seen: int, latest: int) -> list[_Missed | Change]:
        history: tuple[Change, ...] = ()
        for _ in range(_READ_ATTEMPTS):
            try:
                history = self.machine.history
                break
            except RuntimeError:  # the program appended while the history was copied
                continue
        fresh = [change for change in history if change.seq > seen]
        missed = (fresh[0].seq if fresh else latest + 1) - seen - 1
        return [_Missed(missed), *fresh] if missed > 0 else list(fresh)

    def describe(self, raw: Any) -> Event:
        """The timeline line of a change."""
        if isinstance(raw, _Missed):
            detail = f"{raw.count} change(s) left the machine's history before they were read"
            return Event("event", "Missed", "", -1, detail)
        if isinstance(raw, _Flip):
            label = "Activated" if raw.activated else "Deactivated"
            return Event("enter" if raw.activated else "exit", label, raw.state, -1, "")
        change: Change = raw
        label = "Activated" if change.activated else "Deactivated"
        category: Category = "enter" if change.activated else "exit"
        return Event(category, label, change.state, -1, change.reason)

    def values(self) -> tuple[Value, ...]:
        """The owner's state values and public fields, as text."""
        return owner_values(self.machine.owner)

    def explain(self, state: str) -> Explained:
        """Whether ``state`` could activate now, and why not.

        Raises:
            NoSuchStateError: the machine has no such state.
        """
        found = self.machine.explain(state)
        return Explained(found.state, found.can_activate, str(found), found.reasons)

    def decode_packet(self, data: bytes) -> DecodedPacket:
        """The bytes of ``encode()``: one bit per state, little-endian, then padding."""
        definition = self.machine.definition
        mask = int.from_bytes(data, "little")
        fields = [
            PacketField(name, index, 1, str(mask >> index & 1))
            for index, name in enumerate(definition.names)
        ]
        padding = len(data) * 8 - definition.size
        if padding > 0:
            rest = str(mask >> definition.size)
            fields.append(PacketField("padding", definition.size, padding, rest))
        try:
            decode_mask(definition, data)
        except DecodeError as error:
            return DecodedPacket(bytes(data), tuple(fields), "lsb", "", str(error))
        active = ", ".join(definition.names_in(mask)) or "no state"
        return DecodedPacket(bytes(data), tuple(fields), "lsb", f"active: {active}")
