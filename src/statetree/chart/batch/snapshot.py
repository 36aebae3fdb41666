"""Snapshots of a batch: every per-agent array of a range of agents, packed into bytes.

A snapshot holds all there is to an agent (the batch keeps nothing per agent elsewhere), so
a range of agents (a *shard*) can be snapshotted, moved to another process or machine and
restored there bit for bit. The bytes are a short header, JSON metadata (the chart's
fingerprint, the arrays' types and shapes) and the arrays' little-endian bytes. Reading
bytes checks everything before anything is built: bad bytes raise ``DecodeError``.
"""

from __future__ import annotations

import functools
import json
import math
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from statetree.chart.batch.arrays import NDArray, np
from statetree.chart.events import Event
from statetree.errors import DecodeError, UsageError
from statetree.json_text import parse_json

__all__ = ["BatchSnapshot", "restoring", "snapshot_given"]

ARRAYS = ("alive", "active", "history", "held", "clock", "due", "sequence")
"""The per-agent arrays, in the order their bytes are written; the agent is the last axis."""
MAGIC = b"STBATCH1"
_HEADER = struct.Struct("<8sI")
_MAX_META = 1 << 20
_LIMIT = 1 << 62
_TYPES: Mapping[str, tuple[str, ...]] = {
    "alive": ("|b1",),
    "active": ("|u1", "<u2", "<u4", "<u8"),
    "history": ("|i1", "<i2"),
    "held": ("|b1",),
    "clock": ("<f8",),
    "due": ("<f8",),
    "sequence": ("<i8",),
}
_ONE_AXIS = ("alive", "clock")
MAX_CARRIED = 256
"""The most timers a snapshot carries over reloads (a reload carries the timers of kept
states the new chart no longer starts: a handful; a hostile snapshot could list thousands,
and every one is a timer row of every agent)."""


@dataclass(frozen=True, eq=False)
class BatchSnapshot:
    """The agents of a batch (or of one of its ranges) at one moment.

    Attributes:
        chart: the fingerprint of the chart they run (see :func:`fingerprint`).
        carried: timers that survived a reload although the chart no longer starts them,
            as (state path, timer name).
        held_events: the level events whose held state the ``held`` array records.
        sequence: the batch's timer start counter.
        offset: the index, in the whole population, of the first agent.
        arrays: every per-agent array (agents on the last axis).
    """

    chart: str
    carried: tuple[tuple[str, str], ...]
    held_events: tuple[Event, ...]
    sequence: int
    offset: int
    arrays: Mapping[str, NDArray[Any]]

    def __post_init__(self) -> None:
        """Check what a snapshot made in Python holds, as :meth:`from_bytes` checks bytes.

        Raises:
            DecodeError: a field is of the wrong type, or an array is impossible.
        """
        if not isinstance(self.chart, str):
            raise DecodeError(f"a batch snapshot's chart is a fingerprint, not {self.chart!r}")
        _check_pairs(self.carried, self.held_events)
        for name in ("sequence", "offset"):
            number = getattr(self, name)
            if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < _LIMIT:
                raise DecodeError(f"a batch snapshot's {name} must be an integer in [0, {_LIMIT})")
        arrays = self.arrays
        if not isinstance(arrays, Mapping) or set(arrays) != set(ARRAYS):
            raise DecodeError(f"a batch snapshot's arrays are exactly {list(ARRAYS)}")
        for name, array in arrays.items():
            ndim = 1 if name in _ONE_AXIS else 2
            if not isinstance(array, np.ndarray) or array.ndim != ndim:
                raise DecodeError(f"batch snapshot array {name!r} needs {ndim} axes")
            if array.dtype.newbyteorder("<").str not in _TYPES[name]:
                raise DecodeError(f"batch snapshot array {name!r} cannot be of type {array.dtype}")
        _checked_shapes(arrays)
        if arrays["held"].shape[0] != len(self.held_events):
            raise DecodeError(
                f"a batch snapshot's held array has {arrays['held'].shape[0]} rows for "
                f"{len(self.held_events)} held events"
            )

    def __eq__(self, other: object) -> bool:
        """Snapshots are equal when their bytes are (as machine snapshots compare)."""
        if not isinstance(other, BatchSnapshot):
            return NotImplemented
        return other is self or self.to_bytes() == other.to_bytes()

    __hash__ = None  # type: ignore[assignment]  # its arrays can change

    @property
    def size(self) -> int:
        """How many agent slots the snapshot holds."""
        return int(self.arrays["alive"].size)

    def to_bytes(self) -> bytes:
        """The snapshot packed: equal snapshots give equal bytes (little-endian, whatever
        the arrays' byte order)."""
        arrays = [
            (name, np.ascontiguousarray(array, array.dtype.newbyteorder("<")))
            for name, array in ((name, self.arrays[name]) for name in ARRAYS)
        ]
        meta = {
            "chart": self.chart,
            "carried": [list(pair) for pair in self.carried],
            "held": [list(event) for event in self.held_events],
            "sequence": self.sequence,
            "offset": self.offset,
            "arrays": [[name, array.dtype.str, list(array.shape)] for name, array in arrays],
        }
        text = json.dumps(meta, separators=(",", ":")).encode()
        body = b"".join(array.tobytes() for _, array in arrays)
        return _HEADER.pack(MAGIC, len(text)) + text + body

    @classmethod
    def from_bytes(cls, data: bytes) -> BatchSnapshot:
        """Read a snapshot written by :meth:`to_bytes`.

        Raises:
            DecodeError: ``data`` is not such a snapshot (nothing is built).
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise DecodeError(f"a batch snapshot is bytes, not {type(data).__name__}")
        data = bytes(data)
        if len(data) < _HEADER.size:
            raise DecodeError(f"a batch snapshot needs at least {_HEADER.size} bytes")
        magic, length = _HEADER.unpack_from(data)
        if magic != MAGIC:
            raise DecodeError("not a batch snapshot (its first bytes are wrong)")
        if length > min(_MAX_META, len(data) - _HEADER.size):
            raise DecodeError(f"batch snapshot metadata of {length} bytes does not fit")
        meta = _meta(data[_HEADER.size : _HEADER.size + length])
        arrays = _arrays(meta["arrays"], memoryview(data)[_HEADER.size + length :])
        return cls(
            meta["chart"],
            tuple((path, name) for path, name in meta["carried"]),
            tuple(Event(kind, name) for kind, name in meta["held"]),
            meta["sequence"],
            meta["offset"],
            arrays,
        )

    @classmethod
    def join(cls, parts: Sequence[BatchSnapshot]) -> BatchSnapshot:
        """One snapshot of ``parts``' agents side by side, in order (the first's offset).

        Raises:
            UsageError: no parts, or parts of different charts or reloads.
        """
        if not parts:
            raise UsageError("join() needs at least one snapshot")
        first = parts[0]
        if any((p.chart, p.carried) != (first.chart, first.carried) for p in parts):
            raise UsageError("join() needs snapshots of batches running the same chart")
        held = tuple(dict.fromkeys(event for part in parts for event in part.held_events))
        arrays = {
            name: np.concatenate(
                [_held(p, held) if name == "held" else p.arrays[name] for p in parts], axis=-1
            )
            for name in ARRAYS
        }
        sequence = max(part.sequence for part in parts)
        return cls(first.chart, first.carried, held, sequence, first.offset, arrays)


def _check_pairs(carried: object, held: object) -> None:
    """Refuse carried timers or held events that are no tuples of distinct string pairs,
    or more carried timers than :data:`MAX_CARRIED`."""
    for pairs, what in ((carried, "carried timer"), (held, "held event")):
        if not isinstance(pairs, tuple) or not all(
            isinstance(pair, tuple) and _pair(list(pair)) for pair in pairs
        ):
            raise DecodeError(f"a batch snapshot's {what}s are a tuple of pairs of strings")
        if len(set(pairs)) != len(pairs):
            raise DecodeError(f"a batch snapshot lists a {what} twice")
    assert isinstance(carried, tuple)
    if len(carried) > MAX_CARRIED:
        raise DecodeError(
            f"a batch snapshot carries at most {MAX_CARRIED} timers over reloads, not "
            f"{len(carried)}"
        )


def _held(part: BatchSnapshot, events: tuple[Event, ...]) -> NDArray[np.bool_]:
    """``part``'s held array with one row per event of ``events``."""
    rows = np.zeros((len(events), part.size), np.bool_)
    for row, event in enumerate(part.held_events):
        rows[events.index(event)] = part.arrays["held"][row]
    return rows


def _meta(text: bytes) -> dict[str, Any]:
    try:
        meta = parse_json(text.decode())
    except ValueError as error:
        raise DecodeError(f"batch snapshot metadata is not JSON: {error}") from None
    shapes = {
        "chart": str,
        "carried": list,
        "held": list,
        "sequence": int,
        "offset": int,
        "arrays": list,
    }
    if not isinstance(meta, dict) or set(meta) != set(shapes):
        raise DecodeError(f"batch snapshot metadata needs exactly the keys {sorted(shapes)}")
    for key, kind in shapes.items():
        if not isinstance(meta[key], kind) or isinstance(meta[key], bool):
            raise DecodeError(f"batch snapshot metadata: {key!r} must be a {kind.__name__}")
    for key in ("carried", "held"):
        if not all(_pair(item) for item in meta[key]):
            raise DecodeError(f"batch snapshot metadata: {key!r} must list pairs of strings")
    return meta


def _pair(item: object) -> bool:
    return isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item)


def _arrays(described: list[Any], body: memoryview) -> dict[str, NDArray[Any]]:
    names = [entry[0] if isinstance(entry, list) and entry else None for entry in described]
    if names != list(ARRAYS):
        raise DecodeError(f"batch snapshot arrays must be {list(ARRAYS)}, got {names}")
    arrays: dict[str, NDArray[Any]] = {}
    start = 0
    for name, kind, shape in (_described(entry) for entry in described):
        dtype = np.dtype(kind)
        length = dtype.itemsize * math.prod(shape)
        if length > len(body) - start:
            raise DecodeError(f"batch snapshot too short for its array {name!r}")
        chunk = np.frombuffer(body[start : start + length], dtype=dtype).reshape(shape)
        arrays[name] = chunk.astype(dtype.newbyteorder("="), copy=True)
        start += length
    if start != len(body):
        raise DecodeError(f"batch snapshot has {len(body) - start} bytes after its arrays")
    return arrays  # checked whole when the snapshot is made (see BatchSnapshot)


def _described(entry: Any) -> tuple[str, str, tuple[int, ...]]:
    if not (isinstance(entry, list) and len(entry) == 3):
        raise DecodeError("batch snapshot arrays are described as [name, type, shape]")
    name, kind, shape = entry
    if kind not in _TYPES[name]:
        raise DecodeError(f"batch snapshot array {name!r} cannot be of type {kind!r}")
    ndim = 1 if name in _ONE_AXIS else 2
    if not (
        isinstance(shape, list)
        and len(shape) == ndim
        and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 1 << 40 for n in shape)
    ):
        raise DecodeError(f"batch snapshot array {name!r} needs a shape of {ndim} sizes")
    return name, kind, tuple(shape)


def _checked_shapes(arrays: Mapping[str, NDArray[Any]]) -> None:
    size = arrays["alive"].size
    wrong = [name for name, array in arrays.items() if array.shape[-1] != size]
    if wrong:
        raise DecodeError(f"batch snapshot arrays {wrong} do not hold {size} agents")
    for name in ("alive", "held"):
        if arrays[name].view(np.uint8).max(initial=0) > 1:
            raise DecodeError(f"batch snapshot array {name!r} holds values that are not booleans")


Built = TypeVar("Built")


class restoring(Generic[Built]):  # a decorator, named as classmethod is
    """A batch class's ``restore``, as a decorator of the function building a batch.

    Called on the class, ``Cls.restore(snapshot, chart, ...)`` builds a new batch of the
    snapshot's agents. Called on a batch, ``batch.restore(snapshot)`` puts that batch back
    where the snapshot was taken (its ``_rewind``), as ``ChartMachine.restore`` does: a
    batch called on is never left as it was while a new one is returned unnoticed.
    """

    def __init__(self, build: Callable[..., Built]) -> None:
        self._build = build
        self.__doc__ = build.__doc__
        self.__wrapped__ = build

    @overload
    def __get__(self, batch: None, owner: type[Any]) -> Callable[..., Built]: ...

    @overload
    def __get__(
        self, batch: object, owner: type[Any] | None = None
    ) -> Callable[[BatchSnapshot], None]: ...

    def __get__(self, batch: object, owner: type[Any] | None = None) -> Any:
        if batch is None:
            return functools.partial(self._build, owner)
        rewind = batch._rewind  # type: ignore[attr-defined]

        def restore(*args: object, **options: object) -> None:
            if not args and set(options) == {"snapshot"}:
                args, options = (options["snapshot"],), {}
            if len(args) != 1 or options:
                kind = type(batch).__name__
                raise UsageError(
                    f"batch.restore(snapshot) takes the snapshot alone (it puts the batch "
                    f"back in place); a new batch is {kind}.restore(snapshot, chart, "
                    "handlers, ...), called on the class"
                )
            rewind(args[0])

        return restore


def snapshot_given(value: object) -> BatchSnapshot:
    """``value``, checked to be a snapshot (what a restore takes).

    Raises:
        UsageError: it is something else (its bytes, say).
    """
    if not isinstance(value, BatchSnapshot):
        hint = (
            ": read bytes with BatchSnapshot.from_bytes(data)"
            if isinstance(value, (bytes, bytearray, memoryview))
            else ""
        )
        raise UsageError(f"a BatchSnapshot is needed, got {type(value).__name__}{hint}")
    return value
