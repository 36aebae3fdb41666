"""The program side of the inspector: watched machines, step records, subscriptions.

The program's thread does as little as possible: a watched machine's listener appends one
tuple to a bounded buffer and marks the machine dirty. Everything else (describing steps,
reading active states, decoding packets) happens in :meth:`Hub.flush`, which the server
calls at a fixed rate from its own thread. A machine no page watches has no listener.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import reprlib
import secrets
import threading
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from typing import Any, TypeVar

from statetree.inspect.adaptation import adapt, capabilities
from statetree.inspect.adapters import InspectError, Note, RunsLater, Sample, WatchedMachine
from statetree.inspect.debugging import Debugging, Entry, breakpoint_of
from statetree.inspect.gate import Gate
from statetree.inspect.trail import Snapshot, Trail
from statetree.inspect.watcher import Row, Status, Watcher

__all__ = ["Hub"]

T = TypeVar("T")

_Record = tuple[int, Entry, Any]
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


class Hub(Debugging):
    """The machines an inspector serves, and the records of the watched ones.

    Args:
        machines: machines or adapters (see :func:`~statetree.inspect.adaptation`).
        buffer: how many step records may wait between two flushes; older ones are
            dropped and counted in :attr:`lost`.
    """

    def __init__(self, machines: Iterable[object] = (), *, buffer: int = 20000) -> None:
        self.gate = Gate()
        self.lost = 0
        """Step records dropped because the buffer was full."""
        self.pages = 0
        """How many pages are connected."""
        self._buffer = buffer
        self.program = secrets.token_hex(8)
        """Tells pages this program from another one served since on the same port (its
        timeline rows and breakpoint hits are numbered anew)."""
        self.turns: dict[str, asyncio.Lock] = {}
        """The server's turn of each machine's changes (see ``commands``)."""
        self._records: deque[_Record] = deque(maxlen=buffer)
        self._seq = itertools.count(1)
        self._packets = itertools.count(1)
        self._pending: deque[Callable[[], None]] = deque()
        self._attached: tuple[Entry, ...] = ()
        self._ran = True
        self._attach_lock = threading.Lock()
        self._entries: dict[str, Entry] = {}
        self._by_object: dict[int, Entry] = {}
        self.latest: dict[str, dict[str, object]] = {
            "active": {},
            "packets": {},
            "breaks": {},
            "population": {},
        }
        """The values of the last flush, per channel and machine id."""
        if not isinstance(machines, Iterable) or isinstance(machines, (str, bytes)):
            raise InspectError(
                f"the inspector takes a list of machines, got {reprlib.repr(machines)}: "
                "give [machine] for one"
            )
        for machine in machines:
            self.add(machine)

    # -- machines ---------------------------------------------------------------------------

    def add(self, machine: object) -> str:
        """Serve ``machine`` too; returns its id on the page (its id already, when it is
        served: a machine is listed once).

        Raises:
            InspectError: the inspector has no adapter for this kind of object.
        """
        known = self._by_object.get(id(machine))  # its entry keeps it alive: ids are unique
        if known is not None:
            return known.id
        adapter = adapt(machine)
        entry = Entry(_unique(adapter.name or adapter.kind, self._entries), adapter)
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

    def _entry(self, machine_id: str) -> Entry:
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
        on the program's thread, between two frames; and the machines the last frame
        changed are read, for time travel and populations (not after a paused frame,
        which changed nothing).
        """
        pending = self._pending
        while pending:
            pending.popleft()()
        attached = self._attached
        if attached and self._ran:
            # Machines read by polling are read here, so their changes carry the frame
            # they were made in.
            for entry in attached:
                entry.adapter.poll()
            self._snapshot(attached)
        self._ran = self.gate.allow()
        return self._ran

    def _snapshot(self, attached: tuple[Entry, ...]) -> None:
        """Record how each machine the last frame changed ended it."""
        frame, records = self.gate.frame, self._records
        for entry in attached:
            if entry.moved:
                entry.moved = False
                values = entry.values() if entry.values is not None else ()
                records.append((frame, entry, Snapshot(entry.adapter.active(), values)))

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

    def _note(self, entry: Entry) -> Note:
        records, gate, limit = self._records, self.gate, self._buffer

        def note(raw: Any) -> None:
            if len(records) == limit:
                self.lost += 1
            records.append((gate.frame, entry, raw))
            entry.dirty = entry.moved = True
            if entry.breaks:
                self._check_break(entry, raw)

        return note

    def _check_break(self, entry: Entry, raw: Any) -> None:
        found = breakpoint_of(entry.adapter.describe(raw))
        if found is not None and found in entry.breaks:
            self.gate.stop_at(entry.id, *found)

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
                # The view is made here, not on the program's thread, which will read the
                # active states through it (a class-based machine's structure is derived
                # from its source code: slow, and never to be done on a game's thread).
                entry.adapter.view()
                self._schedule(functools.partial(self._attach, entry))
        return added

    def unwatch(self, watcher: Watcher, ids: Iterable[str]) -> list[str]:
        """Unsubscribe ``watcher``; the last watcher of a machine detaches it.

        Raises:
            InspectError: an id names no machine (nothing is unsubscribed then).
        """
        ids = [self._entry(machine_id).id for machine_id in ids]
        removed = watcher.unwatch(ids)
        for machine_id in removed:
            entry = self._entries[machine_id]
            entry.watchers -= 1
            if entry.watchers == 0:
                entry.active = entry.packet = None
                entry.breaks = frozenset()
                self._schedule(functools.partial(self._detach, entry))
        return removed

    def opened(self) -> None:
        """A page connected."""
        self.pages += 1

    def forget(self, watcher: Watcher) -> None:
        """Unsubscribe ``watcher`` from everything."""
        self.unwatch(watcher, list(watcher.machines))

    def closed(self, watcher: Watcher) -> None:
        """A page left: unsubscribe it from everything. When it was the last page, the
        breakpoints go and a paused program runs again: nobody could resume it."""
        self.forget(watcher)
        self.pages -= 1
        if self.pages == 0:
            for entry in self._entries.values():
                entry.breaks = frozenset()
            self.gate.pause(False)

    def _attach(self, entry: Entry) -> None:
        entry.trail = Trail(entry.adapter.active())
        entry.moved = False
        entry.sampled = -1
        entry.adapter.attach(self._note(entry))
        with self._attach_lock:
            self._attached = (*self._attached, entry)

    def _detach(self, entry: Entry) -> None:
        entry.adapter.detach()
        with self._attach_lock:
            self._attached = tuple(e for e in self._attached if e is not entry)

    def call(self, function: Callable[[], T], machine_id: str | None = None) -> Future[T]:
        """Run ``function`` on the program's thread at a safe point: its next frame, or,
        for a program that does not call :meth:`frame`, the next time it drives the
        machine ``machine_id`` (if that machine can say when), else now.

        Returns:
            a future holding the result or the exception; cancelling it before it runs
            means it never will.
        """
        done: Future[T] = Future()

        def run() -> None:
            if not done.set_running_or_notify_cancel():
                return
            try:
                done.set_result(function())
            except BaseException as error:  # handed to whoever waits for the result
                done.set_exception(error)

        adapter = self._entry(machine_id).adapter if machine_id is not None else None
        if self.gate.driven:
            self._pending.append(run)
        elif isinstance(adapter, RunsLater):
            adapter.defer(run)
        else:
            run()
        return done

    def close(self) -> None:
        """Remove every listener now (call it from the program's thread, after serving)."""
        self._pending.clear()
        self._attached = ()
        for entry in self._entries.values():
            if entry.watchers:
                entry.watchers = 0
                entry.active = entry.packet = None
            entry.breaks = frozenset()
            entry.adapter.detach()
        self.gate.pause(False)

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
            for entry in self._attached:
                entry.adapter.poll()
        rows = self._drain()
        population: dict[str, object] = {
            e.id: new for e in watched if (new := self._new_samples(e))
        }
        for entry in watched:
            self._refresh(entry)
        self.latest = {
            "active": {e.id: e.active for e in watched if e.active is not None},
            "packets": {e.id: e.packet for e in watched if e.packet is not None},
            "breaks": {e.id: tuple(sorted(e.breaks)) for e in watched},
            "population": population,
        }
        return rows

    @staticmethod
    def _new_samples(entry: Entry) -> tuple[Sample, ...]:
        """The samples of a population taken since the last flush."""
        if entry.samples is None:
            return ()
        new = entry.samples(entry.sampled)
        if new:
            entry.sampled = new[-1][0]
            entry.dirty = True  # its agents may be in other states: read them again
        return new

    def _drain(self) -> list[Row]:
        rows: list[Row] = []
        records = self._records
        seq = self._seq
        while records:
            frame, entry, raw = records.popleft()
            if isinstance(raw, Snapshot):
                entry.trail.snapshot(frame, raw)
                continue
            event = entry.adapter.describe(raw)
            number = next(seq)
            entry.trail.row(number, frame, event)
            rows.append(
                (
                    number,
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
    def _refresh(entry: Entry) -> None:
        # A mark set while the states are read may describe a change made just after the
        # read, so a machine marked dirty is read once more at the next flush.
        dirty = entry.dirty
        if dirty:
            entry.dirty = False
        if dirty or entry.recheck or entry.active is None:
            entry.active = entry.adapter.active()
        entry.recheck = dirty

    def status(self) -> Status:
        """The frame, whether paused, whether the program is driven, records lost, and the
        last breakpoint hit."""
        gate = self.gate
        return (gate.frame, gate.paused, gate.driven, self.lost, gate.hit)
