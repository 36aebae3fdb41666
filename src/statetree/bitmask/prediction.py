"""Client-side prediction: activate at once, let the server confirm or reject, roll back.

The naive scheme (activate locally, then apply every server mask) flickers: a server mask
sent before the server saw the request turns the predicted state off, and the next one turns
it on again. Here the client replays its unconfirmed predictions on top of every server mask
it applies, and drops a prediction only when the server's verdict says so: a rejection rolls
back to the server's configuration, a confirmation lasts until a server mask at least as new
as the confirmation arrives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic

from statetree.bitmask.codec import decode_mask
from statetree.bitmask.definition import BitmaskDefinition
from statetree.bitmask.errors import NotPredictableError
from statetree.bitmask.machine import BitmaskMachine
from statetree.bitmask.records import BitCause
from statetree.bitmask.state import Owner, StateRef


@dataclass(frozen=True, slots=True)
class PredictionRequest:
    """What a client sends the server after predicting an activation.

    Attributes:
        request_id: unique per client, increasing.
        state: the name of the predicted state.
    """

    request_id: int
    state: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """The server's answer to a :class:`PredictionRequest`.

    Attributes:
        request_id: the request answered.
        accepted: whether the server activated the state.
        tick: the server tick of the decision; server masks with this tick or later include
            its effect.
    """

    request_id: int
    accepted: bool
    tick: int


def serve_prediction(
    machine: BitmaskMachine[Any], request: PredictionRequest, tick: int
) -> Verdict:
    """Decide a client's prediction on the server by trying the activation there.

    Unknown or unpredictable states are rejected rather than raising, since the request
    comes from the network.

    Args:
        machine: the server's (authoritative) machine for the entity.
        request: the client's request.
        tick: the server's current tick, echoed in the verdict.

    Returns:
        The verdict to send back to the client.
    """
    definition = machine.definition
    try:
        index = definition.lookup.get(request.state)
    except TypeError:  # decoded from a packet: a list or a dict names no state
        index = None
    allowed = index is not None and definition.predictable[index]
    accepted = allowed and machine.try_activate(request.state)
    return Verdict(request.request_id, accepted, tick)


@dataclass(slots=True)
class _Pending:
    request_id: int
    index: int
    confirmed_at: int | None = None


class PredictingClient(Generic[Owner]):
    """Drives a client's machine from predictions, server masks and verdicts.

    The client's machine should change only through this object.
    """

    __slots__ = ("_machine", "_next_id", "_pending", "_server_mask", "_server_tick")

    def __init__(self, machine: BitmaskMachine[Owner]) -> None:
        """Wrap ``machine``, taking its current mask as the last known server mask."""
        self._machine = machine
        self._next_id = 0
        self._pending: list[_Pending] = []
        self._server_mask = machine.mask
        self._server_tick = -1

    @property
    def machine(self) -> BitmaskMachine[Owner]:
        """The client's machine."""
        return self._machine

    @property
    def pending(self) -> tuple[PredictionRequest, ...]:
        """Predictions the client still keeps on top of the server's mask."""
        names = self._machine.definition.names
        return tuple(PredictionRequest(p.request_id, names[p.index]) for p in self._pending)

    @property
    def server_mask(self) -> int:
        """The last mask received from the server."""
        return self._server_mask

    def predict(self, state: StateRef) -> PredictionRequest | None:
        """Activate a predictable state now, with cause ``PREDICTED``.

        Returns:
            The request to send to the server, or None if the activation failed locally.

        Raises:
            NoSuchStateError: the state is not in the definition.
            NotPredictableError: the state is not declared ``predictable``.
        """
        definition = self._machine.definition
        index = definition.index_of(state)
        if not definition.predictable[index]:
            raise NotPredictableError(definition.names[index])
        if not self._machine.try_activate(state, cause=BitCause.PREDICTED):
            return None
        self._next_id += 1
        self._pending.append(_Pending(self._next_id, index))
        return PredictionRequest(self._next_id, definition.names[index])

    def receive_state(self, data: bytes | bytearray | memoryview, tick: int) -> bool:
        """Apply a server mask, keeping unconfirmed predictions on top of it.

        Args:
            data: the server's encoded mask.
            tick: the server tick it was taken at.

        Returns:
            False if the mask is older than one already applied (it is then ignored).

        Raises:
            DecodeError: the bytes are invalid; nothing changed.
            ReentrantRequestError: called from a hook or check of the machine; nothing
                changed, the mask is not taken as received.
        """
        mask = decode_mask(self._machine.definition, data)
        if tick < self._server_tick:
            return False
        pending = [p for p in self._pending if p.confirmed_at is None or p.confirmed_at > tick]
        # The machine first: the packet counts as received only once it has been applied.
        self._machine.apply_mask(
            _predicted(self._machine.definition, mask, pending), cause=BitCause.NETWORK
        )
        self._server_mask, self._server_tick, self._pending = mask, tick, pending
        return True

    def receive_verdict(self, verdict: Verdict) -> bool:
        """Apply the server's verdict on a prediction.

        A rejection drops the prediction and rolls the machine back to the server's mask
        (plus the other pending predictions), with cause ``ROLLBACK``.

        Returns:
            False if no pending prediction has this id (a duplicate or late verdict).

        Raises:
            ReentrantRequestError: called from a hook or check of the machine; nothing
                changed, the prediction is still pending.
        """
        pending = next((p for p in self._pending if p.request_id == verdict.request_id), None)
        if pending is None:
            return False
        if verdict.accepted and verdict.tick > self._server_tick:
            pending.confirmed_at = verdict.tick
            return True
        rest = [p for p in self._pending if p is not pending]
        cause = BitCause.NETWORK if verdict.accepted else BitCause.ROLLBACK
        self._machine.apply_mask(
            _predicted(self._machine.definition, self._server_mask, rest), cause=cause
        )
        self._pending = rest
        return True


def _predicted(definition: BitmaskDefinition, server_mask: int, pending: list[_Pending]) -> int:
    """``server_mask`` with the ``pending`` predictions that the rules still allow."""
    mask = server_mask
    for prediction in pending:
        result = definition.activation_result(mask, prediction.index)
        if result is not None:
            mask = result
    return mask
