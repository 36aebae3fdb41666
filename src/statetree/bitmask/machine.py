"""The runtime: one entity's set of active states, its hooks and its history."""

from __future__ import annotations

import contextlib
import numbers
import reprlib
import sys
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any, Generic, overload

from statetree.bitmask.change_order import Step, removal_steps, setup, teardown
from statetree.bitmask.codec import check_mask, decode_mask, encode_mask
from statetree.bitmask.definition import BitmaskDefinition
from statetree.bitmask.errors import NoSuchStateError, ReentrantRequestError
from statetree.bitmask.explanation import Explanation, explain, format_states
from statetree.bitmask.records import BitCause, Change
from statetree.bitmask.spec import StateRule
from statetree.bitmask.state import BitState, Owner, StateRef
from statetree.core.refs import (
    Ref,
    attributes,
    new_instance,
    reading,
    saved_data,
    set_attributes,
    shallow_copy_refused,
    target_of,
)
from statetree.core.trace import TraceLevel, logger, trace_level
from statetree.errors import SaveError, UsageError, require_callable, require_name

_FORMAT = 1
"""The version of a bitmask machine's saved data."""

_Raw = tuple[int, int, bool, BitCause, int, int]
"""A history entry as stored: seq, state index, activated, cause, culprit index, mask."""


class BitmaskMachine(Generic[Owner]):
    """A set of active states stored as one int, driven by the rules of a definition.

    Every hook runs right after its own change, so it sees a consistent mask: each active
    state has all its requirements active. A request that deactivates several states does so
    dependents first; a hook that raises stops the request there, the mask still consistent.
    Hooks and checks may read the machine but not change it.
    """

    __slots__ = (
        "_bits",
        "_blocked",
        "_busy",
        "_cause",
        "_checked",
        "_definition",
        "_dependents",
        "_entry_hooks",
        "_exit_hooks",
        "_history",
        "_lookup",
        "_mask",
        "_requires",
        "_retriggerable",
        "_seq",
        "_states",
        "_terminates",
        "_trace",
        "name",
        "owner",
    )

    @overload
    def __init__(
        self: BitmaskMachine[None],
        definition: BitmaskDefinition,
        owner: None = None,
        *,
        name: str = "",
        history_size: int = 64,
        trace: TraceLevel = TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        definition: BitmaskDefinition,
        owner: Owner,
        *,
        name: str = "",
        history_size: int = 64,
        trace: TraceLevel = TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
    ) -> None: ...

    def __init__(
        self,
        definition: BitmaskDefinition,
        owner: Any = None,
        *,
        name: str = "",
        history_size: int = 64,
        trace: TraceLevel = TraceLevel.NONE,
        trace_sink: Callable[[str], None] | None = None,
    ) -> None:
        """Create a machine with no active state.

        Args:
            definition: the validated rules.
            owner: the object the states act on, reachable as ``self.owner`` in states.
            name: a label for messages and the text view.
            history_size: how many changes to keep for debugging; 0 keeps none.
            trace: at ``TraceLevel.BASIC`` or above, a line for each change, written before
                its hook runs: ``BIT_1_Hero: +Stunned (requested)``.
            trace_sink: a callable receiving each trace line (by default the
                ``"statetree"`` logger, at INFO).

        Raises:
            UsageError: ``definition`` is not a :class:`BitmaskDefinition`,
                ``history_size`` is not a whole number from 0 to ``sys.maxsize``, ``trace``
                is no trace level or ``trace_sink`` is not callable.
        """
        if not isinstance(definition, BitmaskDefinition):
            raise UsageError(
                f"a BitmaskMachine needs a BitmaskDefinition (BitmaskDefinition.from_classes "
                f"or from_data), got {reprlib.repr(definition)} ({type(definition).__name__})"
            )
        self._definition = definition
        self.owner: Owner = owner
        self.name = require_name(name) or definition.name
        self._mask = 0
        self._seq = 0
        self._busy: Callable[..., object] | None = None
        self._cause = BitCause.REQUESTED  # what a request without a cause is given
        self._history = _new_history(history_size)
        self._trace = _tracing(trace_level(trace), trace_sink)
        self._adopt(tuple(self._bind(index, rule) for index, rule in enumerate(definition.rules)))

    def _adopt(self, states: tuple[BitState[Owner], ...]) -> None:
        """Take ``states`` (one per state of the definition) and what the definition
        precomputed (what the constructor and a load do)."""
        definition = self._definition
        self._lookup = definition.lookup
        self._bits = definition.bits
        self._requires = definition.requires_all
        self._blocked = definition.blocked_by
        self._terminates = definition.terminates_all
        self._dependents = definition.dependents_all
        self._retriggerable = definition.retriggerable
        self._checked = definition.checked
        self._states = states
        # Bound once here; None where the class keeps the no-op default, so that states
        # without hooks cost no call.
        self._entry_hooks = tuple(_hook(state, "on_activated") for state in states)
        self._exit_hooks = tuple(_hook(state, "on_deactivated") for state in states)

    def _bind(self, index: int, rule: StateRule) -> BitState[Owner]:
        state: BitState[Owner] = rule.behaviour()
        state.owner = self.owner
        state.machine = self
        state.name = rule.name
        state.index = index
        return state

    @property
    def definition(self) -> BitmaskDefinition:
        """The rules this machine runs."""
        return self._definition

    @property
    def mask(self) -> int:
        """The active states as an int: bit ``i`` is state ``i``."""
        return self._mask

    @property
    def active_states(self) -> tuple[str, ...]:
        """Names of the active states, in declaration order."""
        return self._definition.names_in(self._mask)

    @property
    def states(self) -> tuple[BitState[Owner], ...]:
        """Every state instance, in declaration order."""
        return self._states

    @property
    def history(self) -> tuple[Change, ...]:
        """The most recent changes, oldest first (empty if history is disabled)."""
        return tuple(self._record(raw) for raw in self._history) if self._history else ()

    @property
    def last_change(self) -> Change | None:
        """The latest change (inside a hook: the one being notified), if history is kept."""
        return self._record(self._history[-1]) if self._history else None

    def get_state(self, state: StateRef) -> BitState[Owner]:
        """Return the instance of a state.

        Raises:
            NoSuchStateError: the state is not in the definition.
        """
        return self._states[self._definition.index_of(state)]

    def is_active(self, state: StateRef) -> bool:
        """Return whether a state is active.

        Raises:
            NoSuchStateError: the state is not in the definition.
        """
        return bool(self._mask >> self._definition.index_of(state) & 1)

    @contextlib.contextmanager
    def caused_by(self, cause: BitCause) -> Iterator[None]:
        """Within the block, a ``try_activate`` or ``deactivate`` given no cause passes
        ``cause`` to its hooks (``PREDICTED`` for a frame a client predicts, ``ROLLBACK`` for
        one it replays): what ``net.Rollback`` does around its step function.

        Raises:
            UsageError: ``cause`` is not a ``BitCause``.
        """
        before, self._cause = self._cause, _checked_cause(cause, "caused_by()")
        try:
            yield
        finally:
            self._cause = before

    def try_activate(self, state: StateRef, *, cause: BitCause | None = None) -> bool:
        """Activate a state if its rules and custom check allow it.

        It fails if the state is active (and not retriggerable), a requirement is inactive,
        a blocker is active or ``can_activate`` returns False. On success, a retriggered
        state first leaves (``RETRIGGERED``) with its dependents (``LOST_REQUIREMENT``, even
        those it also terminates), then the other states it terminates leave with their
        dependents, then it enters.

        Args:
            state: the state's name or class.
            cause: passed to ``on_activated``; ``PREDICTED`` marks a client prediction.
                Default: ``REQUESTED``, or the cause of the enclosing :meth:`caused_by`.

        Returns:
            True if the state was activated.

        Raises:
            NoSuchStateError: the state is not in the definition.
            ReentrantRequestError: called from a hook or check of this machine.
            UsageError: ``cause`` is not a ``BitCause``.
        """
        if self._busy is not None:
            raise ReentrantRequestError(f"try_activate({state!r})", _describe(self._busy))
        try:
            index = self._lookup[state]
        except (KeyError, TypeError):
            index = self._find(state)  # raises, naming the state
        cause = self._cause if cause is None else _checked_cause(cause, "try_activate(cause=...)")
        if not self._allows(index):
            return False
        mask = self._mask
        bit = self._bits[index]
        active = mask & bit
        remove = self._terminates[index] & mask
        steps: list[Step] = []
        if active:
            # Step 1: the retriggered state and everything requiring it leave first, so a
            # state it would also terminate leaves for losing its requirement.
            leaving = (bit | self._dependents[index]) & mask
            steps = removal_steps(self._definition, leaving, index, BitCause.RETRIGGERED)
            remove &= ~leaving
        if remove:
            steps += removal_steps(self._definition, remove, -1, BitCause.TERMINATED, index)
        if steps:
            self._remove(steps)
        self._mask |= bit
        self._emit(index, True, cause, -1)
        return True

    def can_activate(self, state: StateRef) -> bool:
        """Whether :meth:`try_activate` would activate a state now; nothing changes.

        The same rules in the same order: not active (or retriggerable), every requirement
        active, no blocker active, then the state's custom ``can_activate()``, called only
        if the rules pass. For the reasons it would not, see :meth:`explain`. It may be
        called from hooks and checks (a query, not a request).

        Raises:
            NoSuchStateError: the state is not in the definition.
        """
        return self._allows(self._find(state))

    def _allows(self, index: int) -> bool:
        mask = self._mask
        if mask & self._bits[index] and not self._retriggerable[index]:
            return False
        if mask & self._blocked[index] or self._requires[index] & ~mask:
            return False
        return not self._checked[index] or self._check(index)

    def deactivate(self, state: StateRef, *, cause: BitCause | None = None) -> bool:
        """Deactivate a state and, dependents first, every active state that requires it.

        Args:
            state: the state's name or class.
            cause: passed to the state's ``on_deactivated`` (default: as for
                :meth:`try_activate`); dependents get ``LOST_REQUIREMENT``.

        Returns:
            True if the state was active.

        Raises:
            NoSuchStateError: the state is not in the definition.
            ReentrantRequestError: called from a hook or check of this machine.
            UsageError: ``cause`` is not a ``BitCause``.
        """
        index = self._index(state, "deactivate")
        cause = self._cause if cause is None else _checked_cause(cause, "deactivate(cause=...)")
        mask = self._mask
        bit = self._bits[index]
        if not mask & bit:
            return False
        remove = (bit | self._dependents[index]) & mask
        if remove == bit:
            self._mask = mask & ~bit
            self._emit(index, False, cause, -1)
        else:
            self._remove(removal_steps(self._definition, remove, index, cause))
        return True

    def explain(self, state: StateRef) -> Explanation:
        """Say whether a state could activate now and, if not, why.

        Raises:
            NoSuchStateError: the state is not in the definition.
        """
        return explain(self, state)

    def describe(self) -> str:
        """Return a text view of every state with its active flag."""
        return format_states(self)

    def encode(self) -> bytes:
        """Return the mask as ``definition.byte_length`` bytes for replication."""
        return encode_mask(self._definition, self._mask)

    def apply_encoded(
        self, data: bytes | bytearray | memoryview, *, cause: BitCause = BitCause.NETWORK
    ) -> None:
        """Take the configuration in ``data`` (from :meth:`encode` on the authority).

        States leave dependents first, then states enter requirements first; every hook gets
        ``cause``. Custom checks and blockers are not consulted: the sender is the authority.

        Raises:
            DecodeError: bad length, unknown bits or a forbidden combination; the machine is
                left as it was.
            ReentrantRequestError: called from a hook or check of this machine.
            UsageError: ``cause`` is not a ``BitCause``.
        """
        self._guard("apply_encoded")
        cause = _checked_cause(cause, "apply_encoded(cause=...)")
        self._reconcile(decode_mask(self._definition, data), cause)

    def apply_mask(self, mask: int, *, cause: BitCause = BitCause.NETWORK) -> None:
        """Like :meth:`apply_encoded`, for a mask already decoded to an int.

        Raises:
            DecodeError: the mask breaks the rules; the machine is left as it was.
            ReentrantRequestError: called from a hook or check of this machine.
            UsageError: ``cause`` is not a ``BitCause``.
        """
        self._guard("apply_mask")
        cause = _checked_cause(cause, "apply_mask(cause=...)")
        self._reconcile(check_mask(self._definition, mask), cause)

    def _reconcile(self, target: int, cause: BitCause) -> None:
        for index in teardown(self._definition, self._mask & ~target):
            self._mask &= ~self._bits[index]
            self._emit(index, False, cause, -1)
        for index in setup(self._definition, target & ~self._mask):
            self._mask |= self._bits[index]
            self._emit(index, True, cause, -1)

    def _record(self, raw: _Raw) -> Change:
        seq, index, activated, cause, by, mask = raw
        names = self._definition.names
        return Change(seq, names[index], activated, cause, names[by] if by >= 0 else None, mask)

    def _index(self, state: StateRef, request: str) -> int:
        if self._busy is not None:
            raise ReentrantRequestError(f"{request}({state!r})", _describe(self._busy))
        return self._find(state)

    def _find(self, state: StateRef) -> int:
        try:
            return self._lookup[state]
        except (KeyError, TypeError):
            raise NoSuchStateError(state, self._definition.name, self._definition.names) from None

    def _guard(self, request: str) -> None:
        if self._busy is not None:
            raise ReentrantRequestError(f"{request}()", _describe(self._busy))

    def _check(self, index: int) -> bool:
        check = self._states[index].can_activate
        busy = self._busy  # a hook asking can_activate() stays busy after the check
        self._busy = check
        try:
            return check()
        finally:
            self._busy = busy

    def _remove(self, steps: list[Step]) -> None:
        for index, cause, by in steps:
            self._mask &= ~self._bits[index]
            self._emit(index, False, cause, by)

    def _emit(self, index: int, activated: bool, cause: BitCause, by: int) -> None:
        """Record the change of state ``index`` (its bit is already flipped), trace it, then
        run its hook; a trace sink that raises undoes the change (as in the core, where a
        line refused leaves the state not entered)."""
        raw = (self._seq + 1, index, activated, cause, by, self._mask)
        if self._trace is not None:
            change = self._record(raw)
            sign = "+" if activated else "-"
            line = f"BIT_{self._trace[0]}_{self.name}: {sign}{change.state} ({change.reason})"
            sink = self._trace[1]
            if sink is None:
                logger.info(line)
            else:
                self._busy = sink  # a sink may read the machine, not change it, as a hook
                try:
                    sink(line)
                except BaseException:
                    self._mask ^= self._bits[index]
                    raise
                finally:
                    self._busy = None
        self._seq += 1
        if self._history is not None:
            self._history.append(raw)
        hook = self._entry_hooks[index] if activated else self._exit_hooks[index]
        if hook is not None:
            self._busy = hook
            try:
                hook(cause)
            finally:
                self._busy = None

    def __repr__(self) -> str:
        return f"<BitmaskMachine {self.name!r} active={list(self.active_states)}>"

    # -- saving (pickle, copy.deepcopy; copy.copy is refused) ------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        """Saved as its definition, its states (with their attributes), its mask and
        history; loaded without running a hook or a state's ``__init__``.

        Raises:
            SaveError: a hook or check of this machine is running.
        """
        if self._busy is not None:
            raise SaveError(
                f"cannot save bitmask machine {self.name!r} from its hook or check "
                f"{_describe(self._busy)}: save between two requests"
            )
        history = self._history
        saved = {
            "format": _FORMAT,
            "definition": self._definition,
            "owner": self.owner,
            "name": self.name,
            "mask": self._mask,
            "seq": self._seq,
            "history": None if history is None else (history.maxlen, list(history)),
            "states": self._states,
            "trace": None if self._trace is None else _saved_trace(self._trace, self.name),
            "attributes": _own_attributes(self),
        }
        return (new_instance, (Ref(type(self)), BitmaskMachine), saved)

    def __setstate__(self, saved: dict[str, Any]) -> None:
        saved = saved_data(saved, "bitmask machine", _FORMAT)
        with reading("bitmask machine"):
            definition = saved["definition"]
            if not isinstance(definition, BitmaskDefinition):
                raise TypeError(f"its definition is not one: {definition!r}")
            states = tuple(saved["states"])
            if len(states) != definition.size or not all(
                type(state) is rule.behaviour and getattr(state, "name", None) == rule.name
                for state, rule in zip(states, definition.rules, strict=False)
            ):
                raise TypeError(f"it does not hold one state of each of {definition.size}")
            mask = check_mask(definition, saved["mask"])
            history = saved["history"]
            if history is not None and not _history_ok(history, definition.size):
                raise TypeError("its history is not the changes a machine records")
            name, seq = saved["name"], saved["seq"]
            if not isinstance(name, str):
                raise TypeError(f"its name is not a string: {name!r}")
            if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
                raise TypeError(f"its change count is not a count: {seq!r}")
            kept = saved.get("attributes", {})  # saves before subclasses' attributes: none
            if not isinstance(kept, dict) or not _OWN.isdisjoint(kept):
                raise TypeError("its attributes are not a mapping of the subclass's own")
            owner = saved["owner"]
            for index, state in enumerate(states):  # each this machine's, whatever it says
                state.owner, state.machine, state.index = owner, self, index
            self._definition = definition
            self.owner = owner
            self.name = name
            self._mask = mask
            self._seq = seq
            self._busy = None
            self._cause = BitCause.REQUESTED
            self._history = None if history is None else deque(history[1], maxlen=history[0])
            self._trace = _loaded_trace(saved.get("trace"))  # saves before tracing have none
            self._adopt(states)
            set_attributes(self, kept)

    def __copy__(self) -> BitmaskMachine[Owner]:
        raise shallow_copy_refused(f"bitmask machine {self.name!r}")


def _tracing(
    level: TraceLevel, sink: Callable[[str], None] | None
) -> tuple[int, Callable[[str], None] | None] | None:
    """What a machine traces with: ``None`` (nothing), or its level and sink (``None``: the
    logger).

    Raises:
        UsageError: ``sink`` is not callable.
    """
    if sink is not None:
        require_callable(sink, "trace_sink")
    return None if level is TraceLevel.NONE else (int(level), sink)


def _saved_trace(
    trace: tuple[int, Callable[[str], None] | None], name: str
) -> tuple[int, Ref | None]:
    """The trace as a save holds it: its level, and its sink by name (as the core saves it)."""
    level, sink = trace
    return level, None if sink is None else Ref(sink, f"the trace sink of {name!r}")


def _loaded_trace(saved: object) -> tuple[int, Callable[[str], None] | None] | None:
    if saved is None:
        return None
    if not (isinstance(saved, tuple) and len(saved) == 2):
        raise TypeError(f"its trace is not a level and a sink: {saved!r}")
    level, sink = saved[0], target_of(saved[1])
    if sink is not None and not callable(sink):
        raise TypeError(f"its trace sink is not callable: {sink!r}")
    return _tracing(trace_level(level), sink)


def _history_ok(history: object, states: int) -> bool:
    """Whether saved ``history`` is ``(maxlen, changes)`` as a machine of ``states`` states
    saves it."""
    if not (isinstance(history, tuple) and len(history) == 2):
        return False
    size, changes = history
    return (
        _count(size)
        and 0 < size <= sys.maxsize
        and isinstance(changes, list)
        and len(changes) <= size
        and all(_change_ok(raw, states) for raw in changes)
    )


def _change_ok(raw: object, states: int) -> bool:
    """Whether ``raw`` is a change (see ``_Raw``) of a machine of ``states`` states."""
    if not (isinstance(raw, tuple) and len(raw) == 6):
        return False
    seq, index, activated, cause, culprit, mask = raw
    return (
        all(_count(n) for n in (seq, index, mask))
        and index < states
        and isinstance(activated, bool)
        and isinstance(cause, BitCause)
        and _count(culprit + 1 if isinstance(culprit, int) else culprit)
        and culprit < states
        and mask < 1 << states
    )


def _count(value: object) -> bool:
    """Whether ``value`` is an integer of at least 0 (a boolean is not)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


_OWN = frozenset(BitmaskMachine.__slots__)
"""A machine's own fields, saved as the data above (a subclass's are saved as they are)."""


def _own_attributes(machine: BitmaskMachine[Any]) -> dict[str, Any]:
    """The attributes a subclass of ``BitmaskMachine`` adds, by name."""
    return {name: value for name, value in attributes(machine).items() if name not in _OWN}


def _new_history(size: int) -> deque[_Raw] | None:
    """An empty history keeping ``size`` changes; None for 0.

    Raw tuples keep recording cheap; Change records are built when the history is read.
    """
    if (
        isinstance(size, bool)
        or not isinstance(size, numbers.Integral)
        or not 0 <= size <= sys.maxsize
    ):
        raise UsageError(
            f"history_size is a whole number of changes from 0 (keeps none) to sys.maxsize, "
            f"got {size!r}"
        )
    return deque(maxlen=int(size)) if size else None


def _checked_cause(cause: object, call: str) -> BitCause:
    """``cause`` if it is a ``BitCause``: what every request and ``caused_by`` take."""
    if not isinstance(cause, BitCause):
        raise UsageError(f"{call} takes a BitCause, got {cause!r}")
    return cause


def _describe(hook: Callable[..., object]) -> str:
    state = getattr(hook, "__self__", None)
    if not isinstance(state, BitState):  # the trace sink, or a check given as a function
        return f"the trace sink {getattr(hook, '__qualname__', hook)!r}"
    return f"{state.name}.{getattr(hook, '__name__', 'hook')}"


def _hook(state: BitState[Any], name: str) -> Callable[[BitCause], None] | None:
    if getattr(type(state), name) is getattr(BitState, name):
        return None
    hook: Callable[[BitCause], None] = getattr(state, name)
    return hook
