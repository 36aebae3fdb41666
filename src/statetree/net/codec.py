"""The codec of a state machine: its active configuration to bytes and back.

A packet is the header (path or leaf index, in the fewest bits the structure allows), then
the payload of every stateful active state, outermost first (regions in order), then zero
bits up to the end of the last byte. In a stream of several machines the configurations
follow each other with no padding in between.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Any

from statetree.core.cause import Cause
from statetree.core.machine import StateMachine
from statetree.core.refs import Ref, target_of
from statetree.core.state import State
from statetree.errors import DefinitionError, UsageError
from statetree.net.apply import apply_configuration
from statetree.net.bits import BitReader, BitWriter, require_packet
from statetree.net.configuration import ActiveState, Configuration, capture, check_built
from statetree.net.errors import PacketError
from statetree.net.leaf_codec import LeafHeader
from statetree.net.path_codec import PathHeader
from statetree.net.schema import codec_schema, fingerprint, wire_description
from statetree.net.shape import Pick, resolve
from statetree.net.tables import TABLE_LIMIT, Tables, all_picks, build_entry
from statetree.net.tree import CodecTree, build_tree
from statetree.structure import Structure

__all__ = ["Codec", "HeaderMode", "load_codec"]


class HeaderMode(enum.Enum):
    """How the header describes which states are active."""

    PATH = "path"
    """A mixed-radix number of the choices from the top down: works for any structure."""
    LEAF = "leaf"
    """The index of the innermost state: single-outer structures without regions only."""


class Codec:
    """Encodes and decodes the configurations of the machines of one structure.

    Build it with :meth:`path`, :meth:`leaf` or :meth:`auto`; everything is computed then:
    for structures of up to :data:`~statetree.net.tables.TABLE_LIMIT` configurations, every
    configuration's header and payload layout, so that encoding and decoding are lookups;
    for larger ones, the codec tree that encoding and decoding walk. Works for any
    ``StateMachine`` whose structure gives each state's class (class-based machines through
    ``derive``, charts through theirs).

    A packet is a stream of one machine: :meth:`write` and :meth:`read` append and read
    configurations in a longer stream (a :class:`BitWriter` or :class:`BitReader`), with no
    rounding between machines.
    """

    __slots__ = (
        "_by_classes",
        "_by_header",
        "_fingerprint",
        "_header",
        "_tables",
        "_tree",
        "_width",
        "structure",
    )

    def __init__(self, structure: Structure, tree: CodecTree, header: HeaderMode) -> None:
        """Use :meth:`path`, :meth:`leaf` or :meth:`auto`."""
        self.structure = structure
        self._tree = tree
        self._header = PathHeader(tree) if header is HeaderMode.PATH else LeafHeader(tree)
        self._fingerprint: str | None = None
        self._tables: Tables | None = None
        if tree.top.count <= TABLE_LIMIT:
            value = self._header.value
            self._tables = Tables([build_entry(pick, value(pick)) for pick in all_picks(tree)])
        # The hot paths read these directly; without tables, every lookup misses.
        self._width = self._header.width
        self._by_header = self._tables.by_header if self._tables is not None else {}
        self._by_classes = self._tables.by_classes if self._tables is not None else {}

    @classmethod
    def path(
        cls,
        structure: Structure,
        *,
        settles_empty: Mapping[str, bool] | None = None,
        classes: Mapping[str, type[State[Any]]] | None = None,
    ) -> Codec:
        """A codec with the mixed-radix path header.

        Args:
            structure: the machine's structure.
            settles_empty: per state name, whether it can settle with no inner state (by
                default, unless it has an inner-entry or concurrent transition).
            classes: the class of each state name, for structures that do not give them
                (a chart's structure: pass its compiled ``by_path``).

        Raises:
            DefinitionError: the structure cannot be encoded (see :func:`build_tree`).
        """
        return cls(structure, build_tree(structure, settles_empty, classes), HeaderMode.PATH)

    @classmethod
    def leaf(
        cls,
        structure: Structure,
        *,
        settles_empty: Mapping[str, bool] | None = None,
        classes: Mapping[str, type[State[Any]]] | None = None,
    ) -> Codec:
        """A codec with the leaf-index header (arguments as for :meth:`path`).

        Raises:
            DefinitionError: a state has several outers or hosts regions, or the structure
                cannot be encoded at all.
        """
        return cls(structure, build_tree(structure, settles_empty, classes), HeaderMode.LEAF)

    @classmethod
    def auto(
        cls,
        structure: Structure,
        *,
        settles_empty: Mapping[str, bool] | None = None,
        classes: Mapping[str, type[State[Any]]] | None = None,
    ) -> Codec:
        """The codec with the smaller header: the leaf index where it is valid and smaller,
        else the path header (arguments as for :meth:`path`)."""
        tree = build_tree(structure, settles_empty, classes)
        path = cls(structure, tree, HeaderMode.PATH)
        try:
            leaf = cls(structure, tree, HeaderMode.LEAF)
        except DefinitionError:
            return path
        return leaf if leaf.header_bits < path.header_bits else path

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its structure, what its tree was built from and its header mode (a
        loaded codec is built again: the same bits, the same fingerprint)."""
        settles_empty, classes = self._tree.made_from
        named = tuple(
            (name, Ref(cls, f"the class of state {name} in a codec")) for name, cls in classes
        )
        return (load_codec, (self.structure, settles_empty, named, self.header_mode.value))

    # -- what it is ------------------------------------------------------------------------

    @property
    def header_mode(self) -> HeaderMode:
        """The header this codec writes."""
        return HeaderMode.PATH if isinstance(self._header, PathHeader) else HeaderMode.LEAF

    @property
    def header_bits(self) -> int:
        """The width of the header, in bits."""
        return self._header.width

    @property
    def configurations(self) -> int:
        """How many configurations (without payloads) the structure allows."""
        return self._tree.top.count

    @property
    def minimum_bits(self) -> int:
        """``ceil(log2(configurations))``: the fewest bits any header could take."""
        return (self.configurations - 1).bit_length()

    @property
    def tree(self) -> CodecTree:
        """The codec tree that encoding and decoding walk (immutable)."""
        return self._tree

    @property
    def fingerprint(self) -> str:
        """A short, stable digest of everything that decides the bits: the header mode, the
        states of every place in order, and every payload field's layout. Two codecs with
        the same fingerprint write the same bits for the same configurations."""
        if self._fingerprint is None:
            self._fingerprint = fingerprint(wire_description(self))
        return self._fingerprint

    def schema(self) -> dict[str, Any]:
        """The wire layout as plain data (JSON-ready): the header, each place's states with
        their indexes, the leaf table of a leaf header, the payload fields with their widths,
        and the fingerprint. ``statetree net schema`` writes it to a file."""
        return codec_schema(self)

    # -- encoding --------------------------------------------------------------------------

    def capture(self, machine: StateMachine[Any]) -> Configuration:
        """The configuration ``machine`` is in.

        Raises:
            UsageError: the machine has no active state, or a payload cannot be sent.
        """
        _check_machine(machine)
        return capture(machine, self._tree.specs, self._tree.region_roots)

    def header_of(self, configuration: Configuration) -> int:
        """The header value of ``configuration``.

        Raises:
            UsageError: the structure does not allow ``configuration``.
        """
        _check_configuration(configuration)
        return self._header.value(resolve(self._tree.top, configuration.root))

    def encode(self, machine: StateMachine[Any]) -> bytes:
        """The packet of ``machine``'s configuration: its bits, then zero bits to a byte.

        Raises:
            UsageError: the machine is in a configuration its structure does not allow, or a
                payload cannot be sent.
        """
        return _padded(*self._machine_bits(machine))

    def encode_configuration(self, configuration: Configuration) -> bytes:
        """The packet of ``configuration``.

        Raises:
            UsageError: the structure does not allow ``configuration``, or a payload does
                not fit its fields.
        """
        return _padded(*self.bits_of(configuration))

    def bits_of(self, configuration: Configuration) -> tuple[int, int]:
        """``(value, width)``: the bits of ``configuration`` as one unsigned int, header
        first. A stream writer can append them (``writer.write_uint(value, width)``), and a
        program that sends the same few configurations can compute them once.

        Raises:
            UsageError: the structure does not allow ``configuration``, or a payload does
                not fit its fields.
        """
        _check_configuration(configuration)
        return self._bits(configuration, checked=False)

    def write(self, writer: BitWriter, machine: StateMachine[Any]) -> None:
        """Append ``machine``'s configuration to a stream, with no padding.

        Raises:
            UsageError: as :meth:`encode`.
        """
        writer.write_uint(*self._machine_bits(machine))

    def write_value(self, writer: BitWriter, configuration: Configuration) -> None:
        """Append ``configuration`` to a stream, with no padding.

        Raises:
            UsageError: as :meth:`encode_configuration`.
        """
        writer.write_uint(*self.bits_of(configuration))

    def _machine_bits(self, machine: StateMachine[Any]) -> tuple[int, int]:
        try:
            states = machine.walk()
        except AttributeError:
            raise _not_a_machine(machine) from None
        entry = self._by_classes.get(tuple(map(type, states)))
        if entry is None:  # not in the tables: walk the tree (it names what is wrong)
            return self._bits(self.capture(machine), checked=True)
        value, width = entry.header, self._width
        for position, spec, _ in entry.stateful:
            packed, size = spec.state_bits(states[position])
            value = (value << size) | packed
            width += size
        return value, width

    def _bits(self, configuration: Configuration, *, checked: bool) -> tuple[int, int]:
        pick = resolve(self._tree.top, configuration.root)
        writer = BitWriter()
        writer.write_uint(self._header.value(pick), self._header.width)
        _write_payloads(writer, pick, configuration.root, checked)
        return writer.to_uint(), writer.size

    # -- decoding --------------------------------------------------------------------------

    def decode(self, data: bytes | bytearray | memoryview) -> Configuration:
        """The configuration a packet describes; nothing is changed.

        Raises:
            PacketError: (a ``DecodeError``) naming what is wrong and where: a header out of
                range, a truncated or out-of-range payload, a payload a state refuses, data
                after the end or padding bits that are not zero.
            UsageError: ``data`` is not bytes.
        """
        data = require_packet(data)
        found = self._lookup(data)
        if found is not None:
            return found
        reader = BitReader(data)
        configuration = self.read(reader)
        reader.finish()
        return configuration

    def _lookup(self, data: bytes | bytearray) -> Configuration | None:
        """The configuration of a well-formed packet of fixed-width payloads, from the tables
        and a few integer operations; ``None`` sends every other packet through
        :meth:`read`, which finds and names what is wrong with it."""
        size = 8 * len(data)
        header = self._width
        if size < header:
            return None
        value = int.from_bytes(data, "big")
        entry = self._by_header.get(value >> (size - header))
        if entry is None or entry.width is None:
            return None
        left = size - header - entry.width
        if not 0 <= left < 8 or value & ((1 << left) - 1):
            return None
        if entry.fixed is not None:
            return entry.fixed
        return entry.decode((value >> left) & ((1 << entry.width) - 1), header)

    def read(self, reader: BitReader) -> Configuration:
        """Read the next configuration of a stream, checked as :meth:`decode` checks it.

        Raises:
            PacketError: as :meth:`decode` (bit offsets count from the stream's start).
        """
        header = reader.read_uint(self._width)
        entry = self._by_header.get(header)
        if entry is not None:
            if entry.fixed is not None:
                return entry.fixed
            if entry.width is not None:
                packed = reader.take(entry.width)
                if packed >= 0:
                    return entry.decode(packed, reader.position - entry.width)
            payloads = [spec.read(reader, path) for _, spec, path in entry.stateful]
            return Configuration(entry.template.build(payloads))
        start = reader.position - self._width
        try:
            pick = self._header.pick(header)
        except PacketError as error:
            raise error.moved(start) from None
        return Configuration(_read_payloads(reader, pick))

    # -- applying --------------------------------------------------------------------------

    def apply(
        self,
        machine: StateMachine[Any],
        configuration: Configuration,
        *,
        cause: Cause = Cause.DESERIALIZATION,
    ) -> None:
        """Move ``machine`` to ``configuration`` with ordinary exits and entries.

        States identical to the configuration's (class and payload) are kept and no hook
        runs for them; from the first difference on each branch, states are exited and the
        received ones entered with ``on_enter(*payload)``. Hooks see ``cause``.

        Raises:
            UsageError: the structure does not allow ``configuration``, or ``cause`` is not
                a ``Cause`` (nothing changed).
        """
        _check_machine(machine)
        self.bits_of(configuration)  # checks it against the structure
        apply_configuration(
            machine, configuration, self._tree.specs, self._tree.region_roots, cause
        )

    def receive(
        self, machine: StateMachine[Any], data: bytes | bytearray | memoryview
    ) -> Configuration:
        """Decode ``data`` and apply it to ``machine``, under ``Cause.DESERIALIZATION``.

        Raises:
            PacketError: the packet is bad; the machine is left exactly as it was.
        """
        _check_machine(machine)
        configuration = self.decode(data)
        apply_configuration(machine, configuration, self._tree.specs, self._tree.region_roots)
        return configuration

    def caused_by(self, machine: StateMachine[Any], cause: Cause) -> AbstractContextManager[None]:
        """``machine.caused_by(cause)``."""
        return machine.caused_by(cause)

    def __repr__(self) -> str:
        return (
            f"<Codec {self.structure.initial} {self.header_mode.value} header "
            f"{self.header_bits} bit(s), {self.configurations} configurations>"
        )


def _write_payloads(writer: BitWriter, pick: Pick, active: ActiveState, checked: bool) -> None:
    spec = pick.node.spec
    if spec.fields:
        problem = None if checked else spec.problem(active.payload)
        if problem:
            raise UsageError(f"payload of {active.cls.__qualname__}: {problem}")
        spec.write(writer, active.payload)
    if pick.inner is not None and active.inner is not None:
        _write_payloads(writer, pick.inner, active.inner, checked)
    for region_pick, region in zip(pick.regions, active.regions, strict=True):
        _write_payloads(writer, region_pick, region, checked)


def _read_payloads(reader: BitReader, pick: Pick) -> ActiveState:
    node = pick.node
    payload = node.spec.read(reader, node.cls.__name__)
    try:
        inner = _read_payloads(reader, pick.inner) if pick.inner is not None else None
        regions = tuple(_read_payloads(reader, region) for region in pick.regions)
    except PacketError as error:
        raise error.under(node.cls.__name__) from None
    return ActiveState(node.cls, payload, inner, regions)


def _padded(value: int, width: int) -> bytes:
    """``width`` bits of ``value``, then zero bits up to a whole byte."""
    padding = -width % 8
    return (value << padding).to_bytes((width + padding) >> 3, "big")


def _not_a_machine(machine: object) -> UsageError:
    return UsageError(
        f"a codec encodes and applies a StateMachine, got {machine!r}; give the machine "
        "(owner.machine), not its owner"
    )


def _check_machine(machine: object) -> None:
    if not isinstance(machine, StateMachine):
        raise _not_a_machine(machine)


def _check_configuration(configuration: object) -> None:
    if not isinstance(configuration, Configuration):
        raise UsageError(
            f"a Configuration is needed (codec.decode(packet), codec.capture(machine)), got "
            f"{type(configuration).__name__}; to apply a packet's bytes, use receive()"
        )
    check_built(configuration)


def load_codec(
    structure: Structure,
    settles_empty: tuple[tuple[str, bool], ...],
    classes: tuple[tuple[str, Ref], ...],
    header: str,
) -> Codec:
    """The loader of a saved codec (named in saves: renaming it breaks them)."""
    tree = build_tree(structure, dict(settles_empty), {n: target_of(c) for n, c in classes})
    return Codec(structure, tree, HeaderMode(header))
