"""Moving a machine to a configuration with ordinary exits and entries.

The walk goes down the machine and the configuration together. A state of the same class
with the same payload (as a receiver decodes it: ``-0.0`` is not ``0.0``, see
:func:`~statetree.net.payload.same_payload`) is kept (no hook runs for it); at the first
difference on each branch the machine changes as the runtime would: ``apply_transition``
replaces a state by its sibling or sets a new inner (exiting what was inside, innermost
first), a host enters its regions with its own concurrent transition, and states that must
go are exited.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from statetree.core.cause import Cause, require_cause
from statetree.core.machine import StateMachine
from statetree.core.state import State
from statetree.core.transition import concurrent, inner, sibling
from statetree.net.configuration import ActiveState, Configuration, capture
from statetree.net.payload import Specs, same_payload

__all__ = ["apply_configuration"]

RegionRoots = Mapping[type, tuple[type[State[Any]], ...]]


def apply_configuration(
    machine: StateMachine[Any],
    target: Configuration,
    specs: Specs,
    region_roots: RegionRoots,
    cause: Cause = Cause.DESERIALIZATION,
) -> None:
    """Move ``machine`` to ``target``; every hook that runs sees ``cause``.

    A machine with no active state first enters its initial state (``machine.start()``).

    Args:
        machine: the machine to change.
        target: a configuration the structure allows (checked by the caller).
        specs: the payload layouts, to compare the active states' payloads.
        region_roots: for each host class, the roots its concurrent transition enters.
        cause: what the hooks see as ``machine.cause``.

    Raises:
        UsageError: ``cause`` is not a :class:`Cause` (nothing changed).
    """
    require_cause(cause, f"apply(cause={cause!r})")
    if machine.started and capture(machine, specs, region_roots) == target:
        return  # the common case: nothing to change, and no hook to run
    with machine.caused_by(cause):
        _Sync(machine, specs, region_roots).run(target.root)


class _Sync:
    __slots__ = ("machine", "region_roots", "specs")

    def __init__(self, machine: StateMachine[Any], specs: Specs, roots: RegionRoots) -> None:
        self.machine = machine
        self.specs = specs
        self.region_roots = roots

    def run(self, root: ActiveState) -> None:
        machine = self.machine
        if not machine.started:
            machine.start()
        state = machine.walk()[0]
        if not self.same(state, root):
            machine.apply_transition(state, sibling(root.cls, *root.payload))
            state = machine.walk()[0]
        self.inside(state, root)

    def same(self, state: State[Any], wanted: ActiveState) -> bool:
        return type(state) is wanted.cls and same_payload(self.specs.payload(state), wanted.payload)

    def inside(self, host: State[Any], wanted: ActiveState) -> None:
        """Make what is inside ``host`` match what is inside ``wanted``."""
        regions = self.machine.regions(host) if type(host) in self.region_roots else ()
        if wanted.regions:
            self.sync_regions(host, wanted.regions, regions)
        elif wanted.inner is not None:
            self.sync_inner(host, wanted.inner, regions)
        elif any(regions):
            for region in reversed(regions):
                if region:
                    self.machine.exit(region[0])
        else:
            current = host.get_immediate_inner_state(State)
            if current is not None:
                self.machine.exit(current)

    def sync_inner(
        self, host: State[Any], wanted: ActiveState, regions: tuple[tuple[State[Any], ...], ...]
    ) -> None:
        current = None if any(regions) else host.get_immediate_inner_state(State)
        if current is None or not self.same(current, wanted):
            self.machine.apply_transition(host, inner(wanted.cls, *wanted.payload))
            current = host.get_immediate_inner_state(State)
            assert current is not None
        self.inside(current, wanted)

    def sync_regions(
        self,
        host: State[Any],
        wanted: tuple[ActiveState, ...],
        regions: tuple[tuple[State[Any], ...], ...],
    ) -> None:
        if not (regions and all(regions)):
            # Enter them as the host itself does, then adjust each region below.
            self.machine.apply_transition(host, concurrent(*self.region_roots[type(host)]))
            regions = self.machine.regions(host)
        for position, root in enumerate(wanted):
            state = regions[position][0]
            if not self.same(state, root):
                self.machine.apply_transition(state, sibling(root.cls, *root.payload))
                state = self.machine.regions(host)[position][0]
            self.inside(state, root)
