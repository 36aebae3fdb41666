"""The program side of the inspector: watched machines, step records, subscriptions.

The program's thread does as little as possible: a watched machine's listener appends one
tuple to a bounded buffer and marks the machine dirty. Everything else (describing steps,
reading active states, decoding packets) happens in :meth:`Hub.flush`, which the server
calls at a fixed rate from its own thread. A machine no page watches has no listener.
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from typing import Any, TypeVar

from statetree.inspect.adapt import adapt, capabilities
from statetree.inspect.adapters import InspectError, Note, WatchedMachine
from statetree.inspect.gate import Gate
from statetree.inspect.watcher import Row, Status, Watcher

__all__ = ["Hub"]

T = TypeVar("T")


class _Entry:
    """One watched machine and what the hub knows of it."""

    __slots__ = ("active", "adapter", "dirty", "id", "packet", "recheck", "watchers")

    def __init__(self, machine_id: str, adapter: WatchedMachine) -> None:
        self.id = machine_id
        self.adapter = adapter
        self.watchers = 0
        self.dirty = False
        self.recheck = False
        self.active: tuple[str, ...] | None = None
        self.packet: tuple[int, bytes] | None = None


_Record = tuple[int, _Entry, Any]
"""What a listener appends: the frame, the machine's entry, the raw step."""


def _unique(name: str, taken: Iterable[str]) -> str:
    base = "".join(c if c.isascii() and (c.isalnum() or c in "_.-") else "_" for c in name)
    base = base[:70] or "machine"
    used = set(taken)
    candidate, number = base, 1
    while candidate in used:
        number += 1
        candidate = f"{base}-{number}"
    return candidate


class Hub:
    """The machines an inspector serves, and the records of the watched ones.

    Args:
        machines: machines or adapters (see :func:`~statetree.inspect.adapt`).
        buffer: how many step records may wait between two flushes; older ones are
            dropped and counted in :attr:`lost`.
    """

    def __init__(self, machines: Iterable[object] = (), *, buffer: int = 20000) -> None:
        self.gate = Gate()
        self.lost = 0
        """Step records dropped because the buffer was full."""
        self._buffer = buffer
        self._records: deque[_Record] = deque(maxlen=buffer)
        self._seq = itertools.count(1)
        self._packets = itertools.count(1)
        self._pending: deque[Callable[[], None]] = deque()
        self._polled: tuple[WatchedMachine, ...] = ()
        self._poll_lock = threading.Lock()
        self._entries: dict[str, _Entry] = {}
        self._by_object: dict[int, _Entry] = {}
        self.latest: dict[str, dict[str, object]] = {"active": {}, "packets": {}}
        """The values of the last flush, per channel and machine id."""
        for machine in machines:
            self.add(machine)

    # -- machines ---------------------------------------------------------------------------

    def add(self, machine: object) -> str:
        """Serve ``machine`` too; returns its id on the page.

        Raises:
            InspectError: the inspector has no adapter for this kind of object.
        """
        adapter = adapt(machine)
        entry = _Entry(_unique(adapter.name or adapter.kind, self._entries), adapter)
        self._entries[entry.id] = entry
        self._by_object[id(machine)] = entry
        return entry.id

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids of the machines, in the order they were added."""
        return tuple(self._entries)

    def adapter(self, machine_id: str) -> WatchedMachine:
        """The adapter of the machine with this id.

        Raises:
            InspectError: there is no such machine.
        """
        return self._entry(machine_id).adapter

    def _entry(self, machine_id: str) -> _Entry:
        entry = self._entries.get(machine_id)
        if entry is None:
            raise InspectError(f"no machine with id {machine_id!r} is inspected")
        return entry

    def catalog(self) -> list[dict[str, Any]]:
        """The machines as the page lists them: id, name, kind and capabilities."""
        return [
            {
                "id": entry.id,
                "name": entry.adapter.name,
                "kind": entry.adapter.kind,
                "caps": capabilities(entry.adapter),
            }
            for entry in self._entries.values()
        ]

    def watched(self, machine_id: str) -> bool:
        """Whether a page watches the machine (so it has a listener, or soon will)."""
        return self._entry(machine_id).watchers > 0

    # -- the program's side -----------------------------------------------------------------

    def frame(self) -> bool:
        """Called by the program before each frame: whether to run it (False if paused).

        Listeners requested by pages since the last frame are attached or removed here,
        on the program's thread, between two frames.
        """
        pending = self._pending
        while pending:
            pending.popleft()()
        if self._polled:
            # Machines read by polling are read here, so their changes carry the frame
            # they were made in.
            self._poll()
        return self.gate.allow()

    def packet(self, machine: object, data: bytes) -> None:
        """Note the bytes of the last update the program serialised for ``machine``.

        Costs one lookup when no page watches the machine.

        Raises:
            InspectError: ``machine`` is not inspected.
        """
        entry = self._by_object.get(id(machine))
        if entry is None:
            raise InspectError(f"{machine!r} is not one of the inspected machines")
        if entry.watchers:
            entry.packet = (next(self._packets), bytes(data))
            entry.dirty = True

    def _note(self, entry: _Entry) -> Note:
        records, gate, limit = self._records, self.gate, self._buffer

        def note(raw: Any) -> None:
            if len(records) == limit:
                self.lost += 1
            records.append((gate.frame, entry, raw))
            entry.dirty = True

        return note

    # -- subscriptions ----------------------------------------------------------------------

    def watch(self, watcher: Watcher, ids: Iterable[str]) -> list[str]:
        """Subscribe ``watcher`` to machines; the first watcher of one attaches it.

        Returns:
            the ids that were not watched by ``watcher`` yet.

        Raises:
            InspectError: an id names no machine (nothing is subscribed then).
        """
        entries = [self._entry(machine_id) for machine_id in ids]
        added = watcher.watch(entry.id for entry in entries)
        for machine_id in added:
            entry = self._entries[machine_id]
            entry.watchers += 1
            entry.dirty = True
            if entry.watchers == 1:
                self._schedule(functools.partial(self._attach, entry))
        return added

    def unwatch(self, watcher: Watcher, ids: Iterable[str]) -> list[str]:
        """Unsubscribe ``watcher``; the last watcher of a machine detaches it."""
        removed = watcher.unwatch(ids)
        for machine_id in removed:
            entry = self._entries[machine_id]
            entry.watchers -= 1
            if entry.watchers == 0:
                entry.active = entry.packet = None
                self._schedule(functools.partial(self._detach, entry))
        return removed

    def forget(self, watcher: Watcher) -> None:
        """Unsubscribe ``watcher`` from everything (its page closed)."""
        self.unwatch(watcher, list(watcher.machines))

    def _attach(self, entry: _Entry) -> None:
        entry.adapter.attach(self._note(entry))
        with self._poll_lock:
            self._polled = (*self._polled, entry.adapter)

    def _detach(self, entry: _Entry) -> None:
        entry.adapter.detach()
        with self._poll_lock:
            self._polled = tuple(a for a in self._polled if a is not entry.adapter)

    def call(self, function: Callable[[], T]) -> Future[T]:
        """Run ``function`` on the program's thread at its next frame (now, if the program
        does not call :meth:`frame`); the future holds its result or its exception."""
        done: Future[T] = Future()

        def run() -> None:
            try:
                done.set_result(function())
            except BaseException as error:  # handed to whoever waits for the result
                done.set_exception(error)

        if self.gate.driven:
            self._pending.append(run)
        else:
            run()
        return done

    def close(self) -> None:
        """Remove every listener now (call it from the program's thread, after serving)."""
        self._pending.clear()
        self._polled = ()
        for entry in self._entries.values():
            if entry.watchers:
                entry.watchers = 0
                entry.active = entry.packet = None
            entry.adapter.detach()

    def _schedule(self, operation: Callable[[], None]) -> None:
        # A program that calls frame() gets its listeners changed on its own thread; one
        # that does not is changed from here, between two of its steps.
        if self.gate.driven:
            self._pending.append(operation)
        else:
            operation()

    # -- the server's side ------------------------------------------------------------------

    def flush(self) -> list[Row]:
        """Collect what happened since the last flush: the new rows, the latest states.

        The rows are returned; the latest values per machine go to :attr:`latest`.
        """
        watched = [entry for entry in self._entries.values() if entry.watchers]
        if not self.gate.driven:
            self._poll()
        rows = self._drain()
        for entry in watched:
            self._refresh(entry)
        self.latest = {
            "active": {e.id: e.active for e in watched if e.active is not None},
            "packets": {e.id: e.packet for e in watched if e.packet is not None},
        }
        return rows

    def _poll(self) -> None:
        with self._poll_lock:
            for adapter in self._polled:
                adapter.poll()

    def _drain(self) -> list[Row]:
        rows: list[Row] = []
        records = self._records
        seq = self._seq
        while records:
            frame, entry, raw = records.popleft()
            event = entry.adapter.describe(raw)
            rows.append(
                (
                    next(seq),
                    frame,
                    entry.id,
                    event.category,
                    event.label,
                    event.state,
                    event.depth,
                    event.detail,
                )
            )
        return rows

    @staticmethod
    def _refresh(entry: _Entry) -> None:
        # A mark set while the states are read may describe a change made just after the
        # read, so a machine marked dirty is read once more at the next flush.
        dirty = entry.dirty
        if dirty:
            entry.dirty = False
        if dirty or entry.recheck or entry.active is None:
            entry.active = entry.adapter.active()
        entry.recheck = dirty

    def status(self) -> Status:
        """The frame, whether paused, whether the program is driven, records lost."""
        gate = self.gate
        return (gate.frame, gate.paused, gate.driven, self.lost)
