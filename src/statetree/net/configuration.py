"""Configurations: an immutable value describing which states are active, with payloads.

Decoding produces a :class:`Configuration` before anything touches a machine, so a bad
packet is refused whole; applying then moves the machine to it.
"""

from __future__ import annotations

import enum
from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from statetree.core.machine import StateMachine
from statetree.core.state import State
from statetree.errors import UsageError
from statetree.net.payload import Specs, payload_key, same_payload

__all__ = ["ActiveState", "Configuration", "capture", "check_built"]


@dataclass(frozen=True, slots=True)
class ActiveState:
    """One active state and what is active inside it.

    Two active states are equal when they encode the same: same classes, and payloads the
    same as a receiver decodes them (``-0.0`` is not ``0.0``; a NaN equals a NaN of the
    same bits).

    Attributes:
        cls: the state's class.
        payload: its payload: the ``on_enter`` arguments declared by ``net_fields``.
        inner: its immediate inner state, if it has one.
        regions: the roots of its concurrent regions, in order, if it hosts regions.
    """

    cls: type[State[Any]]
    payload: tuple[Any, ...] = ()
    inner: ActiveState | None = None
    regions: tuple[ActiveState, ...] = ()

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.cls == other.cls
            and (self.payload is other.payload or same_payload(self.payload, other.payload))
            and self.inner == other.inner
            and self.regions == other.regions
        )

    def __hash__(self) -> int:
        return hash((self.cls, payload_key(self.payload), self.inner, self.regions))

    def walk(self) -> Iterator[ActiveState]:
        """This state, then the states inside it, depth first, regions in order."""
        yield self
        if self.inner is not None:
            yield from self.inner.walk()
        for region in self.regions:
            yield from region.walk()

    def __str__(self) -> str:
        name = self.cls.__name__
        if self.payload:
            name += f"({', '.join(map(_show, self.payload))})"
        if self.inner is not None:
            return f"{name}/{self.inner}"
        if self.regions:
            return f"{name}{{{' | '.join(map(str, self.regions))}}}"
        return name


@dataclass(frozen=True, slots=True)
class Configuration:
    """The active states of a machine, outermost first, as an immutable tree.

    ``str(configuration)`` reads ``Alive/Locomotion/Move`` (payloads in parentheses, regions
    in braces separated by ``|``).
    """

    root: ActiveState

    @property
    def states(self) -> tuple[ActiveState, ...]:
        """Every active state, in the machine's processing order (as ``machine.stack``)."""
        return tuple(self.root.walk())

    @property
    def classes(self) -> tuple[type[State[Any]], ...]:
        """The class of every active state, in processing order."""
        return tuple(active.cls for active in self.root.walk())

    def __str__(self) -> str:
        return str(self.root)


def check_built(configuration: Configuration) -> None:
    """Refuse a configuration built by hand from what no machine holds (those the library
    builds are right: they are not checked when made, which would slow every capture).

    Raises:
        UsageError: its root, an inner state or a region is not an :class:`ActiveState`,
            or a state's class is not a class, or its payload or regions not a tuple, or a
            state has both regions and an inner state.
    """
    if type(configuration.root) is not ActiveState:
        raise UsageError(f"a Configuration's root is an ActiveState, got {configuration.root!r}")
    waiting = [configuration.root]
    while waiting:
        active = waiting.pop()
        if not isinstance(active.cls, type):
            raise UsageError(f"an ActiveState needs a state class, got {active.cls!r}")
        name = active.cls.__qualname__
        if type(active.payload) is not tuple:
            raise UsageError(
                f"the payload of an ActiveState of {name} is a tuple, got {active.payload!r}"
            )
        regions = active.regions
        if type(regions) is not tuple or not all(type(r) is ActiveState for r in regions):
            raise UsageError(
                f"the regions of an ActiveState of {name} are a tuple of ActiveState, got "
                f"{regions!r}"
            )
        waiting.extend(regions)
        if regions and active.inner is not None:  # a host's regions are all it holds
            raise UsageError(
                f"an ActiveState of {name} has both regions and an inner state: a state "
                "hosting regions holds nothing else"
            )
        if active.inner is not None:
            if type(active.inner) is not ActiveState:
                raise UsageError(
                    f"the inner state of an ActiveState of {name} is an ActiveState or None, "
                    f"got {active.inner!r}"
                )
            waiting.append(active.inner)


def _show(value: object) -> str:
    """A payload value as written in code: ``Direction.LEFT`` for an enum member."""
    return str(value) if isinstance(value, enum.Enum) else repr(value)


def capture(machine: StateMachine[Any], specs: Specs, hosts: Container[type]) -> Configuration:
    """The configuration ``machine`` is in, payloads read with ``specs``.

    Args:
        machine: a machine with active states.
        specs: the payload layouts of its state classes.
        hosts: the classes that can host regions (the others are not asked for theirs).

    Raises:
        UsageError: the machine has no active state, a state is not in ``specs``, or a
            payload cannot be sent.
    """
    walked = machine.walk()
    if not walked:
        raise UsageError(
            f"cannot capture {machine!r}: it has no active state (process its transitions first)"
        )
    return Configuration(_Capture(machine, specs, hosts).chain(_main_stack(machine, walked, hosts)))


def _main_stack(
    machine: StateMachine[Any], walked: list[State[Any]], hosts: Container[type]
) -> list[State[Any]]:
    """The main stack: the walk up to the first state hosting regions (they follow it)."""
    for index, state in enumerate(walked):
        if type(state) in hosts and machine.regions(state):
            return walked[: index + 1]
    return walked


class _Capture:
    __slots__ = ("hosts", "machine", "specs")

    def __init__(self, machine: StateMachine[Any], specs: Specs, hosts: Container[type]) -> None:
        self.machine = machine
        self.specs = specs
        self.hosts = hosts

    def chain(self, stack: Sequence[State[Any]]) -> ActiveState:
        """The active state of ``stack[0]``, with the rest of the stack inside it."""
        last = stack[-1]
        regions: tuple[ActiveState, ...] = ()
        if type(last) in self.hosts:
            regions = tuple(self.chain(region) for region in self.machine.regions(last) if region)
        payload = self.specs.payload
        active = ActiveState(type(last), payload(last), None, regions)
        for state in reversed(stack[:-1]):
            active = ActiveState(type(state), payload(state), active)
        return active
