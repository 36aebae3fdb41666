"""The codec of a state machine: its active configuration to bytes and back.

A packet is the header (path or leaf index, in the fewest bits the structure allows), then
the payload of every stateful active state, outermost first (regions in order), then zero
bits up to the end of the last byte.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Any

from statetree.core.cause import Cause
from statetree.core.machine import StateMachine
from statetree.core.state import State
from statetree.errors import DefinitionError, UsageError
from statetree.net.apply import apply_configuration
from statetree.net.bits import BitReader, BitWriter
from statetree.net.configuration import ActiveState, Configuration, capture
from statetree.net.errors import PacketError
from statetree.net.leaf_codec import LeafHeader
from statetree.net.path_codec import PathHeader
from statetree.net.shape import Pick, resolve
from statetree.net.tree import CodecTree, build_tree
from statetree.structure import Structure

__all__ = ["Codec", "HeaderMode"]


class HeaderMode(enum.Enum):
    """How the header describes which states are active."""

    PATH = "path"
    """A mixed-radix number of the choices from the top down: works for any structure."""
    LEAF = "leaf"
    """The index of the innermost state: single-outer structures without regions only."""


class Codec:
    """Encodes and decodes the configurations of the machines of one structure.

    Build it with :meth:`path`, :meth:`leaf` or :meth:`auto`; everything is computed then,
    so encoding and decoding are walks. Works for any ``StateMachine`` whose structure gives
    each state's class (class-based machines through ``derive``, charts through theirs).
    """

    __slots__ = ("_header", "_tree", "structure")

    def __init__(self, structure: Structure, tree: CodecTree, header: HeaderMode) -> None:
        """Use :meth:`path`, :meth:`leaf` or :meth:`auto`."""
        self.structure = structure
        self._tree = tree
        self._header = PathHeader(tree) if header is HeaderMode.PATH else LeafHeader(tree)

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
        return math.ceil(math.log2(self.configurations))

    @property
    def tree(self) -> CodecTree:
        """The codec tree that encoding and decoding walk (immutable)."""
        return self._tree

    # -- encoding --------------------------------------------------------------------------

    def capture(self, machine: StateMachine[Any]) -> Configuration:
        """The configuration ``machine`` is in.

        Raises:
            UsageError: the machine has no active state, or a payload cannot be sent.
        """
        return capture(machine, self._tree.specs, self._tree.region_roots)

    def header_of(self, configuration: Configuration) -> int:
        """The header value of ``configuration``.

        Raises:
            UsageError: the structure does not allow ``configuration``.
        """
        return self._header.value(resolve(self._tree.top, configuration.root))

    def encode(self, machine: StateMachine[Any]) -> bytes:
        """The packet of ``machine``'s configuration.

        Raises:
            UsageError: the machine is in a configuration its structure does not allow, or a
                payload cannot be sent.
        """
        return self._encode(self.capture(machine), checked=True)

    def encode_configuration(self, configuration: Configuration) -> bytes:
        """The packet of ``configuration``.

        Raises:
            UsageError: the structure does not allow ``configuration``, or a payload does
                not fit its fields.
        """
        return self._encode(configuration, checked=False)

    def _encode(self, configuration: Configuration, *, checked: bool) -> bytes:
        pick = resolve(self._tree.top, configuration.root)
        writer = BitWriter()
        writer.write_uint(self._header.value(pick), self._header.width)
        _write_payloads(writer, pick, configuration.root, checked)
        return writer.to_bytes()

    # -- decoding --------------------------------------------------------------------------

    def decode(self, data: bytes | bytearray | memoryview) -> Configuration:
        """The configuration a packet describes; nothing is changed.

        Raises:
            PacketError: (a ``DecodeError``) naming what is wrong and where: a header out of
                range, a truncated or out-of-range payload, a payload a state refuses, data
                after the end or padding bits that are not zero.
        """
        reader = BitReader(data)
        pick = self._header.pick(reader.read_uint(self._header.width))
        root = _read_payloads(reader, pick)
        reader.finish()
        return Configuration(root)

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
            UsageError: the structure does not allow ``configuration`` (nothing changed).
        """
        self._encode(configuration, checked=False)  # checks it against the structure
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
