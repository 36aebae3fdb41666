"""Stateful states: the payload a state class adds to a packet, declared on the class.

A state is stateful when its class declares ``net_fields``, one :class:`Field` per
``on_enter`` argument it needs on the wire, and ``net_payload()``, which returns those
arguments from an active instance. The payload *is* the state's ``on_enter`` arguments:
decoding yields them and applying enters the state with ``on_enter(*payload)``.

.. code-block:: python

    class Jump(st.State[Character]):
        net_fields = (net.UInt(16),)

        def on_enter(self, started: int) -> None:
            self.started = started

        def net_payload(self) -> tuple[int]:
            return (self.started,)

A class may also define ``net_validate(cls, *payload) -> str | None`` (a classmethod):
decoding rejects a payload for which it returns a reason, with a :class:`PacketError`.
"""

from __future__ import annotations

import inspect
import math
import struct
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, cast

from statetree.core.state import State
from statetree.errors import DefinitionError, UsageError
from statetree.net.bits import BitReader, BitWriter
from statetree.net.errors import PacketError
from statetree.net.fields import Field

__all__ = ["PayloadSpec", "Specs", "Stateful", "payload_key", "same_payload"]

Payload = tuple[Any, ...]

_DOUBLE = struct.Struct(">d")


def _wire_key(value: object) -> object:
    """``value`` itself, except for the floats ``==`` misjudges, which become their bits:
    ``-0.0`` (equal to ``0.0``, though a receiver decodes its sign) and NaN (equal to
    nothing, not even to itself)."""
    if isinstance(value, float) and (
        math.isnan(value) or (value == 0.0 and math.copysign(1.0, value) < 0.0)
    ):
        return (float, _DOUBLE.pack(value))
    return value


def payload_key(payload: Payload) -> Payload:
    """What :func:`same_payload` compares, hashable as ``payload`` is: payloads the same
    for :func:`same_payload` have equal keys."""
    return tuple(map(_wire_key, payload)) if payload else payload


def same_payload(first: Payload, second: Payload) -> bool:
    """Whether two payloads are the same as a receiver decodes them: ``==`` value by value,
    except that ``-0.0`` differs from ``0.0`` (the sign is sent) and a NaN equals a NaN of
    the same bits. The one comparison of payloads: applying (``Codec.apply``) keeps a state
    by it, and ``Configuration`` equality (``Rollback.confirm``) uses it."""
    if first is second:
        return True
    if first == second:  # then only a zero can differ, by its sign
        if 0.0 not in first:
            return True
    elif len(first) != len(second):
        return False
    return all(_wire_key(x) == _wire_key(y) for x, y in zip(first, second, strict=True))


class Stateful(Protocol):
    """What a stateful state class provides (``net_validate`` is optional)."""

    net_fields: ClassVar[tuple[Field[Any], ...]]

    def net_payload(self) -> tuple[Any, ...]:
        """The values of ``net_fields``, in order: the arguments ``on_enter`` received."""
        ...


@dataclass(frozen=True, slots=True, eq=False)
class PayloadSpec:
    """The payload layout of one state class, read from its declarations.

    Attributes:
        cls: the state class.
        fields: its ``net_fields`` (empty for a state without payload).
        names: ``Class.parameter`` for each field, for messages.
        validate: its ``net_validate`` hook, if it has one.
        exact: every field sends values unchanged (none rounds, as ``Float32`` does).
        width: the bits of every payload when all fields have a fixed width, else ``None``.
        widths: then, the width of each field.
        packing: then, ``(field, width)`` pairs, for the encoder's loop.
    """

    cls: type[State[Any]]
    fields: tuple[Field[Any], ...]
    names: tuple[str, ...]
    validate: Callable[..., str | None] | None
    exact: bool = True
    width: int | None = None
    widths: tuple[int, ...] = ()
    packing: tuple[tuple[Field[Any], int], ...] = ()

    @classmethod
    def of(cls, state_class: type[State[Any]]) -> PayloadSpec:
        """Read and check the declarations of ``state_class``.

        Raises:
            DefinitionError: ``net_fields`` is not a tuple of fields, ``net_payload`` is
                missing, ``net_validate`` is not a classmethod, or ``on_enter`` cannot take
                the declared arguments (or requires arguments that are not declared).
        """
        fields = _declared_fields(state_class)
        label = state_class.__qualname__
        if fields and not callable(getattr(state_class, "net_payload", None)):
            raise DefinitionError(
                f"{label} declares net_fields but no net_payload(self) returning their values"
            )
        validate = getattr(state_class, "net_validate", None)
        declared = inspect.getattr_static(state_class, "net_validate", None)
        if validate is not None and not isinstance(declared, (classmethod, staticmethod)):
            raise DefinitionError(
                f"{label}.net_validate must be a classmethod (it checks a payload received "
                "before any state exists): put @classmethod above it"
            )
        names = tuple(
            f"{state_class.__name__}.{n}" for n in _parameter_names(state_class, len(fields))
        )
        exact = all(type(field).canonical is Field.canonical for field in fields)
        widths = tuple(field.width for field in fields if field.width is not None)
        width = sum(widths) if len(widths) == len(fields) else None
        packing = tuple(zip(fields, widths, strict=False)) if width is not None else ()
        return cls(state_class, fields, names, validate, exact, width, widths, packing)

    def capture(self, state: State[Any]) -> Payload:
        """The payload of an active ``state``, exactly as a receiver would decode it.

        Raises:
            UsageError: ``net_payload()`` returned values the fields cannot carry.
        """
        if not self.fields:
            return ()
        values = self._payload(state)
        self._refuse(values)
        if self.exact:
            return values
        return tuple(f.canonical(v) for f, v in zip(self.fields, values, strict=True))

    def _payload(self, state: State[Any]) -> Payload:
        """What ``state.net_payload()`` returned, as a tuple.

        Raises:
            UsageError: it returned no sequence of values (one value alone, say).
        """
        returned = cast(Stateful, state).net_payload()
        if not isinstance(returned, (tuple, list)):
            raise UsageError(
                f"{self.cls.__qualname__}.net_payload() returned {returned!r}: it returns a "
                "tuple of values, one per net_fields entry (return (value,) for one)"
            )
        return tuple(returned)

    def state_bits(self, state: State[Any]) -> tuple[int, int]:
        """``(value, width)``: the payload of an active ``state`` as bits, checked as
        :meth:`capture` checks it (in one pass over fixed-width fields).

        Raises:
            UsageError: ``net_payload()`` returned values the fields cannot carry.
        """
        values = cast(Stateful, state).net_payload()
        width = self.width
        if width is None or type(values) is not tuple or len(values) != len(self.packing):
            return self.bits(self.capture(state))
        packed = 0
        for index, (field, size) in enumerate(self.packing):
            bits = field.checked_bits(values[index])
            if bits < 0:
                self._refuse(tuple(values))
            packed = (packed << size) | bits
        if self.validate is not None and self.validate(*values):
            self._refuse(tuple(values))
        return packed, width

    def _refuse(self, values: Payload) -> None:
        problem = self.problem(values)
        if problem:
            label = self.cls.__qualname__
            raise UsageError(f"{label}.net_payload() returned {values!r}: {problem}")

    def problem(self, values: Payload) -> str | None:
        """Why ``values`` cannot be sent as this state's payload, or ``None`` if they can."""
        if len(values) != len(self.fields):
            return f"{self.cls.__qualname__} has {len(self.fields)} field(s)"
        for name, field, value in zip(self.names, self.fields, values, strict=True):
            problem = field.problem(value)
            if problem:
                return f"field {name}: {problem}"
        refusal = self.validate(*values) if self.validate else None
        return f"{self.cls.__qualname__}.net_validate refuses it: {refusal}" if refusal else None

    def write(self, writer: BitWriter, values: Payload) -> None:
        """Write checked ``values``."""
        writer.write_uint(*self.bits(values))

    def bits(self, values: Payload) -> tuple[int, int]:
        """``(value, width)``: checked ``values`` as one unsigned int of ``width`` bits."""
        if self.width is not None:
            packed = 0
            for field, size, value in zip(self.fields, self.widths, values, strict=True):
                packed = (packed << size) | field.to_bits(value)
            return packed, self.width
        writer = BitWriter()
        for field, value in zip(self.fields, values, strict=True):
            field.write(writer, value)
        return writer.to_uint(), writer.size

    def read(self, reader: BitReader, path: str) -> Payload:
        """Read a payload for the state at ``path`` (its name, for errors).

        Raises:
            PacketError: a field is truncated or out of range, or ``net_validate`` refuses.
        """
        if not self.fields:
            return ()
        start = reader.position
        if self.width is not None:
            packed = reader.take(self.width)
            if packed >= 0:
                return self.unpack(packed, start, path)
        values = []
        for name, field in zip(self.names, self.fields, strict=True):
            try:  # field by field: a truncation is reported at the field it cuts
                values.append(field.read(reader))
            except PacketError as error:
                raise error.within(path, name) from None
        return self._validated(values, start, path)

    def unpack(self, packed: int, start: int, path: str) -> Payload:
        """The payload in ``packed``, ``width`` bits read at offset ``start`` (fixed-width
        specs), checked.

        Raises:
            PacketError: a field is out of range, or ``net_validate`` refuses.
        """
        values = []
        bit = start
        left = self.width or 0
        for name, field, width in zip(self.names, self.fields, self.widths, strict=True):
            left -= width
            try:
                values.append(field.from_bits((packed >> left) & ((1 << width) - 1), bit))
            except PacketError as error:
                raise error.within(path, name) from None
            bit += width
        return self._validated(values, start, path)

    def _validated(self, values: list[Any], start: int, path: str) -> Payload:
        problem = self.validate(*values) if self.validate else None
        if problem:
            raise PacketError(
                f"{self.cls.__qualname__} refuses {tuple(values)!r}: {problem}",
                bit=start,
                state=path,
            )
        return tuple(values)


def _declared_fields(state_class: type[State[Any]]) -> tuple[Field[Any], ...]:
    fields = getattr(state_class, "net_fields", ())
    if not (isinstance(fields, tuple) and all(isinstance(f, Field) for f in fields)):
        raise DefinitionError(
            f"{state_class.__qualname__}.net_fields must be a tuple of statetree.net fields "
            f"(UInt, Int, Bool, Float32, Float64, Enum, Bytes), got {fields!r}"
        )
    return fields


def _parameter_names(state_class: type[State[Any]], count: int) -> list[str]:
    """The names of the first ``count`` arguments of ``on_enter``, after checking it takes
    exactly those positionally and requires nothing else."""
    label = state_class.__qualname__
    signature = inspect.signature(state_class.on_enter)
    try:
        signature.bind(None, *range(count))
    except TypeError as error:
        if count:
            problem = f"cannot take the {count} argument(s) {label}.net_fields declares"
        else:
            problem = "requires arguments, but no net_fields declare them"
        raise DefinitionError(
            f"{label}.on_enter{signature} {problem} ({error}): a received configuration "
            "enters the state with one argument per net_fields entry"
        ) from None
    params = list(signature.parameters.values())[1:]
    positional = [p.name for p in params if p.kind is not p.VAR_POSITIONAL]
    return [positional[i] if i < len(positional) else f"arg{i}" for i in range(count)]


class Specs:
    """The payload specs of a set of state classes, looked up by class."""

    __slots__ = ("_by_class",)

    def __init__(self, classes: Iterable[type[State[Any]]]) -> None:
        by_class = {cls: PayloadSpec.of(cls) for cls in classes}
        self._by_class: Mapping[type, PayloadSpec] = MappingProxyType(by_class)

    def payload(self, state: State[Any]) -> Payload:
        """The canonical payload of the active ``state``.

        Raises:
            UsageError: its class is not a state of the structure, or its payload cannot be
                sent.
        """
        spec = self._by_class.get(type(state))
        if spec is None:
            raise UsageError(
                f"{type(state).__qualname__} is not a state of the codec's structure; if the "
                "machine can enter it, the structure misses a transition (declare it with "
                "statetree.structure.targets)"
            )
        return spec.capture(state) if spec.fields else ()
