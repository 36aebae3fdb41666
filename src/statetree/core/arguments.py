"""State arguments: telling a bad call of ``on_enter`` apart from an error inside it."""

from __future__ import annotations

import inspect

from statetree.core.transition import Transition
from statetree.errors import StateArgumentError

__all__ = ["check_arguments"]


def check_arguments(chosen: Transition, error: TypeError) -> None:
    """Raise :class:`StateArgumentError` if ``chosen``'s arguments cannot bind ``on_enter``.

    Called only after ``on_enter`` raised ``TypeError``, so a correct call costs nothing.
    When the arguments bind, the ``TypeError`` came from inside ``on_enter`` and is left
    to propagate unchanged.

    Raises:
        StateArgumentError: the arguments do not match the signature.
    """
    target = chosen.target
    signature = inspect.signature(target.on_enter)
    try:
        signature.bind(None, *chosen.args, **chosen.kwargs)
    except TypeError as mismatch:
        reason = str(mismatch)
    else:
        return
    problem = StateArgumentError(
        f"{chosen!r}: the arguments do not fit {target.__qualname__}.on_enter"
        f"{signature} ({reason}); pass what on_enter declares"
    )
    # What ``raise ... from error`` does, which the compiled core does not honour.
    problem.__cause__ = error
    raise problem
