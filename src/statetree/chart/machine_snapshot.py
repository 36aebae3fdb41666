"""Snapshots of a chart machine: everything it holds between two calls, as bytes that last.

A snapshot names the active states by path, the child each state resumes (its history) by
name, the level events held, the clock and the running timers, with the fingerprint of the
chart (:func:`~statetree.chart.fingerprint`). So it survives a new version of the library,
and a chart whose states were renumbered, and it is only restored on the chart it was taken
of. The bytes are a short header and JSON; reading them checks everything, and restoring
checks that the configuration is one the chart allows, before anything is built: bad bytes
raise :class:`~statetree.DecodeError`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from statetree.chart.compile import CompiledChart
from statetree.chart.events import Event
from statetree.chart.placement import (
    RunningTimer,
    Situation,
    place,
    place_timers,
    problem,
    running_timers,
    situation_of,
    vacate,
)
from statetree.errors import DecodeError
from statetree.json_text import parse_json

if TYPE_CHECKING:
    from statetree.chart.machine import ChartMachine

__all__ = ["MachineSnapshot", "restore_into", "snapshot_of"]

MAGIC: Final = b"STMACHN1"
_MAX_SIZE: Final = 1 << 24
_KEYS: Final = {
    "format": int,
    "chart": str,
    "active": list,
    "history": dict,
    "held": list,
    "clock": float,
    "timers": list,
}
FORMAT: Final = 1
"""The version of the snapshot bytes (each snapshot says which one it was written in)."""


@dataclass(frozen=True)
class MachineSnapshot:
    """A chart machine at one moment, between two calls.

    Attributes:
        chart: the fingerprint of the chart it runs (see :func:`~statetree.chart.fingerprint`).
        active: the paths of the active states.
        history: for each state resuming another child than its first, the state's path
            and that child's name.
        held: the level events the host holds on.
        clock: the machine's time.
        timers: the running timers in the order they will fire, as (timer name, path of
            the state owning it, expiry time).
    """

    chart: str
    active: tuple[str, ...]
    history: tuple[tuple[str, str], ...]
    held: tuple[Event, ...]
    clock: float
    timers: tuple[tuple[str, str, float], ...]

    def __post_init__(self) -> None:
        """Check what a snapshot made in Python holds, as :meth:`from_bytes` checks bytes
        (sequences are kept as tuples, held events as ``Event``).

        Raises:
            DecodeError: a field is of the wrong type, or names something twice.
        """
        active = tuple(_strings(self.active, "active"))
        history = tuple(_pair(pair, "history") for pair in _listed(self.history, "history"))
        held = tuple(Event(*_pair(event, "held")) for event in _listed(self.held, "held"))
        timers = tuple(_timer(timer) for timer in _listed(self.timers, "timers"))
        named: dict[str, list[object]] = {
            "active": list(active),
            "history": [path for path, _ in history],
            "held": list(held),
            "timers": [timer[:2] for timer in timers],
        }
        for key, keys in named.items():
            seen: set[object] = set()
            for item in keys:
                if item in seen:
                    raise DecodeError(f"a chart machine snapshot's {key!r} names {item} twice")
                seen.add(item)
        fields = (_string(self.chart, "chart"), active, history, held, _time(self.clock, "clock"))
        for key, value in zip(("chart", "active", "history", "held", "clock"), fields, strict=True):
            object.__setattr__(self, key, value)
        object.__setattr__(self, "timers", timers)

    def to_bytes(self) -> bytes:
        """The snapshot packed: equal snapshots give equal bytes."""
        data = {
            "format": FORMAT,
            "chart": self.chart,
            "active": list(self.active),
            "history": dict(self.history),
            "held": [list(event) for event in self.held],
            "clock": self.clock,
            "timers": [list(timer) for timer in self.timers],
        }
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)
        return MAGIC + text.encode()

    @classmethod
    def from_bytes(cls, data: bytes) -> MachineSnapshot:
        """Read a snapshot written by :meth:`to_bytes`.

        Raises:
            DecodeError: ``data`` is not such a snapshot (nothing is built).
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise DecodeError(f"a chart machine snapshot is bytes, not {type(data).__name__}")
        data = bytes(data)
        if not data.startswith(MAGIC):
            raise DecodeError("not a chart machine snapshot (its first bytes are wrong)")
        if len(data) > _MAX_SIZE:
            raise DecodeError(f"a chart machine snapshot of {len(data)} bytes is too large")
        read = _read(data[len(MAGIC) :])
        fields = (read["active"], tuple(read["history"].items()), read["held"])
        return cls(read["chart"], *fields, read["clock"], read["timers"])


def _read(text: bytes) -> dict[str, Any]:
    try:
        read = parse_json(text.decode())
    except ValueError as error:
        raise DecodeError(f"a chart machine snapshot is JSON; this is not: {error}") from None
    if not isinstance(read, dict) or set(read) != set(_KEYS):
        raise DecodeError(f"a chart machine snapshot has exactly the keys {sorted(_KEYS)}")
    if read["format"] != FORMAT:
        raise DecodeError(
            f"the chart machine snapshot is in format {read['format']!r}; this version of "
            f"statetree reads format {FORMAT}"
        )
    for key, kind in _KEYS.items():
        value = read[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            read[key] = value = _time(value, key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise DecodeError(f"a chart machine snapshot's {key!r} must be a {kind.__name__}")
    return read


def _string(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise DecodeError(f"a chart machine snapshot's {key!r} holds {value!r}, not a string")
    return value


def _listed(values: object, key: str) -> list[object] | tuple[object, ...]:
    if not isinstance(values, (list, tuple)):
        raise DecodeError(f"a chart machine snapshot's {key!r} holds {values!r}, not a sequence")
    return values


def _strings(values: object, key: str) -> list[str]:
    return [_string(value, key) for value in _listed(values, key)]


def _pair(values: object, key: str) -> tuple[str, str]:
    pair = _strings(values, key)
    if len(pair) != 2:
        raise DecodeError(f"a chart machine snapshot's {key!r} holds {values!r}, not a pair")
    return pair[0], pair[1]


def _time(value: object, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DecodeError(f"a chart machine snapshot's {key!r} holds {value!r}, not a time")
    try:
        time = float(value)
    except OverflowError:  # a whole number past the largest float
        raise DecodeError(
            f"a chart machine snapshot's {key!r} is a number too large to be a time"
        ) from None
    if not 0 <= time < math.inf:
        raise DecodeError(f"a chart machine snapshot's {key!r} is {time!r}, not a time")
    return time


def _timer(entry: object) -> tuple[str, str, float]:
    if not (isinstance(entry, (list, tuple)) and len(entry) == 3):
        raise DecodeError(f"a chart machine snapshot's timer is [name, state, due], not {entry!r}")
    return _string(entry[0], "timers"), _string(entry[1], "timers"), _time(entry[2], "timers")


# -- taking and restoring ------------------------------------------------------------------


def snapshot_of(machine: ChartMachine, chart: str) -> MachineSnapshot:
    """The snapshot of ``machine`` (between two calls), whose chart has fingerprint ``chart``."""
    compiled = machine.compiled
    situation = situation_of(machine)
    history = tuple(
        (cls._path, cls._definition.states[resumed].name)
        for cls, resumed in zip(compiled.classes, situation.history, strict=True)
        if resumed
    )
    return MachineSnapshot(
        chart,
        tuple(compiled.classes[number]._path for number in situation.active),
        history,
        tuple(sorted(situation.held)),
        machine.clock,
        tuple((timer.name, timer.state, timer.due) for timer in running_timers(machine)),
    )


def restore_into(machine: ChartMachine, snapshot: MachineSnapshot) -> None:
    """Put ``machine`` where ``snapshot`` says, without running a hook (a started machine's
    states leave first, as quietly).

    Raises:
        DecodeError: the snapshot names states the chart lacks, or a configuration the
            chart does not allow (nothing was changed).
    """
    compiled = machine.compiled
    situation = _situation(compiled, snapshot)
    for event in snapshot.held:
        if event.kind not in compiled.level_kinds:
            raise DecodeError(f"the snapshot holds {event}, which is not a level trigger")
    for name, state, due in snapshot.timers:
        if state not in snapshot.active:
            raise DecodeError(f"the snapshot's timer {name!r} belongs to {state}, not active")
        if due < snapshot.clock:
            raise DecodeError(f"the snapshot's timer {name!r} fell due before its clock")
    found = problem(compiled, situation)
    if found is not None:
        raise DecodeError(f"the chart machine snapshot is impossible: {found}")
    if machine.machine.started:
        vacate(machine)
    place(machine, situation)
    timers = snapshot.timers
    place_timers(machine, (RunningTimer(*timer, order) for order, timer in enumerate(timers)))
    machine._runtime.clock = snapshot.clock


def _situation(compiled: CompiledChart, snapshot: MachineSnapshot) -> Situation:
    """The situation ``snapshot`` describes, in ``compiled``'s numbers.

    Raises:
        DecodeError: it names a state or a child ``compiled`` lacks.
    """
    by_path = compiled.by_path
    unknown = [path for path in snapshot.active if path not in by_path]
    unknown += [path for path, _ in snapshot.history if path not in by_path]
    if unknown:
        raise DecodeError(
            f"the snapshot names states chart {compiled.chart.name!r} lacks: {unknown}"
        )
    history = [0] * len(compiled.classes)
    for path, child in snapshot.history:
        cls = by_path[path]
        children = [state.name for state in cls._definition.states]
        if child not in children:
            raise DecodeError(f"the snapshot's history of {path} names no child of it: {child}")
        history[cls._id] = children.index(child)
    active = tuple(sorted({by_path[path]._id for path in snapshot.active}))
    return Situation(active, tuple(history), frozenset(snapshot.held))
