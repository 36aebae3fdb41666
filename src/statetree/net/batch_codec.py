"""A whole batch in one bit stream: each agent's configuration, back to back.

A chart's states carry no payload, so every configuration takes the same number of bits
under a :class:`~statetree.net.Codec` (its header): a batch of ``n`` agents is ``n`` headers
in a row, with no rounding between agents, padded to a byte once at the end of the packet.
The codec is asked once per distinct configuration (``bits_of`` to write, ``read`` to check
what it reads), and the agents are packed and unpacked as arrays.

Decoding trusts nothing: a header out of range, or a stream that ends early, raises
:class:`~statetree.net.PacketError` naming the agent and the bit, before anything is applied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from statetree.chart.batch.arguments import Entities, count_of
from statetree.chart.batch.arrays import Indexes, NDArray, np
from statetree.chart.batch.operations import apply_operation
from statetree.chart.batch.table import Layout
from statetree.chart.compile import CompiledChart, compile_chart
from statetree.chart.machine import ChartMachine
from statetree.chart.model import Chart
from statetree.chart.structure import chart_structure, compiled_structure
from statetree.core.state import State
from statetree.errors import UsageError
from statetree.net.apply import apply_configuration
from statetree.net.bits import BitReader, BitWriter
from statetree.net.codec import Codec
from statetree.net.configuration import ActiveState, Configuration
from statetree.net.errors import PacketError
from statetree.net.payload import Specs
from statetree.net.stream import read_stamp, write_stamp
from statetree.net.tree import Node, RegionSet

if TYPE_CHECKING:
    from statetree.chart.batch.batch import ChartBatch

__all__ = ["BatchCodec", "BatchConfigurations"]


@dataclass(frozen=True, eq=False)
class BatchConfigurations:
    """The configurations read for a batch's agents, checked (nothing applied yet).

    Attributes:
        configurations: the distinct configurations read, in order of first appearance.
        of_agent: for each agent of the stream, the index of its configuration.
    """

    configurations: tuple[Configuration, ...]
    of_agent: Indexes

    def __len__(self) -> int:
        return int(self.of_agent.size)

    def __getitem__(self, agent: int) -> Configuration:
        """The configuration of the ``agent``-th agent of the stream."""
        return self.configurations[int(self.of_agent[agent])]

    def __iter__(self) -> Iterator[Configuration]:
        return (self.configurations[index] for index in self.of_agent.tolist())


def _classes(codec: Codec) -> dict[str, type[State[Any]]]:
    """The class of each state of ``codec``'s tree, by name.

    Raises:
        UsageError: a state carries a payload (no chart state does).
    """
    found: dict[str, type[State[Any]]] = {}
    nodes = list(codec.tree.top.nodes)
    while nodes:
        node = nodes.pop()
        if node.spec.fields:
            raise UsageError(f"state {node.name} carries a payload: a chart's states never do")
        found[node.name] = node.cls
        for option in node.options:
            if isinstance(option, RegionSet):
                nodes.extend(n for level in option.levels for n in level.nodes)
            elif isinstance(option, Node):
                nodes.append(option)
    return found


class BatchCodec:
    """Writes the configurations of a batch's agents into a bit stream, reads them back
    (checked), and applies them to a batch with the exits and entries ``Codec.apply`` makes
    on each agent's ``ChartMachine``.

    Args:
        codec: the codec of the chart's configurations (built from the chart's structure
            with its compiled classes, as for a ``ChartMachine``).
        chart: the chart, or a compilation of it: any batch running it can use this codec.

    Raises:
        UsageError: ``codec`` is not a codec of ``chart``'s states.
    """

    def __init__(self, codec: Codec, chart: Chart | CompiledChart) -> None:
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        classes = _classes(codec)
        unknown = sorted(set(classes) - set(compiled.by_path))
        if unknown:
            raise UsageError(
                f"the codec encodes states chart {compiled.chart.name!r} lacks: {unknown}"
            )
        self.codec = codec
        self.compiled = compiled
        self._layout = Layout(compiled)
        self._structure = chart_structure(compiled.chart)
        self._fits: WeakKeyDictionary[CompiledChart, bool] = WeakKeyDictionary()
        self._classes = classes
        self._bits: dict[int, int] = {}  # packed active flags -> header value
        self._flags: dict[int, tuple[int, Configuration]] = {}  # header value -> flags

    @classmethod
    def auto(
        cls, chart: Chart | CompiledChart, *, settles_empty: Mapping[str, bool] | None = None
    ) -> BatchCodec:
        """The batch codec of ``chart`` with ``Codec.auto`` (``settles_empty``: as there)."""
        compiled = chart if isinstance(chart, CompiledChart) else compile_chart(chart)
        codec = Codec.auto(compiled_structure(compiled), settles_empty=settles_empty)
        return cls(codec, compiled)

    @property
    def bits(self) -> int:
        """The bits each agent takes in a stream."""
        return self.codec.header_bits

    @property
    def fingerprint(self) -> str:
        """The wire schema's fingerprint (the codec's)."""
        return self.codec.fingerprint

    # -- writing ---------------------------------------------------------------------------

    def write(self, writer: BitWriter, batch: ChartBatch, entities: Entities = None) -> None:
        """Append the configuration of each agent of ``entities`` (every live agent by
        default), ascending, to ``writer``.

        Raises:
            UsageError: an agent is in a configuration the codec does not allow (one that
                has not started, or did not settle).
        """
        self._check(batch)
        ids = batch._select(entities)
        if ids.size == 0:
            return
        situations = batch._agents.situations[ids]
        distinct, first, inverse = np.unique(situations, return_index=True, return_inverse=True)
        values = [
            self._value_of(batch, int(number), int(ids[at]))
            for number, at in zip(distinct.tolist(), first.tolist(), strict=True)
        ]
        writer.write_uint(_joined(values, inverse.reshape(-1), self.bits), ids.size * self.bits)

    def encode(self, batch: ChartBatch, entities: Entities = None, *, stamp_bits: int = 0) -> bytes:
        """A packet of the agents of ``entities``: :meth:`write`, padded to a byte.

        Args:
            stamp_bits: start with this many bits of the codec's fingerprint, as
                :func:`statetree.net.pack` does (0: no stamp).
        """
        writer = BitWriter()
        if stamp_bits:
            write_stamp(writer, [self.codec], stamp_bits)
        self.write(writer, batch, entities)
        return writer.to_bytes()

    def _value_of(self, batch: ChartBatch, number: int, agent: int) -> int:
        active = batch._table.situation(number).active
        word = sum(1 << n for n in active)
        value = self._bits.get(word)
        if value is None:
            try:
                value, width = self.codec.bits_of(self._configuration(word))
            except UsageError as error:
                raise UsageError(f"agent {agent} cannot be sent: {error}") from None
            assert width == self.bits  # no payloads: every configuration is a header
            self._bits[word] = value
        return value

    def _configuration(self, word: int) -> Configuration:
        """The configuration of an agent whose active flags are ``word``."""
        active = {n for n in range(len(self._layout)) if word >> n & 1}
        if 0 not in active:
            raise UsageError("it has not started")
        return Configuration(self._active(0, active))

    def _active(self, number: int, active: set[int]) -> ActiveState:
        layout = self._layout
        cls = self._classes.get(layout.paths[number], self.compiled.classes[number])
        inside = [child for child in layout.children[number] if child in active]
        if layout.concurrent(number):
            return ActiveState(cls, (), None, tuple(self._active(c, active) for c in inside))
        inner = self._active(inside[0], active) if inside else None
        return ActiveState(cls, (), inner)

    # -- reading ---------------------------------------------------------------------------

    def read(self, reader: BitReader, count: int) -> BatchConfigurations:
        """Read the configurations of ``count`` agents, each checked by the codec.

        Raises:
            PacketError: the stream ends before the last agent, or an agent's header names
                no configuration (the error names the agent, as ``machine``, and the bit:
                the first problem in stream order, as :func:`statetree.net.unpack` says).
        """
        count = count_of(count, "read() needs a count of at least 0 agents")
        start, width = reader.position, self.bits
        if count * width > reader.remaining:
            # A bad packet: the agents it holds whole are checked first, so that the problem
            # named is the first one, as reading agent by agent (net.unpack) names it.
            whole = reader.remaining // width
            if whole:
                self.read(reader, whole)
            raise PacketError(
                f"{width} more bit(s) needed, but the packet ends {reader.remaining} bit(s) "
                "further",
                bit=reader.position,
                machine=whole,
            )
        values = _split(reader.read_uint(count * width), count, width)
        distinct, first, inverse = np.unique(values, return_index=True, return_inverse=True)
        found: dict[int, Configuration] = {}
        for k in np.argsort(first).tolist():  # in the agents' order: the first bad is named
            at = int(first[k])
            found[k] = self._read_one(int(distinct[k]), start + at * width, at)
        return BatchConfigurations(
            tuple(found[k] for k in range(len(found))), inverse.astype(np.intp)
        )

    def decode(
        self, data: bytes | bytearray | memoryview, count: int, *, stamp_bits: int = 0
    ) -> BatchConfigurations:
        """The configurations of a packet of ``count`` agents (:meth:`read`, then only the
        zero padding of the last byte may be left).

        Args:
            stamp_bits: the packet starts with a stamp of this many bits (as written by
                :meth:`encode`), checked first.

        Raises:
            PacketError: as :meth:`read`, the stamp differs, or the packet is longer.
        """
        reader = BitReader(data)
        if stamp_bits:
            read_stamp(reader, [self.codec], stamp_bits)
        configurations = self.read(reader, count)
        reader.finish()
        return configurations

    def _read_one(self, value: int, bit: int, agent: int) -> Configuration:
        known = self._flags.get(value)
        if known is not None:
            return known[1]
        width = self.bits
        packet = (value << (-width % 8)).to_bytes((width + 7) // 8, "big")
        try:
            configuration = self.codec.read(BitReader(packet))
        except PacketError as error:
            raise error.moved(bit).of_machine(agent) from None
        self._flags[value] = (self._word(configuration), configuration)
        return configuration

    def _word(self, configuration: Configuration) -> int:
        numbers = self.compiled.by_path
        word = 0
        for active in configuration.states:
            word |= 1 << numbers[self._path_of(active.cls)]._id
        return word

    # -- applying --------------------------------------------------------------------------

    def apply(
        self, batch: ChartBatch, configurations: BatchConfigurations, entities: Entities = None
    ) -> None:
        """Move each agent of ``entities`` (every live agent by default, ascending) to its
        configuration, in stream order, with the exits and entries ``Codec.apply`` makes on
        a ``ChartMachine``: the walk keeps what is the same, and at the first difference on
        each branch exits what differs, innermost first, and enters the received states,
        outermost first. An agent that has not started enters its root first. Host actions
        are batched calls, as in a processing; nothing is processed after.

        Raises:
            UsageError: the count of agents differs, the batch runs another chart, or it is
                processing.
        """
        self._check(batch)
        ids = batch._select(entities)
        if ids.size != len(configurations):
            raise UsageError(
                f"{len(configurations)} configuration(s) for {ids.size} agent(s): "
                "apply them to as many agents as were read"
            )
        received = [self._translated(c, batch.compiled) for c in configurations.configurations]
        specs = Specs(batch.compiled.classes)
        layout = batch._table.layout
        roots = {
            batch.compiled.classes[n]: tuple(batch.compiled.classes[c] for c in layout.children[n])
            for n in range(len(layout))
            if layout.concurrent(n)
        }

        def operation(case: int) -> Callable[[ChartMachine], None]:
            return lambda machine: apply_configuration(
                machine.machine, received[case], specs, roots
            )

        def replay(machine: ChartMachine, agent: int) -> None:
            operation(int(configurations.of_agent[np.searchsorted(ids, agent)]))(machine)

        with batch._call("apply"):
            cases = configurations.of_agent.astype(np.int64)
            apply_operation(batch, ids, operation, replay, cases)

    def _translated(self, configuration: Configuration, compiled: CompiledChart) -> Configuration:
        """``configuration`` (checked by the codec) with ``compiled``'s classes.

        Raises:
            UsageError: a state is not one of the codec's chart (another codec read it), or
                the codec does not allow the configuration.
        """

        def twin(active: ActiveState) -> ActiveState:
            cls = compiled.by_path[self._path_of(active.cls)]
            inner = None if active.inner is None else twin(active.inner)
            return ActiveState(cls, active.payload, inner, tuple(map(twin, active.regions)))

        translated = Configuration(twin(configuration.root))
        self.codec.bits_of(configuration)
        return translated

    def _path_of(self, cls: type[State[Any]]) -> str:
        for path, known in self._classes.items():
            if known is cls:
                return path
        raise UsageError(
            f"the configurations hold a state {cls.__qualname__} of another chart than "
            f"{self.compiled.chart.name!r}: apply configurations this codec read"
        )

    def receive(
        self,
        batch: ChartBatch,
        data: bytes | bytearray | memoryview,
        entities: Entities = None,
        *,
        stamp_bits: int = 0,
    ) -> BatchConfigurations:
        """Decode a packet of the agents of ``entities`` (every live agent by default) and
        apply it (``stamp_bits``: as for :meth:`decode`).

        Raises:
            PacketError: the packet is bad; no agent changed.
        """
        ids = batch._select(entities)
        configurations = self.decode(data, int(ids.size), stamp_bits=stamp_bits)
        self.apply(batch, configurations, ids)
        return configurations

    def _check(self, batch: ChartBatch) -> None:
        """Refuse a batch whose chart is not the codec's: another structure (states,
        policies, regions) packs other configurations, whatever its states' names."""
        layout = batch._table.layout
        fits = self._fits.get(layout.compiled)
        if fits is None:
            same = layout.paths == self._layout.paths
            fits = same and chart_structure(layout.compiled.chart) == self._structure
            self._fits[layout.compiled] = fits
        if not fits:
            raise UsageError(
                f"batch {batch.name!r} runs chart {batch.chart.name!r}, whose structure is "
                f"not the one of the codec's chart {self.compiled.chart.name!r}"
            )


def _joined(values: list[int], inverse: Indexes, width: int) -> int:
    """The value ``values[inverse[i]]`` of each agent ``i`` in ``width`` bits, the first
    most significant, as one integer."""
    if width == 0 or inverse.size == 0:
        return 0
    if width > 64:  # headers this wide are rare: join them as Python integers
        joined = 0
        for index in inverse.tolist():
            joined = (joined << width) | int(values[index])
        return joined
    shifts = np.arange(width - 1, -1, -1, dtype=np.uint64)
    column = np.asarray(values, np.uint64)[inverse]
    bits = ((column[:, None] >> shifts) & np.uint64(1)).astype(np.uint8).ravel()
    padding = -int(bits.size) % 8
    packed: bytes = np.packbits(bits).tobytes()
    return int.from_bytes(packed, "big") >> padding


def _split(joined: int, count: int, width: int) -> NDArray[Any]:
    """The ``count`` values of ``width`` bits each that :func:`_joined` joined (``uint64``,
    or Python integers past 64 bits)."""
    if count == 0 or width == 0:
        return np.zeros(count, np.uint64)
    if width > 64:
        mask = (1 << width) - 1
        found = [(joined >> (width * (count - 1 - n))) & mask for n in range(count)]
        return np.asarray(found, object)
    size = count * width
    padding = -size % 8
    data = np.frombuffer((joined << padding).to_bytes((size + padding) // 8, "big"), np.uint8)
    bits = np.unpackbits(data)[:size].reshape(count, width).astype(np.uint64)
    weights = np.left_shift(np.uint64(1), np.arange(width - 1, -1, -1, dtype=np.uint64))
    values: NDArray[np.uint64] = (bits * weights).sum(axis=1, dtype=np.uint64)
    return values
