"""Saving and loading charts, chart machines and chart batches (``pickle``, ``copy``).

Everything is saved in formats that last: a chart as its data (the chart format, see
:func:`~statetree.chart.to_data`; written out state by state when it imports patterns from
other files, so that a save needs no file), a chart machine as its
:class:`~statetree.chart.MachineSnapshot` bytes, a batch as its
:class:`~statetree.chart.BatchSnapshot` bytes. Handlers, the action listener given to a
machine and its trace sink are saved by name (see :mod:`statetree.core.refs`), the owner as
pickle saves any object. The listeners added with ``add_event_listener`` and
``add_action_listener``, and the operations deferred with ``defer``, belong to the program:
they are left out.

A saved chart machine or batch runs the chart it was saved with; ``reload`` moves it to
another (the chart a game ships now), keeping every state that is still the same. Loading
compiles each chart once per process: machines loaded or copied share their chart with the
machines of the same chart, saved or loaded in this process.

The names of the loaders below are written into every save: renaming one breaks the saves
written before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Protocol, cast
from weakref import WeakKeyDictionary, WeakValueDictionary

from statetree.chart.compile import CompiledChart, compile_chart
from statetree.chart.dump import fingerprint, fingerprint_of, to_data, written_out
from statetree.chart.errors import ChartError
from statetree.chart.loading import from_data
from statetree.chart.machine_snapshot import MachineSnapshot, restore_into, snapshot_of
from statetree.chart.model import Chart
from statetree.chart.registry import DEFAULT_REGISTRY, ActionType, Registry, TriggerType
from statetree.core.refs import (
    Ref,
    attributes,
    class_of,
    reading,
    saved_data,
    set_attributes,
    target_of,
)
from statetree.core.trace import TraceLevel
from statetree.errors import DecodeError, LoadError, SaveError, UsageError

if TYPE_CHECKING:
    from statetree.chart.machine import ChartMachine

__all__ = [
    "FORMAT",
    "batch_state",
    "blank_machine",
    "chart_fingerprint",
    "load_batch",
    "load_chart",
    "load_compiled",
    "load_registry",
    "machine_state",
    "reduce_chart",
    "reduce_compiled",
    "reduce_registry",
    "set_machine_state",
]

FORMAT: Final = 1
"""The version of the saved data of a chart machine or batch."""

_FINGERPRINTS: WeakKeyDictionary[CompiledChart, str] = WeakKeyDictionary()
_COMPILED: WeakValueDictionary[tuple[str, object], CompiledChart] = WeakValueDictionary()


def chart_fingerprint(compiled: CompiledChart) -> str:
    """The fingerprint of ``compiled``'s chart (computed once per compiled chart)."""
    found = _FINGERPRINTS.get(compiled)
    if found is None:
        found = _FINGERPRINTS[compiled] = fingerprint(compiled.chart)
    return found


def check_fingerprint(compiled: CompiledChart, found: str) -> None:
    """Refuse a snapshot taken on a chart of fingerprint ``found`` for ``compiled``.

    Raises:
        DecodeError: it was taken on another chart, or on this one before an edit.
    """
    expected = chart_fingerprint(compiled)
    if found != expected:
        name = compiled.chart.name
        raise DecodeError(
            f"the snapshot is of another chart than {name!r}, or of {name!r} before it was "
            f"edited (fingerprint {found}, not {expected}): restore it with the chart it was "
            "taken with, then reload the new one"
        )


# -- charts and registries ------------------------------------------------------------------


def reduce_registry(registry: Registry) -> tuple[Any, ...]:
    """How pickle saves ``registry``: its types."""
    triggers = tuple(registry.triggers.values())
    return (load_registry, (triggers, tuple(registry.actions.values())))


def load_registry(triggers: tuple[TriggerType, ...], actions: tuple[ActionType, ...]) -> Registry:
    """The loader of a saved registry."""
    return Registry.of(triggers, actions)


_REDUCED: dict[int, tuple[Chart, tuple[Any, ...]]] = {}
"""The last charts pickled, by identity: a game saves the same few charts again and again."""
_KEPT_REDUCED: Final = 64


def reduce_chart(chart: Chart) -> tuple[Any, ...]:
    """How pickle saves ``chart``: its data, its registry and its fingerprint."""
    found = _REDUCED.get(id(chart))
    if found is not None and found[0] is chart:
        return found[1]
    registry = None if chart.registry is DEFAULT_REGISTRY else chart.registry
    written = written_out(chart)
    data = to_data(written)
    # Its own data (its patterns kept), unless it imports them from files: a save needs none.
    saved = data if written is chart or chart.imports else to_data(chart)
    reduced = (load_chart, (saved, registry, fingerprint_of(data)))
    if len(_REDUCED) >= _KEPT_REDUCED:
        _REDUCED.clear()
    _REDUCED[id(chart)] = (chart, reduced)
    return reduced


def load_chart(data: object, registry: Registry | None, saved: str) -> Chart:
    """The loader of a saved chart, whose data had the fingerprint ``saved``.

    Raises:
        LoadError: this version of statetree does not read the chart as it was saved.
    """
    try:
        chart = from_data(data, registry or DEFAULT_REGISTRY, file="<saved chart>")
    except ChartError as error:
        raise LoadError(f"the saved chart does not load: {error}") from None
    if fingerprint(chart) != saved:
        raise LoadError(
            f"the saved chart {chart.name!r} reads back as another chart in this version "
            f"(fingerprint {fingerprint(chart)}, saved as {saved})"
        )
    return chart


def _key(chart: Chart, fingerprint: str) -> tuple[str, object]:
    """What makes two charts compile alike: their data and their registry."""
    registry = chart.registry
    if registry is DEFAULT_REGISTRY:
        return fingerprint, None
    return fingerprint, (tuple(registry.triggers.values()), tuple(registry.actions.values()))


def reduce_compiled(compiled: CompiledChart) -> tuple[Any, ...]:
    """How pickle saves ``compiled``: its chart."""
    # Loads in this process find this very chart (and its classes) again.
    _COMPILED.setdefault(_key(compiled.chart, chart_fingerprint(compiled)), compiled)
    return (load_compiled, (compiled.chart,))


def load_compiled(chart: Chart) -> CompiledChart:
    """The loader of a saved compiled chart: the one this process has for an equal chart,
    else ``chart`` compiled."""
    key = _key(chart, fingerprint(chart))
    found = _COMPILED.get(key)
    if found is None:
        found = compile_chart(chart)
        _FINGERPRINTS[found] = key[0]
        _COMPILED[key] = found
    return found


def _refs(handlers: Mapping[str, Any], owner: str) -> dict[str, Ref]:
    """``handlers`` saved by name, each named with ``owner`` (its machine) in messages."""
    return {
        name: Ref(handler, f"the handler {name!r} of {owner}") for name, handler in handlers.items()
    }


def _handlers(refs: Mapping[str, Any]) -> dict[str, Any]:
    """The handlers saved by name, found again.

    Raises:
        LoadError: a name now holds what cannot be called.
    """
    found = {name: target_of(ref) for name, ref in refs.items()}
    for name, handler in found.items():
        if not callable(handler):
            ref = refs[name]
            saved = ref.role if isinstance(ref, Ref) and ref.role else "a function"
            raise LoadError(
                f"the save needs {saved} as the handler of action {name!r}, which the program "
                f"now defines as {handler!r}: keep the handler under its old name to load the "
                "saves written before"
            )
    return found


# -- chart machines ---------------------------------------------------------------------------


def machine_state(machine: ChartMachine) -> dict[str, Any]:
    """What a chart machine saves (see the module's docstring).

    Raises:
        SaveError: the machine is processing (called from one of its handlers).
    """
    core = machine.machine
    label = f"chart machine {core.name!r}"
    if machine._in_call():
        raise SaveError(
            f"cannot save {label} while it processes (from one of its handlers or "
            "listeners): save between two calls"
        )
    sink = core._extras.sink if core._extras else None
    on_action = machine._on_action
    return {
        "format": FORMAT,
        "snapshot": snapshot_of(machine, chart_fingerprint(machine.compiled)).to_bytes(),
        "handlers": _refs(machine._handlers, label),
        "owner": machine.owner,
        "on_action": None if on_action is None else Ref(on_action, f"the on_action of {label}"),
        "name": core.name,
        "trace": int(core.trace_level),
        "sink": None if sink is None else Ref(sink, f"the trace sink of {label}"),
        "max_transitions": core.max_transitions,
        "attributes": _added(attributes(machine), _machine_fields()),
    }


def set_machine_state(machine: ChartMachine, saved: object) -> None:
    """Make ``machine`` (a blank one, see :func:`blank_machine`) the one ``saved`` describes.

    Raises:
        LoadError: the data is not a chart machine's, or of a format this version cannot
            read.
        DecodeError: its snapshot is not one of its chart's.
    """
    data = saved_data(saved, "chart machine", FORMAT)
    with reading("chart machine"):
        snapshot = MachineSnapshot.from_bytes(data["snapshot"])
        if snapshot.chart != chart_fingerprint(machine.compiled):
            raise DecodeError("the saved chart machine's snapshot is of another chart")
        if not isinstance(data["name"], str):
            raise TypeError(f"its name is not a string: {data['name']!r}")
        machine._setup(
            machine.compiled,
            _handlers(data["handlers"]),
            on_action=target_of(data["on_action"]),
            owner=data["owner"],
            name=data["name"],
            trace=TraceLevel(data["trace"]),
            trace_sink=target_of(data["sink"]),
            max_transitions=data["max_transitions"],
        )
        restore_into(machine, snapshot)
        set_attributes(machine, _kept(data, _machine_fields()))


def _no_handler(call: object) -> None:
    """The handlers of a machine being loaded, until its own are set."""


def blank_machine(ref: object, compiled: CompiledChart) -> ChartMachine:
    """The loader of a saved chart machine: a machine of ``compiled`` that its
    ``__setstate__`` then makes the saved one (the owner and handlers, which may refer to
    the machine, come with the state). A subclass's ``__init__`` is not called: its
    attributes come with the state too.

    Raises:
        LoadError: the program now defines the machine's class as something else.
    """
    from statetree.chart.machine import ChartMachine  # noqa: PLC0415  # it imports this module

    cls = cast("type[ChartMachine]", class_of(ref, ChartMachine))
    machine = cls.__new__(cls)
    ChartMachine.__init__(machine, compiled, dict.fromkeys(compiled.host_actions, _no_handler))
    return machine


def _machine_fields() -> frozenset[str]:
    from statetree.chart.machine import ChartMachine  # noqa: PLC0415  # it imports this module

    return frozenset(ChartMachine.__slots__)


def _added(found: Mapping[str, Any], own: frozenset[str]) -> dict[str, Any]:
    """The attributes of ``found`` a subclass adds (those not in ``own``, the class's)."""
    return {name: value for name, value in found.items() if name not in own}


def _kept(data: Mapping[str, Any], own: frozenset[str]) -> dict[str, Any]:
    """The subclass's attributes a save holds (none in saves written before they were
    kept), checked to be none of the class's own ``own``."""
    kept = data.get("attributes", {})
    if not isinstance(kept, dict) or not all(isinstance(name, str) for name in kept):
        raise TypeError("its attributes are not a mapping of names")
    if not own.isdisjoint(kept):
        raise TypeError("its attributes name the machine's own fields")
    return kept


# -- chart batches ------------------------------------------------------------------------------


class _Batch(Protocol):
    name: str

    @property
    def compiled(self) -> CompiledChart: ...

    @property
    def backend(self) -> str: ...

    def snapshot(self) -> Any: ...


def batch_state(
    batch: _Batch, handlers: Mapping[str, Any], bound: int, own: frozenset[str]
) -> dict[str, Any]:
    """What a batch saves: its chart, its snapshot's bytes, its handlers (by name), its
    name, bound and backend, and the attributes a subclass adds (those not in ``own``).

    Raises:
        SaveError: the batch is processing (called from one of its handlers).
    """
    try:
        snapshot = batch.snapshot()
    except UsageError:  # the one reason: it processes
        raise SaveError(
            f"cannot save batch {batch.name!r} while it processes (from one of its "
            "handlers): save between two calls, e.g. after the frame"
        ) from None
    return {
        "format": FORMAT,
        "chart": batch.compiled,
        "snapshot": snapshot.to_bytes(),
        "handlers": _refs(handlers, f"batch {batch.name!r}"),
        "name": batch.name,
        "max_transitions": bound,
        "backend": batch.backend,
        "attributes": _added(vars(batch), own),
    }


def load_batch(
    cls: Any,
    snapshots: Any,
    saved: object,
    backends: tuple[tuple[str, ...], tuple[str, ...]],
    own: frozenset[str],
) -> Any:
    """The batch ``saved`` describes, built by ``cls.restore`` from its snapshot
    (``snapshots.from_bytes``). ``backends`` are every backend's name and those that run
    here: the batch is stepped by its own if it runs here, else by the first that does (they
    step alike).

    Raises:
        LoadError: the data is not a batch's, or of a format this version cannot read.
        DecodeError: its snapshot is not one of its chart's.
    """
    data = saved_data(saved, "chart batch", FORMAT)
    with reading("chart batch"):
        compiled = data["chart"]
        if not isinstance(compiled, CompiledChart):
            raise TypeError(f"its chart is not a compiled chart: {compiled!r}")
        snapshot = snapshots.from_bytes(data["snapshot"])
        if not isinstance(data["name"], str):
            raise TypeError(f"its name is not a string: {data['name']!r}")
        backend = data["backend"]
        known, here = backends
        if backend not in known:
            raise ValueError(f"its backend is not one of {', '.join(known)}: {backend!r}")
        kept = _kept(data, own)
        batch = cls.restore(
            snapshot,
            compiled,
            _handlers(data["handlers"]),
            name=data["name"],
            max_transitions=data["max_transitions"],
            backend=backend if backend in here else here[0],
        )
        set_attributes(batch, kept)
        return batch
