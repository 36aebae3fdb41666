"""Telling a bad call of a state's hook apart from an error inside it: arguments that do
not fit ``on_enter`` or ``update``, or a hook hidden by an attribute of the state."""

from __future__ import annotations

import inspect
from collections.abc import Iterable

from statetree.core.transition import Transition
from statetree.errors import StateArgumentError, UsageError

__all__ = ["check_arguments", "check_hooks", "check_update"]

_HOOKS = ("transition", "update", "on_enter", "on_exit")
"""The methods of a state the machine calls."""


def check_arguments(chosen: Transition, error: TypeError, *, initial: bool = False) -> None:
    """Raise :class:`StateArgumentError` if ``chosen``'s arguments cannot bind ``on_enter``.

    Called only after ``on_enter`` raised ``TypeError``, so a correct call costs nothing.
    When the arguments bind, the ``TypeError`` came from inside ``on_enter`` and is left
    to propagate unchanged.

    Raises:
        StateArgumentError: the arguments do not match the signature (``initial``: of the
            machine's first state).
    """
    target = chosen.target
    signature = inspect.signature(target.on_enter)
    try:
        signature.bind(None, *chosen.args, **chosen.kwargs)
    except TypeError as mismatch:
        reason = str(mismatch)
    else:
        return
    # The initial state's transition is the machine's, made from the class it was given
    # (then with no arguments) or from the sibling() it was given.
    fix = (
        f"give the machine its first state's arguments: StateMachine(st.sibling("
        f"{target.__name__}, ...))"
        if initial and not chosen.has_arguments
        else "pass what on_enter declares"
    )
    problem = StateArgumentError(
        f"{chosen!r}: the arguments do not fit {target.__qualname__}.on_enter"
        f"{signature} ({reason}); {fix}"
    )
    # What ``raise ... from error`` does, which the compiled core does not honour.
    problem.__cause__ = error
    raise problem


def check_update(
    state: object, args: tuple[object, ...], kwargs: dict[str, object], error: TypeError
) -> None:
    """Raise :class:`StateArgumentError` if ``update_states``'s arguments cannot bind
    ``state``'s ``update``; called only after a ``TypeError``, which otherwise propagates
    unchanged (it came from inside ``update``, or is a hook's own error)."""
    if isinstance(error, StateArgumentError):
        return
    check_hooks((state,), error)
    update = type(state).update  # type: ignore[attr-defined]
    try:
        signature = inspect.signature(update).replace(return_annotation=inspect.Parameter.empty)
        signature.bind(state, *args, **kwargs)
    except TypeError as mismatch:
        reason = str(mismatch)
    except ValueError:  # no signature to read
        return
    else:
        return
    given = ", ".join([*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())])
    problem = StateArgumentError(
        f"{type(state).__qualname__}.update{signature} does not take what update_states() was "
        f"given, update_states({given}) ({reason}): every active state's update takes the same "
        "arguments, such as def update(self, dt)"
    )
    problem.__cause__ = error
    raise problem


def _defines(cls: type, hook: str) -> bool:
    """Whether the machine calls ``hook`` of a ``cls``: ``transition`` always, the others
    when ``cls`` (or a class of the program it derives from) defines them."""
    if hook == "transition":
        return True
    return any(hook in vars(c) for c in cls.__mro__ if not c.__module__.startswith("statetree."))


def check_hooks(states: Iterable[object], error: TypeError) -> None:
    """Raise :class:`UsageError` if one of ``states`` hides a hook it defines under an
    attribute that cannot be called (``self.transition = None``, a port of the book's
    ``mTransition``); called only after a ``TypeError``, which otherwise propagates
    unchanged (a state that keeps data under the name of a hook it does not define is not
    called there, and did not raise it)."""
    for state in states:
        own = getattr(state, "__dict__", None) or {}
        for hook in _HOOKS:
            if hook in own and not callable(own[hook]) and _defines(type(state), hook):
                problem = UsageError(
                    f"{type(state).__qualname__} set self.{hook} = {own[hook]!r}, which hides "
                    f"its {hook}() method that the machine calls: keep the value under another "
                    f"name (self._{hook}, say)"
                )
                problem.__cause__ = error
                raise problem
