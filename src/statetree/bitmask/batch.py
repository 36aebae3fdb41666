"""Many entities at once: masks in a NumPy array, requests applied as array operations.

NumPy is an optional dependency (``pip install 'statetree[batch]'``); nothing else in
:mod:`statetree` imports this module eagerly.

Each entity's mask is ``definition.word_count`` uint64 words (state ``i`` is bit ``i % 64``
of word ``i // 64``), so any number of states works. Words are stored word-major, shape
``(words, entities)``, so that gathers and "any bit set" tests run along contiguous rows.
The rules are the same as :class:`~statetree.bitmask.BitmaskMachine`'s, but hooks do not
run and histories are not kept. Custom ``can_activate`` checks are Python code and are not
called: the caller passes their outcome as the ``allowed`` array (computed with array
operations of its own), and a request for a checked state without ``allowed`` is an error
rather than a silent pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "statetree.bitmask.batch needs NumPy: install it with pip install 'statetree[batch]'"
    ) from exc

from statetree.bitmask.bits import join_names
from statetree.bitmask.codec import check_mask
from statetree.bitmask.definition import BitmaskDefinition
from statetree.bitmask.state import StateRef
from statetree.errors import UsageError

Words = NDArray[np.uint64]
Flags = NDArray[np.bool_]

_WORD = 0xFFFF_FFFF_FFFF_FFFF
_ONES = np.uint64(_WORD)
_ZERO = np.uint64(0)
_BLOCK = 2048

MAX_ENTITIES = (1 << 31) - 1
"""The most entities a batch holds."""


def int_to_words(value: int, words: int) -> Words:
    """Split a non-negative int into ``words`` little-endian uint64 words."""
    return np.array([(value >> (64 * w)) & _WORD for w in range(words)], dtype=np.uint64)


def words_to_int(row: Words) -> int:
    """Join little-endian uint64 words back into an int."""
    return sum(int(word) << (64 * w) for w, word in enumerate(row.tolist()))


def _table(masks: Sequence[int], words: int) -> Words:
    # Word-major: row w holds word w of every state's mask.
    return np.ascontiguousarray(np.stack([int_to_words(mask, words) for mask in masks]).T)


def _any(words: NDArray[Any]) -> Flags:
    result: Flags = np.any(words, axis=0)
    return result


def _fill(flags: Flags) -> Words:
    result: Words = np.where(flags, _ONES, _ZERO)
    return result


class BitmaskBatch:
    """The masks of ``count`` entities sharing one definition, updated in bulk."""

    __slots__ = (
        "_bit",
        "_blocked",
        "_checked",
        "_definition",
        "_dependents",
        "_masks",
        "_own",
        "_requires",
        "_retriggerable",
        "_terminates",
    )

    def __init__(self, definition: BitmaskDefinition, count: int) -> None:
        """Create ``count`` entities with no active state.

        Raises:
            UsageError: ``definition`` is not a ``BitmaskDefinition``, or ``count`` is not a
                whole number from 0 to :data:`MAX_ENTITIES`.
        """
        if not isinstance(definition, BitmaskDefinition):
            raise UsageError(
                f"a BitmaskBatch is built from a BitmaskDefinition (machine.definition), got "
                f"{definition!r}"
            )
        if not _is_index(count) or not 0 <= count <= MAX_ENTITIES:
            raise UsageError(
                f"a batch holds a whole number of entities from 0 to {MAX_ENTITIES:,}, "
                f"got {count!r}"
            )
        count = int(count)
        words = definition.word_count
        self._definition = definition
        self._masks: Words = np.zeros((words, count), dtype=np.uint64)
        self._bit = _table(definition.bits, words)
        own = [bit | definition.dependents_all[i] for i, bit in enumerate(definition.bits)]
        self._own = _table(own, words)
        self._requires = _table(definition.requires_all, words)
        self._blocked = _table(definition.blocked_by, words)
        self._terminates = _table(definition.terminates_all, words)
        self._dependents = _table(definition.dependents_all, words)
        self._retriggerable: Flags = np.array(definition.retriggerable, dtype=np.bool_)
        self._checked: Flags = np.array(definition.checked, dtype=np.bool_)

    @property
    def definition(self) -> BitmaskDefinition:
        """The rules every entity follows."""
        return self._definition

    @property
    def count(self) -> int:
        """The number of entities."""
        return int(self._masks.shape[1])

    @property
    def masks(self) -> Words:
        """A read-only view of the masks, shape ``(count, definition.word_count)``."""
        view: Words = self._masks.T.view()
        view.flags.writeable = False
        return view

    def mask_of(self, entity: int) -> int:
        """Return one entity's mask as an int (comparable with ``BitmaskMachine.mask``)."""
        return words_to_int(self._masks[:, self._entity(entity)])

    def set_mask(self, entity: int, mask: int) -> None:
        """Set one entity's mask, e.g. from a received packet.

        Raises:
            DecodeError: the mask breaks the rules; nothing changed.
            UsageError: no such entity.
        """
        row = self._entity(entity)
        words = int_to_words(check_mask(self._definition, mask), self._definition.word_count)
        self._masks[:, row] = words

    def is_active(self, state: StateRef) -> Flags:
        """Return, per entity, whether ``state`` is active."""
        index = self._definition.index_of(state)
        word = self._masks[index // 64]
        result: Flags = (word >> np.uint64(index % 64)) & np.uint64(1) != 0
        return result

    def try_activate(
        self,
        state: StateRef,
        entities: ArrayLike | None = None,
        *,
        allowed: ArrayLike | None = None,
    ) -> Flags:
        """Request ``state`` for the given entities (all if None), in order.

        Returns:
            Per request, whether it activated the state.

        Raises:
            UsageError: see :meth:`apply`.
        """
        index = self._definition.index_of(state)
        return self.apply(self._all(entities), index, True, allowed=allowed)

    def deactivate(self, state: StateRef, entities: ArrayLike | None = None) -> Flags:
        """Deactivate ``state`` (and its dependents) for the given entities (all if None).

        Returns:
            Per request, whether the state was active.
        """
        index = self._definition.index_of(state)
        return self.apply(self._all(entities), index, False)

    def apply(
        self,
        entities: ArrayLike,
        states: ArrayLike,
        activate: ArrayLike,
        *,
        allowed: ArrayLike | None = None,
    ) -> Flags:
        """Apply a stream of requests; requests for one entity apply in stream order.

        Args:
            entities: entity index per request (1-D).
            states: state index per request (``definition.index_of``), or one for all.
            activate: True for an activation request, False for a deactivation; or one bool.
            allowed: per request, the outcome of the state's custom check (ignored for
                deactivations and states without a check), or one bool.

        Returns:
            Per request, whether it changed the entity (same as the single machine's return).

        Raises:
            UsageError: an index is out of range or not an integer, ``activate`` or
                ``allowed`` are not booleans, one of them has neither one value per request
                nor one for all, or an activation targets a state with a custom check while
                ``allowed`` is None; nothing changed.
        """
        rows = _indexes(entities)
        index = _per_request(states, rows.shape, "iu", "states", "state indexes (integers)")
        on = _per_request(activate, rows.shape, "b", "activate", "booleans")
        self._check_ranges(rows, index)
        permitted = self._permitted(index, on, allowed, rows.shape)
        done: Flags = np.zeros(rows.shape, dtype=np.bool_)
        for pick in _rounds(rows):
            # Blocks of a few thousand keep temporaries small: cache-resident, and below the
            # size at which the allocator maps fresh pages for every array.
            for block in np.array_split(pick, -(-pick.size // _BLOCK)):
                done[block] = self._round(rows[block], index[block], on[block], permitted[block])
        return done

    def _round(self, rows: NDArray[Any], index: NDArray[Any], on: Flags, permitted: Flags) -> Flags:
        # Within a round every entity appears once, so all requests can apply together.
        current = np.take(self._masks, rows, axis=1)
        bit = np.take(self._bit, index, axis=1)
        own = np.take(self._own, index, axis=1)
        active = _any(current & bit)
        blocked = _any(current & np.take(self._blocked, index, axis=1))
        missing = _any(np.take(self._requires, index, axis=1) & ~current)
        retrigger = active & self._retriggerable[index]
        turn_on = on & permitted & ~blocked & ~missing & (~active | retrigger)
        terminated = np.take(self._terminates, index, axis=1) | (own & _fill(retrigger))
        removed = np.where(on, terminated, own)
        updated = (current & ~removed) | (bit & _fill(on))
        done: Flags = turn_on | (~on & active)
        self._masks[:, rows[done]] = updated[:, done]
        return done

    def _all(self, entities: ArrayLike | None) -> ArrayLike:
        """Every entity (``None``), the entities of a boolean mask, or indexes as given."""
        if entities is None:
            return np.arange(self.count)
        array = np.asarray(entities)
        if array.dtype.kind != "b":
            return array
        if array.shape != (self.count,):
            raise UsageError(
                f"a mask of entities needs one entry per entity ({self.count}), got shape "
                f"{array.shape}"
            )
        return array.nonzero()[0]

    def _entity(self, entity: int) -> int:
        if not _is_index(entity):
            raise UsageError(f"an entity index is a whole number, got {entity!r}")
        if not 0 <= entity < self.count:
            raise UsageError(f"entity {entity} is out of range (the batch has {self.count})")
        return int(entity)

    def _check_ranges(self, rows: NDArray[Any], index: NDArray[Any]) -> None:
        bad_rows = rows[(rows < 0) | (rows >= self.count)]
        if bad_rows.size:
            raise UsageError(f"entity {bad_rows[0]} is out of range (the batch has {self.count})")
        bad_states = index[(index < 0) | (index >= self._definition.size)]
        if bad_states.size:
            raise UsageError(
                f"state index {bad_states[0]} is out of range "
                f"({self._definition.size} states are defined)"
            )

    def _permitted(
        self, index: NDArray[Any], on: Flags, allowed: ArrayLike | None, shape: tuple[int, ...]
    ) -> Flags:
        if allowed is not None:  # read for the states that have a check only
            given = _per_request(allowed, shape, "b", "allowed", "booleans")
            permitted: Flags = given | ~self._checked[index]
            return permitted
        unchecked = on & self._checked[index]
        if unchecked.any():
            names = [self._definition.names[i] for i in np.unique(index[unchecked]).tolist()]
            raise UsageError(
                f"{join_names(names)} has a custom can_activate() check that the batch cannot "
                "run; pass its outcome per request as allowed="
            )
        return np.ones(shape, dtype=np.bool_)

    def __repr__(self) -> str:
        return f"<BitmaskBatch {self._definition.name!r} entities={self.count}>"


def _rounds(rows: NDArray[Any]) -> list[NDArray[Any]]:
    # Split the stream into rounds holding each entity at most once, keeping the order of
    # each entity's requests: round k holds every entity's k-th request.
    if rows.size == 0:
        return []
    if np.bincount(rows).max() == 1:
        return [np.arange(rows.size)]
    order = np.argsort(rows, kind="stable")
    ordered = rows[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    lengths = np.diff(np.r_[starts, rows.size])
    rank = np.empty(rows.size, dtype=np.int64)
    rank[order] = np.arange(rows.size) - np.repeat(starts, lengths)
    by_rank = np.argsort(rank, kind="stable")
    return np.split(by_rank, np.cumsum(np.bincount(rank))[:-1])


def _indexes(entities: ArrayLike) -> NDArray[np.int64]:
    """``entities`` as entity indexes, one per request.

    Raises:
        UsageError: they are not integers (a float or a boolean is no entity).
    """
    array = np.asarray(entities)
    if array.size == 0:
        return np.zeros(0, np.int64)
    if array.dtype.kind not in "iu":
        raise UsageError(
            f"entities must be entity indexes (integers) or, for one state, a boolean mask; "
            f"got {array.dtype} values"
        )
    rows: NDArray[np.int64] = array.astype(np.int64).reshape(-1)
    return rows


def _is_index(value: object) -> bool:
    """Whether ``value`` is one whole number (a bool or a float is none)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _per_request(
    values: ArrayLike, shape: tuple[int, ...], kinds: str, name: str, what: str
) -> NDArray[Any]:
    """``values`` (of a dtype kind in ``kinds``) as one per request, ``shape`` of them.

    Raises:
        UsageError: they are not ``what``, or neither one per request nor one for all.
    """
    array = np.asarray(values)
    if array.size == 0:  # an empty list reads as floats
        array = array.astype(np.bool_ if kinds == "b" else np.int64)
    if array.dtype.kind not in kinds:
        raise UsageError(f"{name} must be {what}, got {array.dtype} values")
    if array.dtype.kind == "u" and array.size and int(array.max()) > np.iinfo(np.int64).max:
        raise UsageError(f"{name} has a value past the largest index: {int(array.max())}")
    if array.ndim > 1 or array.size not in (1, shape[0]):
        raise UsageError(
            f"{name} needs one value per request ({shape[0]}) or one for all, got shape "
            f"{array.shape}"
        )
    return np.broadcast_to(array.reshape(-1) if array.size != 1 else array.reshape(()), shape)
