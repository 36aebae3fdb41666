"""What ``statetree inspect`` runs: a simulation named on the command line.

A simulation lists its machines and steps them one frame at a time. The command line names
one as ``MODULE:NAME``: a callable returning a simulation (called with no argument), a
simulation object, a machine, a list of machines, or an initial state class (its machine is
shown without being run, as ``statetree plot`` would draw it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from statetree.bitmask import BitmaskMachine
from statetree.core.machine import StateMachine
from statetree.core.state import State
from statetree.inspect.adapters import WatchedMachine
from statetree.targets import LoadError, attribute_of, import_target_module, split_target

__all__ = ["Simulation", "Still", "as_simulation", "load_simulation"]


@runtime_checkable
class Simulation(Protocol):
    """A world the inspector can run: its machines and one frame of it.

    A simulation may also define ``attach(inspector)``, called once before the first
    frame (to report network packets through ``inspector.packet``).
    """

    def machines(self) -> Iterable[object]:
        """The machines to inspect (machines or adapters)."""

    def tick(self, dt: float) -> None:
        """Run one frame of ``dt`` seconds."""


class Still:
    """Machines that nothing steps: the page shows them as they are."""

    def __init__(self, machines: Iterable[object]) -> None:
        self._machines = list(machines)

    def machines(self) -> list[object]:
        """The machines, as given."""
        return self._machines

    def tick(self, dt: float) -> None:
        """Nothing runs."""


def _is_machine(value: object) -> bool:
    return isinstance(value, (StateMachine, BitmaskMachine, WatchedMachine))


def as_simulation(value: object, name: str = "the target") -> Simulation:
    """``value`` as a simulation (see the module's documentation for what it may be).

    Raises:
        LoadError: ``value`` is none of those things, or calling it failed.
    """
    if isinstance(value, type) and issubclass(value, State):
        return Still([StateMachine(value, name=value.__qualname__)])
    # A function returning a simulation, or a simulation's class: called to make one.
    made = not isinstance(value, type) or isinstance(value, Simulation)
    called = False
    if made and not _is_machine(value) and callable(value):
        called = True
        try:
            value = value()
        except Exception as error:  # the user's factory failed
            raise LoadError(f"calling {name} raised {type(error).__name__}: {error}") from error
    if isinstance(value, Simulation):
        return value
    if _is_machine(value):
        return Still([value])
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
        return Still(list(value))
    what = f"the class {value.__name__}" if isinstance(value, type) else f"a {type(value).__name__}"
    raise LoadError(
        f"{name} {'returned' if called else 'is'} {what}: name a simulation (an object with "
        "machines() and tick(dt)), a function returning one, a machine, a list of machines "
        "or an initial state class"
    )


def load_simulation(target: str) -> Simulation:
    """The simulation a ``MODULE:NAME`` command-line target names.

    Raises:
        LoadError: the module does not load, the name is missing or names nothing usable.
    """
    module_name, attribute = split_target(target)
    module = import_target_module(module_name)  # an empty or wrong name is refused first
    if not attribute:
        raise LoadError(
            f"name what to inspect in {module_name!r} as MODULE:NAME, e.g. "
            f"{module_name}:demo_world (a function returning the world)"
        )
    value: Any = attribute_of(module, attribute)
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    return as_simulation(value, repr(target))
