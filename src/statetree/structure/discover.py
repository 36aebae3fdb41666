"""Finding the machines a module defines: the initial states of its state classes.

In order of preference:

1. the module says so: a module-level function ``initial_states()`` returning the initial
   state classes;
2. the module builds machines: each ``StateMachine(Initial, ...)`` call written in it whose
   first argument names a state class;
3. otherwise, the state classes defined in the module that no transition targets and that
   are not bases of other states.
"""

from __future__ import annotations

import ast
import builtins
import inspect
from collections import ChainMap
from collections.abc import Iterator
from types import ModuleType
from typing import Any, TypeGuard

from statetree.core.machine import StateMachine
from statetree.core.state import State
from statetree.errors import DefinitionError
from statetree.structure.classview import Scope
from statetree.structure.derivation import derive
from statetree.structure.scan import evaluate, transition_kind
from statetree.structure.source import parse_module

__all__ = ["CONVENTION", "InitialStatesError", "find_initial_states"]

CONVENTION = "initial_states"
"""The name of the optional module-level function listing a module's initial states."""


class InitialStatesError(DefinitionError):
    """A module's ``initial_states()`` raised: what it raised is the ``__cause__``."""


def _is_state(value: object) -> TypeGuard[type[State[Any]]]:
    return isinstance(value, type) and issubclass(value, State) and value is not State


def find_initial_states(module: ModuleType) -> tuple[type[State[Any]], ...]:
    """The initial state classes of the machines ``module`` defines (see the module doc).

    The module's attributes are read statically: no module-level ``__getattr__`` runs.

    Raises:
        InitialStatesError: the module's ``initial_states()`` raised (a
            ``DefinitionError`` caused by what it raised).
        DefinitionError: the module's ``initial_states()`` returns something other than
            state classes.
    """
    declared = inspect.getattr_static(module, CONVENTION, None)
    if callable(declared):
        try:
            returned = declared()
        except Exception as error:
            raise InitialStatesError(
                f"{module.__name__}.{CONVENTION}() raised {type(error).__name__}: {error}"
            ) from error
        return _declared(module, returned)
    built = tuple(dict.fromkeys(_machine_calls(module)))
    return built or _roots(module)


def _declared(module: ModuleType, returned: object) -> tuple[type[State[Any]], ...]:
    items = tuple(returned) if isinstance(returned, (list, tuple)) else (returned,)
    states = tuple(item for item in items if _is_state(item))
    if not states or len(states) != len(items):
        raise DefinitionError(
            f"{module.__name__}.{CONVENTION}() must return State subclasses, got {returned!r}"
        )
    return states


def _machine_calls(module: ModuleType) -> Iterator[type[State[Any]]]:
    """The state classes passed as ``initial`` to ``StateMachine(...)`` in the source."""
    parsed = parse_module(module)
    if parsed is None:
        return
    tree, _ = parsed
    namespace = ChainMap(vars(module), vars(builtins))
    scope = Scope(namespace, frozenset(), None, object)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and evaluate(node.func, scope) is StateMachine):
            continue
        arguments = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "initial")]
        for argument in arguments:
            value = evaluate(_transition_target(argument, scope), scope)
            if _is_state(value):
                yield value


def _transition_target(argument: ast.expr, scope: Scope) -> ast.expr:
    """``X`` for ``st.sibling(X, ...)`` (an initial state given with arguments), else as is."""
    if not isinstance(argument, ast.Call) or not argument.args:
        return argument
    if transition_kind(argument, scope) is not None:
        return argument.args[0]
    return argument


def _defined_states(module: ModuleType) -> list[type[State[Any]]]:
    """State classes defined in ``module``, at top level or nested in its classes, in order."""
    found: list[type[State[Any]]] = []

    def visit(namespace: object, prefix: str) -> None:
        for value in list(vars(namespace).values()):
            # Only classes defined right here: aliases would repeat states or loop.
            if isinstance(value, type) and value.__qualname__ == prefix + value.__name__:
                if _is_state(value) and value.__module__ == module.__name__:
                    found.append(value)
                visit(value, f"{value.__qualname__}.")

    visit(module, "")
    return found


def _roots(module: ModuleType) -> tuple[type[State[Any]], ...]:
    states = _defined_states(module)
    concrete = [s for s in states if not any(o is not s and issubclass(o, s) for o in states)]
    structures = [derive(state) for state in concrete]
    targeted = {e.target for st in structures for e in st.edges if e.target != e.source}
    # States no transition targets come first; states that only cycle among themselves
    # (Alive <-> Dead) are all targeted, and the first one defined stands for its group. A
    # state already part of an earlier machine (defined next to its initial state, even
    # unreachable) is reported there, not checked again as a machine of its own.
    candidates = sorted(concrete, key=lambda state: state.__qualname__ in targeted)
    roots: list[type[State[Any]]] = []
    covered: set[type | None] = set()
    for state in candidates:
        if state not in covered:
            roots.append(state)
            covered.update(info.cls for info in structures[concrete.index(state)].states)
    return tuple(state for state in concrete if state in roots)
